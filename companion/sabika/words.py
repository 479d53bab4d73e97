"""Player words for the values the engine keeps as keys: bonus icons, question answers, phases.

The engine's choices already speak in player words (``"Gypsum + Marble"``, ``"City 4"``); the answers
to questions about printed values are stored as keys (``"minor_quarry"``, ``"dinars:2"``, ``"0-3"``)
because they go into the board profile. A screen shows them through ``answer_label`` and groups a
long list of them with ``answer_group``, so nobody at the table reads an internal key.
"""

from __future__ import annotations

from typing import Any

from companion.sabika.components import ACTION_WORDS, ARTWORK_WORDS, RING_WORDS, WORDS

ICON_WORDS = {
    "dinars": ("Dinar", "Dinars"), "parias": ("Paria", "Parias"), "pp": ("PP", "PP"),
    "gypsum": ("Gypsum", "Gypsum"), "wood": ("Wood", "Wood"), "marble": ("Marble", "Marble"),
    "glazed": ("Glazed Ceramic", "Glazed Ceramic"), "material": ("Material of your choice", "Materials of your choice"),
    "raw": ("Raw Material", "Raw Materials"), "good": ("Good", "Goods"),
    "transactions": ("Market transaction", "Market transactions"),
    "process": ("Raw Material processed", "Raw Materials processed"),
}
"""Amount icons (L1491-1660): singular and plural words."""

ACTION_ICON_WORDS = {
    **{key: f"a {word} Action" for key, word in ACTION_WORDS.items()},
    "artisanal": "an Artisanal Labour Action", "export": "an Export Action",
    "city_bonus": "a City Bonus", "favour": "a step on the Sultan's Favour Track",
    "major_tile_bonus": "2 PP and the Bonus of a Major Construction Tile (Minor Poem 4*)",
    "free_ship": "a free Ship in a City (Minor Poem 14*)",
    "red_city_action": "the action of a red City where you have a Ship (Minor Poem 17*)",
}

METRIC_WORDS = {
    "poems": "Poems", "blue_poems": "blue Poems", "red_poems": "red Poems", "grey_poems": "grey Poems",
    "poem_trios": "sets of a blue, a red and a grey Poem", "store_boxes": "Store Boxes",
    "balances": "Architectural Balances", "constructions": "Constructions",
    "major_constructions": "Major Constructions", "minor_constructions": "Minor Constructions",
    "palace": "Palaces", "fountain": "Fountains", "door": "Doors", "garden": "Gardens", "tower": "Towers",
    "window": "Windows", "presence": "Cities with your Ship", "consolidated": "consolidated Cities",
    "seals": "Seals", "ship_chain": "Ships in the longest chain", "favour": "Sultan's Favour spaces",
    "parias": "Parias",
}
"""What a Major Poem, Trade Card or Sultan's Wishes tile counts."""

BLUE_EFFECT_WORDS = {
    "income_start": "2 Dinars each Income Phase, 2 PP on becoming Starting Player (1*)",
    "seal_bonus": "2 Dinars and 2 PP for each Seal you get (2)",
    "quarry_extra": "1 Raw Material or a listed Material per Quarry Action (21)",
    "wood_bonus": "+1 PP and 1 Paria when building with Wood (5*)",
    "poem_scaffold": "up to 2 extra Materials and +1 PP each when carving (10*)",
    "goods_store": "a special Storehouse for 2 Goods, +1 PP and 1 Paria each (16*)",
    "export_double": "2 PP and 2 Parias per Good exported (20*)",
    "unmodelled": "another permanent effect (the table applies it by hand)",
}

PHASE_WORDS = {
    "setup": "Setting up the board", "start_tiles": "Choosing Starting Tiles", "actions": "Actions Phase",
    "end_round": "End of Round", "final": "End of Game", "finished": "Game over",
}

OTHER_WORDS = {
    "yes": "yes", "no": "no", "majority": "majority (14 / 9 / 6 PP)", "per": "PP for each item counted",
    "blue": "blue", "red": "red", "palace": "Palace", "fountain": "Fountain", "door": "Door",
    "garden": "Garden", "tower": "Tower", "window": "Window",
    **WORDS, **{key: f"{word} (artwork)" for key, word in ARTWORK_WORDS.items()},
}


ICON_KEYS = (".bonus", ".red", ".consolidate")
"""Questions answered with printed bonus icons."""


def place_words(node: int | str) -> str:
    """A node of the trade-route map: 0 is the Kingdom of Granada, 1-9 the Cities."""
    return "Kingdom of Granada" if int(node) == 0 else f"City {int(node)}"


def icon_label(icon: str) -> str:
    """A printed bonus icon (``"dinars:2"``, ``"export"``) in player words (``"2 Dinars"``)."""
    name, _, amount = icon.partition(":")
    if amount:
        one, many = ICON_WORDS[name]
        return f"{amount} {one if amount == '1' else many}"
    return ACTION_ICON_WORDS[name]


def icons_label(icons: Any) -> str:
    """A printed Bonus (a list of icons, earned left to right) in player words."""
    if not icons:
        return "nothing"
    return ", then ".join(icon_label(str(icon)) for icon in icons)


def _is_icon(value: str) -> bool:
    name, _, amount = value.partition(":")
    return (bool(amount) and name in ICON_WORDS) or (not amount and name in ACTION_ICON_WORDS)


def answer_label(key: str, value: Any) -> str:
    """One answer to the question ``key`` (a value or a list of values) in player words."""
    if isinstance(value, list):
        return " + ".join(answer_label(key, v) for v in value) if value else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if key.endswith(".metric") or key.startswith("wish.") and key.endswith(".elements"):
        return METRIC_WORDS.get(text, text)
    if key.endswith(".blue"):
        return BLUE_EFFECT_WORDS.get(text, text)
    if key == "map.routes" and "-" in text:
        a, b = text.split("-")
        return f"{place_words(a)} \u2013 {place_words(b)}"
    ring, _, square = text.partition(" ")
    if ring in RING_WORDS and square.isdigit():
        return f"{RING_WORDS[ring]} square {square}"
    if key.endswith(".action") and text in ACTION_WORDS:
        return ACTION_WORDS[text]
    if text in OTHER_WORDS:
        return OTHER_WORDS[text]
    if _is_icon(text):
        return icon_label(text)
    return text


def answer_group(key: str, value: Any) -> str:
    """A heading to group a long list of answers under (icons by kind, routes by first place)."""
    if isinstance(value, list):
        return answer_group(key, value[0]) if len(value) == 1 else "Answers"
    text = str(value)
    if key == "map.routes" and "-" in text:
        return f"From {place_words(text.split('-')[0])}"
    ring, _, square = text.partition(" ")
    if ring in RING_WORDS and square.isdigit():
        return RING_WORDS[ring]
    if key.endswith(ICON_KEYS) and isinstance(value, str) and _is_icon(text):
        name = text.partition(":")[0]
        if name in ("dinars", "parias", "pp"):
            return "Dinars, Parias, PP"
        if name in ("gypsum", "wood", "marble", "glazed", "material"):
            return "Materials"
        if name in ("raw", "good", "transactions", "process"):
            return "Goods and trade"
        return "Actions"
    return "Answers"
