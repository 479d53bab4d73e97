"""The games HTTP API (JSON): create, list, view, join, say who plays here, act, undo, toss, export,
import and delete.

Who may do what is ``companion.web.access``: watching is open; acting needs a seated device with a
role, and the seat an action is for comes from that role, never from the body; creating, importing
and deleting games need the host. Errors answer JSON ``{"error": ...}`` naming the problem: malformed
JSON or a malformed action 400, no seat, no role, the wrong seat or no host 403, an unknown game 404,
"the game moved on", a seat already taken or hidden choices 409 (a moved-on game with a fresh view),
an oversized import 413, a rule broken 422 (the engine's message names the rule and the player), too
many wrong PINs 429 with ``Retry-After``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, session
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from companion.errors import KeshiError
from companion.games.marrakesh import ActionFormatError, LogError, RuleError, SetupError
from companion.i18n import Msg
from companion.i18n.player_words import without_rule_refs
from companion.store import StorageFull
from companion.table import kinds
from companion.table.kinds.view import build_view
from companion.table.names import UnreadableName
from companion.table.seats import UNNAMED_DEVICES, Role, SeatRefused, SeatTaken, acting_seat
from companion.table.service import (
    ChoicesHidden,
    GameMovedOn,
    GameNotFound,
    GameService,
    LiveGame,
    NotForThisGame,
    Outcome,
    TowerRefusal,
)
from companion.table.tower_link import TowerLink
from companion.tower.service import TowerBusyError
from companion.web import access

bp = Blueprint("games_api", __name__, url_prefix="/api")

DEFAULT_IMPORT_MAX_BYTES = 512 * 1024


class BadRequest(KeshiError, ValueError):
    """The request body is not the JSON object the endpoint needs."""


def service() -> GameService:
    games: GameService = current_app.extensions["keshi.games"]
    return games


def json_body() -> dict[str, Any]:
    """The request's JSON object; ``BadRequest`` (400) if it is not one."""
    body = request.get_json(silent=True)
    if body is None and request.get_data():
        raise BadRequest(Msg("the request body is not valid JSON"))
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise BadRequest(Msg("the request body must be a JSON object"))
    return body


def view_of(live: LiveGame) -> dict[str, Any]:
    """The shared view plus what only this session may see: whether it is seated (then the PIN), who
    it plays for (``me``) and whether it is the host."""
    view = build_view(live, service().last_event_id(live.id))
    view["seated"] = access.is_seated(live.id)
    view["host"] = access.is_host()
    view["me"] = my_role(live).to_json()
    if view["seated"]:
        view["pin"] = live.pin
    return view


def my_role(live: LiveGame) -> Role:
    """What this device does at ``live`` (nothing until it says who it is)."""
    return service().role(live.id, access.device_id())


def acting(live: LiveGame, action: Any = None) -> tuple[int | None, str | None]:
    """The seat this device acts for (from its role, checked against ``action``'s player) and, for a
    shared device, its name for the log; 403 when it is not seated or may not act for that player."""
    access.require_seat(live.id)
    role = my_role(live)
    return acting_seat(role, action, live.names), role.label if role.everyone else None


def _idempotency_key(body: dict[str, Any]) -> str | None:
    key = request.headers.get("Idempotency-Key") or body.get("idempotency_key")
    if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= 100):
        raise BadRequest(Msg("the idempotency key must be a string of 1 to 100 characters"))
    return key


@bp.get("/session")
def session_info() -> ResponseReturnValue:
    """This browser session's CSRF token, the games it is seated at and whether it is the host."""
    return jsonify(csrf=access.csrf_token(), tables=session.get("tables", []), host=access.is_host())


@bp.get("/games")
def list_games() -> ResponseReturnValue:
    return jsonify(games=service().summaries())


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    """Create a game from the setup wizard (the host only); the creating browser is seated."""
    access.require_host()
    live = service().create(json_body())
    access.seat(live.id)
    return jsonify(id=live.id, pin=live.pin, view=view_of(live)), 201


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> ResponseReturnValue:
    """The snapshot a page starts from (then it follows ``/api/games/<id>/events``), with the recent log."""
    view = view_of(service().get(game_id))
    view["history"] = service().history(game_id)
    return jsonify(view)


