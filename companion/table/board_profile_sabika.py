"""Every printed value a Sabika game can ask, by the component it is printed on (the Board page).

A Sabika game asks a printed value the first time play needs it (``companion.games.sabika.questions``);
a table that wants no questions during play gives them all on the Board page first. The list comes
from the engine's own questions, so it cannot drift from what a game asks: the board (the Rondel on
each board side, the Sultan's Workers, the bag, the Round Track, the starting Dinars, the Sultan's
Favour Track, the Map), the tiles (Sultan's Wishes, City, Major Construction, Storehouse and Starting
Tiles) and the cards (Trade Cards, Major and Minor Poems, Minor Construction Cards, Architectural
Balance Cards, Yusuf's Cards for the solo mode), every numbered one a game the companion deals can
turn up (``components.POOLS``).

Values a game asks in one question (``questions.Group``: a Rondel's three ring sizes, the four turn
positions' starting Dinars) are one entry here too, with one stepper per value (``group``), so the Board
page and the game's question agree; saving or forgetting it saves or forgets each of its values.

A value that follows from another is listed once that one is known, as a game asks it: a ring's
squares after its size, a Secondary square's links after how many there are, a Sultan's Worker's
square after how many there are, a Favour space's Bonus after the track's length, a route's cost
after the routes, a Wishes tile's points after its elements, a card's points after how it scores.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from companion.games.sabika.components import POOLS, RINGS
from companion.games.sabika.questions import (
    SHIPPED_PROFILE,
    Group,
    Spec,
    answer_ok,
    board_questions,
    group_question,
    pool_components,
    question,
    ring_sizes,
    start_dinars,
)
from companion.games.sabika.setup import SetupOptions, initial_state, resolve_setup
from companion.games.sabika.words import option_label, parts_label
from companion.games.sabika.yusuf import DECK_RING, DECK_SIZE, card_specs, trade_cities_spec
from companion.i18n import Msg

EDITION = "sabika"
"""The Board page's name for Sabika's values (the key its answers are kept under, ``kinds.sabika.KEY``)."""

#: The physical component and the part of it (shown as a heading) of each key family (the key's first part).
FAMILIES: dict[str, tuple[str, Msg]] = {
    "rondel": ("board", Msg("Rondel")), "sultan": ("board", Msg("Sultan's Workers")), "bag": ("board", Msg("Bag")),
    "tribute": ("board", Msg("Round Track")), "events": ("board", Msg("Round Track")),
    "start_dinars": ("board", Msg("Starting Dinars")), "favour": ("board", Msg("Sultan's Favour Track")),
    "map": ("board", Msg("Map")), "wish": ("tiles", Msg("Sultan's Wishes Tiles")),
    "city_tile": ("tiles", Msg("City Tiles")), "major": ("tiles", Msg("Major Construction Tiles")),
    "storehouse": ("tiles", Msg("Storehouse Tiles")), "start_tile": ("tiles", Msg("Starting Tiles")),
    "trade": ("cards", Msg("Trade Cards")), "major_poem": ("cards", Msg("Major Poems")),
    "minor_card": ("cards", Msg("Minor Construction Cards")), "minor_poem": ("cards", Msg("Minor Poems")),
    "balance": ("cards", Msg("Architectural Balance Cards")), "yusuf": ("cards", Msg("Yusuf's Cards (solo)")),
    "solo": ("cards", Msg("Trade Cards in the solo mode")),
}
COMPONENTS = ("board", "tiles", "cards")

#: The values listed as one entry, as a game asks them (``questions.Group``), by the entry's key.
GROUPS: dict[str, Group] = {group.key: group for group in (ring_sizes("small"), ring_sizes("large"),
                                                           start_dinars(range(1, 5)))}


def members(key: str) -> list[str]:
    """The keys of the values entry ``key`` stands for: a group's, else ``key`` itself."""
    group = GROUPS.get(key)
    return [spec[0] for spec, _ in group.parts] if group is not None else [key]


