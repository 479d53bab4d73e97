// The setup wizard: players (names, colours, seats), edition and tower layer, the setup draws.
(function () {
  "use strict";
  const colours = window.PLAYER_COLOURS;
  const playersBox = document.getElementById("players");
  const steps = Array.from(document.querySelectorAll(".step"));
  let current = 0;

  function addPlayer(name) {
    const index = playersBox.children.length;
    if (index >= 4) { return; }
    const row = document.createElement("div");
    row.className = "player-row";
    const options = colours.map(function (c, i) {
      return '<option value="' + c.name + '"' + (i === index ? " selected" : "") + ">" + c.symbol + " " + c.name + "</option>";
    }).join("");
    row.innerHTML = '<label class="field">Seat ' + (index + 1) + ' name <input class="player-name" maxlength="24" ' +
      'autocomplete="off" value="' + (name || "") + '"></label>' +
      '<label class="field">Colour <select class="player-colour">' + options + "</select></label>" +
      '<button type="button" class="secondary remove" aria-label="Remove seat ' + (index + 1) + '">Remove</button>';
    row.querySelector(".remove").addEventListener("click", function () {
      if (playersBox.children.length > 2) { row.remove(); renumber(); }
    });
    playersBox.appendChild(row);
    renumber();
  }

  function renumber() {
    Array.from(playersBox.children).forEach(function (row, i) {
      row.querySelector("label").firstChild.textContent = "Seat " + (i + 1) + " name ";
    });
    document.getElementById("add-player").disabled = playersBox.children.length >= 4;
  }

  function players() {
    return Array.from(playersBox.children).map(function (row) {
      return {name: row.querySelector(".player-name").value.trim(), colour: row.querySelector(".player-colour").value};
    });
  }

  function form() {
    const body = {
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
      body.start_player = parseInt(document.getElementById("start-player").value, 10);
      const draws = {};
      const other = document.getElementById("other-draws").value.trim();
      if (other) { Object.assign(draws, JSON.parse(other)); }
      const river = document.getElementById("river-tiles").value.trim();
      if (river) { draws.river_tiles = river.split(/[ ,]+/).map(function (x) { return parseInt(x, 10); }); }
      body.draws = draws;
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

  function problem(stepIndex) {
    if (stepIndex === 0) {
      const names = players().map(function (p) { return p.name; });
      if (names.some(function (n) { return !n; })) { return "Every seat needs a name."; }
      if (new Set(names).size !== names.length) { return "Two players have the same name."; }
      const taken = {};
      const clash = players().filter(function (p) { if (taken[p.colour]) { return true; } taken[p.colour] = p.name; return false; })[0];
      if (clash) {
        return taken[clash.colour] + " and " + clash.name + " both chose " + clash.colour + ": each seat needs its own colour.";
      }
    }
    if (stepIndex === 2 && document.querySelector('input[name="draws"]:checked').value === "table") {
      try { form(); } catch (e) { return "The other draws are not valid JSON: " + e.message; }
    }
    return "";
  }

  function show(index) {
    steps.forEach(function (s, i) { s.hidden = i !== index; });
    current = index;
    if (index === 2) {
      document.getElementById("start-player").innerHTML = players().map(function (p, i) {
        return '<option value="' + i + '">' + p.name + "</option>";
      }).join("");
    }
    if (index === 3) {
      const body = form();
      const lines = [
        "Players: " + body.players.map(function (p) { return p.name + " (" + p.colour + ")"; }).join(", "),
        "Edition: " + editionName() + " · tower layer " + body.tower_layer,
        "Expansions: " + (expansionNames().join(", ") || "none"),
        "Setup draws: " + (body.draws ? "entered from the table" : "drawn by the companion"),
      ];
      const review = document.getElementById("review");
      review.innerHTML = "";
      lines.forEach(function (line) {
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
      show(current + 1);
    });
  });
  document.querySelectorAll(".back").forEach(function (button) {
    button.addEventListener("click", function () { show(current - 1); });
  });
  document.querySelectorAll('input[name="draws"]').forEach(function (radio) {
    radio.addEventListener("change", function () {
      document.getElementById("table-draws").hidden = radio.value !== "table" || !radio.checked;
    });
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

  addPlayer("");
  addPlayer("");
})();
