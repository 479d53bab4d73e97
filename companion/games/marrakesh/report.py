"""The result of a game for people and for JSON: scores, breakdowns, winners."""

from __future__ import annotations

from typing import Any

from companion.games.marrakesh.game import Game


def result_summary(game: Game) -> dict[str, Any]:
    """``{"players": [{"name", "score", "breakdown"}...], "finished", "winners", ...}``."""
    return {
        "edition": game.edition,
        "expansions": list(game.setup.get("expansions", [])),
        "finished": game.finished,
        "season": game.season,
        "round": game.round,
        "phase": game.phase,
        "actions": len(game.log),
        "winners": [game.name(i) for i in game.winners()] if game.finished else [],
        "players": [
            {"name": p.name, "score": p.score, "lap_tile": _lap_tile(p.score, game.lap),
             "breakdown": dict(sorted(p.breakdown.items())),
             "resources": dict(p.resources), "markers": dict(p.markers), "palace": p.palace, "mosque": p.mosque}
            for p in game.players
        ],
    }


def _lap_tile(score: int, lap: int) -> str | None:
    """The lap tile a player shows: 70/140 (Essential) or 100/200 (Classic) (digest §16 D2)."""
    if score >= 2 * lap:
        return str(2 * lap)
    return str(lap) if score >= lap else None


def result_text(summary: dict[str, Any]) -> str:
    """A short human-readable report of ``result_summary``."""
    state = "finished" if summary["finished"] else (
        f"in progress: season {summary['season']}, round {summary['round']}, phase {summary['phase']}")
    modules = summary.get("expansions") or []
    with_modules = f", expansions {', '.join(map(str, modules))}" if modules else ""
    lines = [f"Marrakesh ({summary['edition']}{with_modules}), {summary['actions']} actions, {state}"]
    for p in summary["players"]:
        parts = ", ".join(f"{k} {v:+d}" for k, v in p["breakdown"].items() if v)
        lines.append(f"  {p['name']}: {p['score']} points ({parts})")
    if summary["winners"]:
        lines.append(f"Winner: {' and '.join(summary['winners'])}")
    return "\n".join(lines) + "\n"
