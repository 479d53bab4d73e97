// Shared helpers: JSON requests that carry this session's CSRF token, colour chips, and t() for the
// page's language (docs/i18n.md): t("English text {name}", {name: value}) looks the English text up
// in the catalog base.html puts in <script id="keshi-i18n"> and falls back to English.

// A page's data comes as JSON blocks (the Content-Security-Policy allows no inline script), e.g.
// <script type="application/json" data-global="PALETTE">[...]</script>; each is set here as
// window.PALETTE, before the page's own scripts run (base.html puts the blocks above this file).
document.querySelectorAll('script[type="application/json"][data-global]').forEach(function (block) {
  "use strict";
  window[block.dataset.global] = JSON.parse(block.textContent);
});

window.Keshi = (function () {
  "use strict";
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const catalog = (function () {
    const el = document.getElementById("keshi-i18n");
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  })();

  function lookup(key, fallback) {
    return Object.prototype.hasOwnProperty.call(catalog, key) ? catalog[key] : fallback;
  }

  // Put params into {name} placeholders ({name!r}: quoted, as Python's repr shows a text).
  function fill(template, params) {
    return template.replace(/\{(\w+)(!r)?\}/g, function (whole, name, repr) {
      if (!params || !Object.prototype.hasOwnProperty.call(params, name)) { return whole; }
      const value = params[name];
      return repr && typeof value === "string" ? "'" + value + "'" : String(value);
    });
  }

  // The translation of an English text, with params filled in.
  function t(text, params) { return fill(lookup(text, text), params); }

  // ngettext for the companion's two languages: English and German both take the first form for a count
  // of 1 and the second for any other ("Plural-Forms: nplurals=2; plural=(n != 1)" in the German catalog),
  // so each form is its own catalog text: tn(n, "1 date", "{n} dates") -> "1 Dattel" / "3 Datteln".
  function tn(n, one, many, params) { return t(n === 1 ? one : many, Object.assign({n: n}, params)); }

  // A game word whose translation depends on what it names: word("colour", "green") -> "Hellgrün".
  function word(context, text) { return lookup(context + "\u0004" + text, text); }

  // A message's text without the rulebook references an engine cites for developers ("(MOR:L77)",
  // "(L480-481)", "(digest A1)", "; EN:L625)"): the browser's half of companion/i18n/player_words.py, for
  // messages rendered here rather than on the server.
  const REF = "(?:(?:[A-Z]{2,4}:)?L\\d+(?:[-\u2013]\\d+)?(?:[;,] ?M\\d+)?|(?:RULES_DIGEST(?:\\.md)?|[Dd]igest)" +
    "(?: ?\u00a7? ?[A-Z]?\\d+(?:\\.\\d+)*)?|[Rr]ule \\d+(?:\\.\\d+)+|\u00a7 ?\\d+(?:\\.\\d+)*)";
  const ONLY_REFS = new RegExp("\\s*\\(\\s*" + REF + "(?:\\s*[;,]\\s*" + REF + ")*\\s*\\)", "g");
  const TRAILING_REF = new RegExp("\\s*[;,]\\s*" + REF + "(?=\\s*\\))", "g");
  function withoutRuleRefs(text) {
    const shown = text.replace(ONLY_REFS, "").replace(TRAILING_REF, "");
    return shown === text ? text : shown.replace(/\s+([:;,.])/g, "$1").trim();
  }

  // An engine message sent as data (Msg.to_json: {text, params, context?}), e.g. a decision's "say";
  // a param is a value, such a message, or a list of them (shown "a, b, c").
  function say(message) {
    if (Array.isArray(message)) { return message.map(say).join(", "); }
    if (!message || typeof message !== "object") { return message === undefined || message === null ? "" : String(message); }
    const params = {};
    Object.keys(message.params || {}).forEach(function (k) {
      const v = message.params[k];
      params[k] = v && typeof v === "object" ? say(v) : v;
    });
    return withoutRuleRefs(fill(message.context ? word(message.context, message.text) :
      lookup(message.text, message.text), params));
  }
  // ``say(message)`` where the server sent a message, else ``text`` (its English, or a text of an older
  // game or a server part that words nothing), e.g. ``sayOr(event.say, event.label)``.
  function sayOr(message, text) { return message ? say(message) : text; }

  function api(method, url, body, extraHeaders) {
    const headers = Object.assign({"X-CSRF-Token": csrf}, extraHeaders || {});
    const init = {method: method, headers: headers, credentials: "same-origin"};
    if (body !== undefined) {
      if (typeof body === "string") {
        init.body = body;
      } else {
        headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
      }
    }
    return fetch(url, init).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return {ok: response.ok, status: response.status, data: data};
      });
    });
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    return String(Date.now()) + "-" + String(Math.random()).slice(2);
  }

  // HTML-escape text put into markup.
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (ch) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[ch];
    });
  }

  // A colour as a chip: swatch, symbol and name (never the hue alone), optionally with a count.
  // The page hands over window.PALETTE ([{name, hex, symbol}]) as a data block before using it.
  function chip(colour, count) {
    const c = (window.PALETTE || []).find(function (p) { return p.name === colour; }) || {hex: "#666", symbol: "?"};
    return '<span class="chip" data-colour="' + esc(colour) + '"><span class="swatch" style="background:' + c.hex +
      '" aria-hidden="true">' + c.symbol + "</span>" + (count !== undefined ? "<b>" + count + "×</b> " : "") +
      esc(word("colour", colour)) + "</span>";
  }

  return {api: api, newKey: newKey, csrf: csrf, esc: esc, chip: chip, t: t, tn: tn, word: word, say: say, sayOr: sayOr};
})();
window.t = window.Keshi.t;
