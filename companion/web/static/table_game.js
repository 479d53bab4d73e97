// The table screen of a game without the tower (Morocco, Sabika): a snapshot, then the game's event
// stream. The view says who must act, the prompt and every legal option (each with the taps that
// lead to it, its "path"); the board is drawn by static/kind-<game>.js. Refusals are shown beside
// the options that were tapped; a lost stream is shown in the turn bar and reconnected.
(function () {
  "use strict";
  const root = document.getElementById("game");
  const gameId = root.dataset.gameId;
  const kind = root.dataset.kind;
  const seated = root.dataset.seated === "yes";
  const NOTICE_MS = 12000;
  const SEAT_COLOURS = {blue: "#3b7bd8", red: "#d8433b", green: "#3aa65a", yellow: "#e3c02c", purple: "#9b59b6"};
  const esc = Keshi.esc;
  const t = Keshi.t;
  let view = null;
  let busy = false;
  let deleted = false;
  let trail = [];          // the taps made so far towards one option (its path prefix)
  let message = null;      // the last refusal, shown beside the options

  // -- who this phone is --------------------------------------------------------------------------
  let hostHere = false;  // this device is the table's host (it makes itself shared without the PIN)
  const myRole = KeshiLive.role(gameId, function () {
    const select = document.getElementById("role");
    if (select) { select.value = myRole.get() || ""; }
    trail = [];
    renderWho();
    if (view) { render(); }
  });
  function role() { return myRole.get(); }  // null until "Who are you?" is answered (the server keeps it)
  function mySeat() { return myRole.seat(); }
  function mayAct(actor) {
    if (!seated || role() === null || deleted || actor === null || actor === undefined) { return false; }
    return actor === "table" || role() === "all" || role() === String(actor);
  }
  function nameOf(seat) { return view.names[seat] || t("The table"); }
  function seatChip(seat) {
    const colour = (view.seating[seat] || {}).colour || "";
    return '<span class="seat seat-' + esc(colour || "none") + '">' + esc(nameOf(seat)) + "</span>";
  }
  window.KeshiSeatColour = function (seat) {
    const colour = view && (view.seating[seat] || {}).colour;
    return SEAT_COLOURS[colour] || ["#3b7bd8", "#d8433b", "#3aa65a", "#e3c02c", "#9b59b6"][seat % 5];
  };
  function setRole(value, pin, name) {
    if (value === "all" && pin === undefined && !hostHere) { KeshiLive.askShare(); return; }  // the PIN first
    myRole.choose(value, pin, name).then(function (result) {
      if (!result.ok) {
        const select = document.getElementById("role");
        if (select) { select.value = role() || ""; }
        say(result.data.error || t("Not accepted"));
      }
    }).catch(function () { say(t("No connection to the companion: your tap was not sent. Check the Wi-Fi and try again.")); });
  }
  function renderWho() { if (view) { KeshiLive.renderWho(view.names, role(), seatChip, setRole, hostHere); } }

  // -- messages -------------------------------------------------------------------------------------
  let noticeTimer = null;
  function notice(text, keep) {
    const box = document.getElementById("turn-notice");
    box.textContent = text;
    box.hidden = !text;
    clearTimeout(noticeTimer);
    if (text && !keep) { noticeTimer = setTimeout(function () { box.hidden = true; }, NOTICE_MS); }
  }
  function say(text) {
    message = text;
    placeMessage(true);
  }
  function placeMessage(scroll) {
    document.querySelectorAll(".msg").forEach(function (m) { m.remove(); });
    if (!message) { return; }
    const box = document.createElement("p");
    box.className = "msg notice";
    box.id = "message";
    box.setAttribute("role", "alert");
    box.textContent = message;
    const anchor = document.querySelector("#choices .tg-options") || document.getElementById("prompt");
    anchor.insertAdjacentElement("afterend", box);
    if (scroll) { box.scrollIntoView({block: "center"}); }
  }
  function refusal(result) {
    if (result.status === 409 && result.data.kind === "GameMovedOn") {
      return t("Someone else acted first: the screen now shows the game as it is. Please choose again.");
    }
    const text = result.data.error || t("The companion refused this (error {status}).", {status: result.status});
    return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
  }

  // -- talking to the server ------------------------------------------------------------------------
  function send(path, body) {
    if (busy || deleted) { return; }
    busy = true;
    root.dataset.busy = "yes";
    message = null;
    placeMessage(false);
    document.querySelectorAll("#choices button, #undo").forEach(function (b) { b.disabled = true; });
    body.version = view.version;
    body.idempotency_key = Keshi.newKey();
    Keshi.api("POST", "/api/games/" + gameId + path, body).then(function (result) {
      busy = false;
      root.dataset.busy = "no";
      trail = [];
      // a newer view may have come by the stream meanwhile: then redraw that one (buttons enabled again)
      if (!result.data.view || !apply(result.data.view, !result.ok)) { render(); }
      if (!result.ok) { say(refusal(result)); }
    }).catch(function () {
      busy = false;
      root.dataset.busy = "no";
      render();
      say(t("No connection to the companion: your tap was not sent. Check the Wi-Fi and try again."));
    });
  }

  // -- the choices: one tap per step of an option's path -------------------------------------------
  function pathOf(option) { return option.path && option.path.length ? option.path : [option.label]; }
  function under(prefix) {
    return view.choices.options.filter(function (o) {
      const p = pathOf(o);
      return p.length > prefix.length && prefix.every(function (step, i) { return p[i] === step; });
    });
  }
  // The next steps after ``trail``; a step with one way on (not the last) is taken by itself.
  function nextSteps() {
    let options = under(trail);
    if (!options.length) { trail = []; options = under(trail); }
    for (;;) {
      const steps = [];
      options.forEach(function (o) {
        const step = pathOf(o)[trail.length];
        if (!steps.some(function (s) { return s.step === step; })) {
          steps.push({step: step, group: o.group || "", leaf: null});
        }
        if (pathOf(o).length === trail.length + 1) {
          steps.filter(function (s) { return s.step === step; })[0].leaf = o;
        }
      });
      if (steps.length === 1 && !steps[0].leaf && trail.length) {
        trail.push(steps[0].step);
        options = under(trail);
        continue;
      }
      return steps;
    }
  }
  function renderChoices() {
    const box = document.getElementById("choices");
    const choices = view.choices;
    const actor = choices.actor;
    document.getElementById("prompt").textContent = choices.prompt || "";
    document.getElementById("tg-progress").textContent = choices.progress || "";  // a new game's printed values
    const title = document.getElementById("screen-title");
    if (view.finished) {
      title.textContent = t("Final scoring");
      box.innerHTML = winnerLine() + finalTable();
      return;
    }
    if (!mayAct(actor)) {
      title.textContent = actor === "table" ? t("Question for the table") : t("{player}'s turn", {player: nameOf(actor)});
      box.innerHTML = seated && role() === null && !deleted ?
        '<p class="waiting">' + esc(t("Answer \"Who are you?\" above to play from this phone.")) + "</p>" :
        '<p class="waiting">' + (actor === "table" ? esc(t("Waiting for the table.")) :
          t("Waiting for {player}.", {player: seatChip(actor)})) + "</p>";
      return;
    }
    title.textContent = actor === "table" ? t("Question for the table") :
      (role() === "all" ? t("{player}'s turn", {player: nameOf(actor)}) : t("Your turn, {name}", {name: nameOf(actor)}));
    if (choices.question) {
      editorQuestion(box, choices.question);
      return;
    }
    const steps = nextSteps();
    const onBoard = boardSteps(steps);
    let html = "";
    if (trail.length) {
      html += '<p class="tg-trail">' + trail.map(esc).join(" › ") + "</p>";
    }
    if (onBoard) { html += onBoard.html; }
    let group = null;
    html += '<div class="tg-options">';
    steps.forEach(function (s, i) {
      if (onBoard && onBoard.covered.indexOf(i) >= 0) { return; }
      if (!trail.length && s.group !== group && steps.some(function (t) { return t.group !== s.group; })) {
        group = s.group;
        html += '<h3 class="tg-group">' + esc(group) + "</h3>";
      }
      html += '<button type="button" class="option tg-step' + (s.leaf ? " tg-leaf" : "") + '" data-step="' + i + '">' +
        esc(s.step) + "</button>";
    });
    html += "</div>";
    if (trail.length) { html += '<button type="button" class="secondary tg-back" id="back">' + esc(t("Back")) + "</button>"; }
    box.innerHTML = html;
    box.querySelectorAll("button.tg-step, button.tg-board-step").forEach(function (b) {
      b.addEventListener("click", function () {
        const s = steps[Number(b.dataset.step)];
        if (s.leaf) { send("/actions", {action: s.leaf.action}); return; }
        trail.push(s.step);
        message = null;
        render();
      });
    });
    const back = document.getElementById("back");
    if (back) { back.addEventListener("click", function () { trail = []; message = null; render(); }); }
  }
  // A question the Board page's editor answers: several options at once (a printed bonus's icons, left to right:
  // toggles kept in the order tapped, ``count`` of them when the question says so), or several values read in one
  // look (``parts``: a Rondel's three ring sizes, one stepper each, sent as an object of them).
  function editorQuestion(box, question) {
    box.innerHTML = '<div class="tg-question"></div>';
    const spec = question.parts ? {key: question.key, title: view.choices.prompt, options: [], multi: false,
      group: question.parts.map(function (part) { return {key: part.key, name: Keshi.say(part.name_say), options: part.options}; })} :
      {key: question.key, title: view.choices.prompt, options: question.options, multi: true,
        count: question.count, words: question.words_say.map(Keshi.say)};
    KeshiValueEditor.render(box.firstChild, spec, {submit: t("Answer"), prefix: "tg-q", onSubmit: function (value) {
      send("/actions", {action: {type: "answer", key: question.key, value: value}});
      return {ok: true};  // a refusal is said by `send`, above the choices
    }});
  }
  // Steps that are places on the game's board (an option's ``at``: the row and column it chooses at this step),
  // drawn by the game's kind as the board itself to tap (Morocco's market), in place of a list of buttons.
  function boardSteps(steps) {
    const drawer = (window.KeshiKinds || {})[kind];
    if (!drawer || !drawer.pickOnBoard) { return null; }
    const picks = [];
    steps.forEach(function (s, i) {
      const options = (s.leaf ? [s.leaf] : []).concat(under(trail.concat([s.step])));
      const at = options.length ? options[0].at : null;
      const same = at && options.every(function (o) {
        return o.at && o.at.step === trail.length && o.at.row === at.row && o.at.column === at.column;
      });
      if (same && at.step === trail.length) { picks.push({step: i, row: at.row, column: at.column, label: s.step}); }
    });
    if (!picks.length) { return null; }
    return {html: drawer.pickOnBoard(view.board, view.choices.actor, picks),
      covered: picks.map(function (p) { return p.step; })};
  }
  function winnerLine() {
    return view.winners.length ? '<p class="winner" id="winner">★ ' + esc(winText()) + "</p>" : "";
  }
  // The final scoring: one row per category (the board's ``categories``, in the rulebook's order, the same for
  // every player), one column per player, the totals last; nothing folded away.
  function finalTable() {
    const board = view.board || {};
    const players = board.players || [];
    if (!players.length) { return ""; }
    const parts = players.map(function (p) {
      if (!Array.isArray(p.breakdown)) { return p.breakdown || {}; }
      const map = {};
      p.breakdown.forEach(function (b) { map[b.label] = b.points; });
      return map;
    });
    const head = "<tr><th>" + esc(t("Category")) + "</th>" + players.map(function (p) {
      return '<th class="n" data-seat="' + p.seat + '">' + seatChip(p.seat) + (view.winners.indexOf(p.seat) >= 0 ? " ★" : "") + "</th>";
    }).join("") + "</tr>";
    const rows = (board.categories || []).map(function (c) {
      return '<tr data-category="' + esc(c.label) + '"><td>' + esc(Keshi.sayOr(c.say, c.label)) + "</td>" + parts.map(function (m) {
        return '<td class="n">' + (m[c.label] || 0) + "</td>";
      }).join("") + "</tr>";
    }).join("");
    const total = '<tr class="total"><td>' + esc(t("Total")) + "</td>" + players.map(function (p) {
      return '<td class="n" data-seat="' + p.seat + '">' + p.score + "</td>";
    }).join("") + "</tr>";
    return '<div class="final-wrap"><table class="breakdown final-table" id="final-table"><thead>' + head + "</thead><tbody>" +
      rows + total + "</tbody></table></div>";
  }
  function winText() {
    const names = {names: view.winners.map(nameOf).join(t(" and "))};
    return view.winners.length > 1 ? t("{names} share the win", names) : t("{names} wins", names);
  }

  // -- the rest of the screen ----------------------------------------------------------------------
  function renderTurn() {
    const board = view.board || {};
    document.getElementById("turn-when").textContent = view.game_name + (board.round ? " · " + t("round {n}", {n: board.round}) : "") +
      (board.phase && !view.finished ? " · " + board.phase : "");
    const actor = view.choices.actor;
    let who;
    if (deleted) { who = t("This game was deleted"); }
    else if (view.finished) { who = t("Game over") + " · " + winText(); }
    else if (actor === "table") { who = t("The table answers a question"); }
    else if (mayAct(actor) && role() !== "all") { who = t("Your turn, {name}", {name: nameOf(actor)}); }
    else { who = t("{player}'s turn", {player: nameOf(actor)}); }
    document.getElementById("turn-who").textContent = who;
  }
  function renderScores() {
    document.getElementById("scores-title").textContent = view.finished ? t("Final scores") : t("Scores");
    const rows = view.names.map(function (n, i) {
      const win = view.winners.indexOf(i) >= 0 ? " ★" : "";
      return '<tr data-seat="' + i + '"><td>' + seatChip(i) + win + '</td><td class="n score">' + view.scores[i] + "</td></tr>";
    }).join("");
    document.getElementById("scores").innerHTML = '<table class="breakdown"><tbody>' + rows + "</tbody></table>";
  }
  function renderBoard() {
    const drawer = (window.KeshiKinds || {})[kind];
    const box = document.getElementById("board");
    if (!drawer) { box.textContent = t("This game's board cannot be drawn here."); return; }
    drawer.render(box, view.board, view.names, mySeat(), view);
  }
  function render() {
    if (!view) { return; }
    root.dataset.version = view.version;
    root.dataset.eventId = view.event_id;
    root.dataset.finished = view.finished ? "yes" : "no";
    renderTurn();
    renderChoices();
    renderScores();
    renderBoard();
    if (busy || deleted) { document.querySelectorAll("#choices button").forEach(function (b) { b.disabled = true; }); }
    const undo = document.getElementById("undo");
    if (undo) {
      undo.disabled = busy || deleted;
      undo.textContent = view.undo.available ? t("Undo: {what}", {what: undoWhat()}) : t("Undo");
    }
    placeMessage(false);
  }
  // The words the adapter sent as messages (``*_say``), put in the page's language once per view.
  function localise(next) {
    const choices = next.choices || {};
    if (choices.prompt_say) { choices.prompt = Keshi.say(choices.prompt_say); }
    if (choices.progress_say) { choices.progress = Keshi.say(choices.progress_say); }
    (choices.options || []).forEach(function (o) {
      if (o.path_say) { o.path = o.path_say.map(Keshi.say); }
      if (o.group_say) { o.group = Keshi.say(o.group_say); }
    });
    if (next.board && next.board.phase_say) { next.board.phase = Keshi.say(next.board.phase_say); }
    return next;
  }
  // Show ``next`` unless a newer view is on screen already; true when it was shown.
  function apply(next, force) {
    localise(next);
    myRole.learn(next);
    KeshiLive.renderDevices(next);
    if (!view || force || next.event_id >= view.event_id) {
      if (view && next.version !== view.version) { trail = []; if (!force) { message = null; } }
      view = next;
      render();
      return true;
    }
    return false;
  }
  // A log line in the page's language where the server sent it as a message (``say``), else as written
  // (a game stored before lines were kept as messages). The server words Undo's "took back: …" and the
  // Undo button's action as messages too (``undo.label_say``), so they quote the line in this language.
  function logText(data) {
    const line = Keshi.sayOr(data.say, data.label) || "";
    return data.via ? t("{line} (on {device})", {line: line, device: t(data.via)}) : line;  // a shared device's action
  }
  function undoWhat() { return Keshi.sayOr(view.undo.label_say, view.undo.label); }
  const addLog = KeshiLive.logList(60);

  // -- the live stream (KeshiLive: snapshot, events from the last one seen, reconnects) -------------
  function onGame(event) {
    if (event.data.log !== false) { addLog(event.id, logText(event.data) || event.kind, true); }
    if (event.view && event.kind === "undo") { notice(logText(event.data)); }
    if (event.view) { apply(event.view); }
  }
  function gameDeleted(data) {
    deleted = true;
    root.dataset.deleted = "yes";
    notice(Keshi.sayOr(data.say, data.message), true);
    render();
  }

  const roleSelect = document.getElementById("role");
  const undo = document.getElementById("undo");
  if (undo) {
    undo.addEventListener("click", function () {
      if (!view.undo.available) { say(Keshi.sayOr(view.undo.reason_say, view.undo.reason) || t("Nothing to take back now.")); return; }
      if (window.confirm(t("Take back {what}?", {what: undoWhat()}))) { send("/undo", {}); }
    });
  }
  KeshiLive.follow(gameId, root, {
    first: function (first) {
      (first.history || []).slice().reverse().forEach(function (h) { addLog(h.id, logText(h), true); });
      hostHere = Boolean(first.host);
      myRole.learn(first);
      if (roleSelect) { KeshiLive.fillRoles(roleSelect, first.names, role(), setRole); }
      view = localise(first);
      KeshiLive.renderDevices(first);
      renderWho();
      render();
    },
    game: onGame,
    deleted: gameDeleted,
  });
})();
