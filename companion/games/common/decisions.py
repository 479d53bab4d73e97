"""Pending decisions: choices a player must make and questions the table must answer.

A decision is plain data (``{"kind", "player", "prompt", "options", ...}``) kept in the game state,
so it appears in ``to_dict`` and survives replay. ``prompt`` is English (logs, the CLI); a prompt made
from a ``Msg`` also carries ``say``, the same words as data that a page renders in its own language.
Effect handlers raise ``NeedInput`` to pause until the decision is answered; they do so before
changing any state, so a handler can simply run again once the answer is in.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from companion.i18n import Msg


class NeedInput(Exception):  # noqa: N818 - a control-flow signal, not an error
    """Raised inside an effect handler: the effect waits for ``decision``."""

    def __init__(self, decision: dict[str, Any]) -> None:
        super().__init__(decision["prompt"])
        self.decision = decision


def prompt_fields(prompt: str | Msg) -> dict[str, Any]:
    """``{"prompt": English}`` plus ``{"say": ...}`` when the prompt can be shown in another language."""
    if isinstance(prompt, Msg):
        return {"prompt": prompt.english(), "say": prompt.to_json()}
    return {"prompt": prompt}


def prompt_of(decision: dict[str, Any]) -> Msg | str:
    """A decision's prompt, to be rendered in the reader's language where it can be."""
    return Msg.from_json(decision["say"]) if "say" in decision else str(decision["prompt"])


def choice(player: int, prompt: str | Msg, options: list[Any]) -> dict[str, Any]:
    """A decision for ``player``: pick one of ``options``."""
    return {"kind": "choice", "player": player, **prompt_fields(prompt), "options": list(options)}


def question(key: str, prompt: str | Msg, options: list[Any], *, multi: bool = False) -> dict[str, Any]:
    """A question to the table about a printed board value; ``multi``: answer with a non-empty list."""
    return {"kind": "question", "player": None, "key": key, **prompt_fields(prompt), "options": list(options),
            "multi": multi}


@cache
def bundle_options(max_total: int = 3) -> list[dict[str, int]]:
    """Every non-empty resource bundle of at most ``max_total`` items (for cost/reward questions).

    Cached: callers must not change the returned list (questions copy it).
    """
    out: list[dict[str, int]] = []
    for total in range(1, max_total + 1):
        for water in range(total, -1, -1):
            for dates in range(total - water, -1, -1):
                dinars = total - water - dates
                out.append({k: v for k, v in (("water", water), ("dates", dates), ("dinars", dinars)) if v})
    return out


def bundle_text(bundle: dict[str, int]) -> str:
    """``{"dates": 1, "water": 1}`` -> ``"1 dates + 1 water"`` for prompts and reports."""
    return " + ".join(f"{n} {k}" for k, n in sorted(bundle.items())) or "nothing"
