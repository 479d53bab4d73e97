// The table screen of one game: a snapshot, then the game's event stream; every screen is drawn
// from the game's JSON view, and only legal choices are offered to the device that may act.
// Refusals are shown next to the button that was tapped; a lost stream is shown in the turn bar
// and reconnected from the last event seen.
(function () {
  "use strict";
  const root = document.getElementById("game");
  const gameId = root.dataset.gameId;
  const seated = root.dataset.seated === "yes";
  const ORDER = window.PALETTE.map(function (c) { return c.name; });
  const t = Keshi.t;
  const PHASES = {select: t("Select keshis"), toss: t("Toss the tower"), claim: t("Claims"), exchange: t("Exchange"),
    assistants: t("Assistants"), round_end: t("End of round"), season_end: t("Season scoring"),
    final: t("Final scoring"), finished: t("Final scoring")};
  const LOW_CONFIDENCE = 0.6;
  const NOTICE_MS = 12000;
  let view = null;
  let busy = false;
  let deleted = false;     // the game was deleted while this page followed it: nothing more to send
  let correcting = null;   // {counts, mode: "result" | "hand" | "empty"} while the counter is open
  let message = null;      // {text, near}: the last refusal, shown next to the button that was tapped
  let shownErrors = 0;
  const picks = {};        // seat -> colours chosen so far (kept while other phones act)

  const esc = Keshi.esc;
  const chip = Keshi.chip;
  function sum(counts) { return Object.values(counts || {}).reduce(function (a, b) { return a + b; }, 0); }
  function countsChips(counts) {
    const parts = ORDER.filter(function (c) { return (counts || {})[c] > 0; })
      .map(function (c) { return chip(c, counts[c]); });
    return parts.length ? parts.join(" ") : '<span class="muted">' + esc(t("none")) + "</span>";
  }
  function nameOf(seat) { return view.names[seat] || t("The table"); }
  function seatChip(seat) {
    const s = view.seating[seat] || {};
    return '<span class="seat seat-' + esc(s.colour || "none") + '">' + esc(nameOf(seat)) + "</span>";
  }
  function category(key) {
    const labels = view.category_labels || {};
    if (labels[key]) { return Keshi.say(labels[key]); }
    const words = String(key).replace(/[._]/g, " ").replace(/\s+/g, " ").trim();
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  // -- who this phone is (the server keeps it: KeshiLive.role) ----------------------------------
  let hostHere = false;  // this device is the table's host (it makes itself shared without the PIN)
  const myRole = KeshiLive.role(gameId, function () {
    const select = document.getElementById("role");
    if (select) { select.value = myRole.get() || ""; }
    renderWho();
    if (view) { render(); }
  });
  function role() { return myRole.get(); }  // null until "Who are you?" is answered
  function mySeat() { return myRole.seat(); }
  function mayAct(seat) {
    if (!seated || role() === null) { return false; }
    if (seat === null || seat === undefined || seat === "table") { return true; }
    return role() === "all" || role() === String(seat);
  }
  function setRole(value, pin, name) {
    if (value === "all" && pin === undefined && !hostHere) { KeshiLive.askShare(); return; }  // the PIN first
    const near = pin !== undefined ? "#share-go" : "#who-card";  // beside the button tapped
    myRole.choose(value, pin, name).then(function (result) {
      if (!result.ok) {
        const select = document.getElementById("role");
        if (select) { select.value = role() || ""; }
        say(refusal(result), near);
      }
    }).catch(function () { say(t("No connection to the companion: your tap was not sent. Check the Wi-Fi and try again."), near); });
  }
  function renderWho() { if (view) { KeshiLive.renderWho(view.names, role(), seatChip, setRole, hostHere); } }

  // -- messages: refusals beside the tapped button, notices in the turn bar ------------------------
  function say(text, near) {
    message = text ? {text: text, near: near || null} : null;
    if (message) {
      shownErrors += 1;
      root.dataset.shownErrors = String(shownErrors);
    }
    placeMessage(true);
  }
  function placeMessage(scroll) {
    document.querySelectorAll(".msg").forEach(function (m) { m.remove(); });
    if (!message) { return; }
    let anchor = message.near ? document.querySelector(message.near) : null;
    if (!anchor || anchor.offsetParent === null) {
      anchor = document.querySelector("#screen .options, #screen button.big, #screen-title");
    }
    const box = document.createElement("p");
    box.className = "msg notice";
    box.id = "message";
    box.setAttribute("role", "alert");
    box.textContent = message.text;
    if (anchor) { anchor.insertAdjacentElement("afterend", box); }
    else { document.getElementById("screen").prepend(box); }
    if (scroll) { box.scrollIntoView({block: "center"}); }
  }
  let noticeTimer = null;
  function notice(text) {
    const box = document.getElementById("turn-notice");
    box.textContent = text;
    box.hidden = !text;
    clearTimeout(noticeTimer);
    if (text) { noticeTimer = setTimeout(function () { box.hidden = true; }, NOTICE_MS); }
  }
  function refusal(result) {
    if (result.status === 409 && result.data.kind === "GameMovedOn") {
      return t("Someone else acted first: the screen now shows the game as it is. Please choose again.");
    }
    if (result.status === 403) {
      return (result.data.error || t("Not allowed")) + ".";
    }
    return result.data.error ? result.data.error.charAt(0).toUpperCase() + result.data.error.slice(1) :
      t("The companion refused this (error {status}).", {status: result.status});
  }

  // -- talking to the server ------------------------------------------------------------------
  function send(path, body, near, then) {
    if (busy || deleted) { return; }
    busy = true;
    root.dataset.busy = "yes";  // a request is on its way (tests wait for "no")
    message = null;
    placeMessage(false);
    document.querySelectorAll("#screen button, #undo").forEach(function (b) { b.disabled = true; });
    body.version = view.version;
    body.idempotency_key = Keshi.newKey();
    Keshi.api("POST", "/api/games/" + gameId + path, body).then(function (result) {
      busy = false;
      root.dataset.busy = "no";
      if (result.ok) {
        if (result.data.view) { apply(result.data.view); } else { render(); }
        if (then) { then(); return; }
        keepScreenInSight();
        return;
      }
      if (result.data.view) { apply(result.data.view, true); } else { render(); }
      say(refusal(result), near);
    }).catch(function () {
      busy = false;
      root.dataset.busy = "no";
      render();
      say(t("No connection to the companion: your tap was not sent. Check the Wi-Fi and try again."), near);
    });
  }
  // After this phone's own change the next screen is where the eyes go (not the page's bottom).
  function keepScreenInSight() {
    const box = document.getElementById("screen");
    const r = box.getBoundingClientRect();
    if (r.bottom < 120 || r.top > window.innerHeight - 80) { box.scrollIntoView({block: "start"}); }
  }
  function act(action, near, then) { send("/actions", {action: action}, near, then); }

  // -- screens ---------------------------------------------------------------------------------
  // A decision's option in the page's language: a colour gets its chip (the name always beside the
  // swatch); a sector, main-square space, Sahara path, resource or figure its game word; a list "a + b".
  const OPTION_CONTEXTS = ["sector", "square", "path", "resource", "figure", "phase"];
  function optionWords(option) {
    if (Array.isArray(option)) { return option.map(optionWords).join(" + "); }
    if (option && typeof option === "object") {
      return Object.keys(option).map(function (k) { return amountWords(k, option[k]); }).join(", ");
    }
    if (typeof option !== "string") { return String(option); }
    if (ORDER.indexOf(option) >= 0) { return Keshi.word("colour", option); }
    const gate = /^gate:(\d+):(.+)$/.exec(option);  // a city gate bought from a workshop (counted from the left)
    if (gate) {
      const n = Number(gate[1]) + 1;
      return gate[2] === "?" ? t("workshop {n}: the gate you take (the table names its colour)", {n: n}) :
        t("workshop {n}: {colour}", {n: n, colour: Keshi.word("colour", gate[2])});
    }
    const plain = option.replace(/_/g, " ");
    for (let i = 0; i < OPTION_CONTEXTS.length; i += 1) {
      const found = Keshi.word(OPTION_CONTEXTS[i], plain);
      if (found !== plain) { return found; }
    }
    return OPTION_WORDS[plain] || plain;
  }
  // Option words that are no game word (the engine's "done", "none", ...).
  const OPTION_WORDS = {done: t("done"), none: t("none"), stop: t("stop"), exchange: t("exchange"),
    luxury: t("luxury good"), keshi: t("a new keshi"), action: t("the sector action"),
    base: t("the usual side"), "new": t("the dark-green side")};  // an exchange office's sides (expansion 3)
  // One entry of a small dict option (a payment): "2 dinars", as engine.AMOUNT_WORDS says it; else "key: value".
  function amountWords(key, value) {
    const one = value === 1;
    if (key === "dinars") { return one ? t("1 dinar") : t("{n} dinars", {n: value}); }
    if (key === "water") { return one ? t("1 water") : t("{n} water", {n: value}); }
    if (key === "dates") { return one ? t("1 date") : t("{n} dates", {n: value}); }
    return optionWords(key) + ": " + optionWords(value);
  }
  function optionHtml(option) { return typeof option === "string" && ORDER.indexOf(option) >= 0 ? chip(option) : esc(optionWords(option)); }
  function claimWords(colours) { return colours.map(function (c) { return Keshi.word("colour", c); }).join(" + "); }
  // A legal action in words, e.g. "Jan claims green + green" (the server's English label for the rest).
  function actionText(action, label) {
    const who = nameOf(action.player);
    if (action.type === "claim") { return t("{player} claims {colours}", {player: who, colours: claimWords(action.colours)}); }
    if (action.type === "use_assistant") {
      const sector = Keshi.word("sector", String(action.sector).replace(/_/g, " "));
      return action.mode === "keshi" ? t("{player} uses the {sector} assistant for a new keshi", {player: who, sector: sector}) :
        t("{player} uses the {sector} assistant for the sector action", {player: who, sector: sector});
    }
    if (action.type === "choose") { return t("{player} chooses {option}", {player: who, option: optionWords(action.option)}); }
    if (action.type === "answer") { return t("The table answers: {value}", {value: optionWords(action.value)}); }
    return label;
  }
  function entryHtml(entry) {
    const a = entry.action;
    if (a.type === "choose") { return optionHtml(a.option); }
    if (a.type === "answer") { return optionHtml(a.value); }
    return esc(actionText(a, entry.label));
  }
  function actionButtons(entries) {
    const short = entries.length > 3 && entries.every(function (e) { return e.label.length <= 18 && !e.action.colours && !e.then; });
    return '<div class="options' + (short ? " grid" : "") + '">' + entries.map(function (entry, i) {
      const a = entry.action;
      const colours = a.colours ? '<span class="opt-chips">' + a.colours.map(function (c) { return chip(c); }).join(" ") + "</span>" : "";
      if (entry.then) {  // the decision this leads to, answered in the same tap
        return '<div class="option-group"><p class="group-label">' + entryHtml(entry) + colours + ' <span class="muted small">→ ' +
          esc(Keshi.sayOr(entry.then.say, entry.then.prompt)) + '</span></p><div class="options grid">' +
          entry.then.options.map(function (next, j) {
          return '<button type="button" class="option" data-legal="' + i + '" data-then="' + j + '">' + entryHtml(next) + "</button>";
        }).join("") + "</div></div>";
      }
      return '<button type="button" class="option" data-legal="' + i + '">' + entryHtml(entry) + colours + "</button>";
    }).join("") + "</div>";
  }
  function bindLegal(box, entries) {
    box.querySelectorAll("button[data-legal]").forEach(function (button) {
      button.addEventListener("click", function () {
        const entry = entries[Number(button.dataset.legal)];
        const near = '#screen button[data-legal="' + button.dataset.legal + '"]' +
          (button.dataset.then ? '[data-then="' + button.dataset.then + '"]' : "");
        const next = button.dataset.then ? entry.then.options[Number(button.dataset.then)].action : null;
        act(entry.action, near, next && function () {
          // the decision it led to is the one looked ahead: answer it; otherwise the screen asks afresh
          const waiting = view.legal.some(function (e) { return JSON.stringify(e.action) === JSON.stringify(next); });
          if (waiting) { act(next, "#screen .options"); }
        });
      });
    });
  }
  // "Waiting for Ben to claim." (``what``: "decide", "select", "claim" or "assistants")
  function waiting(seat, what) {
    const player = {player: seatChip(seat)};
    const text = what === "decide" ? t("Waiting for {player} to decide.", player) :
      what === "select" ? t("Waiting for {player} to select.", player) :
      what === "claim" ? t("Waiting for {player} to claim.", player) : t("Waiting for {player} to use assistants.", player);
    return '<p class="waiting">' + text + "</p>";
  }
  function whoFirst() {
    return seated && role() === null ? '<p class="waiting">' + esc(t("Answer \"Who are you?\" above to play from this phone.")) + "</p>" : "";
  }

  function screenFinished(box) {
    const players = view.state.players;
    const names = {names: view.winners.join(" & ")};
    let html = '<h2 id="screen-title">' + esc(t("Final scoring")) + '</h2><p class="winner" id="winner">★ ' +
      esc(view.winners.length > 1 ? t("{names} share the win", names) : t("{names} wins", names)) + "</p>";
    html += scoreTable(players.map(function (p) { return p.breakdown; }), players.map(function (p) { return p.score; }), true);
    box.innerHTML = html + '<p class="muted small">' + esc(t("Ties go to the palace, then the mosque.")) + "</p>";
  }

  // A category × player table of points (``totals`` adds a Total row); ``final``: the final scoring's own table
  // (id final-table, each row named by its category, the winners starred in the head).
  function scoreTable(perSeat, totals, final) {
    const cats = [];
    perSeat.forEach(function (d) {
      Object.keys(d || {}).forEach(function (k) {  // the final table: the categories anyone scored in
        if (cats.indexOf(k) < 0 && (!final || perSeat.some(function (e) { return (e || {})[k]; }))) { cats.push(k); }
      });
    });
    // one order for every table and player: the server's (as the game scores them), the rest after it
    const order = view.category_order || [];
    const found = cats.slice();
    const rank = function (k) { const i = order.indexOf(k); return i < 0 ? order.length + found.indexOf(k) : i; };
    cats.sort(function (a, b) { return rank(a) - rank(b); });
    let html = '<table class="breakdown' + (final ? ' final-table" id="final-table' : "") + '"><thead><tr><th>' + esc(t("Category")) + "</th>" +
      view.names.map(function (n, i) {
        return "<th>" + seatChip(i) + (final && view.winners.indexOf(n) >= 0 ? " ★" : "") + "</th>"; }).join("") + "</tr></thead><tbody>";
    cats.forEach(function (k) {
      html += '<tr data-category="' + esc(k) + '"><td>' + esc(category(k)) + "</td>" + perSeat.map(function (d) {
        return '<td class="n">' + ((d || {})[k] || 0) + "</td>"; }).join("") + "</tr>";
    });
    const total = totals || perSeat.map(function (d) { return sum(d); });
    return html + '<tr class="total"><td>' + esc(t("Total")) + "</td>" + total.map(function (t) { return '<td class="n">' + t + "</td>"; }).join("") +
      "</tr></tbody></table>";
  }

  function screenPending(box) {
    const pending = view.pending;
    const question = pending.kind === "question";
    const drawn = pending.kind === "draw";  // a tile, colour or side the table drew: named by a tap
    const seat = question ? null : pending.player;
    let html = '<h2 id="screen-title">' + esc(question || drawn ? t("Question for the table") : t("{player} decides", {player: nameOf(seat)})) + "</h2>";
    html += '<p class="prompt">' + esc(Keshi.sayOr(pending.say, pending.prompt)) + "</p>";
    if (drawn) { html += '<p class="muted small">' + esc(t("Look at the table and tap what lies there.")) + "</p>"; }
    if (question) {  // a table's first game asks many: the Board page takes all of them in one sitting
      html += '<p class="muted small">' + esc(t("Printed on your board; the answer is remembered for this table's next games.")) +
        ' <a id="all-values" href="/profile?edition=' + encodeURIComponent(view.edition) + '#pf-missing">' +
        esc(t("Enter all your boards' values at once")) + "</a></p>";
    }
    if (mayAct(seat) && question) {  // a printed value: steppers, and where it is printed (value-editor.js)
      box.innerHTML = html + '<div class="pv-question"></div>';
      KeshiValueEditor.question(box.querySelector(".pv-question"), pending, view.edition, function (value) {
        act({type: "answer", key: pending.key, value: value}, "#screen .pv-submit");
      });
    } else if (mayAct(seat)) {
      html += actionButtons(view.legal);
      box.innerHTML = html;
      bindLegal(box, view.legal);
    } else {
      box.innerHTML = html + (whoFirst() || waiting(seat, "decide"));
    }
  }

  function screenSelect(box) {
    let html = '<h2 id="screen-title">' + esc(t("Select 3 keshis")) + '</h2><p class="muted">' +
      esc(t("Behind your screen, pick 3 keshis; each red one sends its assistant to a sector you choose.")) + "</p>";
    const seats = Object.keys(view.selections);
    Object.keys(picks).forEach(function (s) { if (seats.indexOf(s) < 0) { delete picks[s]; } });
    const done = view.state.players.map(function (p, i) { return p.has_selected ? i : null; }).filter(function (i) { return i !== null; });
    if (done.length) { html += '<p class="muted">' + t("Chosen, hidden until everyone has: {players}", {players: done.map(seatChip).join(", ")}) + "</p>"; }
    const mine = seats.filter(function (s) { return mayAct(Number(s)); });
    seats.filter(function (s) { return !mayAct(Number(s)); }).forEach(function (s) { html += waiting(Number(s), "select"); });
    html += whoFirst();
    mine.forEach(function (s) { html += '<div class="picker" data-seat="' + s + '"></div>'; });
    box.innerHTML = html;
    mine.forEach(function (s) { picker(box.querySelector('.picker[data-seat="' + s + '"]'), Number(s), view.selections[s]); });
  }

  // One player's selection: colours are tapped one by one (kept across redraws until revealed).
  function picker(el, seat, options) {
    if (!picks[seat]) { picks[seat] = []; }
    const chosen = picks[seat];
    function rest(option) {
      const left = option.colours.slice();
      const fits = chosen.every(function (c) { const i = left.indexOf(c); if (i < 0) { return false; } left.splice(i, 1); return true; });
      return fits ? left : null;
    }
    function matches() { return options.filter(function (o) { return rest(o) !== null; }); }
    if (chosen.length && !matches().length) { chosen.length = 0; }  // the choices changed under us
    function draw() {
      const fits = matches();
      const size = options.length ? options[0].colours.length : 0;
      const screen = view.state.players[seat].screen;
      let html = "<h3>" + seatChip(seat) + "</h3><p>" + t("Chosen: {keshis}", {keshis: chosen.length ? chosen.map(function (c) { return chip(c); }).join(" ") :
        '<span class="muted">' + esc(t("nothing yet")) + "</span>"}) + "</p>";
      if (chosen.length < size) {
        html += '<div class="options colours">' + ORDER.filter(function (c) { return screen[c] > 0; }).map(function (c) {
          const ok = fits.some(function (o) { return rest(o).indexOf(c) >= 0; });
          return '<button type="button" class="colour-pick" data-colour="' + c + '"' + (ok ? "" : " disabled") + ">" + chip(c, screen[c]) + "</button>";
        }).join("") + "</div>";
      } else {
        const exact = fits.filter(function (o) { return o.colours.length === chosen.length; })[0];
        if (exact && exact.wild.length) {
          html += "<p>" + esc(t("Where do the red keshis send their assistants?")) + '</p><div class="options">' + exact.wild.map(function (w, i) {
            const sectors = w.map(function (sector) { return Keshi.word("sector", String(sector).replace(/[._]/g, " ")); }).join(" + ");
            return '<button type="button" class="option reveal" data-wild="' + i + '">' + esc(t("Reveal · red to {sectors}", {sectors: sectors})) + "</button>";
          }).join("") + "</div>";
        } else {
          html += '<button type="button" class="big reveal" data-wild="-1">' + esc(t("Reveal {player}'s keshis", {player: nameOf(seat)})) + "</button>";
        }
      }
      if (chosen.length) { html += '<button type="button" class="secondary start-over">' + esc(t("Start over")) + "</button>"; }
      el.innerHTML = html;
      el.querySelectorAll(".colour-pick").forEach(function (b) {
        b.addEventListener("click", function () { chosen.push(b.dataset.colour); draw(); });
      });
      el.querySelectorAll(".reveal").forEach(function (b) {
        b.addEventListener("click", function () {
          const exact = matches().filter(function (o) { return o.colours.length === chosen.length; })[0];
          const i = Number(b.dataset.wild);
          act({type: "select", player: seat, colours: chosen.slice(), wild_sectors: i >= 0 ? exact.wild[i] : []},
            '.picker[data-seat="' + seat + '"] .reveal');
        });
      });
      const again = el.querySelector(".start-over");
      if (again) { again.addEventListener("click", function () { chosen.length = 0; draw(); }); }
      if (busy) { el.querySelectorAll("button").forEach(function (b) { b.disabled = true; }); }
    }
    draw();
  }

  // Game start: the tower is emptied (or confirmed empty) before the first toss; selecting goes on meanwhile.
  let checkShown = false;
  function towerCheck(box) {
    const believed = view.tower_check.believed_inside || {};
    const block = document.createElement("div");
    block.className = "tower-check";
    block.id = "tower-check";
    let html = "<h2>" + esc(t("Empty the tower first")) + "</h2><p>" +
      esc(t("Before the first toss, turn the tower over and shake it: pieces from an earlier game may still be inside.")) + "</p>";
    if (sum(believed)) { html += "<p>" + t("The companion thinks these are still inside: {keshis}", {keshis: countsChips(believed)}) + "</p>"; }
    if (!mayAct(null)) {
      block.innerHTML = html + (seated && role() === null ? "" : '<p class="waiting">' + esc(t("Waiting for the table to empty the tower.")) + "</p>");
      box.prepend(block);
      return;
    }
    if (correcting && correcting.mode === "empty") { block.innerHTML = html; box.prepend(block); counter(block); return; }
    block.innerHTML = html + '<button type="button" class="big" id="tower-empty">' + esc(t("It is empty: nothing fell out")) + "</button>" +
      '<button type="button" class="secondary" id="tower-found">' + esc(t("Pieces fell out: enter them")) + "</button>";
    box.prepend(block);
    if (view.phase === "toss" && !checkShown) {  // the check's buttons on screen once, when the toss waits for it
      checkShown = true;
      document.getElementById("tower-found").scrollIntoView({block: "nearest"});
    }
    document.getElementById("tower-empty").addEventListener("click", function () {
      send("/tower/empty", {found: {}}, "#tower-empty");
    });
    document.getElementById("tower-found").addEventListener("click", function () {
      correcting = {mode: "empty", counts: Object.assign({}, believed)};
      render();
    });
  }

  function screenToss(box) {
    const result = view.tower_result;
    const total = sum(view.pieces_in);
    if (!result) {
      const rolling = Boolean(view.tossing);
      let html = '<h2 id="screen-title">' + esc(t("Toss the tower")) + "</h2><p>" +
        t("Into the tower: {keshis} ({n} keshis)", {keshis: countsChips(view.pieces_in), n: total}) + "</p>";
      // before the game-start tower check, Toss waits (disabled, saying why): the check above comes first
      const unchecked = Boolean(view.tower_check && view.tower_check.needed);
      if (mayAct(null)) {
        html += '<button type="button" class="big" id="toss"' + (rolling || unchecked ? " disabled" : "") + ">" +
          esc(rolling ? t("Tossing… wait for the result") : t("Toss {n} keshis", {n: total})) + "</button>" +
          (unchecked ? '<p class="muted" id="toss-waits">' + esc(t("Toss comes after the tower check above.")) + "</p>" : "") +
          (rolling || unchecked ? "" : '<button type="button" class="secondary" id="by-hand">' + esc(t("Enter what fell out by hand")) + "</button>");
      } else {
        html += whoFirst() || '<p class="waiting">' + esc(t("Waiting for the table to toss.")) + "</p>";
      }
      box.innerHTML = html;
      if (correcting && correcting.mode === "hand") { counter(box); return; }
      const toss = document.getElementById("toss");
      if (toss && !rolling && !unchecked) {
        toss.addEventListener("click", function () { send("/toss", {}, "#toss"); });
        document.getElementById("by-hand").addEventListener("click", function () {
          correcting = {mode: "hand", counts: {}};
          render();
        });
      }
      return;
    }
    let html = '<h2 id="screen-title">' + esc(t("Tower result")) + '</h2><p class="result-counts">' + countsChips(result.counts) + "</p>";
    // A camera over-count (more than the game expects inside) is asked about, never booked by one tap.
    const extra = result.leftover_if_confirmed || {};
    const over = sum(extra) > 0;
    if (over) {
      html += '<div class="warn" id="over-count"><p>' + t("The camera saw more than the game expects. Look in the tray: is this really there? {keshis}",
        {keshis: countsChips(extra)}) + "</p></div>";
    }
    html += evidence(result);
    html += countCheck(result);
    if (!mayAct(null)) { box.innerHTML = html + (whoFirst() || '<p class="waiting">' + esc(t("Waiting for the table to confirm.")) + "</p>"); return; }
    if (correcting && correcting.mode === "result") { box.innerHTML = html; counter(box); return; }
    const expected = {};
    Object.keys(result.counts || {}).forEach(function (c) { expected[c] = result.counts[c] - (extra[c] || 0); });
    html += '<button type="button" class="big" id="accept">' + esc(over ? t("Not there: confirm without it") : t("Confirm: that is what fell out")) + "</button>" +
      (over ? '<button type="button" class="secondary" id="keep-leftover">' + esc(t("It is really there: keep it as a leftover")) + "</button>" : "") +
      '<button type="button" class="secondary" id="correct">' + esc(t("Correct the counts")) + "</button>";
    box.innerHTML = html;
    document.getElementById("accept").addEventListener("click", function () { act({type: "release", counts: expected}, "#accept"); });
    if (over) {
      document.getElementById("keep-leftover").addEventListener("click", function () { act({type: "release", counts: result.counts}, "#keep-leftover"); });
    }
    document.getElementById("correct").addEventListener("click", function () {
      correcting = {mode: "result", counts: Object.assign({}, result.counts)};
      render();
    });
  }

  // Why the toss needs a look (each reason of the beam/camera cross-check), or why a difference is fine.
  function countCheck(result) {
    const said = (result.check && result.check.say) || [];
    if (result.flagged) {
      const why = said.map(function (m) { return "<li>" + esc(Keshi.say(m)) + "</li>"; }).join("");
      return '<div class="warn" id="count-check"><p>' + esc(t("The beam and the camera disagree: check the tray before you confirm.")) +
        "</p>" + (why ? "<ul>" + why + "</ul>" : "") + "</div>";
    }
    return said.length ? '<p class="muted small" id="count-check">' + esc(said.map(Keshi.say).join(" · ")) + "</p>" : "";
  }

  // What the tower saw: the tray snapshot, each colour's camera confidence, beam and camera totals.
  function evidence(result) {
    let html = "";
    if (result.snapshot_url) {
      html += '<figure class="snapshot"><img id="snapshot" src="' + esc(result.snapshot_url) +
        '" alt="' + esc(t("The tray as the camera saw it after this toss")) + '"><figcaption class="muted small">' +
        esc(t("What the camera saw in the tray")) + "</figcaption></figure>";
    }
    if (result.colour_confidence && Object.keys(result.colour_confidence).length) { html += confidenceTable(result.colour_confidence); }
    const parts = [result.source === "simulator-truth" ? t("Counted by the simulator") : t("Counted by the camera"),
      t("beam {n} drop(s)", {n: result.beam_count})];
    if (result.camera_count !== null && result.camera_count !== undefined) { parts.push(t("camera {n}", {n: result.camera_count})); }
    if (result.confidence !== null && result.confidence !== undefined) { parts.push(t("confidence {n}%", {n: Math.round(result.confidence * 100)})); }
    if (result.unknown) { parts.push(t("{n} unknown", {n: result.unknown})); }
    return html + '<p class="muted small" id="evidence">' + esc(parts.join(" · ")) + "</p>";
  }

  // Per detected colour: how many pieces and how sure the camera was (mean, and its least sure piece).
  function confidenceTable(byColour) {
    const rows = ORDER.filter(function (c) { return byColour[c]; }).map(function (c) {
      const r = byColour[c];
      const unsure = r.lowest < LOW_CONFIDENCE;
      return '<tr' + (unsure ? ' class="unsure"' : "") + "><td>" + chip(c) + '</td><td class="n">' + r.count +
        '</td><td class="n">' + Math.round(r.mean * 100) + '%</td><td class="n">' + Math.round(r.lowest * 100) + "%" +
        (unsure ? ' <span aria-label="' + esc(t("check this colour")) + '">⚠</span>' : "") + "</td></tr>";
    }).join("");
    return '<table class="breakdown confidence" id="confidence"><thead><tr><th>' + esc(t("Detected")) + "</th><th>n</th><th>" +
      esc(t("sure")) + "</th><th>" + esc(t("least")) + "</th></tr></thead><tbody>" +
      rows + "</tbody></table>";
  }

  // Every colour, any count: what the table saw, beside what the tower believed and the camera saw.
  function counter(box) {
    const counts = correcting.counts;
    const mode = correcting.mode;
    // emptying at game start: what the tower believed it held (this round's revealed keshis are still in hand)
    const inside = mode === "empty" ? view.tower_check.believed_inside || {} : view.state.tower.inside;
    const result = mode === "result" ? view.tower_result : null;
    const camera = result ? result.counts || {} : {};
    const conf = result ? result.colour_confidence || {} : {};
    const title = mode === "empty" ? t("What fell out of the tower?") : t("What fell out?");
    let html = '<div class="counter" id="counter"><h3>' + esc(title) + "</h3>";
    const youCount = t("You count {n}", {n: "<b>" + sum(counts) + "</b>"});
    if (result) {
      html += '<p class="small" id="counter-totals">' + youCount + " · " + esc(t("beam {n} drop(s)", {n: result.beam_count})) +
        (result.camera_count !== null && result.camera_count !== undefined ? " · " + esc(t("camera {n}", {n: result.camera_count})) : "") + "</p>";
    } else {
      html += '<p class="small" id="counter-totals">' + youCount + "</p>";
    }
    html += '<p class="muted small">' + esc(t("Any colour, any count: a piece nobody tossed is kept as a leftover. The change is logged beside the tower's own count.")) + "</p>";
    ORDER.forEach(function (c) {
      const facts = [];
      if (mode !== "empty" || inside[c]) { facts.push(t("in tower {n}", {n: inside[c] || 0})); }
      if (result) {
        facts.push(t("camera {n}", {n: camera[c] || 0}) + (conf[c] ? " " + t("({n}% sure)", {n: Math.round(conf[c].mean * 100)}) : ""));
      }
      const relevant = inside[c] || camera[c] || counts[c];
      html += '<div class="count-row' + (relevant ? " relevant" : "") + '" data-colour="' + c + '">' +
        '<div class="count-name">' + chip(c) + '<span class="muted small facts">' + esc(facts.join(" · ")) + "</span></div>" +
        '<button type="button" class="step" data-colour="' + c + '" data-d="-1" aria-label="' +
        esc(t("one fewer {colour}", {colour: Keshi.word("colour", c)})) + '">−</button>' +
        '<output class="n">' + (counts[c] || 0) + '</output><button type="button" class="step" data-colour="' + c +
        '" data-d="1" aria-label="' + esc(t("one more {colour}", {colour: Keshi.word("colour", c)})) + '">+</button></div>';
    });
    html += '<button type="button" class="big" id="apply-counts">' + esc(mode === "empty" ? t("These fell out") : t("Apply these counts")) +
      '</button><button type="button" class="secondary" id="cancel-counts">' + esc(t("Cancel")) + "</button></div>";
    box.insertAdjacentHTML("beforeend", html);
    box.querySelectorAll("button.step").forEach(function (b) {
      b.addEventListener("click", function () {
        const c = b.dataset.colour;
        counts[c] = Math.max(0, Math.min(view.in_the_box[c], (counts[c] || 0) + Number(b.dataset.d)));  // the box's most
        const row = box.querySelector('.count-row[data-colour="' + c + '"]');
        row.querySelector("output").textContent = counts[c];
        box.querySelector("#counter-totals b").textContent = sum(counts);
      });
    });
    document.getElementById("apply-counts").addEventListener("click", function () {
      const clean = {};
      ORDER.forEach(function (c) { if (counts[c] > 0) { clean[c] = counts[c]; } });
      if (mode === "empty") { send("/tower/empty", {found: clean}, "#apply-counts"); }
      else { act({type: "release", counts: clean}, "#apply-counts"); }
    });
    document.getElementById("cancel-counts").addEventListener("click", function () { correcting = null; render(); });
  }

  function screenTurn(box, title, what) {
    const seat = view.to_move;
    let html = '<h2 id="screen-title">' + esc(title) + "</h2>";
    if (view.phase === "claim") { html += '<div class="screen-display">' + KeshiBoards.displayHtml(view.claim_display) + "</div>"; }
    if (mayAct(seat) && view.legal.length) {
      html += "<p>" + t("{player}, choose:", {player: seatChip(seat)}) + "</p>" + actionButtons(view.legal);
      box.innerHTML = html;
      bindLegal(box, view.legal);
    } else {
      box.innerHTML = html + (whoFirst() || waiting(seat, what));
    }
  }

  // -- season scoring: a card that stays (the server keeps it) until the table closes it ----------
  let hiddenSeason = null;  // a watcher put this season's screen aside on this phone only
  function renderSeason() {
    const card = document.getElementById("season-card");
    const scoring = view.season_scoring;
    if (!scoring || scoring.acknowledged || view.finished) { card.hidden = true; return; }
    document.getElementById("season-title").textContent = scoring.final ? t("Final scoring") :
      t("Season {n} scoring", {n: scoring.season});
    const scored = scoring.deltas.some(function (d) { return Object.keys(d).length; });
    const standings = (view.score_track ? view.score_track.markers : []).map(function (m) {
      return "<li>" + seatChip(m.seat) + " " + t("{n} pts", {n: "<b>" + m.score + "</b>"}) + "</li>";
    }).join("");
    document.getElementById("season-body").innerHTML = (scored ? scoreTable(scoring.deltas) :
      '<p class="muted">' + esc(t("Nobody scored points this season.")) + "</p>") +
      "<h3>" + esc(t("Standings now")) + '</h3><ol class="season-standings" id="season-standings">' + standings + "</ol>";
    const close = document.getElementById("season-close");
    close.hidden = !mayAct(null);
    document.getElementById("season-hide").hidden = mayAct(null);
    card.hidden = hiddenSeason === scoring.season;
  }

  // -- the whole page ---------------------------------------------------------------------------
  function renderTurn() {
    const phase = PHASES[view.phase] || view.phase_label || "";
    document.getElementById("turn-when").textContent = view.finished ? t("Game over") :
      t("Season {season} · Round {round} · {phase}", {season: view.season, round: view.round, phase: phase});
    let who;
    if (view.finished) { who = esc(t("★ Winner: {names}", {names: view.winners.join(" & ")})); }
    else if (view.tower_check && view.tower_check.needed && view.phase === "toss") { who = esc(t("The table: empty the tower, then toss")); }
    else if (view.pending && (view.pending.kind === "question" || view.pending.kind === "draw")) { who = esc(t("The table: answer a question")); }
    else if (view.phase === "select") {
      who = esc(t("Everyone selects · waiting for {players}",
        {players: Object.keys(view.selections).map(function (s) { return nameOf(Number(s)); }).join(", ")}));
    } else if (view.to_move === "table") {
      who = esc(view.tower_result ? t("The table: confirm the tower result") : view.tossing ? t("The tower is tossing…") :
        t("The table: toss the tower"));
    } else { who = t("{player}'s turn", {player: seatChip(view.to_move)}); }
    document.getElementById("turn-who").innerHTML = who;
  }

  function renderScores() {
    document.getElementById("scores").innerHTML = view.state.players.map(function (p, i) {
      const rows = Object.keys(p.breakdown).map(function (k) {
        return "<tr><td>" + esc(category(k)) + '</td><td class="n">' + p.breakdown[k] + "</td></tr>";
      }).join("");
      const res = p.resources;
      return '<details class="score"><summary>' + seatChip(i) + ' <span class="points">' + esc(t("{n} pts", {n: p.score})) + "</span>" +
        '<span class="muted small">' + esc(t("water {water} · dates {dates} · dinars {dinars}", res)) + "</span></summary>" +
        playerExtras(p, i) + '<table class="breakdown">' + rows + "</table></details>";
    }).join("");
    renderVariantBoard();
  }

  // What the edition and the expansions add to a player: Classic's wooden keshis on the sector
  // boards (no markers), claimed desert towns (expansion 5), the Sultan / Imam escorted (expansion 2).
  function playerExtras(p, seat) {
    const parts = [];
    if (p.sector_keshis) { parts.push(t("Keshis on the sector boards: {keshis}", {keshis: countsChips(p.sector_keshis)})); }
    else if (p.markers) { parts.push(t("Markers left: {keshis}", {keshis: countsChips(p.markers)})); }
    if (view.expansions.indexOf(5) >= 0) {
      parts.push(esc(t("Desert towns: {towns}", {towns: p.desert_towns && p.desert_towns.length ? p.desert_towns.map(tileText).join(", ") : t("none")})));
    }
    const figures = view.state.figures || {};
    Object.keys(figures).forEach(function (name) {
      if (figures[name].holder === seat) { parts.push(esc(t("Escorts the {figure}", {figure: figureName(name)}))); }
    });
    return parts.length ? '<ul class="extras">' + parts.map(function (t) { return "<li>" + t + "</li>"; }).join("") + "</ul>" : "";
  }
  function tileText(tile) { return typeof tile === "object" ? JSON.stringify(tile) : t("town {n}", {n: tile}); }
  function figureName(name) { return Keshi.word("figure", name === "sultan" ? "Sultan" : "Imam"); }

  function renderVariantBoard() {
    const state = view.state;
    const parts = [];
    if (view.expansions.indexOf(5) >= 0) {
      const towns = state.desert_town_display || [];
      parts.push(esc(t("Desert towns on display: {towns}", {towns: towns.length ? towns.map(tileText).join(", ") : t("none left")})));
    }
    const figures = state.figures || {};
    Object.keys(figures).forEach(function (name) {
      const f = figures[name];
      const figure = {figure: esc(figureName(name))};
      parts.push(f.holder !== null && f.holder !== undefined ? t("{figure}: escorted by {player}", Object.assign({player: seatChip(f.holder)}, figure))
        : f.step !== null && f.step !== undefined ? t("{figure}: waiting on stair {n}", Object.assign({n: esc(f.step)}, figure))
          : t("{figure}: on its stair", figure));
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
    KeshiBoards.render(view, mySeat());
    renderSeason();
    if (view.phase !== "toss") { document.getElementById("tower-card").hidden = true; }
    const box = document.getElementById("screen");
    if (view.finished) { screenFinished(box); }
    else if (view.pending) { screenPending(box); }
    else if (view.phase === "select") { screenSelect(box); }
    else if (view.phase === "toss") { screenToss(box); }
    else if (view.phase === "claim") { screenTurn(box, t("Claim keshis"), "claim"); }
    else if (view.phase === "assistants") { screenTurn(box, t("Assistants"), "assistants"); }
    else { box.innerHTML = '<h2 id="screen-title">' + esc(PHASES[view.phase] || view.phase_label || "") + "</h2>"; }
    // the tower check waits while the table answers a question (the draws named before the first toss)
    if (!view.finished && !view.pending && view.tower_check && view.tower_check.needed) { towerCheck(box); }
    if (busy || deleted) { box.querySelectorAll("button").forEach(function (b) { b.disabled = true; }); }
    const undo = document.getElementById("undo");
    if (undo) {
      const state = undoState();
      undo.disabled = busy || deleted;
      undo.textContent = state.available ? t("Undo: {what}", {what: undoWhat(state)}) : t("Undo");
    }
    placeMessage(false);
    yourTurn();
    keepAwake();
  }

  // -- your turn: a banner with your name, a buzz, the tab title, the choices scrolled into sight ----
  const baseTitle = document.title;
  let wasMyTurn = false;
  function isMyTurn() {
    const seat = mySeat();
    if (seat === null || view.finished) { return false; }
    const pending = view.pending;
    if (pending) { return pending.kind !== "question" && pending.player === seat; }
    if (view.phase === "select") { return Object.prototype.hasOwnProperty.call(view.selections, String(seat)); }
    return view.to_move === seat && view.legal.length > 0;
  }
  function yourTurn() {
    const mine = isMyTurn();
    const banner = document.getElementById("your-turn");
    root.dataset.yourTurn = mine ? "yes" : "no";
    banner.hidden = !mine;
    if (!mine) {
      document.title = baseTitle;
      wasMyTurn = false;
      return;
    }
    const title = document.getElementById("screen-title");
    const what = title ? title.textContent : "";
    banner.textContent = t("Your turn, {name}", {name: nameOf(mySeat())}) + (what ? " · " + what : "");
    document.title = t("● Your turn — {what}", {what: what || baseTitle});
    if (wasMyTurn) { return; }
    wasMyTurn = true;
    // a browser refuses (and logs) a buzz before the first tap on the page: ask only once it would work
    const activated = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (navigator.vibrate && activated) { navigator.vibrate([200, 100, 200]); }
    const choices = document.querySelector("#screen .options, #screen .picker, #screen .pv-question") || document.getElementById("screen");
    showBelowTurnBar(choices);
  }
  // Centre ``el`` in the room the sticky turn bar leaves; one taller than that room starts just below
  // the bar (centring it in the whole window would hide its top under the bar).
  function showBelowTurnBar(el) {
    const bar = document.getElementById("turnbar");
    const top = bar ? bar.offsetHeight : 0;  // sticky: once scrolled to, the bar sits at the window's top
    const r = el.getBoundingClientRect();
    const room = window.innerHeight - top;
    window.scrollTo({top: window.scrollY + r.top - top - Math.max(0, (room - r.height) / 2)});
  }

  // -- the screen stays awake during a game (Wake Lock API; skipped quietly where the browser has none) --
  let wakeLock = null;
  let wakeAsked = false;
  function keepAwake() {
    if (view.finished) {
      if (wakeLock) { wakeLock.release().catch(function () { return null; }); wakeLock = null; }
      return;
    }
    if (wakeLock || wakeAsked || document.visibilityState !== "visible") { return; }
    if (!("wakeLock" in navigator)) { root.dataset.wakeLock = "unsupported"; return; }
    wakeAsked = true;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      root.dataset.wakeLock = "held";
      lock.addEventListener("release", function () { wakeLock = null; root.dataset.wakeLock = "released"; });
    }).catch(function () { root.dataset.wakeLock = "refused"; }).then(function () { wakeAsked = false; });
  }
  // the browser drops the lock whenever the page is hidden: ask again when it is shown
  document.addEventListener("visibilitychange", function () { if (view) { keepAwake(); } });

  // The view as it is now (after a fault the stream carries no new view).
  function refresh() {
    Keshi.api("GET", "/api/games/" + gameId).then(function (result) { if (result.ok) { apply(result.data, true); } });
  }
  function apply(next, force) {
    if (view && !force && next.event_id < view.event_id) {
      render();  // the stream already brought a newer view: redraw it (a request's answer re-enables the buttons)
      return;
    }
    const moved = view && (next.version !== view.version || next.phase !== view.phase ||
      Boolean(next.tower_result) !== Boolean(view.tower_result));
    if (moved) { correcting = null; }
    if (moved && !force) { message = null; }
    view = next;
    KeshiLive.renderDevices(next);
    myRole.learn(next);
    render();
  }

  // A log line in the page's language: an action from the action itself, anything else as the server wrote it.
  function logText(data, fallback) {
    const asked = data.asked && data.action && data.action.type === "answer" ? t("The table answers “{prompt}”: {answer}",
      {prompt: Keshi.sayOr(data.asked.say, data.asked.prompt), answer: KeshiValueEditor.text(data.action.value)}) : null;
    const line = asked || (data.say ? Keshi.say(data.say) : data.action ? actionText(data.action, data.label || fallback) : data.label || fallback);
    // a shared device's action; the companion's own screen is named in the language of the request that named
    // it, so its name is said in this page's language (a name a person gave has no entry and stays as it is)
    return data.via ? t("{line} (on {device})", {line: line, device: t(data.via)}) : line;
  }
  const addLog = KeshiLive.logList(40);

  function showScoring(event) {
    const deltas = event.data.deltas || [];
    if (!deltas.some(function (d) { return Object.keys(d).length; })) { return; }
    const card = document.getElementById("latest-card");
    document.getElementById("latest").innerHTML = "<p>" + esc(logText(event.data, event.kind)) + "</p><ul>" + deltas.map(function (d, i) {
      const keys = Object.keys(d);
      if (!keys.length) { return ""; }
      const total = sum(d);
      return "<li>" + seatChip(i) + " " + (total >= 0 ? "+" : "") + total + " (" + keys.map(function (k) {
        return esc(category(k)) + " " + (d[k] >= 0 ? "+" : "") + d[k]; }).join(", ") + ")</li>";
    }).join("") + "</ul>";
    card.hidden = false;
  }

  // What the next undo really takes back, or why there is nothing to take back now.
  function undoState() {
    if (!view) { return {available: false, reason: ""}; }
    if (view.undo) { return view.undo; }
    return {available: view.actions > 0, label: t("the last action"), reason: t("Nothing to take back yet.")};
  }
  function undoWhat(state) { return view && view.undo_say && state === view.undo ? Keshi.say(view.undo_say) : state.label; }

  function onTower(event) {
    if (event.topic === "tower.refused") { notice(t("Tower: {message}", {message: Keshi.sayOr(event.data.say, event.data.message)})); return; }
    const card = document.getElementById("tower-card");
    const state = document.getElementById("tower-state");
    const drops = document.getElementById("drops");
    card.hidden = false;
    if (event.topic === "toss.started") {
      drops.innerHTML = "";
      state.textContent = t("Tossing… keshis are falling.");
    } else if (event.topic === "toss.drop") {
      const li = document.createElement("li");
      li.textContent = t("{n} ms", {n: event.data.t_ms.toFixed(0)});
      drops.appendChild(li);
    } else if (event.topic === "toss.settled") { state.textContent = t("Settled after {n} drop(s); counting…", {n: event.data.drops}); }
    else if (event.topic === "toss.result") { state.textContent = t("Counted."); }
    else if (event.topic === "tower.fault") {
      notice(t("Tower fault: {message}. Enter what fell out by hand.",
        {message: Keshi.sayOr(event.data.say, event.data.message) || Keshi.word("status", "unknown")}));
      refresh();  // a toss that could not be stored ended as a failed one: Toss and Undo come back
    }
  }

  // -- the live stream (KeshiLive: snapshot, events from the last one seen, reconnects) -------------
  function onGame(event) {
    if (event.data.log !== false) { addLog(event.id, logText(event.data, event.kind), true); }
    showScoring(event);
    // a notice is for the latest event only (a reconnect's replayed burst carries the view on its last)
    if (event.view && (event.kind === "undo" || event.kind === "toss.failed")) { notice(Keshi.sayOr(event.data.say, event.data.label)); }
    if (event.view) { apply(event.view); }
  }
  // Someone deleted this game from the games list: say so for good and offer the way back.
  function gameDeleted() {
    deleted = true;
    root.dataset.deleted = "yes";
    const box = document.getElementById("turn-notice");
    clearTimeout(noticeTimer);
    box.innerHTML = esc(t("This game was deleted from the companion: its log is gone.")) +
      ' <a href="/">' + esc(t("Back to the games list")) + "</a>";
    box.hidden = false;
    render();
  }

  const roleSelect = document.getElementById("role");
  const undo = document.getElementById("undo");
  if (undo) {
    undo.addEventListener("click", function () {
      const state = undoState();
      if (!state.available) {
        say(Keshi.sayOr(state.reason_say, state.reason) || t("Nothing to take back now."), "#undo");
        return;
      }
      if (window.confirm(t("Take back {what}?", {what: undoWhat(state)}))) { send("/undo", {}, "#undo"); }
    });
  }

  KeshiLive.follow(gameId, root, {
    first: function (first) {
      hostHere = Boolean(first.host);
      myRole.learn(first);
      if (roleSelect) { KeshiLive.fillRoles(roleSelect, first.names, role(), setRole); }
      view = first;  // before the log: its lines name the players from the view
      KeshiLive.renderDevices(first);
      (first.history || []).slice().reverse().forEach(function (h) { addLog(h.id, logText(h, h.label), true); });
      renderWho();
      render();
    },
    game: onGame,
    tower: onTower,
    deleted: gameDeleted,
  });
  // A watching screen may show the PIN when it is the companion's own (host) screen.
  const showPin = document.getElementById("show-pin");
  if (showPin) {
    showPin.addEventListener("click", function () {
      Keshi.api("GET", "/api/games/" + gameId + "/pin").then(function (result) {
        document.getElementById("pin-answer").textContent = result.ok ? t("Table PIN: {pin}", {pin: result.data.pin}) :
          t("Only the companion's own screen or a phone that joined can show the PIN: ask someone at the table.");
      }).catch(function () {
        document.getElementById("pin-answer").textContent = t("No connection to the companion; try again.");
      });
    });
  }
  document.getElementById("season-hide").addEventListener("click", function () {
    hiddenSeason = view.season_scoring.season;
    renderSeason();
  });
  document.getElementById("season-close").addEventListener("click", function () {
    send("/season-scoring/ack", {season: view.season_scoring.season}, "#season-close");
  });
})();
