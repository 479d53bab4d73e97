// The setup wizard: which game and its players (names, colours, seats); then for Marrakesh the
// edition, expansions, tower layer and setup draws, for another game its own options; a review.
(function () {
  "use strict";
  const colours = window.PLAYER_COLOURS;
  const games = window.GAMES;
  const t = Keshi.t;
  // The seat colours in the page's language (the values sent stay the English keys).
  const COLOUR_WORDS = {blue: t("blue"), red: t("red"), green: t("green"), yellow: t("yellow"), purple: t("purple")};
  function colourWord(name) { return COLOUR_WORDS[name] || name; }
  const playersBox = document.getElementById("players");
  const steps = {};
  document.querySelectorAll(".step").forEach(function (s) { steps[s.dataset.name] = s; });
  let current = "players";

  function game() {
    const key = document.querySelector('input[name="game"]:checked').value;
    return games.filter(function (g) { return g.key === key; })[0];
  }
  function marrakesh() { return game().key === "marrakesh"; }
  function flow() { return marrakesh() ? ["players", "edition", "draws", "review"] : ["players", "options", "review"]; }
  function maxPlayers() { return game().players[1]; }

  function addPlayer(name) {
    const index = playersBox.children.length;
    if (index >= maxPlayers()) { return; }
    const row = document.createElement("div");
    row.className = "player-row";
    row.innerHTML = '<label class="field">' + Keshi.esc(t("Seat {n} name", {n: index + 1})) + ' <input class="player-name" maxlength="24" ' +
      'autocomplete="off" value="' + Keshi.esc(name || "") + '"></label>' +
      '<label class="field">' + Keshi.esc(t("Colour")) + ' <select class="player-colour"></select></label>' +
      '<button type="button" class="secondary remove" aria-label="' + Keshi.esc(t("Remove seat {n}", {n: index + 1})) + '">' +
      Keshi.esc(t("Remove")) + "</button>";
    row.querySelector(".remove").addEventListener("click", function () {
      if (playersBox.children.length > game().players[0]) { row.remove(); renumber(); }
    });
    playersBox.appendChild(row);
    fillColours(row.querySelector(".player-colour"), index);
    renumber();
  }

  // The colours a seat may take: as many as the game has seats (the 5th only for 5-player games).
  function fillColours(select, index) {
    const chosen = select.value || (colours[index] || colours[0]).name;
    select.innerHTML = colours.slice(0, Math.max(4, maxPlayers())).map(function (c) {
      return '<option value="' + c.name + '"' + (c.name === chosen ? " selected" : "") + ">" + c.symbol + " " + Keshi.esc(colourWord(c.name)) + "</option>";
    }).join("");
  }

  function renumber() {
    Array.from(playersBox.children).forEach(function (row, i) {
      row.querySelector("label").firstChild.textContent = t("Seat {n} name", {n: i + 1}) + " ";
      row.querySelector(".remove").setAttribute("aria-label", t("Remove seat {n}", {n: i + 1}));
    });
    document.getElementById("add-player").disabled = playersBox.children.length >= maxPlayers();
  }

  function gameChanged() {
    const g = game();
    document.getElementById("players-help").textContent = t("In seat order, clockwise. {low} to {high} players.",
      {low: g.players[0], high: g.players[1]});
    document.getElementById("next-players").textContent = marrakesh() ? t("Next: edition & tower") :
      t("Next: {game} options", {game: g.name});
    Array.from(playersBox.querySelectorAll(".player-colour")).forEach(fillColours);
    while (playersBox.children.length < g.players[0]) { addPlayer(""); }
    renumber();
  }

  function players() {
    return Array.from(playersBox.children).map(function (row) {
      return {name: row.querySelector(".player-name").value.trim(), colour: row.querySelector(".player-colour").value};
    });
  }

  // The other game's own fields (its adapter's OPTIONS): a seat, a choice or a JSON object.
  function renderOptions() {
    const g = game();
    document.getElementById("options-game").textContent = g.name;
    const box = document.getElementById("game-options");
    box.innerHTML = g.options.map(function (o, i) {
      const help = o.help ? '<span class="muted small help">' + Keshi.esc(o.help) + "</span>" : "";
      if (o.kind === "seat") {
        return '<label class="field">' + Keshi.esc(o.label) + ' <select data-option="' + i + '"><option value="">' + Keshi.esc(t("Drawn by the companion")) + "</option>" +
          players().map(function (p, s) { return '<option value="' + s + '">' + Keshi.esc(p.name) + "</option>"; }).join("") +
          "</select>" + help + "</label>";
      }
      if (o.kind === "choice") {
        return '<fieldset><legend>' + Keshi.esc(o.label) + "</legend>" + o.choices.map(function (c, j) {
          return '<label class="choice"><input type="radio" name="opt-' + i + '" data-option="' + i + '" value="' + j + '"' +
            (j === 0 ? " checked" : "") + "> " + Keshi.esc(c.label) + "</label>";
        }).join("") + help + "</fieldset>";
      }
      if (o.kind === "layout") { return layoutField(o, i, help); }
      return '<label class="field">' + Keshi.esc(o.label) + ' <textarea rows="3" data-option="' + i + '"></textarea>' + help + "</label>";
    }).join("");
  }
  // A layout laid out at the table (Morocco's cubes and juice sellers): a line of cells per part of the board,
  // each a tap-to-pick menu ("not entered" first); a line left empty is the companion's to draw.
  function layoutField(o, i, help) {
    return '<fieldset class="layout" data-option="' + i + '"><legend>' + Keshi.esc(o.label) + "</legend>" + help +
      o.lines.map(function (line) {
        const values = o.values[line.values];
        const cell = function (n) {
          return '<select class="layout-cell" data-line="' + Keshi.esc(line.key) + '" aria-label="' +
            Keshi.esc(line.label + " · " + (n + 1)) + '"><option value="">–</option>' + values.map(function (v, j) {
              return '<option value="' + j + '">' + Keshi.esc(v.label) + "</option>"; }).join("") + "</select>";
        };
        let cells = "";
        for (let n = 0; n < line.cells; n += 1) { cells += cell(n); }
        return '<div class="layout-line"><p class="layout-label">' + Keshi.esc(line.label) + '</p><div class="layout-cells' +
          (line.per_row ? " grid-" + line.per_row : "") + '">' + cells + "</div></div>";
      }).join("") + "</fieldset>";
  }
  // The layout's lines that were entered whole ({rows: [...], juice: [[...] x6]}); a line entered in part is
  // refused in player words, naming it.
  function layoutValue(o, i) {
    const out = {};
    o.lines.forEach(function (line) {
      const values = o.values[line.values];
      const picked = Array.from(document.querySelectorAll('fieldset[data-option="' + i + '"] select[data-line="' + line.key + '"]'))
        .map(function (select) { return select.value === "" ? null : values[Number(select.value)].value; });
      const entered = picked.filter(function (v) { return v !== null; }).length;
      if (!entered) { return; }
      if (entered < picked.length) {
        const error = new Error(t("{line}: {n} of {total} entered. Enter all of them, or none to let the companion draw them.",
          {line: line.label, n: entered, total: picked.length}));
        error.player = true;
        throw error;
      }
      if (!line.per_row) { out[line.key] = picked; return; }
      out[line.key] = [];
      for (let r = 0; r < picked.length; r += line.per_row) { out[line.key].push(picked.slice(r, r + line.per_row)); }
    });
    return Object.keys(out).length ? out : null;
  }
  function gameOptions() {
    const g = game();
    const out = {};
    g.options.forEach(function (o, i) {
      if (o.kind === "seat") {
        const value = document.querySelector('select[data-option="' + i + '"]').value;
        if (value !== "") { out[o.key] = parseInt(value, 10); }
      } else if (o.kind === "choice") {
        const picked = document.querySelector('input[data-option="' + i + '"]:checked');
        if (picked) { out[o.key] = o.choices[Number(picked.value)].value; }
      } else if (o.kind === "layout") {
        const layout = layoutValue(o, i);
        if (layout) { out[o.key] = layout; }
      } else {
        const text = document.querySelector('textarea[data-option="' + i + '"]').value.trim();
        if (text) { out[o.key] = JSON.parse(text); }
      }
    });
    return out;
  }

  function form() {
    if (!marrakesh()) {
      const body = {game: game().key, players: players(), options: gameOptions()};
      const seed = document.getElementById("game-seed").value.trim();
      if (seed) { body.seed = parseInt(seed, 10); }
      return body;
    }
    const body = {
      game: "marrakesh",
      players: players(),
      edition: document.querySelector('input[name="edition"]:checked').value,
      tower_layer: document.querySelector('input[name="layer"]:checked').value,
      expansions: Array.from(document.querySelectorAll('input[name="expansion"]:checked')).map(function (box) {
        return parseInt(box.value, 10);
      }),
    };
    const seed = document.getElementById("seed").value.trim();
    if (seed) { body.seed = parseInt(seed, 10); }
    if (document.querySelector('input[name="draws"]:checked').value === "table") {
      // The table drew the setup itself: start player and river tiles here, the rest asked during play.
      body.start_player = parseInt(document.getElementById("start-player").value, 10);
      body.table_draws = true;
      const river = Array.from(document.querySelectorAll(".river-tile")).map(function (select) { return select.value; });
      if (river.some(function (tile) { return tile === ""; })) {
        const error = new Error(t("Choose the river tile of each season, as it lies beside the river."));
        error.player = true;
        throw error;
      }
      body.draws = {river_tiles: river.map(function (tile) { return parseInt(tile, 10); })};
    }
    return body;
  }

  function editionName() {
    return document.querySelector('input[name="edition"]:checked').parentElement.textContent.trim();
  }
  function expansionNames() {
    return Array.from(document.querySelectorAll('input[name="expansion"]:checked')).map(function (box) {
      return box.parentElement.querySelector("strong").textContent;
    });
  }

  function problem(name) {
    if (name === "players") {
      const g = game();
      const names = players().map(function (p) { return p.name; });
      if (names.length < g.players[0] || names.length > g.players[1]) {
        return t("{game} is for {low} to {high} players.", {game: g.name, low: g.players[0], high: g.players[1]});
      }
      if (names.some(function (n) { return !n; })) { return t("Every seat needs a name."); }
      if (new Set(names).size !== names.length) { return t("Two players have the same name."); }
      const taken = {};
      const clash = players().filter(function (p) { if (taken[p.colour]) { return true; } taken[p.colour] = p.name; return false; })[0];
      if (clash) {
        return t("{first} and {second} both chose {colour}: each seat needs its own colour.",
          {first: taken[clash.colour], second: clash.name, colour: colourWord(clash.colour)});
      }
    }
    if ((name === "draws" && document.querySelector('input[name="draws"]:checked').value === "table") || name === "options") {
      try { form(); } catch (e) { return e.player ? e.message : t("The draws are not valid JSON: {problem}", {problem: e.message}); }
    }
    return "";
  }

  function reviewLines(body) {
    const seats = t("Players: {players}", {players: body.players.map(function (p) {
      return p.name + " (" + colourWord(p.colour) + ")"; }).join(", ")});
    if (!marrakesh()) {
      const o = body.options;
      const start = o.start_player !== undefined ? body.players[o.start_player].name : t("drawn by the companion");
      return [t("Game: {game}", {game: game().name}), seats, t("Start player: {player}", {player: start}),
        t("Setup draws: {how}", {how: o.draws ? t("partly entered from the table") : t("drawn by the companion")})];
    }
    return [
      t("Game: {game}", {game: "Marrakesh"}), seats,
      t("Edition: {edition} · tower layer {layer}", {edition: editionName(), layer: body.tower_layer}),
      t("Expansions: {modules}", {modules: expansionNames().join(", ") || t("none")}),
      t("Setup draws: {how}", {how: body.table_draws ? t("drawn at the table; the companion asks for each as play needs it") :
        t("drawn by the companion")}),
    ];
  }

  function show(name) {
    Object.keys(steps).forEach(function (n) { steps[n].hidden = n !== name; });
    current = name;
    if (name === "draws") {
      document.getElementById("start-player").innerHTML = players().map(function (p, i) {
        return '<option value="' + i + '">' + Keshi.esc(p.name) + "</option>";
      }).join("");
    }
    if (name === "options") { renderOptions(); }
    if (name === "review") {
      const review = document.getElementById("review");
      review.innerHTML = "";
      reviewLines(form()).forEach(function (line) {
        const item = document.createElement("li");
        item.textContent = line;
        review.appendChild(item);
      });
    }
    window.scrollTo(0, 0);
  }

  document.querySelectorAll(".next").forEach(function (button) {
    button.addEventListener("click", function () {
      const message = problem(current);
      if (message) { alertIn(steps[current], message); return; }
      const order = flow();
      show(order[order.indexOf(current) + 1]);
    });
  });
  document.querySelectorAll(".back").forEach(function (button) {
    button.addEventListener("click", function () {
      const order = flow();
      show(order[order.indexOf(current) - 1]);
    });
  });
  document.querySelectorAll('input[name="draws"]').forEach(function (radio) {
    radio.addEventListener("change", function () {
      const table = radio.value === "table" && radio.checked;
      document.getElementById("table-draws").hidden = !table;
      document.getElementById("seed").closest("label").hidden = table;  // a table's draws use no seed
    });
  });
  document.querySelectorAll('input[name="game"]').forEach(function (radio) {
    radio.addEventListener("change", gameChanged);
  });
  document.getElementById("add-player").addEventListener("click", function () { addPlayer(""); });

  function alertIn(step, message) {
    let box = step.querySelector(".error");
    if (!box) {
      box = document.createElement("p");
      box.className = "error";
      box.setAttribute("role", "alert");
      step.querySelector(".steps-nav").before(box);
    }
    box.textContent = message;
    box.scrollIntoView({block: "center"});
  }

  document.getElementById("start").addEventListener("click", function () {
    const button = this;
    button.disabled = true;
    Keshi.api("POST", "/api/games", form()).then(function (result) {
      if (result.ok) { location.href = "/games/" + result.data.id; return; }
      document.getElementById("setup-error").textContent = result.data.error || ("HTTP " + result.status);
      button.disabled = false;
    });
  });

  // The wizard is a form for its fields only: Enter never submits it (the steps' buttons lead on).
  document.getElementById("wizard").addEventListener("submit", function (event) { event.preventDefault(); });

  addPlayer("");
  addPlayer("");
  gameChanged();
})();
