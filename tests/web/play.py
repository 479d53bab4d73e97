"""Playing helpers shared by the web tests and the benchmark: pick the first legal choice of a view."""

from __future__ import annotations

from typing import Any


def first_action(view: dict[str, Any]) -> dict[str, Any]:
    """The first legal action of ``view``; in the toss phase, the tower releases everything inside."""
    if view["phase"] == "select" and not view["pending"]:
        seat, options = next(iter(view["selections"].items()))
        option = options[0]
        return {"type": "select", "player": int(seat), "colours": option["colours"],
                "wild_sectors": option["wild"][0] if option["wild"] else []}
    if view["phase"] == "toss" and not view["pending"]:
        inside = view["state"]["tower"]["inside"]
        return {"type": "release", "counts": {c: n for c, n in inside.items() if n}}
    return dict(view["legal"][0]["action"])


def scores(view: dict[str, Any]) -> list[int]:
    return [int(p["score"]) for p in view["state"]["players"]]
