// The board-profile screen: every printed value a game can ask, grouped as the components are (boards,
// tiles, and Sabika's cards) with how many are known, so a table can enter them all before its first game;
// tapping one shows where it is printed and a stepper to change it; a value can be forgotten (asked again in
// the next game that needs it); the profile can be exported and imported. One tab per Marrakesh edition, one
// for Sabika, and one for Morocco's printed value (a table game's, drawn by `tableValues`).
(function () {
  "use strict";
  const root = document.getElementById("profile");
  const edition = root.dataset.edition;
  const list = document.getElementById("pf-values");
  const summary = document.getElementById("pf-summary");
  const esc = Keshi.esc;
  const t = Keshi.t;
  const GROUPS = [["river", t("River")], ["palace", t("Palace staircase")], ["mosque", t("Mosque staircase")],
    ["line", t("Bonus lines between the staircases")], ["stair_tile", t("Staircase tiles")], ["square", t("Main square")],
    ["disc", t("Audience disc")], ["workshop", t("City-gate workshops")], ["gate_space", t("City-gate spaces")],
    ["sahara", t("Sahara")], ["storage", t("Supply board")], ["office", t("Exchange offices")], ["luxury", t("Luxury goods")],
    ["provision", t("Provision tiles")], ["scroll", t("Scrolls")], ["oasis", t("Oases")]];
  // where a value came from (the API's `source`), in the page's language
  const SOURCES = {answer: t("answered in a game"), edit: t("edited here"), import: t("imported"),
    rulebook: t("from the rulebook"), missing: t("not known yet: set it now, or it is asked in play")};
  let open = null;  // the key whose editor is open (kept across redraws)

  function url(path) { return "/api/board-profile/" + encodeURIComponent(edition) + path; }

  function load() {
    return Keshi.api("GET", root.dataset.api + "?edition=" + encodeURIComponent(edition)).then(function (r) {
      if (!r.ok) { summary.textContent = r.data.error || t("The profile could not be loaded."); return; }
      draw(r.data.entries);
    });
  }

  function items(members) {
    return '<ul class="pf-list">' + members.map(function (e) {
      return '<li class="pf-entry" data-key="' + esc(e.key) + '"><button type="button" class="pf-open" aria-expanded="' +
        (open === e.key) + '"><span class="pf-title">' + esc(e.title) + '</span><span class="pf-value">' +
        (e.value === null ? "—" : esc(KeshiValueEditor.label(e, e.value))) + '</span><span class="pf-source">' +
        esc(SOURCES[e.source] || e.source) + '</span></button><div class="pf-edit"' + (open === e.key ? "" : " hidden") +
        "></div></li>";
    }).join("") + "</ul>";
  }

  // the physical components, in the order the API sorts them (Sabika has one board, and cards)
  const COMPONENTS = [["board", edition === "sabika" ? t("Game board") : t("Boards")], ["tiles", t("Tiles")],
    ["cards", t("Cards")]];

  // A component's values under headings: Sabika's by the part of the component the API names (`family`, headed
  // by `where`), in the order they first appear; Marrakesh's by GROUPS. [[heading, entries], ...]
  function parts(members) {
    if (!members.some(function (e) { return e.family; })) {
      return GROUPS.map(function (g) {
        return [g[1], members.filter(function (e) { return e.key.split(".")[0] === g[0]; })];
      });
    }
    const out = [];
    members.forEach(function (e) {
      const group = out.filter(function (g) { return g[0] === e.where; })[0];
      if (group) { group[1].push(e); } else { out.push([e.where, [e]]); }
    });
    return out;
  }

  function known(members) { return members.filter(function (e) { return e.source !== "missing"; }).length; }

  function draw(entries) {
    const done = known(entries);
    summary.textContent = done === entries.length ? t("All {n} values known: no game asks any.", {n: entries.length}) :
      t("{known} of {n} values known. Enter the rest now, or each is asked the first time play needs it.",
        {known: done, n: entries.length});
    let html = "";
    // the first component with values missing (the boards first, then the tiles, then the cards)
    const first = COMPONENTS.map(function (c) { return c[0]; }).filter(function (c) {
      const members = entries.filter(function (e) { return e.component === c; });
      return known(members) < members.length;
    })[0];
    COMPONENTS.forEach(function (c) {
      const members = entries.filter(function (e) { return e.component === c[0]; });
      if (!members.length) { return; }
      const have = known(members);
      // open while it is being edited, or while values are missing (the first such component)
      const show = members.some(function (e) { return e.key === open; }) ||
        (have < members.length && (c[0] === first || location.hash === "#pf-missing"));
      html += '<details class="pf-component" data-component="' + esc(c[0]) + '"' + (show ? " open" : "") +
        '><summary class="pf-group">' + esc(c[1]) + ' <span class="pf-progress">' +
        esc(t("{known} of {n} known", {known: have, n: members.length})) + "</span></summary>";
      parts(members).forEach(function (g) {
        const part = g[1];
        if (part.length) {
          html += '<h3 class="pf-family">' + esc(g[0]) + ' <span class="pf-progress">' +
            esc(t("{known} of {n} known", {known: known(part), n: part.length})) + "</span></h3>" + items(part);
        }
      });
      html += "</details>";
    });
    list.innerHTML = html || '<p class="muted">' + esc(t("No values yet: they are asked during your first game.")) + "</p>";
    entries.forEach(function (e) {
      const li = list.querySelector('.pf-entry[data-key="' + CSS.escape(e.key) + '"]');
      li.querySelector(".pf-open").addEventListener("click", function () {
        open = open === e.key ? null : e.key;
        list.querySelectorAll(".pf-entry").forEach(function (other) {
          const on = other === li && open === e.key;
          other.querySelector(".pf-edit").hidden = !on;
          other.querySelector(".pf-open").setAttribute("aria-expanded", String(on));
        });
        if (open === e.key) { editor(li.querySelector(".pf-edit"), e); }
      });
      if (open === e.key) { editor(li.querySelector(".pf-edit"), e); }
    });
  }

  function editor(box, entry) {
    box.innerHTML = '<p class="pf-where">' + esc(entry.where) + '</p><div class="pf-editor"></div>' +
      (entry.source !== "rulebook" && entry.source !== "missing" ? '<button type="button" class="secondary pf-forget">' + esc(t("Forget (ask again next game)")) + "</button>" : "");
    KeshiValueEditor.render(box.querySelector(".pf-editor"), entry, {
      submit: t("Save"), prefix: "pf-" + entry.key.replace(/[^a-z0-9]/gi, "-"),
      onSubmit: function (value) {
        return Keshi.api("PUT", url("/values/" + encodeURIComponent(entry.key)), {value: value}).then(function (r) {
          if (r.ok) { load(); }
          return {ok: r.ok, error: r.data.error};
        });
      },
    });
    const forget = box.querySelector(".pf-forget");
    if (forget) {
      forget.addEventListener("click", function () {
        Keshi.api("DELETE", url("/values/" + encodeURIComponent(entry.key))).then(function (r) {
          if (r.ok) { open = null; load(); } else { box.querySelector(".pv-msg").hidden = false; box.querySelector(".pv-msg").textContent = r.data.error; }
        });
      });
    }
  }

  // Import a profile file (a board's tab only)
  function importing() {
    document.getElementById("pf-import").addEventListener("click", function () {
      const input = document.getElementById("pf-file");
      const state = document.getElementById("pf-import-state");
      if (!input.files.length) { state.textContent = t("Choose a board-profile file first."); state.className = "error"; return; }
      input.files[0].text().then(function (body) {
        return Keshi.api("POST", root.dataset.import, body, {"Content-Type": "application/json"});
      }).then(function (r) {
        if (!r.ok) {
          state.textContent = t("Not imported: {why}.", {why: r.data.error || t("the file was refused")});
          state.className = "error";
          return;
        }
        const d = r.data;
        state.className = "ok";
        state.textContent = d.edition !== edition ?
          t("Imported: {added} new, {changed} changed, {unchanged} already the same (for the {edition} board).", d) :
          t("Imported: {added} new, {changed} changed, {unchanged} already the same.", d);
        load();
      });
    });
  }

  // A table game's printed values (Morocco's overflow arrow): one button per possible value, the table's
  // value marked; a tap keeps it for every later game of that kind, Forget lets the next game ask again.
  function tableValues(card) {
    const box = card.querySelector(".tp-values");
    Keshi.api("GET", card.dataset.api).then(function (r) {
      if (!r.ok) { box.textContent = r.data.error || t("The profile could not be loaded."); return; }
      box.innerHTML = r.data.entries.map(function (e) {
        return '<div class="tp-entry" data-key="' + esc(e.key) + '"><p class="pf-title">' + esc(e.title) + "</p>" +
          '<p class="muted small pf-source">' + esc(SOURCES[e.source] || e.source) + '</p><div class="pv-words">' +
          e.options.map(function (o) {
            return '<button type="button" class="pv-word tp-set' + (o === e.value ? " current" : "") + '" data-value="' +
              esc(JSON.stringify(o)) + '" aria-pressed="' + (o === e.value) + '">' + esc(KeshiValueEditor.text(o)) + "</button>";
          }).join("") + "</div>" + (e.value === null ? "" : '<button type="button" class="secondary tp-forget">' +
          esc(t("Forget (ask again next game)")) + "</button>") + '<p class="error tp-error" role="alert"></p></div>';
      }).join("");
      box.querySelectorAll(".tp-entry").forEach(function (entry) {
        const url = card.dataset.api + "/values/" + encodeURIComponent(entry.dataset.key);
        const done = function (result) {
          if (result.ok) { tableValues(card); return; }
          entry.querySelector(".tp-error").textContent = result.data.error || String(result.status);
        };
        entry.querySelectorAll(".tp-set").forEach(function (b) {
          b.addEventListener("click", function () {
            Keshi.api("PUT", url, {value: JSON.parse(b.dataset.value)}).then(done);
          });
        });
        const forget = entry.querySelector(".tp-forget");
        if (forget) { forget.addEventListener("click", function () { Keshi.api("DELETE", url).then(done); }); }
      });
    });
  }

  if (list) { load(); importing(); }  // a board's tab; Morocco's tab has its card only
  document.querySelectorAll("#tp-morocco").forEach(tableValues);
})();
