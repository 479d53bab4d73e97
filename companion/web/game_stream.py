"""``GET /api/games/<id>/events``: a game's durable events as Server-Sent Events, plus live drops.

Game events come from the ``game_events`` table, whose ids never repeat (even after a restart), and
are sent with ``id:``; a reconnecting EventSource sends ``Last-Event-ID`` and gets exactly the events
after it. The last message of each burst carries the current view, so a phone never refetches.
Tower drops of this game's toss are sent live as ``event: tower`` without an id: they are an
animation, not state, and the result they lead to is itself a durable event. A press of the tower's
button that this game refused is sent the same way (``tower.refused``), so its phones say why. Every few quiet
seconds an ``event: ping`` (no id) shows the phone that its stream is alive. A game deleted while
phones follow it ends their streams with ``event: deleted`` (and a last ``game`` event whose label
says so, for pages that only listen to ``game``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

from companion.events import EventBus
from companion.i18n import Msg
from companion.table.kinds.view import build_view_json
from companion.table.service import GameNotFound, GameService
from companion.table.tower_link import TowerLink
from companion.web.stream import events_with_heartbeats

bp = Blueprint("game_stream", __name__)

#: What a phone following a deleted game reads (in its log, and as the ``deleted`` notice).
DELETED = "This game was deleted from the companion: its log is gone. Go back to the games list."
#: The heartbeat as an event a page can see (a comment is invisible to EventSource): a phone that
#: hears no ping for a while knows its stream is broken and reconnects with ``last_event_id``.
PING = "event: ping\ndata: {}\n\n"


def _resume_id(default: int) -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    try:
        return int(raw) if raw else default
    except ValueError:
        return default


def format_game_event(event: dict[str, Any], view_json: str | None) -> str:
    """One SSE message; ``view_json`` (already serialised, shared by all streams) is spliced in."""
    payload = json.dumps(event)
    if view_json is not None:
        payload = f'{payload[:-1]}, "view": {view_json}}}'
    return f"id: {event['id']}\nevent: game\ndata: {payload}\n\n"


def deleted_messages(game_id: str, event_id: int) -> str:
    """The last messages of a deleted game's stream: ``deleted`` and a ``game`` event saying so."""
    said = Msg(DELETED).to_json()  # rendered by the page in its language (``Keshi.say``)
    notice = json.dumps({"game_id": game_id, "message": DELETED, "say": said})
    game = json.dumps({"id": event_id, "kind": "deleted", "data": {"label": DELETED, "say": said}})
    return f"event: deleted\ndata: {notice}\n\nid: {event_id}\nevent: game\ndata: {game}\n\n"


@bp.get("/api/games/<game_id>/events")
def game_events(game_id: str) -> Response:
    """Stream ``game_id``'s events after ``Last-Event-ID`` (default: from now) until the client leaves."""
    games: GameService = current_app.extensions["keshi.games"]
    bus: EventBus = current_app.extensions["keshi.bus"]
    link: TowerLink = current_app.extensions["keshi.tower_link"]
    stopping = current_app.extensions["keshi.stopping"]
    live = games.get(game_id)
    subscription = bus.subscribe()  # before reading the table, so nothing falls between the two
    start = _resume_id(games.last_event_id(game_id))

    def flush(sent: int) -> tuple[list[str], int]:
        events = games.events_after(game_id, sent)
        if not events:
            return [], sent
        view = build_view_json(live, events[-1]["id"])
        messages = [format_game_event(e, view if i == len(events) - 1 else None) for i, e in enumerate(events)]
        return messages, events[-1]["id"]

    def generate() -> Iterator[str]:
        try:
            sent = start
            yield f"retry: 1000\n: game {game_id}, after event {sent}\n\n"
            messages, sent = flush(sent)
            yield from messages
            for event in events_with_heartbeats(subscription, stopping):
                if event is None:
                    yield PING
                elif event.topic == "game.deleted" and event.data.get("game_id") == game_id:
                    yield deleted_messages(game_id, sent + 1)
                    return
                elif event.topic == "game.event" and event.data.get("game_id") == game_id:
                    if event.data.get("event_id", 0) > sent:
                        messages, sent = flush(sent)
                        yield from messages
                elif event.topic.startswith(("toss.", "tower.")) and (
                        event.topic == "tower.fault" or link.game_of(event.topic, event.data) == game_id
                        or event.topic == "tower.refused" and event.data.get("game_id") == game_id):
                    payload = json.dumps({"topic": event.topic, "data": event.data})
                    yield f"event: tower\ndata: {payload}\n\n"
        finally:
            subscription.close()

    response = Response(stream_with_context(generate()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.errorhandler(GameNotFound)
def no_such_game(exc: GameNotFound) -> tuple[Response, int]:
    """An unknown game's stream is a plain 404 (EventSource then stops retrying)."""
    return jsonify(error=str(exc)), 404
