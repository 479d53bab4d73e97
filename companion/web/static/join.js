// The join page: send the typed table PIN; once seated, go on to the game's page.
(function () {
  "use strict";
  const t = Keshi.t;
  const button = document.getElementById("join");
  const game = encodeURIComponent(button.dataset.game);
  button.addEventListener("click", function () {
    Keshi.api("POST", "/api/games/" + game + "/join", {pin: document.getElementById("pin").value})
      .then(function (result) {
        if (result.ok) { location.href = "/games/" + game; }
        else { document.getElementById("join-state").textContent = result.data.error || t("Could not join"); }
      });
  });
})();
