// The calibration wizard: one screen per step (empty tray, then each colour with its name, symbol
// and swatch), the camera's photo of each, then the calibration result and a test count.
(function () {
  "use strict";
  const palette = {};
  window.PALETTE.forEach(function (c) { palette[c.name] = c; });
  const stepBox = document.getElementById("cal-step");
  const resultBox = document.getElementById("cal-result");
  const progress = document.getElementById("cal-progress");
  let state = null;
  let current = 0;
  let busy = false;

  const esc = Keshi.esc;
  const chip = Keshi.chip;
  function error(text) {
    const box = document.getElementById("cal-error");
    box.textContent = text || "";
    box.hidden = !text;
  }
  function call(path) {
    if (busy) { return Promise.resolve(); }
    busy = true;
    error("");
    document.querySelectorAll("#cal-step button, #cal-result button").forEach(function (b) { b.disabled = true; });
    const body = path === "/capture" ? {step: state.steps[current].step} : {};
    return Keshi.api("POST", "/api/calibration" + path, body).then(function (result) {
      busy = false;
      if (result.ok) { state = result.data; } else { error(result.data.error || t("The companion said {status}", {status: result.status})); }
      render();
      return result.ok;
    });
  }

  function title(entry) {
    return entry.step === "empty" ? esc(t("Empty tray")) : chip(entry.step);
  }

  function renderProgress() {
    progress.innerHTML = state.steps.map(function (entry, i) {
      const label = entry.step === "empty" ? t("empty") : (palette[entry.step] || {}).symbol || entry.step;
      const name = entry.step === "empty" ? t("Empty tray") : Keshi.word("colour", entry.step);
      const aria = entry.captured ? t("Step {n}: {name} (photographed)", {n: i + 1, name: name})
        : t("Step {n}: {name}", {n: i + 1, name: name});
      return '<li class="' + (entry.captured ? "done" : "") + (i === current ? " current" : "") + '">' +
        '<button type="button" class="cal-jump" data-i="' + i + '" aria-label="' + esc(aria) + '">' + esc(label) + "</button></li>";
    }).join("");
    progress.querySelectorAll(".cal-jump").forEach(function (b) {
      b.addEventListener("click", function () { current = Number(b.dataset.i); render(); });
    });
  }

  function renderStep() {
    const entry = state.steps[current];
    const total = state.steps.length;
    let html = '<h2 id="cal-title">' + esc(t("Step {n} of {total}", {n: current + 1, total: total})) + " · " + title(entry) + "</h2>";
    if (entry.step === "empty") {
      html += "<p>" + esc(t("Take every keshi out of the tray, switch on the light you play under, then take the photo.")) + "</p>";
    } else {
      html += "<p>" + esc(t("Put {n} keshis of this colour in the tray, apart from each other (some standing, some lying), " +
        "and nothing else:", {n: window.PIECES_PER_COLOUR})) + " " + chip(entry.step) + "</p>";
    }
    if (entry.captured) {
      html += '<figure class="snapshot"><img id="cal-image" src="' + esc(entry.image_url) + '" alt="' +
        esc(t("The camera's photo of this step")) + '">' + '<figcaption class="muted small">' +
        esc(t("What the camera saw. Retake it if keshis touch or something else is in the tray.")) + "</figcaption></figure>";
    }
    html += '<div class="steps-nav">';
    if (current > 0) { html += '<button type="button" class="secondary" id="cal-back">' + esc(t("Back")) + "</button>"; }
    html += '<button type="button" id="cal-capture"' + (entry.captured ? ' class="secondary"' : ' class="big"') + ">" +
      esc(entry.captured ? t("Retake photo") : t("Take photo")) + "</button>";
    if (entry.captured && current < total - 1) { html += '<button type="button" class="big" id="cal-next">' + esc(t("Next")) + "</button>"; }
    html += "</div>";
    const missing = state.steps.filter(function (s) { return !s.captured; }).length;
    if (current === total - 1 && entry.captured) {
      html += missing ? '<p class="muted">' + esc(t("{n} step(s) still need a photo (see the list above).", {n: missing})) + "</p>" :
        '<button type="button" class="big" id="cal-finish">' + esc(t("Calibrate from these {n} photos", {n: total})) + "</button>";
    }
    stepBox.innerHTML = html;
    bind("cal-capture", function () { call("/capture"); });
    bind("cal-back", function () { current -= 1; render(); });
    bind("cal-next", function () { current += 1; render(); });
    bind("cal-finish", function () { call("/finish").then(function (ok) { if (ok) { resultBox.scrollIntoView(); } }); });
  }

  function renderResult() {
    const cal = state.calibration;
    resultBox.hidden = !cal;
    if (!cal) { return; }
    if (cal.error) { resultBox.innerHTML = "<h2>" + esc(t("Calibration")) + '</h2><p class="warn">' + esc(cal.error) + "</p>"; return; }
    let html = '<h2 id="cal-result-title">' + esc(t("Calibration saved")) + '</h2><p class="muted small">' +
      esc(t("Saved as {path} ({width}×{height} px). The tower counts with it from the next toss. Keshis learnt per colour:",
        {path: cal.path, width: cal.width, height: cal.height})) + '</p><p class="chips">' +
      Object.keys(cal.pieces).map(function (c) { return chip(c, cal.pieces[c]); }).join(" ") + "</p>";
    html += "<p>" + esc(t("Now check it: put a handful of keshis in the tray and count them.")) + "</p>" +
      '<button type="button" class="big" id="cal-test">' + esc(t("Test count")) + "</button>";
    const test = state.test;
    if (test) {
      const counts = {};
      Object.keys(test.counts).forEach(function (c) { if (test.counts[c]) { counts[c] = test.counts[c]; } });
      const sure = {};
      test.pieces.forEach(function (p) { (sure[p.colour] = sure[p.colour] || []).push(p.confidence); });
      html += '<figure class="snapshot"><img id="cal-test-image" src="' + esc(test.image_url) + '" alt="' + esc(t("The test photo")) + '"></figure>' +
        '<table class="breakdown" id="cal-test-counts"><thead><tr><th>' + esc(t("Detected")) + "</th><th>n</th><th>" +
        esc(t("least sure")) + "</th></tr></thead><tbody>" +
        Object.keys(counts).map(function (c) {
          return "<tr><td>" + chip(c) + '</td><td class="n">' + counts[c] + '</td><td class="n">' +
            Math.round(Math.min.apply(null, sure[c] || [1]) * 100) + "%</td></tr>";
        }).join("") + (test.unknown ? '<tr class="unsure"><td>' + esc(t("unknown colour")) + '</td><td class="n">' + test.unknown + "</td><td></td></tr>" : "") +
        "</tbody></table>";
      if (test.truth) {
        const right = Object.keys(test.truth).every(function (c) { return (test.truth[c] || 0) === (test.counts[c] || 0); }) && !test.unknown;
        html += '<p class="' + (right ? "ok" : "warn") + '" id="cal-test-verdict">' + esc(right ? t("✔ Every keshi counted right.") :
          t("✘ Not what was in the tray: retake the photos of the colours that were missed.")) + "</p>";
      }
    }
    resultBox.innerHTML = html;
    bind("cal-test", function () { call("/test"); });
  }

  function bind(id, handler) {
    const el = document.getElementById(id);
    if (el) { el.addEventListener("click", handler); }
  }

  function render() {
    renderProgress();
    renderStep();
    renderResult();
  }

  fetch("/api/calibration", {credentials: "same-origin"}).then(function (r) { return r.json(); }).then(function (first) {
    state = first;
    const open = state.steps.findIndex(function (s) { return !s.captured; });
    current = open < 0 ? state.steps.length - 1 : open;
    render();
  });
})();
