// The table screen of one game: a snapshot, then the game's event stream; every screen is drawn
// from the game's JSON view, and only legal choices are offered to the device that may act.
(function () {
  "use strict";
  const root = document.getElementById("game");
  const gameId = root.dataset.gameId;
  const seated = root.dataset.seated === "yes";
  const palette = {};
  window.PALETTE.forEach(function (c) { palette[c.name] = c; });
  const PHASES = {select: "Select keshis", toss: "Toss the tower", claim: "Claims", exchange: "Exchange",
    assistants: "Assistants", round_end: "End of round", season_end: "Season scoring", final: "Final scoring",
    finished: "Final scoring"};
  const roleKey = "keshi.role." + gameId;
  const LOW_CONFIDENCE = 0.6;
  let view = null;
  let busy = false;
  let correcting = null;
  const seenLog = new Set();

  const esc = Keshi.esc;
  const chip = Keshi.chip;
  function countsChips(counts) {
    const parts = Object.keys(counts).filter(function (c) { return counts[c] > 0; })
      .map(function (c) { return chip(c, counts[c]); });
    return parts.length ? parts.join(" ") : '<span class="muted">none</span>';
  }
  function nameOf(seat) { return view.names[seat] || "The table"; }
  function seatChip(seat) {
    const s = view.seating[seat] || {};
    return '<span class="seat seat-' + esc(s.colour || "none") + '">' + esc(nameOf(seat)) + "</span>";
  }
  function role() { return localStorage.getItem(roleKey) || "all"; }
  function mayAct(seat) {
    if (!seated) { return false; }
    if (seat === null || seat === undefined || seat === "table") { return true; }
    return role() === "all" || role() === String(seat);
  }
  function notice(text) {
    const box = document.getElementById("notice");
    box.textContent = text;
    box.hidden = !text;
  }

  // -- talking to the server ------------------------------------------------------------------
  function send(path, body) {
    if (busy) { return; }
    busy = true;
    document.querySelectorAll("#screen button").forEach(function (b) { b.disabled = true; });
    body.version = view.version;
    body.idempotency_key = Keshi.newKey();
    Keshi.api("POST", "/api/games/" + gameId + path, body).then(function (result) {
      busy = false;
      if (result.ok) {
        notice("");
        if (result.data.view) { apply(result.data.view); } else { render(); }
        return;
      }
      if (result.status === 409 && result.data.view) {
        notice("The game moved on before your tap arrived: here is the current state. Please choose again.");
        apply(result.data.view, true);
        return;
      }
      notice(result.data.error || ("The server said " + result.status));
      render();
    }).catch(function () {
      busy = false;
      notice("No connection to the companion; try again.");
      render();
    });
  }
  function act(action) { send("/actions", {action: action}); }

  // -- screens ---------------------------------------------------------------------------------
  function actionButtons(entries) {
    const short = entries.length > 3 && entries.every(function (e) { return e.label.length <= 18 && !e.action.colours; });
    return '<div class="options' + (short ? " grid" : "") + '">' + entries.map(function (entry, i) {
      const a = entry.action;
      const colours = a.colours ? '<span class="opt-chips">' + a.colours.map(function (c) { return chip(c); }).join(" ") + "</span>" : "";
      return '<button type="button" class="option" data-legal="' + i + '">' + esc(entry.label) + colours + "</button>";
    }).join("") + "</div>";
  }
  function bindLegal(box, entries) {
    box.querySelectorAll("button[data-legal]").forEach(function (button) {
      button.addEventListener("click", function () { act(entries[Number(button.dataset.legal)].action); });
    });
  }
  function waiting(seat, what) {
    return '<p class="waiting">Waiting for ' + seatChip(seat) + " " + esc(what) + ".</p>";
  }

  function screenFinished(box) {
    const players = view.state.players;
    const winners = view.winners.join(" and ");
    const cats = [];
    players.forEach(function (p) { Object.keys(p.breakdown).forEach(function (k) { if (cats.indexOf(k) < 0) { cats.push(k); } }); });
    let html = '<h2 id="screen-title">Final scoring</h2><p class="winner">★ ' + esc(winners) +
      (view.winners.length > 1 ? " share the win" : " wins") + "</p>";
    html += '<table class="breakdown"><thead><tr><th>Category</th>' +
      players.map(function (p) { return "<th>" + esc(p.name) + "</th>"; }).join("") + "</tr></thead><tbody>";
    cats.forEach(function (k) {
      html += "<tr><td>" + esc(k.replace(/_/g, " ")) + "</td>" + players.map(function (p) {
        return '<td class="n">' + (p.breakdown[k] || 0) + "</td>"; }).join("") + "</tr>";
    });
    html += '<tr class="total"><td>Total</td>' + players.map(function (p) { return '<td class="n">' + p.score + "</td>"; }).join("") +
      "</tr></tbody></table><p class=\"muted small\">Ties go to the palace, then the mosque.</p>";
    box.innerHTML = html;
  }

  function screenPending(box) {
    const pending = view.pending;
    const question = pending.kind === "question";
    const seat = question ? null : pending.player;
    let html = '<h2 id="screen-title">' + (question ? "Question for the table" : esc(nameOf(seat)) + " decides") + "</h2>";
    html += '<p class="prompt">' + esc(pending.prompt) + "</p>";
    if (question) { html += '<p class="muted small">Printed on your board; the answer is remembered for next time.</p>'; }
    if (mayAct(seat)) {
      html += actionButtons(view.legal);
      box.innerHTML = html;
      bindLegal(box, view.legal);
    } else {
      box.innerHTML = html + waiting(seat, "to decide");
    }
  }

  function screenSelect(box) {
    let html = '<h2 id="screen-title">Select 3 keshis</h2><p class="muted">Behind your screen, pick 3 keshis; each red one sends its assistant to a sector you choose.</p>';
    const seats = Object.keys(view.selections);
    const done = view.state.players.map(function (p, i) { return p.has_selected ? i : null; }).filter(function (i) { return i !== null; });
    if (done.length) { html += '<p class="muted">Chosen, hidden until everyone has: ' + done.map(seatChip).join(", ") + "</p>"; }
    const mine = seats.filter(function (s) { return mayAct(Number(s)); });
    seats.filter(function (s) { return !mayAct(Number(s)); }).forEach(function (s) { html += waiting(Number(s), "to select"); });
    mine.forEach(function (s) { html += '<div class="picker" data-seat="' + s + '"></div>'; });
    box.innerHTML = html;
    mine.forEach(function (s) { picker(box.querySelector('.picker[data-seat="' + s + '"]'), Number(s), view.selections[s]); });
  }

  function picker(el, seat, options) {
    const chosen = [];
    function matches() {
      return options.filter(function (o) {
        const rest = o.colours.slice();
        return chosen.every(function (c) { const i = rest.indexOf(c); if (i < 0) { return false; } rest.splice(i, 1); return true; });
      });
    }
    function draw() {
      const fits = matches();
      const size = options.length ? options[0].colours.length : 0;
      const screen = view.state.players[seat].screen;
      let html = "<h3>" + seatChip(seat) + "</h3><p>Chosen: " + (chosen.length ? chosen.map(function (c) { return chip(c); }).join(" ") : '<span class="muted">nothing yet</span>') + "</p>";
      if (chosen.length < size) {
        html += '<div class="options colours">' + Object.keys(screen).filter(function (c) { return screen[c] > 0; }).map(function (c) {
          const ok = fits.some(function (o) { const rest = o.colours.slice(); chosen.forEach(function (x) { rest.splice(rest.indexOf(x), 1); }); return rest.indexOf(c) >= 0; });
          return '<button type="button" class="colour-pick" data-colour="' + c + '"' + (ok ? "" : " disabled") + ">" + chip(c, screen[c]) + "</button>";
        }).join("") + "</div>";
      } else {
        const exact = fits.filter(function (o) { return o.colours.length === chosen.length; })[0];
        if (exact && exact.wild.length) {
          html += '<p>Where do the red keshis send their assistants?</p><div class="options">' + exact.wild.map(function (w, i) {
            return '<button type="button" class="option reveal" data-wild="' + i + '">Reveal · red to ' + esc(w.join(" + ").replace(/_/g, " ")) + "</button>";
          }).join("") + "</div>";
        } else {
          html += '<button type="button" class="big reveal" data-wild="-1">Reveal ' + esc(nameOf(seat)) + "'s keshis</button>";
        }
      }
      if (chosen.length) { html += '<button type="button" class="secondary start-over">Start over</button>'; }
      el.innerHTML = html;
      el.querySelectorAll(".colour-pick").forEach(function (b) {
        b.addEventListener("click", function () { chosen.push(b.dataset.colour); draw(); });
      });
      el.querySelectorAll(".reveal").forEach(function (b) {
        b.addEventListener("click", function () {
          const exact = matches().filter(function (o) { return o.colours.length === chosen.length; })[0];
          const i = Number(b.dataset.wild);
          act({type: "select", player: seat, colours: chosen.slice(), wild_sectors: i >= 0 ? exact.wild[i] : []});
        });
      });
      const again = el.querySelector(".start-over");
      if (again) { again.addEventListener("click", function () { chosen.length = 0; draw(); }); }
    }
    draw();
  }

  function screenToss(box) {
    const result = view.tower_result;
    const total = Object.values(view.pieces_in).reduce(function (a, b) { return a + b; }, 0);
    if (!result) {
      let html = '<h2 id="screen-title">Toss the tower</h2><p>Into the tower: ' + countsChips(view.pieces_in) + " (" + total + " keshis)</p>";
      if (seated) {
        html += '<button type="button" class="big" id="toss">Toss ' + total + " keshis</button>" +
          '<button type="button" class="secondary" id="by-hand">Enter what fell out by hand</button>';
      } else {
        html += '<p class="waiting">Waiting for the table to toss.</p>';
      }
      box.innerHTML = html;
      if (correcting) { counter(box, correcting); return; }
      const toss = document.getElementById("toss");
      if (toss) {
        toss.addEventListener("click", function () { send("/toss", {}); });
        document.getElementById("by-hand").addEventListener("click", function () { correcting = {}; render(); });
      }
      return;
    }
    let html = '<h2 id="screen-title">Tower result</h2><p class="result-counts">' + countsChips(result.counts) + "</p>";
    if (result.snapshot_url) {
      html += '<figure class="snapshot"><img id="snapshot" src="' + esc(result.snapshot_url) +
        '" alt="The tray as the camera saw it after this toss"><figcaption class="muted small">What the camera saw in the tray</figcaption></figure>';
    }
    if (result.colour_confidence) { html += confidenceTable(result.colour_confidence); }
    html += '<p class="muted small">' + (result.source === "simulator-truth" ? "Counted by the simulator" : "Counted by the camera") +
      " · beam " + result.beam_count + " drop(s)" + (result.camera_count !== null && result.camera_count !== undefined ? " · camera " + result.camera_count : "") +
      (result.confidence !== null && result.confidence !== undefined ? " · confidence " + Math.round(result.confidence * 100) + "%" : "") +
      (result.unknown ? " · " + result.unknown + " unknown" : "") + "</p>";
    if (result.flagged) { html += '<p class="warn">The beam and the camera disagree: check the tray before you confirm.</p>'; }
    if (!seated) { box.innerHTML = html + '<p class="waiting">Waiting for the table to confirm.</p>'; return; }
    if (correcting) { box.innerHTML = html; counter(box, correcting); return; }
    html += '<button type="button" class="big" id="accept">Confirm: that is what fell out</button>' +
      '<button type="button" class="secondary" id="correct">Correct the counts</button>';
    box.innerHTML = html;
    document.getElementById("accept").addEventListener("click", function () { act({type: "release", counts: result.counts}); });
    document.getElementById("correct").addEventListener("click", function () { correcting = Object.assign({}, result.counts); render(); });
  }

  // Per detected colour: how many pieces and how sure the camera was (mean, and its least sure piece).
  function confidenceTable(byColour) {
    const rows = Object.keys(byColour).map(function (c) {
      const r = byColour[c];
      const unsure = r.lowest < LOW_CONFIDENCE;
      return '<tr' + (unsure ? ' class="unsure"' : "") + "><td>" + (palette[c] ? chip(c) : esc(c)) + '</td><td class="n">' + r.count +
        '</td><td class="n">' + Math.round(r.mean * 100) + '%</td><td class="n">' + Math.round(r.lowest * 100) + "%" +
        (unsure ? ' <span aria-label="check this colour">⚠</span>' : "") + "</td></tr>";
    }).join("");
    return '<table class="breakdown confidence" id="confidence"><thead><tr><th>Detected</th><th>n</th><th>sure</th><th>least</th></tr></thead><tbody>' +
      rows + "</tbody></table>";
  }

  function counter(box, counts) {
    const inside = view.state.tower.inside;
    const rows = Object.keys(inside).filter(function (c) { return inside[c] > 0; });
    let html = '<div class="counter"><h3>What fell out?</h3><p class="muted small">The change is logged with the tower\'s own count.</p>';
    rows.forEach(function (c) {
      html += '<div class="count-row">' + chip(c) + '<button type="button" class="step" data-colour="' + c + '" data-d="-1" aria-label="one fewer ' + c + '">−</button>' +
        '<output class="n">' + (counts[c] || 0) + '</output><button type="button" class="step" data-colour="' + c + '" data-d="1" aria-label="one more ' + c + '">+</button></div>';
    });
    html += '<button type="button" class="big" id="apply-counts">Apply these counts</button><button type="button" class="secondary" id="cancel-counts">Cancel</button></div>';
    box.insertAdjacentHTML("beforeend", html);
    box.querySelectorAll("button.step").forEach(function (b) {
      b.addEventListener("click", function () {
        const c = b.dataset.colour;
        counts[c] = Math.max(0, Math.min(inside[c], (counts[c] || 0) + Number(b.dataset.d)));
        render();
      });
    });
    document.getElementById("apply-counts").addEventListener("click", function () {
      const clean = {};
      Object.keys(counts).forEach(function (c) { if (counts[c] > 0) { clean[c] = counts[c]; } });
      correcting = null;
      act({type: "release", counts: clean});
    });
    document.getElementById("cancel-counts").addEventListener("click", function () { correcting = null; render(); });
  }

  function screenTurn(box, title, what) {
    const seat = view.to_move;
    let html = '<h2 id="screen-title">' + title + "</h2>";
    if (mayAct(seat) && view.legal.length) {
      html += "<p>" + seatChip(seat) + ", choose:</p>" + actionButtons(view.legal);
      box.innerHTML = html;
      bindLegal(box, view.legal);
    } else {
      box.innerHTML = html + waiting(seat, what);
    }
  }

  // -- the whole page ---------------------------------------------------------------------------
  function renderTurn() {
    const phase = PHASES[view.phase] || view.phase;
    document.getElementById("turn-when").textContent = view.finished ? "Game over" :
      "Season " + view.season + " · Round " + view.round + " · " + phase;
    let who;
    if (view.finished) { who = "★ Winner: " + esc(view.winners.join(" & ")); }
    else if (view.pending && view.pending.kind === "question") { who = "The table: answer a question"; }
    else if (view.phase === "select") {
      who = "Everyone selects · waiting for " + Object.keys(view.selections).map(function (s) { return esc(nameOf(Number(s))); }).join(", ");
    } else if (view.to_move === "table") { who = view.tower_result ? "The table: confirm the tower result" : "The table: toss the tower"; }
    else { who = seatChip(view.to_move) + "'s turn"; }
    document.getElementById("turn-who").innerHTML = who;
  }

  function renderScores() {
    document.getElementById("scores").innerHTML = view.state.players.map(function (p, i) {
      const rows = Object.keys(p.breakdown).map(function (k) {
        return "<tr><td>" + esc(k.replace(/_/g, " ")) + '</td><td class="n">' + p.breakdown[k] + "</td></tr>";
      }).join("");
      const res = p.resources;
      return '<details class="score"><summary>' + seatChip(i) + ' <span class="points">' + p.score + " pts</span>" +
        '<span class="muted small">water ' + res.water + " · dates " + res.dates + " · dinars " + res.dinars + "</span></summary>" +
        playerExtras(p, i) + '<table class="breakdown">' + rows + "</table></details>";
    }).join("");
    document.getElementById("display").innerHTML = countsChips(view.state.tower.display);
    renderVariantBoard();
  }

  // What the edition and the expansions add to a player: Classic's wooden keshis on the sector
  // boards (no markers), claimed desert towns (expansion 5), the Sultan / Imam escorted (expansion 2).
  function playerExtras(p, seat) {
    const parts = [];
    if (p.sector_keshis) { parts.push("Keshis on the sector boards: " + countsChips(p.sector_keshis)); }
    else if (p.markers) { parts.push("Markers left: " + countsChips(p.markers)); }
    if (view.expansions.indexOf(5) >= 0) {
      parts.push("Desert towns: " + (p.desert_towns && p.desert_towns.length ? p.desert_towns.map(tileText).join(", ") : "none"));
    }
    const figures = view.state.figures || {};
    Object.keys(figures).forEach(function (name) {
      if (figures[name].holder === seat) { parts.push("Escorts the " + (name === "sultan" ? "Sultan" : "Imam")); }
    });
    return parts.length ? '<ul class="extras">' + parts.map(function (t) { return "<li>" + t + "</li>"; }).join("") + "</ul>" : "";
  }
  function tileText(tile) { return esc(typeof tile === "object" ? JSON.stringify(tile) : "town " + tile); }

  function renderVariantBoard() {
    const state = view.state;
    const parts = [];
    if (view.expansions.indexOf(5) >= 0) {
      const towns = state.desert_town_display || [];
      parts.push("Desert towns on display: " + (towns.length ? towns.map(tileText).join(", ") : "none left"));
    }
    const figures = state.figures || {};
    Object.keys(figures).forEach(function (name) {
      const f = figures[name];
      const label = name === "sultan" ? "Sultan" : "Imam";
      parts.push(label + ": " + (f.holder !== null && f.holder !== undefined ? "escorted by " + seatChip(f.holder)
        : (f.step !== null && f.step !== undefined ? "waiting on stair " + esc(f.step) : "on its stair")));
    });
    const card = document.getElementById("variant-card");
    card.hidden = !parts.length;
    document.getElementById("variant-board").innerHTML = parts.map(function (t) { return "<p>" + t + "</p>"; }).join("");
  }

  function render() {
    if (!view) { return; }
    root.dataset.version = view.version;
    root.dataset.eventId = view.event_id;
    root.dataset.phase = view.finished ? "finished" : view.phase;
    renderTurn();
    renderScores();
    if (view.phase !== "toss") { document.getElementById("tower-card").hidden = true; }
    const box = document.getElementById("screen");
    if (view.finished) { screenFinished(box); }
    else if (view.pending) { screenPending(box); }
    else if (view.phase === "select") { screenSelect(box); }
    else if (view.phase === "toss") { screenToss(box); }
    else if (view.phase === "claim") { screenTurn(box, "Claim keshis", "to claim"); }
    else if (view.phase === "assistants") { screenTurn(box, "Assistants", "to use assistants"); }
    else { box.innerHTML = '<h2 id="screen-title">' + esc(PHASES[view.phase] || view.phase) + "</h2>"; }
    if (busy) { box.querySelectorAll("button").forEach(function (b) { b.disabled = true; }); }
  }

  function apply(next, force) {
    if (!view || force || next.event_id >= view.event_id) {
      if (view && (next.version !== view.version || next.phase !== view.phase)) { correcting = null; }
      view = next;
      render();
    }
  }

  function addLog(id, label, prepend) {
    if (seenLog.has(id)) { return; }
    seenLog.add(id);
    const item = document.createElement("li");
    item.textContent = label;
    const list = document.getElementById("log");
    if (prepend) { list.insertBefore(item, list.firstChild); } else { list.appendChild(item); }
    while (list.children.length > 40) { list.removeChild(list.lastChild); }
  }

  function showScoring(event) {
    const deltas = event.data.deltas || [];
    if (!deltas.some(function (d) { return Object.keys(d).length; })) { return; }
    const card = document.getElementById("latest-card");
    const seasonScored = view && event.data.season !== undefined && Object.keys(deltas.reduce(function (a, d) { return Object.assign(a, d); }, {}))
      .some(function (k) { return ["river_evaluation", "provisions", "line_bonus", "palace_final", "mosque_final"].indexOf(k) >= 0; });
    document.getElementById("latest-title").textContent = seasonScored ? "Season scoring" : "Latest scoring";
    document.getElementById("latest").innerHTML = "<p>" + esc(event.data.label) + "</p><ul>" + deltas.map(function (d, i) {
      const keys = Object.keys(d);
      if (!keys.length) { return ""; }
      const sum = keys.reduce(function (a, k) { return a + d[k]; }, 0);
      return "<li>" + seatChip(i) + " " + (sum >= 0 ? "+" : "") + sum + " (" + keys.map(function (k) {
        return esc(k.replace(/_/g, " ")) + " " + (d[k] >= 0 ? "+" : "") + d[k]; }).join(", ") + ")</li>";
    }).join("") + "</ul>";
    card.hidden = false;
  }

  function onTower(event) {
    const card = document.getElementById("tower-card");
    const state = document.getElementById("tower-state");
    const drops = document.getElementById("drops");
    card.hidden = false;
    if (event.topic === "toss.started") { drops.innerHTML = ""; state.textContent = "Tossing… keshis are falling."; }
    else if (event.topic === "toss.drop") {
      const li = document.createElement("li");
      li.textContent = event.data.t_ms.toFixed(0) + " ms";
      drops.appendChild(li);
    } else if (event.topic === "toss.settled") { state.textContent = "Settled after " + event.data.drops + " drop(s); counting…"; }
    else if (event.topic === "toss.result") { state.textContent = "Counted."; }
    else if (event.topic === "tower.fault") { notice("Tower fault: " + (event.data.message || "unknown")); }
  }

  function follow(lastId) {
    const stream = new EventSource("/api/games/" + gameId + "/events?last_event_id=" + lastId);
    stream.addEventListener("game", function (message) {
      const event = JSON.parse(message.data);
      addLog(event.id, event.data.label || event.kind, true);
      showScoring(event);
      if (event.view) { apply(event.view); }
    });
    stream.addEventListener("tower", function (message) { onTower(JSON.parse(message.data)); });
  }

  const roleSelect = document.getElementById("role");
  if (roleSelect) {
    roleSelect.addEventListener("change", function () { localStorage.setItem(roleKey, roleSelect.value); render(); });
  }
  const undo = document.getElementById("undo");
  if (undo) {
    undo.addEventListener("click", function () {
      const last = document.querySelector("#log li");
      if (window.confirm("Take back the last action?" + (last ? "\n" + last.textContent : ""))) { send("/undo", {}); }
    });
  }

  fetch("/api/games/" + gameId, {credentials: "same-origin"}).then(function (r) { return r.json(); }).then(function (first) {
    (first.history || []).slice().reverse().forEach(function (h) { addLog(h.id, h.label, true); });
    if (roleSelect) {
      first.names.forEach(function (n, i) { roleSelect.insertAdjacentHTML("beforeend", '<option value="' + i + '">' + esc(n) + "</option>"); });
      roleSelect.value = role();
    }
    view = first;
    render();
    follow(first.event_id);
  });
})();
