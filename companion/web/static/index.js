// The games list: delete a game (with its log and events) after a confirmation, and import a log
// (both for the table's host: the companion's own screen or a phone with the owner code).
(function () {
  "use strict";
  const t = Keshi.t;

  document.querySelectorAll(".delete-game").forEach(function (button) {
    button.addEventListener("click", function () {
      const row = button.closest("li");
      const state = row.querySelector(".delete-state");
      if (!window.confirm(t("Delete “{title}” with its whole log? This cannot be undone.", {title: button.dataset.title}))) { return; }
      Keshi.api("DELETE", "/api/games/" + button.dataset.id).then(function (result) {
        if (result.ok) { row.remove(); return; }
        state.hidden = false;
        state.textContent = t("Not deleted: {reason}", {reason: result.data.error || result.status});
      });
    });
  });

  document.getElementById("import").addEventListener("click", function () {
    const input = document.getElementById("import-file");
    const state = document.getElementById("import-state");
    if (!input.files.length) { state.textContent = t("Choose a log file first."); return; }
    input.files[0].text().then(function (text) {
      return Keshi.api("POST", "/api/games/import", text, {"Content-Type": "application/x-ndjson"});
    }).then(function (result) {
      if (result.ok) { location.href = "/games/" + result.data.id; }
      else { state.textContent = t("Import refused: {reason}", {reason: result.data.error || result.status}); }
    });
  });
})();
