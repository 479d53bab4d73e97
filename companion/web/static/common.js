// Shared helpers: JSON requests that carry this session's CSRF token, and colour chips.
window.Keshi = (function () {
  "use strict";
  const csrf = document.querySelector('meta[name="csrf-token"]').content;

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
  // The page sets window.PALETTE ([{name, hex, symbol}]) before using it.
  function chip(colour, count) {
    const c = (window.PALETTE || []).find(function (p) { return p.name === colour; }) || {hex: "#666", symbol: "?"};
    return '<span class="chip" data-colour="' + esc(colour) + '"><span class="swatch" style="background:' + c.hex +
      '" aria-hidden="true">' + c.symbol + "</span>" + (count !== undefined ? "<b>" + count + "×</b> " : "") +
      esc(colour) + "</span>";
  }

  return {api: api, newKey: newKey, csrf: csrf, esc: esc, chip: chip};
})();