def split(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` with a group's value (an object giving each of its keys a value) as those values."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if key in GROUPS and isinstance(value, dict) and set(value) == set(members(key)):
            out.update(value)
        else:
            out[key] = value
    return out


def needs(key: str) -> list[str]:
    """The printed values ``key`` follows from (listed once they are known)."""
    p = key.split(".")
    if p[0] == "rondel" and p[2] == "four_only":  # the 3 covered squares, among all the large side's
        return [f"rondel.{p[1]}.{ring}.size" for ring in RINGS]
    if p[0] == "rondel" and p[-1] in ("action", "four_only"):
        return [f"rondel.{p[1]}.{p[2]}.size"]
    if p[0] == "rondel" and p[2] in ("raw", "marble"):
        return [f"rondel.{p[1]}.{p[2]}_spots", f"rondel.{p[1]}.{p[4]}.size"]
    if p[0] == "sultan" and p[2] == "squares":
        return [f"rondel.{'small' if p[1] == '2p' else 'large'}.{ring}.size" for ring in RINGS]  # L59-61
    if p[0] == "sultan" and p[2] != "count":
        board = "small" if p[1] == "2p" else "large"  # L59-61
        return [f"sultan.{p[1]}.count", *(f"rondel.{board}.{ring}.size" for ring in RINGS)]
    if p[0] == "favour" and p[1] != "length":
        return ["favour.length"]
    if p[0] == "map" and p[1] == "route":
        return ["map.routes"]
    if p[0] == "wish" and p[-1] == "points":
        return [f"wish.{p[1]}.elements"]
    if p[0] in ("trade", "major_poem") and p[-1] in ("points", "max"):
        return [f"{p[0]}.{p[1]}.mode"]
    if p[0] == "minor_poem" and p[-1] == "quarry_materials":
        return [f"minor_poem.{p[1]}.blue"]
    if p[0] == "yusuf" and p[-1] == "square":
        return [f"rondel.small.{DECK_RING[p[1]]}.size"]
    return []


class _Trial(dict[str, Any]):
    """A profile under a walk: the table's values plus stand-ins; ``known`` tells them apart."""

    def __init__(self, table: Mapping[str, Any]) -> None:
        super().__init__(table)
        self.table = dict(table)

    def known(self, key: str) -> bool:
        return key in self.table


def _walk(specs: Iterator[Spec], trial: _Trial) -> Iterator[Spec]:
    """``specs`` read with ``trial`` as their profile: an unknown value gets a stand-in answer (the first
    option) so the walk reaches what follows it; a spec is kept once the values it follows from are
    the table's."""
    for spec in specs:
        key, _, options, multi, count = spec
        if key not in trial:
            trial[key] = list(options)[:count or 1] if multi else list(options)[0]
        if all(trial.known(parent) for parent in needs(key)):
            yield spec


def specs(known: Mapping[str, Any]) -> dict[str, Spec]:
    """Every question a Sabika game can ask given the table's ``known`` values, by key, as listed."""
    out: dict[str, Spec] = {}
    for players in (2, 3, 4):  # the small side; the large side with its covered squares, then 4 players
        trial = _Trial(known)
        state = initial_state(resolve_setup(SetupOptions(players=("A", "B", "C", "D")[:players], advanced=True,
                                                         when_needed=True)))  # as a new game asks
        state.profile = trial
        out.update((spec[0], spec) for spec in _walk(board_questions(state, every=True), trial))
    trial = _Trial(known)
    for component in pool_components(trial):
        out.update((spec[0], spec) for spec in _walk(component, trial))
    small = {ring: list(range(1, int(known.get(f"rondel.small.{ring}.size", 1)) + 1)) for ring in RINGS}
    for deck in DECK_RING:
        for card in range(1, DECK_SIZE + 1):
            for key, prompt, options, multi in card_specs(small, deck, card):
                if all(parent in known for parent in needs(key)):
                    out[key] = (key, prompt, options, multi, None)
    for card in range(1, POOLS["trade_card"] + 1):
        spec = trade_cities_spec(card)
        out[spec[0]] = spec
    return out


def entries(stored: list[dict[str, Any]], known: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The Board page's entries (``BoardProfile.entries``' shape): each listed value with its question in
    the language of the moment, where it is printed, its options and each option in player words (``words``,
    as the game's question buttons say them), its component (board, tiles or cards),
    and the table's value (``stored``), the rulebook's, or none yet (source ``missing``)."""
    table = {e["key"]: e for e in stored}
    out = []
    for order, (key, (_, prompt, options, multi, count)) in enumerate(specs(known).items()):
        component, where = FAMILIES[key.split(".")[0]]
        given = table.get(key)
        value, source = ((given["value"], given["source"]) if given else
                         (SHIPPED_PROFILE[key], "rulebook") if key in SHIPPED_PROFILE else (None, "missing"))
        out.append({"key": key, "title": str(prompt), "where": str(where), "options": list(options), "multi": multi,
                    "words": [str(option_label(key, option)) for option in options], "count": count, "parts": [],
                    "component": component, "family": key.split(".")[0],
                    "value": value, "source": source, "updated_at": given["updated_at"] if given else None,
                    "order": order})
    out.sort(key=lambda e: (COMPONENTS.index(e["component"]), e["order"]))
    for entry in out:
        del entry["order"]
    return _grouped(out)


def _grouped(listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``listed`` with each group's values as one entry where its first value was (``group``: each value's key,
    name, options and the table's value; the entry's value is the object of them once all are known)."""
    by_key = {e["key"]: e for e in listed}
    group_of = {spec[0]: group for group in GROUPS.values() for spec, _ in group.parts}
    out: list[dict[str, Any]] = []
    placed: set[str] = set()
    for entry in listed:
        group = group_of.get(entry["key"])
        if group is None:
            out.append(entry)
        elif group.key not in placed:
            placed.add(group.key)
            out.append(_group_entry(group, [by_key[spec[0]] for spec, _ in group.parts]))
    return out


def _group_entry(group: Group, parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The Board page's entry of ``group`` from the entries of its values (``parts``, in the group's order)."""
    asked = group_question(group, {})
    assert asked is not None  # every group has 2 or more values
    known = all(part["source"] != "missing" for part in parts)
    latest = max(parts, key=lambda part: part["updated_at"] or 0)
    return {"key": group.key, "title": str(group.prompt), "where": parts[0]["where"], "options": asked["options"],
            "multi": False, "words": [str(parts_label(asked["parts"], row)) for row in asked["options"]],
            "count": None, "parts": [], "component": parts[0]["component"], "family": parts[0]["family"],
            "group": [{"key": part["key"], "name": str(Msg.from_json(said["name_say"])), "options": part["options"],
                       "value": part["value"]} for part, said in zip(parts, asked["parts"], strict=True)],
            "value": {part["key"]: part["value"] for part in parts} if known else None,
            "source": latest["source"] if known else "missing", "updated_at": latest["updated_at"]}


def problems(new: Mapping[str, Any], current: Mapping[str, Any]) -> list[Msg]:
    """Why values of ``new`` (merged over the table's ``current``; a group's value as each of its values,
    ``split``) cannot be stored, one line each."""
    out: list[Msg] = []
    for key, value in new.items():
        if key in GROUPS and not (isinstance(value, dict) and set(value) == set(members(key))):
            out.append(Msg("{title}: {value} does not give one value for each of them", title=GROUPS[key].prompt,
                           value=repr(value)))
    new = split(new)
    listed = specs({**SHIPPED_PROFILE, **current, **new})
    for key, value in new.items():
        if key in GROUPS:
            continue
        spec = listed.get(key)
        if spec is None:
            out.append(Msg("{key} is no printed value a Sabika game asks (or what it follows from is not known yet)",
                           key=repr(key)))
        elif not answer_ok(question(key, spec[1], spec[2], multi=spec[3], count=spec[4]), value):
            out.append(Msg("{title}: {value} is not a possible value", title=spec[1], value=repr(value)))
    return out

