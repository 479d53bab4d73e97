"""Turning up hidden components: bag tokens, Minor Construction Cards, Minor Poems, Storehouse Tiles.

A seeded game takes them from the decks the setup shuffled and draws bag tokens from the seed (with
a counter, so replay repeats them). With ``table_draws`` the table says what it turned up: a
``draw`` question (answered with ``Answer``, not kept in the board profile), so the companion
follows the real table. Each turned-up component is one ``reveal`` effect, so every draw happens in
the rulebook's order (L973-992) and a pause for the table's answer changes nothing before it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.sabika.components import RAWS
from companion.games.sabika.handlers import Effect, handler
from companion.games.sabika.rules import bag_draw
from companion.games.sabika.say import ITEM_SAY, Said
from companion.i18n import Msg

if TYPE_CHECKING:
    from companion.games.sabika.game import Game

CARD_NUMBERS = range(1, 100)
"""Table draws: card numbers offered (the text gives no deck sizes for Minor Cards and Poems)."""
STORE_TILES = range(1, 25)
"""24 Storehouse Tiles (L94)."""
EMPTY = Said(Msg("none: the pile is empty"))


def reveal(what: str, slot: int, sub: int = 0) -> Effect:
    """The effect turning up one component into ``slot`` (``sub``: which of a Storehouse pair)."""
    return {"k": "reveal", "what": what, "slot": slot, "sub": sub}


@handler
def h_rescan(g: Game, eff: Effect) -> None:
    """New components are face up: ask their printed values before play goes on."""
    g.rescan()


@handler
def h_reveal(g: Game, eff: Effect) -> None:
    s, what, slot = g.s, eff["what"], eff["slot"]
    table = bool(s.setup.get("table_draws"))
    if what == "raw":
        s.raw_spots[slot] = _raw(g, eff, table)
    elif what == "minor":
        s.minor_display[slot] = _minor(g, eff, table)
    elif what == "poem":
        s.poem_display[slot] = _poem(g, eff, table)
    else:
        s.store_display[slot][eff["sub"]] = _store(g, eff, table)


def _raw(g: Game, eff: Effect, table: bool) -> str | None:
    """A token from the bag; an empty bag first takes back the discarded ones (L978-982)."""
    s = g.s
    if not sum(s.bag.values()):
        for raw in RAWS:
            s.bag[raw] += s.discard[raw]
            s.discard[raw] = 0
    left = [raw for raw in RAWS if s.bag[raw]]
    if not left:
        return None
    if table:
        names = {Said(ITEM_SAY[raw]): raw for raw in left}
        raw = names[g.draw(eff, "draw.raw", Msg("Which Raw Material was drawn from the bag?"), list(names))]
        s.bag[raw] -= 1
        return raw
    return bag_draw(s, g.rng())


def _seen_cards(g: Game) -> set[int]:
    s = g.s
    return {c for c in s.minor_display if c is not None} | {c for p in s.players for c in p.minor_row}


def _minor(g: Game, eff: Effect, table: bool) -> int | None:
    """The next Minor Construction Card; an empty deck is reshuffled from the discards (L586-587)."""
    s = g.s
    if table:
        seen = _seen_cards(g)
        options: list[Any] = [c for c in CARD_NUMBERS if c not in seen] + [EMPTY]
        card = g.draw(eff, "draw.minor_card", Msg("Which Minor Construction Card was turned up?"), options)
        if card == EMPTY:
            return None
        if card in s.minor_discard:
            s.minor_discard.remove(card)
        return int(card)
    if not s.minor_deck and s.minor_discard:
        s.minor_deck = s.minor_discard
        s.minor_discard = []
        g.rng().shuffle(s.minor_deck)
    return s.minor_deck.pop(0) if s.minor_deck else None


def _poem(g: Game, eff: Effect, table: bool) -> int | None:
    """The next Minor Poem (an empty deck is not refilled: the text says nothing of it)."""
    s = g.s
    if table:
        seen = {m for m in s.poem_display if m is not None}
        seen |= {m for p in s.players for m in p.blue_poems + p.red_poems}
        options: list[Any] = [m for m in CARD_NUMBERS if m not in seen] + [EMPTY]
        poem = g.draw(eff, "draw.minor_poem", Msg("Which Minor Poem was turned up?"), options)
        return None if poem == EMPTY else int(poem)
    return s.poem_deck.pop(0) if s.poem_deck else None


def _store(g: Game, eff: Effect, table: bool) -> int | None:
    """The next Storehouse Tile of the pile on that side of the Rondel (L991-992)."""
    s = g.s
    pile = s.store_piles[eff["slot"]]
    if not pile:
        return None
    if table:
        seen = {t for pair in s.store_display for t in pair if t is not None}
        seen |= {t for p in s.players for tiles in p.storehouses for t in tiles}
        tile = g.draw(eff, "draw.storehouse", Msg("Which Storehouse Tile was turned up?"),
                      [t for t in STORE_TILES if t not in seen])
        pile.pop(0)
        return int(tile)
    return pile.pop(0)
