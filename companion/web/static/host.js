// The Host page: type the owner code to make this device the host, or stop being it.
(function () {
  "use strict";
  function done(result) {
    if (result.ok) { location.reload(); return; }
    document.getElementById("host-problem").textContent = result.data.error || String(result.status);
  }
  const become = document.getElementById("become-host");
  if (become) {
    become.addEventListener("click", function () {
      Keshi.api("POST", "/api/host", {code: document.getElementById("code").value}).then(done);
    });
  }
  const stop = document.getElementById("stop-hosting");
  if (stop) { stop.addEventListener("click", function () { Keshi.api("DELETE", "/api/host").then(done); }); }
})();
