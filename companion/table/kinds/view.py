"""The JSON view of a table game (Morocco, Sabika) every phone renders, and its Marrakesh dispatch.

Built once per game version and shared by every request and stream (like ``companion.table.views``
for Marrakesh): who must act, the prompt and options (``choices``), the board, scores, winners and
what Undo would take back — all from the game's adapter (``companion.table.kinds``).
"""

from __future__ import annotations

from typing import Any

from companion.i18n import Msg
from companion.table import views
from companion.table.kinds import MARRAKESH, adapter
from companion.table.service import LiveGame


def build_view(live: LiveGame, last_event_id: int) -> dict[str, Any]:
    """The view of ``live`` whatever its game (``event_id`` is always the caller's latest)."""
    return views.build_view(live, last_event_id, None if live.kind == MARRAKESH else _fresh)


def build_view_json(live: LiveGame, last_event_id: int) -> str:
    """``build_view`` as JSON text, serialised once per change however many phones are streaming."""
    return views.build_view_json(live, last_event_id, None if live.kind == MARRAKESH else _fresh)


def _fresh(live: LiveGame) -> dict[str, Any]:
    game = live.game
    kind = adapter(live.kind)
    names = live.names
    choices = kind.choices(game)
    actor = choices.get("actor")
    if game.finished:
        turn = "Game over"
    elif isinstance(actor, int):
        turn = names[actor]
    else:
        turn = "The table"
    return {
        "id": live.id, "kind": live.kind, "game_name": kind.NAME, "title": live.title, "version": live.version,
        "actions": len(game.log), "names": names, "seating": live.seating, "finished": bool(game.finished),
        "turn": turn, "board": kind.board_view(game), "choices": choices, "scores": kind.scores(game),
        "winners": kind.winners(game), "undo": undo_view(live),
    }


def undo_view(live: LiveGame) -> dict[str, Any]:
    """What Undo would take back, in player words (the log line of the last action), or why not."""
    history = live.history_refusal_say()
    if history is not None:  # the page says why in its language
        return {"available": False, "label": live.last_label, "reason": history.english(),
                "reason_say": history.to_json()}
    last = live.last_say
    return {"available": True, "label": live.last_label or "the last action", "reason": None,
            "label_say": last.to_json() if isinstance(last, Msg) else None}  # the page says it in its language
