// The Tower page: start a toss, then follow it over Server-Sent Events.
(function () {
  "use strict";
  const button = document.getElementById("toss");
  const state = document.getElementById("toss-state");
  const drops = document.getElementById("drops");
  const source = document.getElementById("counts-source");
  let current = null;

  function showCounts(result) {
    document.querySelectorAll("#counts tr[data-colour]").forEach(function (row) {
      row.querySelector(".n").textContent = String(result.counts[row.dataset.colour] || 0);
    });
    const label = result.source === "simulator-truth"
      ? t("Counts from the simulator's own truth (no camera in the loop).")
      : t("Counts from the camera.");
    source.textContent = label + " " + t("Beam counted {n} drop(s).", {n: result.beam_count}) +
      (result.flagged ? " " + t("The beam and the camera disagree: please check the tray.") : "");
  }

  // The live stream carries this page's own id, so a reconnect replaces the page's old stream. When the
  // companion has no live place free (503 with Retry-After) the page says so and tries again later.
  const tab = Math.random().toString(36).slice(2) + Date.now().toString(36);
  function listen() {
    const events = new EventSource("/events?tab=" + tab);
    events.onmessage = onMessage;
    events.onerror = function () {
      if (events.readyState !== EventSource.CLOSED) { return; }  // the browser reconnects by itself
      const asking = new AbortController();
      fetch("/events?tab=" + tab, {credentials: "same-origin", signal: asking.signal}).then(function (r) {
        if (r.status !== 503) { asking.abort(); setTimeout(listen, 2000); return; }
        const seconds = Number(r.headers.get("Retry-After")) || 10;
        return r.json().then(function (body) {
          state.textContent = Keshi.sayOr(body.say, body.error);
          setTimeout(listen, seconds * 1000);
        });
      }).catch(function () { setTimeout(listen, 2000); });
    };
  }
  function onMessage(message) {
    const event = JSON.parse(message.data);
    const data = event.data;
    if (event.topic === "toss.started") {
      current = data.toss_id;
      drops.innerHTML = "";
      state.textContent = t("Tossing…");
      button.disabled = true;
    } else if (event.topic === "toss.drop" && data.toss_id === current) {
      const item = document.createElement("li");
      item.textContent = data.t_ms.toFixed(0) + " ms" +
        (data.double ? " " + t("(likely two pieces)") : "");
      drops.appendChild(item);
    } else if (event.topic === "toss.settled" && data.toss_id === current) {
      state.textContent = t("Settled after {n} drop(s); counting…", {n: data.drops});
    } else if (event.topic === "toss.result" && data.toss_id === current) {
      showCounts(data);
      state.textContent = t("Done.");
      button.disabled = false;
    } else if (event.topic === "tower.fault") {
      state.textContent = t("Tower fault: {message}", {message: Keshi.sayOr(data.say, data.message)});
      button.disabled = false;
    }
  }
  listen();

  // The table shook the tower empty: it now counts as holding nothing.
  const emptied = document.getElementById("emptied");
  emptied.addEventListener("click", function () {
    const answer = document.getElementById("empty-state");
    emptied.disabled = true;
    Keshi.api("POST", "/api/tower/empty", {found: {}}).then(function (result) {
      emptied.disabled = false;
      if (!result.ok) {
        answer.textContent = t("Not now: {reason}", {reason: result.data.error || t("error {status}", {status: result.status})});
        return;
      }
      const before = Object.keys(result.data.believed || {}).map(function (c) {
        return result.data.believed[c] + " " + Keshi.word("colour", c);
      });
      answer.textContent = before.length ? t("The tower now counts as empty (it was believed to hold {pieces}).", {pieces: before.join(", ")})
        : t("The tower now counts as empty.");
    }).catch(function () {
      emptied.disabled = false;
      answer.textContent = t("No connection to the companion; try again.");
    });
  });

  button.addEventListener("click", function () {
    button.disabled = true;
    state.textContent = t("Starting a toss…");
    Keshi.api("POST", "/api/tower/toss", {})
      .then(function (result) {
        if (!result.ok) { throw new Error(result.data.error || "HTTP " + result.status); }
        current = result.data.toss_id;
      })
      .catch(function (error) {
        state.textContent = t("Could not toss: {reason}", {reason: error.message});
        button.disabled = false;
      });
  });
})();
