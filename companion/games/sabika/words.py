"""Player words for the values the engine keeps as keys: bonus icons, question answers, phases.

The engine's choices already speak in player words (``"Gypsum + Marble"``, ``"City 4"``); the answers
to questions about printed values are stored as keys (``"minor_quarry"``, ``"dinars:2"``, ``"0-3"``)
because they go into the board profile. A screen shows them through ``answer_label`` and groups a
long list of them with ``answer_group``, so nobody at the table reads an internal key. Every word is
a ``Msg`` (``msg.english()`` is the English the API and the log keep; a page renders it in its language).
"""

from __future__ import annotations

from typing import Any

from companion.games.sabika.components import RING_WORDS
from companion.games.sabika.say import ACTION_SAY, ARTWORK_SAY, COLOUR_SAY, ITEM_SAY, RING_SAY, Said, comma_list
from companion.i18n import Msg

ICON_WORDS: dict[str, tuple[Msg, Msg]] = {
    "dinars": (Msg("{n} Dinar"), Msg("{n} Dinars")), "parias": (Msg("{n} Paria"), Msg("{n} Parias")),
    "pp": (Msg("{n} PP"), Msg("{n} PP")), "gypsum": (Msg("{n} Gypsum"), Msg("{n} Gypsum")),
    "wood": (Msg("{n} Wood"), Msg("{n} Wood")), "marble": (Msg("{n} Marble"), Msg("{n} Marble")),
    "glazed": (Msg("{n} Glazed Ceramic"), Msg("{n} Glazed Ceramic")),
    "material": (Msg("{n} Material of your choice"), Msg("{n} Materials of your choice")),
    "raw": (Msg("{n} Raw Material"), Msg("{n} Raw Materials")), "good": (Msg("{n} Good"), Msg("{n} Goods")),
    "transactions": (Msg("{n} Market transaction"), Msg("{n} Market transactions")),
    "process": (Msg("{n} Raw Material processed"), Msg("{n} Raw Materials processed")),
}
"""Amount icons (L1491-1660): singular and plural words."""

ACTION_ICON_WORDS: dict[str, Msg] = {
    **{key: Msg("a {action} Action", action=word) for key, word in ACTION_SAY.items()},
    "artisanal": Msg("an Artisanal Labour Action"), "export": Msg("an Export Action"),
    "city_bonus": Msg("a City Bonus"), "favour": Msg("a step on the Sultan's Favour Track"),
    "major_tile_bonus": Msg("2 PP and the Bonus of a Major Construction Tile (Minor Poem 4*)"),
    "free_ship": Msg("a free Ship in a City (Minor Poem 14*)"),
    "red_city_action": Msg("the action of a red City where you have a Ship (Minor Poem 17*)"),
}

METRIC_WORDS: dict[str, Msg] = {
    "poems": Msg("Poems"), "blue_poems": Msg("blue Poems"), "red_poems": Msg("red Poems"),
    "grey_poems": Msg("grey Poems"), "poem_trios": Msg("sets of a blue, a red and a grey Poem"),
    "store_boxes": Msg("Store Boxes"), "balances": Msg("Architectural Balances"), "constructions": Msg("Constructions"),
    "major_constructions": Msg("Major Constructions"), "minor_constructions": Msg("Minor Constructions"),
    "palace": Msg("Palaces"), "fountain": Msg("Fountains"), "door": Msg("Doors"), "garden": Msg("Gardens"),
    "tower": Msg("Towers"), "window": Msg("Windows"), "presence": Msg("Cities with your Ship"),
    "consolidated": Msg("consolidated Cities"), "seals": Msg("Seals"), "ship_chain": Msg("Ships in the longest chain"),
    "favour": Msg("Sultan's Favour spaces"), "parias": Msg("Parias"),
}
"""What a Major Poem, Trade Card or Sultan's Wishes tile counts."""

BLUE_EFFECT_WORDS: dict[str, Msg] = {
    "income_start": Msg("2 Dinars each Income Phase, 2 PP on becoming Starting Player (1*)"),
    "seal_bonus": Msg("2 Dinars and 2 PP for each Seal you get (2)"),
    "quarry_extra": Msg("1 Raw Material or a listed Material per Quarry Action (21)"),
    "wood_bonus": Msg("+1 PP and 1 Paria when building with Wood (5*)"),
    "poem_scaffold": Msg("up to 2 extra Materials and +1 PP each when carving (10*)"),
    "goods_store": Msg("a special Storehouse for 2 Goods, +1 PP and 1 Paria each (16*)"),
    "export_double": Msg("2 PP and 2 Parias per Good exported (20*)"),
    "unmodelled": Msg("another permanent effect (the table applies it by hand)"),
}

PHASE_WORDS: dict[str, Msg] = {
    "setup": Msg("Setting up the board"), "start_tiles": Msg("Choosing Starting Tiles"),
    "actions": Msg("Actions Phase"), "end_round": Msg("End of Round"), "final": Msg("End of Game"),
    "finished": Msg("Game over"),
}

OTHER_WORDS: dict[str, Msg] = {
    "yes": Msg("yes"), "no": Msg("no"), "majority": Msg("majority (14 / 9 / 6 PP)"),
    "per": Msg("PP for each item counted"), "blue": COLOUR_SAY["blue"], "red": COLOUR_SAY["red"],
    "palace": Msg("Palace"), "fountain": Msg("Fountain"), "door": Msg("Door"), "garden": Msg("Garden"),
    "tower": Msg("Tower"), "window": Msg("Window"),
    **ITEM_SAY, **{key: Msg("{words} (artwork)", words=word) for key, word in ARTWORK_SAY.items()},
}


