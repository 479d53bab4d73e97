"""Counting and scoring: Sultan's Wishes, Major Poems, the Trade Card, leftovers, the winner (L943-1061).

A Major Poem or Trade Card counts one *metric* (``components.METRICS``) and scores it as a majority
(14/9/6 PP, ties take the lower place, 2 players skip second place; L1030-1036) or as PP per item
(with an optional maximum). Which metric and numbers a card shows are asked of the table.
"""

from __future__ import annotations

from typing import Any

from companion.games.sabika import solo
from companion.games.sabika.components import MAJORITY_PP
from companion.games.sabika.routes import longest_chain
from companion.games.sabika.state import GameState, PlayerState


def metric(s: GameState, p: PlayerState, name: str) -> int:
    """How many of ``name`` player ``p`` has (a Sultan's Wishes element or a scoring-card metric)."""
    prof = s.profile
    if s.yusuf and p is s.players[solo.YUSUF]:
        clarified = solo.counts(s, p, name)
        if clarified is not None:
            return clarified
    if name in ("palace", "fountain", "door"):
        return sum(1 for t in p.major_tiles if prof[f"major.{t.replace('-', '.')}.type"] == name)
    if name in ("garden", "tower", "window"):
        return sum(1 for c in p.minor_row if c and prof[f"minor_card.{c}.type"] == name)
    simple = {
        "poems": p.poems(), "blue_poems": len(p.blue_poems), "red_poems": len(p.red_poems),
        "grey_poems": len(p.grey_poems), "seals": p.seals, "balances": p.balances, "favour": p.favour,
        "parias": p.parias, "presence": len(p.ships),
        "consolidated": sum(1 for where in p.ships.values() if where == "right"),
        "constructions": p.constructions(), "major_constructions": len(p.major_tiles),
        "minor_constructions": len(p.minor_row) - 1,
        "poem_trios": min(len(p.blue_poems), len(p.red_poems), len(p.grey_poems)),
    }
    if name in simple:
        return simple[name]
    if name == "store_boxes":  # Minor Poem 16* adds 2 (L1094-1097)
        special = sum(2 for m in p.blue_poems if prof.get(f"minor_poem.{m}.blue") == "goods_store")
        return 4 + special + sum(int(prof[f"storehouse.{t}.boxes"]) for tiles in p.storehouses for t in tiles)
    if name == "ship_chain":
        return longest_chain(prof, p.ships)
    raise AssertionError(f"unknown metric {name}")


def wishes(s: GameState, p: PlayerState, tower: list[str]) -> int:
    """PP from every Sultan's Wishes tile in the Tower (``tower``: the tiles there once the new one is added):
    each element times its PP (L914-920)."""
    total = 0
    for tile in tower:
        for element in s.profile[f"wish.{tile}.elements"]:
            total += metric(s, p, element) * int(s.profile[f"wish.{tile}.{element}.points"])
    return total


def card_points(s: GameState, seat: int, prefix: str) -> int:
    """PP a Major Poem or Trade Card (profile keys under ``prefix``) gives player ``seat``."""
    prof = s.profile
    name = str(prof[f"{prefix}.metric"])
    mine = metric(s, s.players[seat], name)
    if prof[f"{prefix}.mode"] == "per":
        points = mine * int(prof[f"{prefix}.points"])
        cap = int(prof[f"{prefix}.max"])
        return min(points, cap) if cap else points
    if mine <= 0:
        return 0  # nothing counted, no place (docs/sabika.md)
    place = sum(1 for q in s.players if metric(s, q, name) >= mine)  # ties take the lower place (L1033-1034)
    table = (MAJORITY_PP[0], MAJORITY_PP[2]) if len(s.players) == 2 else MAJORITY_PP  # L1034-1036
    return table[place - 1] if place <= len(table) else 0


def final(s: GameState) -> None:
    """Major Poems, Trade Card, leftover Seals, Goods, Marble, Glazed Ceramic and Dinars (L1024-1055)."""
    report: dict[str, Any] = {}
    cards = [([card_points(s, seat, f"major_poem.{poem}") for poem in p.grey_poems],
              card_points(s, seat, f"trade.{s.trade_card}")) for seat, p in enumerate(s.players)]  # read first
    for seat, (p, (poems, trade)) in enumerate(zip(s.players, cards, strict=True)):
        for points in poems:
            p.gain_pp(points, "major_poems")
        p.gain_pp(trade, "trade")
        leftovers = solo.leftovers(p) if solo.is_yusuf(s, seat) else (
            p.seals + p.items["sugar"] + p.items["clothes"] + p.items["pottery"] + p.items["marble"]
            + p.items["glazed"] + p.dinars // 2)
        p.gain_pp(leftovers, "leftovers")
        report[p.name] = p.score
    s.final = {"scores": report, "winners": [s.players[i].name for i in winners(s)]}


def winners(s: GameState) -> list[int]:
    """Most PP; a tie goes to the most Constructions; still tied, shared (L1057-1061)."""
    best = max(p.score for p in s.players)
    tied = [i for i, p in enumerate(s.players) if p.score == best]
    most = max(s.players[i].constructions() for i in tied)
    return [i for i in tied if s.players[i].constructions() == most]
