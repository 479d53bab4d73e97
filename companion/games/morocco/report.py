"""The result of a Morocco game for people and for JSON: scores with breakdowns, the winner."""

from __future__ import annotations

from typing import Any

from companion.games.morocco.game import Game

CATEGORY_WORDS = {"first_place": "1st places", "second_place": "2nd places", "third_place": "3rd places",
                  "juice": "juice sellers", "largest_district": "largest district", "gold": "gold coins"}


def result_summary(game: Game) -> dict[str, Any]:
    """``{"game", "players": [{"name", "score", "breakdown", ...}], "winners", "finished", ...}`` (JSON-able)."""
    s = game.s
    return {
        "game": "morocco",
        "finished": s.finished,
        "end_reason": s.end_reason,
        "round": s.round,
        "phase": s.phase,
        "actions": len(game.log),
        "open_stalls": s.open_stalls(),
        "winners": [game.name(i) for i in game.winners()] if s.finished else [],
        "players": [
            {"name": p.name, "score": p.score, "breakdown": dict(sorted(p.breakdown.items())),
             "claimed_stalls": s.tiles.count(seat), "gold": p.gold, "juice_tokens": len(p.juice)}
            for seat, p in enumerate(s.players)
        ],
    }


def result_text(summary: dict[str, Any]) -> str:
    """A short human-readable report of ``result_summary``."""
    if summary["finished"]:
        state = f"finished ({summary['end_reason']})"
    else:
        state = f"in progress: round {summary['round']}, phase {summary['phase']}"
    lines = [f"Morocco, {summary['actions']} actions, {state}"]
    for p in summary["players"]:
        parts = ", ".join(f"{CATEGORY_WORDS.get(k, k)} {v:+d}" for k, v in p["breakdown"].items() if v)
        lines.append(f"  {p['name']}: {p['score']} points, {p['claimed_stalls']} stalls claimed ({parts or 'none'})")
    if summary["winners"]:
        lines.append(f"Winner: {' and '.join(summary['winners'])}")
    return "\n".join(lines) + "\n"