@bp.post("/games/<game_id>/join")
def join_game(game_id: str) -> ResponseReturnValue:
    """``{"pin": ...}`` (typed) or ``{"token": ...}`` (the QR link's): seat this device (throttled)."""
    live = service().get(game_id)
    body = json_body()
    if "token" in body:
        access.join_with_token(game_id, live.pin, body["token"])
    else:
        access.join(game_id, live.pin, body.get("pin"))
    return jsonify(joined=game_id)


@bp.get("/games/<game_id>/pin")
def get_pin(game_id: str) -> ResponseReturnValue:
    """The table PIN, for a seated session or the host, so the host can always show it again even
    after closing the browser that created the game."""
    live = service().get(game_id)
    if not (access.is_seated(game_id) or access.is_host()):
        raise access.AccessDenied(Msg("the PIN is shown on seated phones and on the companion's own screen"))
    return jsonify(pin=live.pin)


@bp.post("/games/<game_id>/role")
def take_role(game_id: str) -> ResponseReturnValue:
    """Who this seated device plays for: ``{"seat": n}`` (one player), or ``{"seat": "all", "device":
    name, "pin": ...}`` (a shared device, granted with the table PIN; the host needs none)."""
    live = service().get(game_id)
    access.require_seat(game_id)
    body = json_body()
    granted = body.get("seat") != "all" or access.is_host()
    if not granted and not access.throttle().check(access.client_address(), f"game {game_id}", live.pin,
                                                   body.get("pin")):
        raise access.AccessDenied(Msg("A shared device plays for everyone only with the table PIN: "
                                          "type it to make this one shared"))
    name = body.get("device") or UNNAMED_DEVICES[0 if access.is_own_screen() else 1]  # said in each reader's language
    # the companion's own screen sharing itself is no news for the log; a phone made shared is
    service().take_role(game_id, access.device_id(), body.get("seat"), name, logged=not access.is_own_screen())
    return jsonify(view=view_of(live))


@bp.delete("/games/<game_id>/role/<seat>")
def free_seat(game_id: str, seat: str) -> ResponseReturnValue:
    """The host frees a player's seat (its phone was lost) or, with ``all``, every shared device."""
    live = service().get(game_id)
    access.require_host()
    service().free_seat(game_id, "all" if seat == "all" else int(seat) if seat.isdigit() else seat)
    return jsonify(view=view_of(live))


@bp.post("/games/<game_id>/actions")
def post_action(game_id: str) -> ResponseReturnValue:
    """Apply ``{"action": {...}, "version": n}`` for the seat this device plays for; a tower release
    confirms or corrects the waiting tower result (any colour, any count up to the box's: pieces not
    believed inside are leftovers)."""
    live = service().get(game_id)
    access.require_seat(game_id)
    body = json_body()
    if "action" not in body:
        raise BadRequest(Msg("the body needs an 'action' object (the engine's JSON form)"))
    by, via = acting(live, body["action"])
    outcome = service().act(game_id, body["action"], body.get("version"), _idempotency_key(body), by, via)
    return outcome_response(outcome, live)


def outcome_response(outcome: Outcome, live: LiveGame) -> ResponseReturnValue:
    """An accepted change: 201 with the new version and view (200 when an idempotency key replayed it)."""
    return jsonify(version=outcome.version, event_id=outcome.event_id, replayed=outcome.replayed,
                   view=view_of(live)), 200 if outcome.replayed else 201


@bp.post("/games/<game_id>/undo")
def post_undo(game_id: str) -> ResponseReturnValue:
    live = service().get(game_id)
    body = json_body()
    by, via = acting(live)
    outcome = service().undo(game_id, body.get("version"), _idempotency_key(body), by, via)
    return outcome_response(outcome, live)


@bp.post("/games/<game_id>/tower/empty")
def post_tower_empty(game_id: str) -> ResponseReturnValue:
    """The game-start tower check: ``{"found": {colour: n}}`` fell out when the table emptied the
    tower (``{}``: it was empty). The tower then holds nothing; tossing is allowed from now on."""
    live = service().get(game_id)
    body = json_body()
    by, via = acting(live)
    event_id = service().empty_tower(game_id, body.get("found"), by, via)
    return jsonify(event_id=event_id, view=view_of(live)), 201