REWARD_WORDS: dict[str, Msg] = {
    "nothing": Msg("nothing"), "per_major": Msg("1 PP for each of his Major Constructions"),
    "per_minor": Msg("1 PP for each of his Minor Constructions"),
    "per_presence": Msg("1 PP for each City with his Ship"),
    "per_consolidated": Msg("1 PP for each City he consolidated"), "per_poem": Msg("1 PP for each of his Poems"),
}
"""What the bottom of Yusuf's Card can show besides PP and Parias (L1441-1454)."""

ICON_KEYS = (".bonus", ".red", ".consolidate")
"""Questions answered with printed bonus icons."""

GROUP_WORDS: dict[str, Msg] = {
    "answers": Msg("Answers"), "money": Msg("Dinars, Parias, PP"), "materials": Msg("Materials"),
    "trade": Msg("Goods and trade"), "actions": Msg("Actions"),
}
"""Headings over a long list of answers."""


def place_words(node: int | str) -> Msg:
    """A node of the trade-route map: 0 is the Kingdom of Granada, 1-9 the Cities."""
    return Msg("Kingdom of Granada") if int(node) == 0 else Msg("City {n}", n=int(node))


def icon_label(icon: str) -> Msg:
    """A printed bonus icon (``"dinars:2"``, ``"export"``) in player words (``"2 Dinars"``)."""
    name, _, amount = icon.partition(":")
    if amount:
        one, many = ICON_WORDS[name]
        return Msg((one if amount == "1" else many).text, n=int(amount))
    return ACTION_ICON_WORDS[name]


def icons_label(icons: Any) -> Msg:
    """A printed Bonus (a list of icons, earned left to right) in player words."""
    if not icons:
        return Msg("nothing")
    out = icon_label(str(icons[0]))
    for icon in icons[1:]:
        out = Msg("{first}, then {then}", first=out, then=icon_label(str(icon)))
    return out


def _is_icon(value: str) -> bool:
    name, _, amount = value.partition(":")
    return (bool(amount) and name in ICON_WORDS) or (not amount and name in ACTION_ICON_WORDS)


def answer_label(key: str, value: Any) -> Msg | str:
    """One answer to the question ``key`` (a value or a list of values) in player words."""
    if isinstance(value, list):
        if not value:
            return Msg("none")
        out = answer_label(key, value[0])
        for item in value[1:]:
            out = Msg("{first} + {second}", first=out, second=answer_label(key, item))
        return out
    if isinstance(value, bool):
        return OTHER_WORDS["yes" if value else "no"]
    if isinstance(value, int):
        return place_words(value) if key.startswith("solo.trade.") else str(value)
    text = str(value)
    if key.startswith("yusuf.") and key.endswith(".actions"):
        return _yusuf_actions(text)
    if key.startswith("yusuf.") and text in REWARD_WORDS:
        return REWARD_WORDS[text]
    if key.endswith(".metric") or key.startswith("wish.") and key.endswith(".elements"):
        return METRIC_WORDS.get(text, text)
    if key.endswith(".blue"):
        return BLUE_EFFECT_WORDS.get(text, text)
    if key == "map.routes" and "-" in text:
        a, b = text.split("-")
        return Msg("{a} \u2013 {b}", a=place_words(a), b=place_words(b))
    ring, _, square = text.partition(" ")
    if ring in RING_WORDS and square.isdigit():
        return Msg("{ring} square {n}", ring=RING_SAY[ring], n=int(square))
    if key.endswith(".action") and text in ACTION_SAY:
        return ACTION_SAY[text]
    if text in OTHER_WORDS:
        return OTHER_WORDS[text]
    if _is_icon(text):
        return icon_label(text)
    return text


def parts_label(parts: list[dict[str, Any]], value: dict[str, Any]) -> Msg:
    """An answer to a group's question (``questions.group_question``) in player words, part by part in the
    question's order: "Outer Rondel: 12, Middle Rondel: 9, Inner Rondel: 7"."""
    return comma_list([Msg("{part}: {value}", part=Msg.from_json(part["name_say"]),
                           value=answer_label(part["key"], value.get(part["key"]))) for part in parts])


def option_label(key: str, option: Any) -> Msg | str:
    """An offered answer to the question ``key`` in player words: the words the engine gave it (a ``Said``),
    else ``answer_label``. The game's question buttons and the Board page both say an option this way."""
    return option.msg if isinstance(option, Said) else answer_label(key, option)


def _yusuf_actions(text: str) -> Msg:
    """The middle of Yusuf's Card: ``"none"``, one action or 2 top to bottom (``"export+consolidate"``)."""
    if text == "none":
        return Msg("no action")
    first, _, then = text.partition("+")
    return Msg("{first}, then {then}", first=ACTION_SAY[first], then=ACTION_SAY[then]) if then else ACTION_SAY[first]


def answer_group(key: str, value: Any) -> Msg:
    """A heading to group a long list of answers under (icons by kind, routes by first place)."""
    if isinstance(value, list):
        return answer_group(key, value[0]) if len(value) == 1 else GROUP_WORDS["answers"]
    text = str(value)
    if key == "map.routes" and "-" in text:
        return Msg("From {place}", place=place_words(text.split("-")[0]))
    ring, _, square = text.partition(" ")
    if ring in RING_WORDS and square.isdigit():
        return RING_SAY[ring]
    if key.endswith(ICON_KEYS) and isinstance(value, str) and _is_icon(text):
        name = text.partition(":")[0]
        if name in ("dinars", "parias", "pp"):
            return GROUP_WORDS["money"]
        if name in ("gypsum", "wood", "marble", "glazed", "material"):
            return GROUP_WORDS["materials"]
        if name in ("raw", "good", "transactions", "process"):
            return GROUP_WORDS["trade"]
        return GROUP_WORDS["actions"]
    return GROUP_WORDS["answers"]
