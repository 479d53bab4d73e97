"""The JSON view of a game every phone renders: state, whose turn, legal choices, tower result.

A view is built once per game version (and tower result) and shared by every request and stream,
so 30 phones cost one ``to_dict`` and one legal-action listing per change.
"""

from __future__ import annotations

import json
from typing import Any

from companion import COLOURS
from companion.web import engine
from companion.web.games import LiveGame


def build_view(live: LiveGame, last_event_id: int) -> dict[str, Any]:
    """The view of ``live`` (cached per version; ``event_id`` is always the caller's latest)."""
    return {**_cached(live)[1], "event_id": last_event_id}


def build_view_json(live: LiveGame, last_event_id: int) -> str:
    """``build_view`` as JSON text, serialised once per change however many phones are streaming."""
    return f'{{"event_id": {int(last_event_id)}, {_cached(live)[2][1:]}'


def _cached(live: LiveGame) -> tuple[int, dict[str, Any], str]:
    with live.lock:
        cached = live.view_cache
        if cached is None or cached[0] != live.version:
            view = _fresh(live)
            cached = (live.version, view, json.dumps(view))
            live.view_cache = cached
        return cached


def _fresh(live: LiveGame) -> dict[str, Any]:
    game = live.game
    state = hide_choices_in_progress(game.to_dict())
    names = [str(p["name"]) for p in state["players"]]
    to_move = game.to_move
    if game.finished:
        turn = "Game over"
    elif to_move == "table" or to_move is None:
        turn = "The table"
    else:
        turn = names[int(to_move)]
    winners: list[str] = []
    if game.finished:
        winners = [names[i] if isinstance(i, int) else str(i) for i in game.winners()]
    return {
        "id": live.id,
        "title": live.title,
        "version": live.version,
        "actions": len(game.log),
        "seating": live.seating,
        "edition": state["edition"],
        "expansions": state["expansions"],
        "variant": engine.variant_text(state["edition"], state["expansions"]),
        "names": names,
        "phase": game.phase,
        "phase_label": engine.phase_text(game.phase),
        "season": game.season,
        "round": game.round,
        "to_move": to_move,
        "turn": turn,
        "pending": game.pending,
        "finished": bool(game.finished),
        "winners": winners,
        "legal": engine.legal_json(game, names),
        "selections": engine.selection_options(game),
        "pieces_in": pieces_in(state),
        "tower_result": live.tower_result,
        "tossing": live.tossing is not None,
        "tower_check": live.tower_check,
        "season_scoring": live.season_scoring,
        "undo": undo_view(live),
        "category_labels": {key: engine.category_text(key) for key in sorted(
            set(engine.CATEGORY_LABELS).union(*(p["breakdown"] for p in state["players"])))},
        "state": state,
    }


def undo_view(live: LiveGame) -> dict[str, Any]:
    """What the Undo button would take back, in player words, or why it cannot now."""
    game = live.game
    refusal = live.undo_refusal(None)
    if not game.log:
        return {"available": False, "label": None, "reason": refusal}
    last = engine.to_json(game.log[-1])
    secret = last["type"] == "select" and game.phase == "select"
    return {"available": refusal is None, "label": engine.taken_back_text(last, live.names, secret),
            "reason": refusal}


def hide_choices_in_progress(state: dict[str, Any]) -> dict[str, Any]:
    """While some still choose, a player who has chosen shows nothing of it (the keshis stay behind the screen).

    Every phone gets the same view, so a selection must not leak through ``selected``, the assistants
    it sent out, or the screen it came from, until the last player has chosen.
    """
    if state.get("phase") != "select":
        return state
    for player in state["players"]:
        if player.get("has_selected"):
            for colour in player["selected"]:
                player["screen"][colour] += 1
            player["selected"] = []
            player["assistants"] = []
    return state


def pieces_in(state: dict[str, Any]) -> dict[str, int]:
    """The keshis that go into the tower this round: every player's revealed selection."""
    counts = dict.fromkeys(COLOURS, 0)
    for player in state.get("players", []):
        for colour in player.get("selected", []):
            if colour in counts:
                counts[colour] += 1
    return counts
