"""The dashboard's pages: the games list ("/"), the setup wizard, a game's table screen, joining.

Pages are thin HTML shells; each screen is drawn in the browser from the game's JSON view and
kept current by its event stream, so every phone shows the same thing at the same time.
"""

from __future__ import annotations

import time

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from companion.games.marrakesh.expansion_setup import EXPANSION_NAMES
from companion.table import kinds, marrakesh_engine
from companion.table.service import GameNotFound, GameService
from companion.web import access, lan
from companion.web.palette import palette_for_templates

bp = Blueprint("pages", __name__)

def expansion_lines() -> list[dict[str, object]]:
    """The wizard's expansion modules (number, name, what it changes) in the page's language."""
    return [{"number": n, "name": str(name), "help": str(marrakesh_engine.EXPANSION_HELP[n])}
            for n, name in EXPANSION_NAMES.items()]


def _games() -> GameService:
    games: GameService = current_app.extensions["keshi.games"]
    return games


@bp.get("/")
def index() -> ResponseReturnValue:
    """Every game on this companion, newest first (its date, game and edition, a delete), with New
    game and Import.

    The games this browser is seated at show their table PIN, so a host who lost the game page
    finds it again here.
    """
    games = [{**g, "date": time.strftime("%Y-%m-%d %H:%M", time.localtime(g["created_at"])),
              "variant": str(marrakesh_engine.variant_say(g["edition"], g["expansions"]))
              if g["kind"] == kinds.MARRAKESH else g["variant"]} for g in _games().summaries()]
    return render_template("index.html", games=games, pins=_seated_pins())


def _seated_pins() -> dict[str, str]:
    """game id -> table PIN, for the games this browser session has joined (or created)."""
    tables = [t for t in session.get("tables", []) if isinstance(t, str)]
    return _games().pins(tables)


@bp.get("/games/new")
def new_game() -> ResponseReturnValue:
    """The setup wizard: which game, players, then Marrakesh's edition, tower layer and draws, or the
    other game's own options."""
    editions = {key: str(name) for key, name in marrakesh_engine.EDITION_SAY.items()}
    return render_template("setup.html", palette=palette_for_templates(), editions=editions,
                           expansions=expansion_lines(), games=kinds.wizard_games(),
                           river_tiles=marrakesh_engine.river_tile_choices())


@bp.get("/games/<game_id>")
def game(game_id: str) -> ResponseReturnValue:
    """The table screen of one game; the host (a seated session) also sees the PIN and join QR code.

    The join link names an address the other phones can reach: opened on the Pi itself (loopback),
    the machine's LAN address replaces the request's host.
    """
    live = _games().get(game_id)
    seated = access.is_seated(game_id)
    qr_svg = ""
    join_url = ""
    local_only = lan.loopback_only(current_app.config.get("LISTEN_HOST"))
    if seated:
        token = access.join_token(game_id, live.pin)
        link = url_for("pages.join", game_id=game_id, token=token, _external=True)
        join_url = link if local_only else lan.reachable_url(link)  # listening on loopback: only that address works
        import segno  # only where a join code is drawn: not with the server (issue 23)

        qr_svg = segno.make(join_url, error="m").svg_inline(scale=4, dark="#000", light="#fff", border=2)
    if live.kind != kinds.MARRAKESH:  # a table game (Morocco, Sabika): the generic page and its board
        return render_template("table_game.html", live=live, game_name=kinds.game_name(live.kind), seated=seated,
                               pin=live.pin if seated else None, join_url=join_url, qr_svg=qr_svg,
                               local_only=local_only)
    state = live.game.to_dict()
    variant = str(marrakesh_engine.variant_say(state["edition"], state["expansions"]))  # in the page's language
    return render_template("game.html", live=live, variant=variant, seated=seated, pin=live.pin if seated else None,
                           join_url=join_url, qr_svg=qr_svg, palette=palette_for_templates(), local_only=local_only)


@bp.get("/games/<game_id>/join")
def join(game_id: str) -> ResponseReturnValue:
    """Join a table: the QR code's link (``?token=``) seats this phone and opens the game; otherwise
    (or with a link that is no longer valid) the page asks for the PIN (prefilled from ``?pin=``)."""
    live = _games().get(game_id)
    problem = ""
    token = request.args.get("token")
    if token is not None:
        try:
            access.join_with_token(game_id, live.pin, token, throttled=False)  # a link any page can open
            return redirect(url_for("pages.game", game_id=game_id))
        except (access.AccessDenied, access.TooManyTries) as exc:
            problem = str(exc)
    return render_template("join.html", live=live, pin=request.args.get("pin", "")[:8], problem=problem)



@bp.errorhandler(GameNotFound)
def no_such_game(exc: GameNotFound) -> ResponseReturnValue:
    """A friendly 404 with the way back to the games list."""
    return render_template("missing.html", message=str(exc)), 404
