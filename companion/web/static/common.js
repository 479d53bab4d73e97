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

  return {api: api, newKey: newKey, csrf: csrf};
})();
