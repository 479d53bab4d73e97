"""The board-profile screen and its JSON API: review, edit, forget, export and import printed values.

* ``GET  /profile`` — the screen (``?edition=classic`` for the Classic board, ``?edition=sabika`` for Sabika,
  ``?edition=morocco`` for Morocco's printed value).
* ``GET  /api/board-profile?edition=`` — every value with its title, where it is printed, its options.
* ``GET  /api/board-profile/describe?key=&edition=`` — one key (for a game's question), with the
  table's value if it has one.
* ``PUT|DELETE /api/board-profile/<edition>/values/<key>`` — set ``{"value": ...}`` / forget a value.
* ``GET  /api/board-profile/<edition>/export`` — the profile as a file to share with another table.
* ``POST /api/board-profile/import`` — merge such a file (raw JSON body or the form's ``profile`` file).
* ``GET /api/table-profile/<game>``, ``PUT|DELETE /api/table-profile/<game>/values/<key>`` — a table game's
  printed values (Morocco's overflow arrow), kept as an answer in play would keep them.

Changes need this session's CSRF token (checked for the whole app, ``access.install``), as creating a
game does. Errors answer ``{"error": "..."}`` naming the problem, status 400; nothing changes.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from companion.errors import KeshiError
from companion.i18n import Msg
from companion.i18n.player_words import without_rule_refs
from companion.store import StorageFull
from companion.table import kinds
from companion.table.board_profile import (
    EDITIONS,
    BoardProfile,
    ProfileError,
    check_edition,
    key_info,
    source_words,
    value_title,
)
from companion.table.board_profile_sabika import EDITION as SABIKA
from companion.table.kinds import TableGame
from companion.table.kinds import profile as table_profile
from companion.table.marrakesh_engine import EDITION_SAY
from companion.web import access

bp = Blueprint("board_profile", __name__)
bp.before_request(access.host_for_changes)  # changes need the host; looking is open

#: An imported profile file may be at most this large.
IMPORT_MAX_BYTES = 256 * 1024


def profile() -> BoardProfile:
    """The instance's board profile (made once per app, on first use)."""
    found = current_app.extensions.get("keshi.board_profile")
    if found is None:
        found = BoardProfile(current_app.extensions["keshi.store"])
        current_app.extensions["keshi.board_profile"] = found
    return found


def _edition(value: Any) -> str:
    return check_edition(value if value is not None else "essential")


#: The Board page's tab of Morocco's printed value (a table game's, ``/api/table-profile/morocco``)
MOROCCO = "morocco"


def tabs() -> dict[str, tuple[str, Msg | None]]:
    """The Board page's tabs, each naming its game (and edition): one per Marrakesh edition, Sabika, Morocco."""
    marrakesh: dict[str, tuple[str, Msg | None]] = {key: (kinds.game_name(kinds.MARRAKESH), EDITION_SAY[key])
                                                    for key in EDITIONS}
    return {**marrakesh, SABIKA: (kinds.game_name(SABIKA), None), MOROCCO: (kinds.game_name(MOROCCO), None)}


@bp.get("/profile")
def page() -> ResponseReturnValue:
    """The board-profile screen, one tab per Marrakesh edition, one for Sabika (each drawn from
    ``/api/board-profile``) and one for Morocco's printed value, which shows on its tab only."""
    asked = request.args.get("edition")
    edition = MOROCCO if asked == MOROCCO else _edition(asked)
    return render_template("profile.html", edition=edition, editions=tabs(), morocco=MOROCCO)


@bp.get("/api/board-profile")
def list_values() -> ResponseReturnValue:
    edition = _edition(request.args.get("edition"))
    return jsonify(edition=edition, editions=EDITIONS, sources=source_words(), entries=profile().entries(edition))


@bp.get("/api/board-profile/describe")
def describe() -> ResponseReturnValue:
    """A question's key in player words (title, where it is printed) and the table's value, if any."""
    edition = _edition(request.args.get("edition"))
    entry = key_info(request.args.get("key"))
    return jsonify(**entry.to_json(), value=profile().value(edition, entry.key))


@bp.put("/api/board-profile/<edition>/values/<key>")
def put_value(edition: str, key: str) -> ResponseReturnValue:
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or "value" not in body:
        raise ProfileError(Msg("the body must be a JSON object with the new \"value\""))
    return jsonify(entry=profile().set_value(edition, key, body["value"]))


@bp.delete("/api/board-profile/<edition>/values/<key>")
def delete_value(edition: str, key: str) -> ResponseReturnValue:
    if not profile().forget(edition, key):
        title = value_title(edition, key, profile().values(edition))  # an unknown key: says so
        raise ProfileError(Msg("{title}: your table has no value to forget", title=title))
    return jsonify(forgotten=key)


@bp.get("/api/board-profile/<edition>/export")
def export(edition: str) -> ResponseReturnValue:
    text = json.dumps(profile().export(edition), indent=1, sort_keys=True)
    response = Response(text + "\n", mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="keshi-board-profile-{edition}.json"'
    return response


@bp.post("/api/board-profile/import")
def import_file() -> ResponseReturnValue:
    upload = request.files.get("profile")
    raw = upload.read(IMPORT_MAX_BYTES + 1) if upload else request.get_data()
    if len(raw) > IMPORT_MAX_BYTES:
        raise ProfileError(Msg("the file is larger than the {kib} KiB a board profile may be",
                               kib=IMPORT_MAX_BYTES // 1024))
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ProfileError(Msg("the file is not a board profile exported by a companion: it is not text")) from None
    except json.JSONDecodeError as exc:
        raise ProfileError(Msg("the file is not a board profile exported by a companion: it could not be read "
                               "(near line {line})", line=exc.lineno)) from None
    return jsonify(profile().import_document(doc))


# -- a table game's printed values (Morocco's overflow arrow): listed on the same page, asked once otherwise --
def _table_game(kind: str) -> TableGame:
    """The adapter of a table game whose printed values the Board page lists (``UnknownGame`` otherwise)."""
    game = kinds.adapter(kind)
    if not getattr(game, "PROFILE_SAY", None):
        raise kinds.UnknownGame(Msg("{game} has no printed values to enter here", game=game.NAME))
    return game


@bp.get("/api/table-profile/<kind>")
def table_values(kind: str) -> ResponseReturnValue:
    """Every printed value ``kind`` may ask: title (its question) in the phone's language, options, the table's
    value (None: not known yet) and where it came from."""
    game = _table_game(kind)
    entries = [{**e, "title": str(e["title"])} for e in table_profile.listed(profile().store, game)]
    return jsonify(game=kind, name=game.NAME, entries=entries)


@bp.put("/api/table-profile/<kind>/values/<key>")
def put_table_value(kind: str, key: str) -> ResponseReturnValue:
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or "value" not in body:
        raise ProfileError(Msg("the body must be a JSON object with the new \"value\""))
    table_profile.set_value(profile().store, _table_game(kind), key, body["value"])
    return jsonify(key=key, value=body["value"], source="edit")


@bp.delete("/api/table-profile/<kind>/values/<key>")
def delete_table_value(kind: str, key: str) -> ResponseReturnValue:
    return jsonify(forgotten=key if table_profile.forget(profile().store, _table_game(kind), key) else None)


@bp.errorhandler(KeshiError)
def refused(exc: KeshiError) -> ResponseReturnValue:
    """The problem in words: 507 when the companion's storage is full, else 400."""
    status = 507 if isinstance(exc, StorageFull) else 400
    return jsonify(error=without_rule_refs(str(exc)), kind=type(exc).__name__), status
