// The board-profile screen: every printed value the table has given (and the rulebook's), grouped by
// component, after the boards' own values not known yet (to enter in one sitting); tapping one shows where it is printed and a stepper to change it; a value can be
// forgotten (asked again in the next game that needs it); the profile can be exported and imported.
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
        (e.value === null ? "—" : esc(KeshiValueEditor.text(e.value))) + '</span><span class="pf-source">' +
        esc(SOURCES[e.source] || e.source) + '</span></button><div class="pf-edit"' + (open === e.key ? "" : " hidden") +
        "></div></li>";
    }).join("") + "</ul>";
  }

  function draw(entries) {
    const count = function (source) { return entries.filter(function (e) { return e.source === source; }).length; };
    const missing = entries.filter(function (e) { return e.source === "missing"; });
    const mine = entries.length - count("rulebook") - missing.length;
    const counts = {yours: mine === 1 ? t("1 value from your table") : t("{n} values from your table", {n: mine}),
      rulebook: count("rulebook"), missing: missing.length};
    summary.textContent = missing.length ? t("{yours}, {rulebook} from the rulebook, {missing} board values not known yet.", counts) :
      t("{yours}, {rulebook} from the rulebook.", counts);
    let html = "";
    if (missing.length) {  // the boards' own values in one sitting, instead of one question at a time in play
      // open when nothing is known yet, while editing one of them, or when the game page sent the table here
      const show = mine === 0 || location.hash === "#pf-missing" || missing.some(function (e) { return e.key === open; });
      html += '<details class="pf-missing" id="pf-missing"' + (show ? " open" : "") + '><summary class="pf-group">' +
        esc(t("Your boards: {n} values not known yet", {n: missing.length})) + '</summary><p class="muted small">' +
        esc(t("Enter them before your first game, or leave them: each is asked the first time play needs it.")) + "</p>" +
        items(missing) + "</details>";
    }
    GROUPS.forEach(function (g) {
      const members = entries.filter(function (e) { return e.source !== "missing" && e.key.split(".")[0] === g[0]; });
      if (members.length) { html += '<h3 class="pf-group">' + esc(g[1]) + "</h3>" + items(members); }
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

  load();
})();
