// The live side of a game page, shared by the Marrakesh page (game.js) and the table-game page
// (table_game.js): the first snapshot (fetched again every 2 s while there is no connection), then the
// game's event stream followed from the last event seen, watched for silence (three missed 5 s pings),
// reconnected with back-off and shown as "Connection lost · reconnecting…"; a deleted game ends it.
// The stream carries this page's own id (``tab``), so a reconnect replaces the page's old stream on the
// companion. When the companion has no live place free (503 with Retry-After), the page says so in its
// language and keeps itself current by fetching the game every Retry-After seconds, trying the stream
// again each time, until one is free.
window.KeshiLive = (function () {
  "use strict";
  const STALE_MS = 16000;
  const tab = Math.random().toString(36).slice(2) + Date.now().toString(36);

  // Follow game ``gameId``: ``hooks.first(view)`` with the snapshot, then ``hooks.game(event)`` for each
  // game event, ``hooks.tower(event)`` for the tower's live drops (if given) and ``hooks.deleted(data)``
  // once, when someone deletes the game (nothing is followed after that).
  function follow(gameId, root, hooks) {
    let stream = null;
    let lastEventId = 0;
    let lastHeard = Date.now();
    let retryMs = 1000;
    let retryTimer = null;
    let ended = false;
    let lostWords = null;  // the banner's own text, kept while it says the companion is busy
    function banner() { return document.getElementById("connection"); }
    function connection(ok) {
      if (lostWords !== null) { banner().textContent = lostWords; lostWords = null; }
      banner().hidden = ok;
      root.dataset.connection = ok ? "live" : "lost";
    }
    function streamUrl() { return "/api/games/" + gameId + "/events?last_event_id=" + lastEventId + "&tab=" + tab; }
    function heard() {
      lastHeard = Date.now();
      retryMs = 1000;
      connection(true);
    }
    function open() {
      stream = new EventSource(streamUrl());
      stream.addEventListener("open", heard);
      stream.addEventListener("game", function (m) {
        heard();
        const event = JSON.parse(m.data);
        if (event.kind === "deleted") { return; }  // the "deleted" event says it where people look
        lastEventId = Math.max(lastEventId, event.id);
        hooks.game(event);
      });
      if (hooks.tower) { stream.addEventListener("tower", function (m) { heard(); hooks.tower(JSON.parse(m.data)); }); }
      stream.addEventListener("deleted", function (m) {
        ended = true;
        stream.close();
        stream = null;
        connection(true);
        hooks.deleted(JSON.parse(m.data));
      });
      stream.addEventListener("ping", heard);
      stream.addEventListener("error", function () {
        // CLOSED: the companion answered without a stream (full, or an error); otherwise the network
        if (stream && stream.readyState === EventSource.CLOSED) { refused(); } else { lost(); }
      });
    }
    // Ask why the stream was refused: a 503 says how long to wait, and in which words.
    function refused() {
      if (ended) { return; }
      stream.close();
      stream = null;
      const asking = new AbortController();
      fetch(streamUrl(), {credentials: "same-origin", signal: asking.signal}).then(function (r) {
        if (r.status !== 503) { asking.abort(); lost(); return; }  // a place came free, or another fault
        const seconds = Number(r.headers.get("Retry-After")) || 10;
        return r.json().then(function (body) { poll(seconds, Keshi.sayOr(body.say, body.error)); });
      }).catch(lost);
    }
    // Full: say so, keep current from the game's snapshot every ``seconds``, then try a stream again.
    function poll(seconds, words) {
      if (lostWords === null) { lostWords = banner().textContent; }
      banner().textContent = words;
      banner().hidden = false;
      root.dataset.connection = "polling";
      clearTimeout(retryTimer);
      retryTimer = setTimeout(function () { catchUp().then(open, open); }, seconds * 1000);
    }
    // The snapshot's newer log lines as game events, the last one carrying the view (as a stream's burst).
    function catchUp() {
      return fetch("/api/games/" + gameId, {credentials: "same-origin"}).then(function (r) {
        if (!r.ok) { throw new Error("HTTP " + r.status); }
        return r.json();
      }).then(function (view) {
        if (ended || view.event_id <= lastEventId) { return; }
        (view.history || []).slice().reverse().forEach(function (h) {
          if (h.id > lastEventId) { hooks.game({id: h.id, kind: h.kind, data: {label: h.label, say: h.say, action: h.action}}); }
        });
        lastEventId = view.event_id;
        hooks.game({id: view.event_id, kind: "snapshot", data: {log: false}, view: view});
      });
    }
    function lost() {
      if (ended) { return; }
      if (stream) { stream.close(); stream = null; }
      connection(false);
      clearTimeout(retryTimer);
      retryTimer = setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    }
    setInterval(function () { if (stream && Date.now() - lastHeard > STALE_MS) { lost(); } }, 2000);
    function start() {
      fetch("/api/games/" + gameId, {credentials: "same-origin"}).then(function (r) {
        if (!r.ok) { throw new Error("HTTP " + r.status); }
        return r.json();
      }).then(function (first) {
        connection(true);
        lastEventId = first.event_id;
        hooks.first(first);
        open();
      }).catch(function () {
        connection(false);
        setTimeout(start, 2000);
      });
    }
    start();
  }

  // A game's log: each event's line once, newest first (``prepend``), at most ``limit`` lines.
  function logList(limit) {
    const seen = new Set();
    return function add(id, label, prepend) {
      if (seen.has(id)) { return; }
      seen.add(id);
      const item = document.createElement("li");
      item.textContent = label;
      const list = document.getElementById("log");
      if (prepend) { list.insertBefore(item, list.firstChild); } else { list.appendChild(item); }
      while (list.children.length > limit) { list.removeChild(list.lastChild); }
    };
  }

  // This device's role at game ``gameId`` as the server keeps it: "all" (a shared device), a seat number
  // as text, or null until "Who are you?" is answered. API answers carry it (``view.me``); the views the
  // stream shares carry only ``devices``, which tell when the host freed this phone's seat.
  // ``choose(value, pin, name)`` asks the server; ``changed()`` runs after every change.
  function role(gameId, changed) {
    let mine = null;
    function learn(view) {
      if (!view) { return; }
      const before = mine;
      if (view.me) {
        mine = view.me.seat === null || view.me.seat === undefined ? null : String(view.me.seat);
      } else if (mine !== null && view.devices && !view.devices.some(function (d) { return String(d.seat) === mine; })) {
        mine = null;
      }
      if (mine !== before) { changed(); }
    }
    function choose(value, pin, name) {
      const body = {seat: value === "all" ? "all" : Number(value)};
      if (pin !== undefined) { body.pin = pin; }
      if (name) { body.device = name; }
      return Keshi.api("POST", "/api/games/" + gameId + "/role", body).then(function (result) {
        if (result.ok) { learn(result.data.view); }
        return result;
      });
    }
    return {
      get: function () { return mine; },
      seat: function () { return mine !== null && mine !== "all" ? Number(mine) : null; },
      learn: learn,
      choose: choose,
    };
  }

  // The "plays for" list of a seated phone: one option per player after "everyone", this phone's
  // choice selected, and ``choose(value)`` called when the phone picks another.
  function fillRoles(select, names, chosen, choose) {
    names.forEach(function (n, i) { select.insertAdjacentHTML("beforeend", '<option value="' + i + '">' + Keshi.esc(n) + "</option>"); });
    select.value = chosen || "";
    select.addEventListener("change", function () { if (select.value) { choose(select.value); } });
  }

  // The "plays for" menu asked for "everyone" on a phone that is not the host: the card's share form
  // (the table PIN and the device's name) opens instead.
  function askShare() {
    const ask = document.getElementById("who-ask");
    const share = document.getElementById("who-share");
    if (!ask || !share) { return; }
    ask.hidden = false;
    share.hidden = false;
    document.getElementById("share-pin").focus();
  }

  // Every shared device, on every phone: "Ana's tablet plays for everyone" (the view's ``devices``); on
  // the host's table card, a button per taken seat to free it (that phone was lost or changed hands).
  function renderDevices(view) {
    const line = document.getElementById("shared-devices");
    if (!line) { return; }
    const shared = (view.devices || []).filter(function (d) { return d.seat === "all"; });
    line.textContent = shared.map(function (d) { return Keshi.say(d.say); }).join(" · ");
    line.hidden = !shared.length;
    const admin = document.getElementById("seat-admin");
    if (!admin || admin.dataset.host !== "yes") { return; }
    const taken = (view.devices || []).filter(function (d) { return d.seat !== "all"; });
    admin.innerHTML = taken.map(function (d) {
      return '<button type="button" class="secondary free-seat" data-seat="' + Keshi.esc(String(d.seat)) + '">' +
        Keshi.esc(Keshi.t("Free the seat of {player}", {player: view.names[d.seat]})) + "</button>";
    }).join("") + (shared.length ? '<button type="button" class="secondary free-seat" data-seat="all">' +
      Keshi.esc(Keshi.t("Stop every shared device")) + "</button>" : "");
    admin.querySelectorAll(".free-seat").forEach(function (b) {
      b.addEventListener("click", function () { Keshi.api("DELETE", "/api/games/" + view.id + "/role/" + b.dataset.seat); });
    });
  }

  // The "Who are you?" card (templates/_who_card.html): one button per player and "shared device" until
  // this phone answers (``choose(value)``), then the line saying who it plays for (``chip(seat)``).
  // A phone that is not the host makes itself shared with the table PIN and a name for the device
  // (the card's share form); ``choose("all", pin, name)`` then asks.
  function renderWho(names, chosen, chip, choose, host) {
    const ask = document.getElementById("who-ask");
    if (!ask) { return; }
    const share = document.getElementById("who-share");
    if (share && !share.dataset.ready) {
      share.dataset.ready = "yes";
      document.getElementById("share-go").addEventListener("click", function () {
        choose("all", document.getElementById("share-pin").value, document.getElementById("share-name").value);
      });
    }
    ask.hidden = chosen !== null;
    document.getElementById("who-chosen").hidden = chosen === null;
    document.getElementById("who-line").innerHTML = chosen === null ? "" : chosen === "all" ? Keshi.esc(t("Shared device")) :
      t("You are {player}", {player: chip(Number(chosen))});
    const options = document.getElementById("who-options");
    if (!options.children.length) {
      options.innerHTML = names.map(function (n, i) {
        return '<button type="button" class="option who" data-seat="' + i + '">' + Keshi.esc(t("I am {name}", {name: n})) + "</button>";
      }).join("") + '<button type="button" class="secondary who" data-seat="all">' + Keshi.esc(t("Shared device: plays for everyone")) + "</button>";
      options.querySelectorAll("button.who").forEach(function (b) {
        b.addEventListener("click", function () {
          if (b.dataset.seat === "all" && !host && share) { share.hidden = false; document.getElementById("share-pin").focus(); return; }
          choose(b.dataset.seat);
        });
      });
    }
  }

  // The sticky turn bar covers the window's top once the page is scrolled: the page's own scrolling
  // (scrollIntoView of a question, a message, the screen) leaves room for it, however tall it is now
  // (a notice or a lost connection makes it taller). app.css: ``html { scroll-padding-top: var(--turnbar-height) }``.
  const turnbar = document.getElementById("turnbar");
  if (turnbar && window.ResizeObserver) {
    new ResizeObserver(function () {
      document.documentElement.style.setProperty("--turnbar-height", turnbar.offsetHeight + "px");
    }).observe(turnbar);
  }

  return {follow: follow, logList: logList, role: role, fillRoles: fillRoles, askShare: askShare,
    renderDevices: renderDevices, renderWho: renderWho};
})();