@bp.post("/games/<game_id>/season-scoring/ack")
def post_season_ack(game_id: str) -> ResponseReturnValue:
    """``{"season": n}``: the table has seen that season's scoring; it leaves every screen."""
    live = service().get(game_id)
    body = json_body()
    by, via = acting(live)
    event_id = service().ack_season_scoring(game_id, body.get("season"), by, via)
    return jsonify(event_id=event_id, view=view_of(live))


@bp.post("/games/<game_id>/toss")
def post_toss(game_id: str) -> ResponseReturnValue:
    """Toss this round's revealed keshis through the tower; the result arrives as an event.

    Refused (409, with a fresh view) while the tower tumbles or a result waits: the first result never
    changes under the table.
    """
    live = service().get(game_id)
    body = json_body()
    by, via = acting(live)
    link: TowerLink = current_app.extensions["keshi.tower_link"]
    toss_id = link.toss_game(game_id, body.get("version"), by, via=via)
    return jsonify(toss_id=toss_id, view=view_of(live)), 202


@bp.get("/games/<game_id>/log")
def export_log(game_id: str) -> ResponseReturnValue:
    """The engine's JSON-lines log, as a download (refused while it would show a hidden choice)."""
    response = Response(service().write_log(game_id), mimetype="application/x-ndjson")
    response.headers["Content-Disposition"] = f'attachment; filename="keshi-game-{game_id}.jsonl"'
    return response


@bp.post("/games/import")
def import_log() -> ResponseReturnValue:
    """A new game from an uploaded log (raw body or the form's ``log`` file; the host only); 413 above
    the limit."""
    access.require_host()
    limit = int(current_app.config.get("IMPORT_MAX_BYTES", DEFAULT_IMPORT_MAX_BYTES))
    if request.content_length is not None and request.content_length > limit:
        return jsonify(error=str(Msg("the log is larger than the {kib} KiB import limit", kib=limit // 1024))), 413
    upload = request.files.get("log")
    raw = upload.read(limit + 1) if upload else request.get_data()
    if len(raw) > limit:
        return jsonify(error=str(Msg("the log is larger than the {kib} KiB import limit", kib=limit // 1024))), 413
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(Msg("the log is not UTF-8 text")) from None
    live = service().import_log(text, source=upload.filename if upload and upload.filename else "upload")
    access.seat(live.id)
    return jsonify(id=live.id, pin=live.pin, view=view_of(live)), 201


@bp.delete("/games/<game_id>")
def delete_game(game_id: str) -> ResponseReturnValue:
    """Delete a game with its log and events (the host only). A phone still following it is told."""
    service().get(game_id)
    access.require_host()
    service().delete(game_id)
    return jsonify(deleted=game_id)


# -- errors ---------------------------------------------------------------------------------
def _status_for(exc: KeshiError) -> int:
    if isinstance(exc, (BadRequest, ActionFormatError, SetupError, LogError, NotForThisGame, kinds.UnknownGame,
                        UnreadableName)):
        return 400
    if isinstance(exc, access.TooManyTries):
        return 429
    if isinstance(exc, StorageFull):
        return 507
    if isinstance(exc, (access.AccessDenied, SeatRefused)):
        return 403
    if isinstance(exc, GameNotFound):
        return 404
    if isinstance(exc, (GameMovedOn, TowerBusyError, TowerRefusal, SeatTaken, ChoicesHidden)):
        return 409
    if isinstance(exc, (RuleError, *kinds.rule_errors())):
        return 422
    return 400


@bp.errorhandler(KeshiError)
def keshi_error(exc: KeshiError) -> ResponseReturnValue:
    status = _status_for(exc)
    body: dict[str, Any] = {"error": without_rule_refs(str(exc)), "kind": type(exc).__name__}
    if isinstance(exc, (GameMovedOn, TowerRefusal)):
        body["view"] = view_of(service().get(exc.game_id))
    response = jsonify(body)
    if isinstance(exc, access.TooManyTries):
        response.headers["Retry-After"] = str(exc.retry_after)
    return response, status


@bp.errorhandler(HTTPException)
def http_error(exc: HTTPException) -> ResponseReturnValue:
    return jsonify(error=exc.description or exc.name), exc.code or 500
