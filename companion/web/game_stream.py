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

What a game's stream says is ``GameFeed``; ``stream_response`` serves it (off the request thread
under ``keshi serve``, one stream per tab, ``503`` past the cap).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.events import Event
from companion.i18n import Msg
from companion.streaming.feed import Shared
from companion.table.kinds.view import build_view_json
from companion.table.service import GameNotFound, GameService, LiveGame
from companion.table.tower_link import TowerLink
from companion.web.stream import stream_response

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


class GameFeed:
    """A game's durable events after ``sent``, its tower drops and refusals, its deletion."""

    def __init__(self, games: GameService, link: TowerLink, live: LiveGame, sent: int) -> None:
        self.games, self.link, self.live = games, link, live
        self.game_id = live.id
        self.sent = sent

    def opening(self, shared: Shared) -> str:
        return f"retry: 1000\n: game {self.game_id}, after event {self.sent}\n\n" + self._flush(shared)

    def on_event(self, event: Event, shared: Shared) -> tuple[str, bool]:
        topic, data = event.topic, event.data
        if topic == "game.deleted" and data.get("game_id") == self.game_id:
            return deleted_messages(self.game_id, self.sent + 1), True
        if topic == "game.event" and data.get("game_id") == self.game_id:
            return (self._flush(shared) if data.get("event_id", 0) > self.sent else ""), False
        if topic.startswith(("toss.", "tower.")) and self._ours(event, shared):
            key = ("tower", event.id)
            if key not in shared:
                shared[key] = f"event: tower\ndata: {json.dumps({'topic': topic, 'data': data})}\n\n"
            return shared[key], False
        return "", False

    def heartbeat(self) -> str:
        return PING

    def _ours(self, event: Event, shared: Shared) -> bool:
        if event.topic == "tower.fault":
            return True
        if event.topic == "tower.refused":
            return bool(event.data.get("game_id") == self.game_id)
        key = ("game_of", event.id)  # asked once per event, however many phones follow
        if key not in shared:
            shared[key] = self.link.game_of(event.topic, event.data)
        return bool(shared[key] == self.game_id)

    def _flush(self, shared: Shared) -> str:
        """The game's messages after ``sent`` (read and serialised once per position for all phones)."""
        key = ("game", self.game_id, self.sent)
        if key not in shared:
            events = self.games.events_after(self.game_id, self.sent)
            if not events:
                shared[key] = ("", self.sent)
            else:
                view = build_view_json(self.live, events[-1]["id"])
                last = len(events) - 1
                shared[key] = ("".join(format_game_event(e, view if i == last else None)
                                       for i, e in enumerate(events)), events[-1]["id"])
        text, self.sent = shared[key]
        return str(text)


@bp.get("/api/games/<game_id>/events")
def game_events(game_id: str) -> Response:
    """Stream ``game_id``'s events after ``Last-Event-ID`` (default: from now) until the client leaves."""
    games: GameService = current_app.extensions["keshi.games"]
    link: TowerLink = current_app.extensions["keshi.tower_link"]
    live = games.get(game_id)
    feed = GameFeed(games, link, live, _resume_id(games.last_event_id(game_id)))
    return stream_response(feed, f"game:{game_id}")


@bp.errorhandler(GameNotFound)
def no_such_game(exc: GameNotFound) -> tuple[Response, int]:
    """An unknown game's stream is a plain 404 (EventSource then stops retrying)."""
    return jsonify(error=str(exc)), 404
