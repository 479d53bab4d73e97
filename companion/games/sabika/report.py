"""The result of a Sabika game for people and for JSON: scores with breakdowns, the winner."""

from __future__ import annotations

from typing import Any

from companion.games.sabika.game import Game


def result_summary(game: Game) -> dict[str, Any]:
    """``{"game", "finished", "round", "phase", "actions", "winners", "players": [{"name", "score", "breakdown"}]}``."""
    s = game.s
    return {
        "game": "sabika",
        "finished": game.finished,
        "round": s.round,
        "phase": s.phase,
        "actions": len(game.log),
        "winners": [game.name(i) for i in game.winners()] if game.finished else [],
        "winner": " and ".join(game.name(i) for i in game.winners()) if game.finished else None,
        "players": [
            {"name": p.name, "score": p.score, "breakdown": dict(sorted(p.breakdown.items())),
             "dinars": p.dinars, "parias": p.parias, "seals": p.seals, "constructions": p.constructions(),
             "poems": p.poems(), "ships": len(p.ships)}
            for p in s.players
        ],
    }


def result_text(summary: dict[str, Any]) -> str:
    """A short human-readable report of ``result_summary``."""
    state = "finished" if summary["finished"] else f"in progress: round {summary['round']}, phase {summary['phase']}"
    lines = [f"Sabika, {summary['actions']} actions, {state}"]
    for p in summary["players"]:
        parts = ", ".join(f"{k} {v:+d}" for k, v in p["breakdown"].items() if v)
        lines.append(f"  {p['name']}: {p['score']} PP ({parts})")
    if summary["winners"]:
        lines.append(f"Winner: {' and '.join(summary['winners'])}")
    return "\n".join(lines) + "\n"
