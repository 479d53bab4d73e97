// One printed board value, entered with steppers instead of a long list of buttons.
// Used by the board-profile screen and by a game's question for the table. The widget follows the
// shape of the possible values: numbers get a stepper (and may be typed), pairs of numbers one
// stepper per part, several values read in one look (`spec.group`: Sabika's three ring sizes) one stepper
// each, sent as an object of them, bundles ("1 water + 2 dates") one stepper per resource, a few words one button
// each (a tap answers), and "choose all that apply" toggles (kept in the order tapped: a printed bonus's icons
// are read left to right). Only a value among the possible ones
// can be sent; anything else says why next to the button.
window.KeshiValueEditor = (function () {
  "use strict";
  const esc = Keshi.esc;
  const t = Keshi.t;
  // The game-word contexts a printed value's words may come from (docs/i18n.md), tried in this order.
  const CONTEXTS = ["colour", "resource", "square", "sector", "path", "figure"];

  // One word of a value in the page's language ("rapid: river step" -> each part a game word where it is one).
  function words(text) {
    return String(text).split(":").map(function (part) {
      const plain = part.replace(/_/g, " ").trim();
      for (let i = 0; i < CONTEXTS.length; i += 1) {
        const found = Keshi.word(CONTEXTS[i], plain);
        if (found !== plain) { return found; }
      }
      return plain;
    }).join(": ");
  }
  // Printed bonuses that are no single game word, in player words ("dinars:2" is "2 dinars", "keshi:yellow"
  // "1 yellow keshi"); anything else goes through `words`.
  const AMOUNTS = {dinars: [t("1 dinar"), "{n} dinars"], points: [t("1 point"), "{n} points"]};
  // River spaces, the supply board's icons and the luxury goods are no game word of CONTEXTS: the rulebook's words.
  const BONUS_WORDS = {any_keshi: t("any 1 keshi"), two_keshis: t("any 2 keshis of one colour"), river_step: t("1 river step"),
    plain: t("plain water"), jetty: t("jetty"), "rapid:1_point": t("rapid: 1 point"),
    "rapid:3_points": t("rapid: 3 points"), "rapid:resource": t("rapid: 1 resource"), "rapid:goods": t("rapid: 1 goods keshi"),
    exchange: t("exchange office"), scroll: t("scroll"), slipper: t("slipper"), tajine: t("tajine"), dagger: t("dagger"),
    oil_lamp: t("oil lamp"), necklace: t("necklace")};
  function bonus(text) {
    const parts = String(text).split(":");
    if (parts.length === 2 && AMOUNTS[parts[0]] && /^[0-9]+$/.test(parts[1])) {
      const n = Number(parts[1]);
      return n === 1 ? AMOUNTS[parts[0]][0] : t(AMOUNTS[parts[0]][1], {n: n});
    }
    if (parts.length === 2 && parts[0] === "keshi") { return t("1 {colour} keshi", {colour: Keshi.word("colour", parts[1])}); }
    return BONUS_WORDS[text] || words(text);
  }
  // "1 water", "2 dates": a resource with its count ("1 date" in English: the singular of the word).
  function counted(n, key) {
    const name = words(key);
    return n + " " + (n === 1 && name === key.replace(/_/g, " ") ? name.replace(/s$/, "") : name);
  }

  // A possible value in player words: 3, "rapid: river step", "1 water + 2 dates", "yellow + orange".
  function text(value) {
    if (Array.isArray(value)) { return value.map(text).join(" + "); }
    if (value && typeof value === "object") {
      return Object.keys(value).map(function (k) {
        const v = value[k];
        return typeof v === "number" ? counted(v, k) : words(k) + ": " + words(v);
      }).join(" + ") || t("nothing");
    }
    return bonus(value);
  }

  // A possible value of `spec` in player words: the words the server gave its options (`spec.words`, one per
  // option, as a game's question buttons say them: Sabika's "2 Dinars", not "dinars:2"), else `text`; a set of
  // options ("choose all that apply") is its options' words joined.
  function label(spec, value) {
    if (spec.group && value && typeof value === "object") {  // "Outer Rondel: 12, Middle Rondel: 9, ..."
      return spec.group.map(function (part) { return part.name + ": " + text(value[part.key]); }).join(", ");
    }
    if (spec.words) {
      const i = spec.options.findIndex(function (o) { return same(o, value); });
      if (i >= 0) { return spec.words[i]; }
      if (spec.multi && Array.isArray(value)) { return value.map(function (v) { return label(spec, v); }).join(" + "); }
    }
    return text(value);
  }

  function canon(value) {
    if (Array.isArray(value)) { return "[" + value.map(canon).join(",") + "]"; }
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map(function (k) { return JSON.stringify(k) + ":" + canon(value[k]); }).join(",") + "}";
    }
    return JSON.stringify(value);
  }
  function same(a, b) { return canon(a) === canon(b); }
  function isNum(v) { return typeof v === "number"; }
  function stripZeros(bundle) {
    const out = {};
    Object.keys(bundle).forEach(function (k) { if (bundle[k] !== 0) { out[k] = bundle[k]; } });
    return out;
  }

  function kindOf(spec) {
    if (spec.group) { return "group"; }
    const o = spec.options;
    if (spec.multi) { return "multi"; }
    if (o.every(isNum)) { return "number"; }
    if (o.every(function (v) { return Array.isArray(v); })) { return "parts"; }
    if (o.every(function (v) { return v && typeof v === "object"; })) { return "bundle"; }
    return "words";
  }

  function uniq(list) {
    const out = [];
    list.forEach(function (v) { if (!out.some(function (w) { return same(v, w); })) { out.push(v); } });
    return out;
  }

  // A stepper over the sorted possible numbers; the number may also be typed.
  function stepper(label, values, start, id) {
    const sorted = values.slice().sort(function (a, b) { return a - b; });
    return '<div class="pv-row" data-field="' + esc(id) + '"><label class="pv-label" for="' + esc(id) + '">' + esc(label) + "</label>" +
      '<button type="button" class="step pv-less" aria-label="' + esc(t("{label}: less", {label: label})) + '">−</button>' +
      '<input class="pv-num" id="' + esc(id) + '" type="number" inputmode="numeric" min="' + sorted[0] + '" max="' +
      sorted[sorted.length - 1] + '" value="' + start + '" data-values="' + esc(JSON.stringify(sorted)) + '">' +
      '<button type="button" class="step pv-more" aria-label="' + esc(t("{label}: more", {label: label})) + '">+</button></div>';
  }

  function choice(label, values, start, id) {
    return '<div class="pv-row"><label class="pv-label" for="' + esc(id) + '">' + esc(label) + '</label><select class="pv-pick" id="' +
      esc(id) + '">' + values.map(function (v, i) {
        return '<option value="' + i + '"' + (same(v, start) ? " selected" : "") + ">" + esc(text(v)) + "</option>";
      }).join("") + "</select></div>";
  }

  // Draw the editor for `spec` ({key, title, where, options, multi, count, parts, value}) into `el`.
  // opts: {submit: "Save" | "Answer", onSubmit(value) -> Promise<{ok, error}>, prefix: unique id prefix}
  const NOTHING_YET = t("Set what is printed there.");
  function render(el, spec, opts) {
    const kind = kindOf(spec);
    const prefix = (opts.prefix || "pv") + "-";
    const current = spec.value !== undefined && spec.value !== null ? spec.value : null;
    let html = "";
    let fields = [];  // [{name, type: "num" | "pick", values}]
    if (kind === "number") {
      const start = current !== null ? current : spec.options[0];
      fields = [{name: "value", type: "num", values: spec.options}];
      html += stepper(spec.title, spec.options, start, prefix + "value");
    } else if (kind === "group") {  // [{key, name, options}]: one stepper (or list) per value, by its own options
      spec.group.forEach(function (part, i) {
        // the value given so far: the group's, else this value's own (the Board page knows some of a group's)
        const own = part.value !== undefined && part.value !== null ? part.value : part.options[0];
        const start = current !== null && current[part.key] !== undefined ? current[part.key] : own;
        const num = part.options.every(isNum);
        fields.push({name: i, type: num ? "num" : "pick", values: part.options, key: part.key, label: part.name});
        html += num ? stepper(part.name, part.options, start, prefix + i) : choice(part.name, part.options, start, prefix + i);
      });
    } else if (kind === "parts") {
      const size = spec.options[0].length;
      for (let i = 0; i < size; i += 1) {
        const values = uniq(spec.options.map(function (o) { return o[i]; }));
        const label = (spec.parts || [])[i] || t("Part {n}", {n: i + 1});
        const start = current !== null ? current[i] : values[0];
        if (values.every(isNum)) {
          fields.push({name: i, type: "num", values: values});
          html += stepper(label, values, start, prefix + i);
        } else {
          fields.push({name: i, type: "pick", values: values});
          html += choice(label, values, start, prefix + i);
        }
      }
    } else if (kind === "bundle") {
      const keys = [];
      spec.options.forEach(function (o) { Object.keys(o).forEach(function (k) { if (keys.indexOf(k) < 0) { keys.push(k); } }); });
      keys.forEach(function (k) {
        const values = uniq(spec.options.map(function (o) { return o[k]; }).filter(function (v) { return v !== undefined; }));
        const start = current !== null && current[k] !== undefined ? current[k] : (values.every(isNum) ? 0 : values[0]);
        if (values.every(isNum)) {
          const all = uniq([0].concat(values));
          fields.push({name: k, type: "num", values: all});
          html += stepper(words(k), all, start, prefix + k);
        } else {
          fields.push({name: k, type: "pick", values: values});
          html += choice(words(k), values, start, prefix + k);
        }
      });
    } else if (kind === "multi") {
      html += '<div class="pv-toggles" role="group" aria-label="' + esc(spec.title) + '">' + spec.options.map(function (v, i) {
        return '<button type="button" class="pv-toggle" data-index="' + i + '" aria-pressed="false">' + esc(label(spec, v)) + "</button>";
      }).join("") + "</div>";
    } else {
      html += '<div class="pv-words" role="group" aria-label="' + esc(spec.title) + '">' + spec.options.map(function (v, i) {
        const on = current !== null && same(current, v);
        return '<button type="button" class="pv-word' + (on ? " current" : "") + '" data-index="' + i + '">' + esc(label(spec, v)) + "</button>";
      }).join("") + "</div>";
    }
    if (kind !== "words") {
      html += '<button type="button" class="pv-submit">' + esc(opts.submit || t("Save")) + ' <span class="pv-preview"></span></button>';
    }
    html += '<p class="pv-msg error" role="alert" hidden></p>';
    el.innerHTML = html;
    const msg = el.querySelector(".pv-msg");
    // A multi value's options in the order they were tapped (a printed bonus's icons are read and earned left to
    // right), starting from the table's value in its own order; each pressed toggle shows its place.
    const tapped = kind === "multi" && current !== null ? current.map(function (c) {
      return spec.options.findIndex(function (v) { return same(c, v); });
    }).filter(function (i) { return i >= 0; }) : [];
    function markTapped() {
      el.querySelectorAll(".pv-toggle").forEach(function (b) {
        const place = tapped.indexOf(Number(b.dataset.index));
        b.setAttribute("aria-pressed", String(place >= 0));
        if (place >= 0) { b.dataset.place = String(place + 1); } else { delete b.dataset.place; }
      });
    }

    function read() {
      if (kind === "multi") { return tapped.map(function (i) { return spec.options[i]; }); }
      const got = kind === "bundle" || kind === "group" ? {} : [];
      fields.forEach(function (f) {
        const id = prefix + f.name;
        const input = document.getElementById(id);
        const v = f.type === "num" ? Number(input.value) : f.values[Number(input.value)];
        if (kind === "group") { got[f.key] = v; } else if (kind === "bundle") { if (!(isNum(v) && v === 0)) { got[f.name] = v; } } else { got.push(v); }
      });
      if (kind === "bundle") {  // "0 points" is a possible reward: compare without the zeros, send the option itself
        const match = spec.options.filter(function (o) { return same(stripZeros(o), got); })[0];
        return match !== undefined ? match : got;
      }
      return kind === "number" ? got[0] : got;
    }
    function problem(value) {
      if (kind === "multi" && !value.length) { return t("Choose at least one."); }
      if (kind === "multi") { return spec.count && value.length !== spec.count ? t("Choose {n}.", {n: spec.count}) : null; }
      if (kind === "number" && (!isFinite(value) || String(document.getElementById(prefix + "value").value).trim() === "")) {
        return t("Type a number.");
      }
      if (kind === "group") { return groupProblem(value); }
      if (spec.options.some(function (o) { return same(o, value); })) { return null; }
      if (kind === "number") {
        return t("{value} is not possible here: {low} to {high}", {value: text(value),
          low: text(Math.min.apply(null, spec.options)), high: text(Math.max.apply(null, spec.options))});
      }
      // Nothing chosen yet (an all-zero tile) is a step still to take, not a wrong value.
      return text(value) === t("nothing") ? NOTHING_YET :
        t("{value} is not possible here.", {value: text(value)});
    }
    // Each value of a group against its own possible values; the first that is not one is named.
    function groupProblem(value) {
      for (let i = 0; i < fields.length; i += 1) {
        const f = fields[i];
        const typed = String(document.getElementById(prefix + f.name).value).trim();
        if (f.type === "num" && (typed === "" || !isFinite(value[f.key]))) { return f.label + ": " + t("Type a number."); }
        if (!f.values.some(function (o) { return same(o, value[f.key]); })) {
          return f.label + ": " + t("{value} is not possible here: {low} to {high}", {value: text(value[f.key]),
            low: text(Math.min.apply(null, f.values)), high: text(Math.max.apply(null, f.values))});
        }
      }
      return null;
    }
    function refresh() {
      const button = el.querySelector(".pv-submit");
      if (!button) { return; }
      const value = read();
      const why = problem(value);
      button.disabled = why !== null;
      button.querySelector(".pv-preview").textContent = why === null ? "· " + label(spec, value) : "";
      // nothing set (or chosen) yet is a step still to take, not a mistake: a hint, not in red
      const hint = why === NOTHING_YET || (kind === "multi" && (!value.length || value.length < (spec.count || 1)));
      msg.hidden = why === null;
      msg.classList.toggle("error", !hint);
      msg.classList.toggle("muted", hint);
      msg.textContent = why || "";
    }
    function send(value) {
      const why = problem(value);
      if (why) { msg.hidden = false; msg.textContent = why; return; }
      el.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      Promise.resolve(opts.onSubmit(value)).then(function (result) {
        el.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
        if (result && result.ok === false) { msg.hidden = false; msg.textContent = result.error || t("Not saved."); } else { refresh(); }
      });
    }

    el.querySelectorAll(".pv-row[data-field]").forEach(function (row) {
      const input = row.querySelector(".pv-num");
      const values = JSON.parse(input.dataset.values);
      function move(dir) {
        const now = Number(input.value);
        const next = dir > 0 ? values.filter(function (v) { return v > now; })[0]
          : values.filter(function (v) { return v < now; }).pop();
        if (next !== undefined) { input.value = next; }
        refresh();
      }
      row.querySelector(".pv-less").addEventListener("click", function () { move(-1); });
      row.querySelector(".pv-more").addEventListener("click", function () { move(1); });
      input.addEventListener("input", refresh);
    });
    el.querySelectorAll(".pv-pick").forEach(function (s) { s.addEventListener("change", refresh); });
    el.querySelectorAll(".pv-toggle").forEach(function (b) {
      b.addEventListener("click", function () {
        const i = Number(b.dataset.index);
        const place = tapped.indexOf(i);
        if (place >= 0) { tapped.splice(place, 1); } else { tapped.push(i); }
        markTapped();
        refresh();
      });
    });
    markTapped();
    el.querySelectorAll(".pv-word").forEach(function (b) {
      b.addEventListener("click", function () { send(spec.options[Number(b.dataset.index)]); });
    });
    const submit = el.querySelector(".pv-submit");
    if (submit) { submit.addEventListener("click", function () { send(read()); }); }
    refresh();
  }

  // A game's question for the table (`pending`: {key, prompt, options, multi}): where the value is
  // printed (from the board-profile catalogue) and the editor, starting at the table's value for that
  // key if its profile has one. `answer(value)` sends the answer.
  const described = {};
  function question(el, pending, edition, answer) {
    const spec = {key: pending.key, title: Keshi.sayOr(pending.say, pending.prompt), where: "",
      options: pending.options, multi: pending.multi};
    function draw(extra) {
      const full = Object.assign({}, spec, extra || {}, {options: pending.options, multi: pending.multi});
      el.innerHTML = (full.where ? '<p class="pv-where muted small">' + esc(full.where) + "</p>" : "") + '<div class="pv-body"></div>';
      render(el.querySelector(".pv-body"), full, {submit: t("Answer"), prefix: "q", onSubmit: answer});
    }
    const cacheKey = (edition || "") + "|" + pending.key;
    if (described[cacheKey]) { draw(described[cacheKey]); return; }
    el.innerHTML = '<p class="muted">…</p>';  // drawn once the description is here, so no tap is lost to a redraw
    Keshi.api("GET", "/api/board-profile/describe?key=" + encodeURIComponent(pending.key) + "&edition=" +
      encodeURIComponent(edition || "essential")).then(function (r) {
      if (!el.isConnected) { return; }
      if (r.ok) { described[cacheKey] = {title: r.data.title, where: r.data.where, parts: r.data.parts, value: r.data.value}; }
      draw(r.ok ? described[cacheKey] : null);
    }, function () { if (el.isConnected) { draw(null); } });
  }

  return {render: render, text: text, label: label, question: question};
})();
