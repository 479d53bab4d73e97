"""The language of a web request: the switch in the menu (a cookie) or else the browser's Accept-Language.

``init_app`` compiles the catalogs, sets up Flask-Babel (``_()`` in templates), renders engine
messages (``companion.i18n.Msg``) in the request's language by setting ``LOCALE`` for the request,
gives templates ``locale`` and the catalog for ``t()`` in JavaScript, and adds ``/language/<code>``.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from typing import Any
from urllib.parse import unquote

from flask import Blueprint, Flask, abort, current_app, g, redirect, request
from flask.typing import ResponseReturnValue
from flask_babel import Babel

from companion.errors import ConfigError
from companion.i18n.catalogs import LANGUAGES, TRANSLATIONS_DIR, compile_catalogs, js_catalog
from companion.i18n.player_words import FOR_PLAYERS
from companion.i18n.text import LOCALE
from companion.i18n.words import colour_name, status_name

COOKIE = "keshi_lang"
COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie
#: How each language names itself in the menu's switch.
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "de": "Deutsch"}

bp = Blueprint("i18n", __name__)


def choose_locale() -> str:
    """The switch's choice if it was made, else the browser's best match, else English."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return str(chosen)
    return request.accept_languages.best_match(LANGUAGES, default="en") or "en"


@bp.get("/language/<code>")
def switch(code: str) -> ResponseReturnValue:
    """Remember ``code`` for this browser and go back to the page the switch was used on."""
    if code not in LANGUAGES:
        abort(404)
    response = redirect(path_of_this_site(request.args.get("next", "/")))
    secure = request.is_secure or bool(current_app.config.get("SESSION_COOKIE_SECURE"))  # as the session's
    response.set_cookie(COOKIE, code, max_age=COOKIE_MAX_AGE, samesite="Lax", httponly=True, secure=secure)
    return response


def path_of_this_site(target: str) -> str:
    """``target`` if it can only name a page of this site, else ``/``: never an open redirect.

    A browser reads ``//host``, ``/\\host`` and ``https://host`` as another site, and drops tabs and
    newlines from a URL before reading it (``/<tab>/host`` is ``//host``). So only a path that starts
    with one ``/``, with no backslash, control character or white space is kept; its path part (before
    ``?``) must pass percent-decoded once more too (as a proxy might decode it).
    """
    path_part = target.split("?", 1)[0].split("#", 1)[0]
    return target if _plain_local_path(target) and _plain_local_path(unquote(path_part)) else "/"


def _plain_local_path(text: str) -> bool:
    """True for ``/...`` with no ``//`` start, no backslash, no control, format or space character."""
    if not text.startswith("/") or text.startswith("//") or "\\" in text:
        return False
    return not any(ch.isspace() or unicodedata.category(ch)[0] in "CZ" for ch in text)


@cache
def catalog_json(locale: str) -> str:
    """The catalog for ``t()`` as JSON text (built once per language)."""
    # "<" escaped: the JSON sits inside <script> in base.html, where "</script>" would end it early
    return json.dumps(js_catalog(locale), ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")


def _enter_request() -> None:
    """Render this request's messages in its phone's language, for a player (no rulebook references)."""
    g.i18n_token = LOCALE.set(choose_locale())
    g.players_token = FOR_PLAYERS.set(True)


def _leave_request(_exc: BaseException | None) -> None:
    token = g.pop("i18n_token", None)
    if token is not None:
        try:
            LOCALE.reset(token)
        except ValueError:  # torn down in another context (a streamed response): just end it here
            LOCALE.set("en")
    players = g.pop("players_token", None)
    if players is not None:
        try:
            FOR_PLAYERS.reset(players)
        except ValueError:  # as above
            FOR_PLAYERS.set(False)


def _template_values() -> dict[str, Any]:
    locale = LOCALE.get()
    return {"locale": locale, "i18n_catalog": catalog_json(locale), "language_names": LANGUAGE_NAMES,
            "colour_name": lambda colour: str(colour_name(colour)),
            "status_name": lambda status: str(status_name(status))}


def init_app(app: Flask) -> None:
    """Make ``app`` speak the request's language (see the module docstring)."""
    try:
        compile_catalogs()
    except OSError as exc:
        raise ConfigError(f"the German catalog cannot be compiled into {TRANSLATIONS_DIR}: {exc.strerror or exc}; "
                          "install the companion where it can write (make run)") from exc
    Babel(app, locale_selector=lambda: LOCALE.get(), default_translation_directories=str(TRANSLATIONS_DIR))
    app.before_request(_enter_request)
    app.teardown_request(_leave_request)
    app.context_processor(_template_values)
    app.register_blueprint(bp)
