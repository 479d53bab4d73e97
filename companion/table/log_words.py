"""The words of the games' log lines: every event's ``label``/``say`` pair (``said``), and Marrakesh's
own lines (what fell out of the tower, who revealed which keshis).

Each line is a ``Msg``: stored in English (``label``, for the API, tests and stored logs) and as data
(``say``) that each phone renders in its own language (see docs/i18n.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.i18n import Msg, colour_name

if TYPE_CHECKING:
    from companion.table.service import LiveGame


def said(message: Msg) -> dict[str, Any]:
    """An event's words: ``label`` in English (stored, the API's tests and logs) and ``say``, the same
    message as data that each page renders in its own language."""
    return {"label": message.english(), "say": message.to_json()}


def counts_say(counts: dict[str, Any] | None) -> list[Msg] | Msg:
    """``{"green": 2, "white": 1}`` as the words "2 green, 1 white" (``"nothing"`` when empty)."""
    return [Msg("{n} {colour}", n=n, colour=colour_name(c)) for c, n in (counts or {}).items() if n] or Msg("nothing")


def joined(values: list[Any], between: str) -> Msg:
    """``values`` shown with ``between`` between them (no words of its own to translate)."""
    return Msg(between.join(f"{{v{i}}}" for i in range(len(values))), **{f"v{i}": v for i, v in enumerate(values)})


def release_say(meta: dict[str, Any]) -> Msg:
    """The one log line of a toss: what fell out, the beam's count, confirmed or corrected, leftovers."""
    fell = counts_say(meta["counts"])
    if "detected" not in meta:
        result = Msg("Tower: {keshis} fell out — typed in by the table", keshis=fell)
    elif meta["corrected"]:
        result = Msg("Tower: {keshis} fell out — corrected by the table (the tower saw {seen})", keshis=fell,
                     seen=counts_say(meta["detected"]))
    else:
        result = Msg("Tower: {keshis} fell out — confirmed by the table", keshis=fell)
    beam = Msg("; beam: {n} drops", n=meta["beam_count"]) if meta.get("beam_count") is not None else ""
    left = Msg(" ({keshis} left from before)", keshis=counts_say(meta["leftover"])) if meta["leftover"] else ""
    return Msg("{result}{beam}{left}", result=result, beam=beam, left=left)


def keshis_say(colours: list[str]) -> Msg:
    """A player's keshis as "green + red + white" (in the rulebook's colour words)."""
    return joined([colour_name(c) for c in colours], " + ")


def selection_say(live: LiveGame, action: dict[str, Any]) -> Msg:
    """A selection stays secret until everyone has chosen; then the log shows every player's keshis."""
    names = live.names
    if live.game.phase == "select":
        return Msg("{player} has chosen 3 keshis (shown when everyone has)", player=names[action["player"]])
    reveals = [Msg("{player}: {keshis}", player=p["name"], keshis=keshis_say(p["selected"]))
               for p in live.game.players_to_dict()]
    return Msg("Everyone reveals — {reveals}", reveals=joined(reveals, "; "))
