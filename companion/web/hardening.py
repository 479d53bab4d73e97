"""Web hardening of the companion's app: security headers on every response, a hardened session
cookie and bounded JSON bodies (``companion.web.json_depth``); docs/security.md.

The table's network is shared (a café's Wi-Fi, a convention hall), so the browser is told to trust
as little as it can:

* ``Content-Security-Policy``: scripts, styles, images and connections only from this companion; no
  inline script (pages hand data to their scripts in ``<script type="application/json">`` blocks,
  which are not run); inline *styles* stay allowed (colour swatches, the fairness report); no plugin,
  no ``<base>``, forms only to this site, and no page may be framed (clickjacking).
* ``X-Content-Type-Options: nosniff``: an upload or a JSON answer is never run as a script or styles.
* ``Referrer-Policy: no-referrer``: a join link carries its secret in the URL; it never leaves in a
  ``Referer`` header.
* ``X-Frame-Options: DENY``: ``frame-ancestors 'none'`` for browsers that predate CSP.

And the session cookie (which holds the seats and the CSRF token) is always HttpOnly (no script reads
it) and SameSite=Lax (another site's form or fetch does not carry it), and Secure whenever the request
came over TLS, so it never travels in clear once the table uses HTTPS. Behind a reverse proxy that ends
TLS, set ``SESSION_COOKIE_SECURE`` to true in config.json (the proxy's requests arrive as plain HTTP).
"""

from __future__ import annotations

from flask import Flask, Response, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin

from companion.web import json_depth

#: What the pages really load: their own scripts, styles and images, ``data:`` images (the fairness
#: plots), inline style attributes (swatches), and fetch/EventSource to this companion.
CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def add_security_headers(response: Response) -> Response:
    """``after_request`` hook: every answer (pages, API, static files, errors) carries the headers."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


class HardenedSessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session whose cookie is HttpOnly, SameSite=Lax and, over TLS, Secure,
    whatever the configuration says (a weaker setting would only help an attacker)."""

    def get_cookie_httponly(self, app: Flask) -> bool:
        return True

    def get_cookie_samesite(self, app: Flask) -> str:
        return "Lax"

    def get_cookie_secure(self, app: Flask) -> bool:
        return request.is_secure or super().get_cookie_secure(app)

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        """Send the cookie only when this request changed the session.

        Flask re-sends a permanent session's cookie on every answer by default, each with the session
        as its request found it. An icon or a page asked before a phone joins and answered after the
        join then brings back the cookie from before, and the phone's next move is refused as if it
        had never joined. The seat lasts ``PERMANENT_SESSION_LIFETIME`` from the last change instead.
        """
        return session.modified


def install(app: Flask) -> None:
    """Harden ``app``: the security headers on every response, the hardened session cookie, and
    JSON bodies of a bounded depth (``companion.web.json_depth``)."""
    app.after_request(add_security_headers)
    app.session_interface = HardenedSessionInterface()
    json_depth.install(app)
