"""Sabika's words as messages: game words (context ``sabika``), options that know their words, prompts.

The engine keeps English as its data: a decision's options are English texts (``"buy 1 Gypsum for 1"``)
that actions carry and logs store, and ``components`` names things in English for those texts. What a
phone shows is rendered from messages instead (``companion.i18n.Msg``): a prompt is a ``Msg`` (the
pending decision keeps its English and ``say``), an option built as ``Said(Msg(...))`` is a ``Said`` — a
``str`` equal to its English, so every comparison, lookup and JSON form of the engine is unchanged — which
also carries its message (``msg``) for a screen to show. The German follows natural board-game wording
(the Sabika rulebook is English only).
"""

from __future__ import annotations

from typing import Any

from companion.i18n import Msg, word


class Said(str):
    """An option's English text that also carries its words as a message (``msg``)."""

    msg: Msg

    def __new__(cls, msg: Msg) -> Said:
        out = super().__new__(cls, english(msg))
        out.msg = msg
        return out

    def __reduce__(self) -> tuple[type[Said], tuple[Msg]]:
        return Said, (self.msg,)  # a copied state (``dataclasses.asdict``) keeps the message


def english(words: Any) -> Any:
    """``Msg.english()`` without looking anything up: the English is the message's own text with its values
    in English. The engine words thousands of options a game (most never shown), so this is its fast path
    (a test checks it equals ``Msg.english``)."""
    if isinstance(words, Msg):
        if not words.params:  # a game word
            return words.text
        return words.text.format_map({key: english(value) for key, value in words.params.items()})
    if isinstance(words, list):
        return ", ".join(str(english(item)) for item in words)
    return words


def prompt_fields(prompt: Msg) -> dict[str, Any]:
    """``{"prompt": English, "say": the message as data}`` for a pending decision or question."""
    return {"prompt": english(prompt), "say": prompt.to_json()}


#: Materials, Raw Materials and Goods (``components.WORDS``) as words.
ITEM_SAY: dict[str, Msg] = {
    "gypsum": word("sabika", "Gypsum"), "wood": word("sabika", "Wood"), "marble": word("sabika", "Marble"),
    "glazed": word("sabika", "Glazed Ceramic"), "cane": word("sabika", "Sugar cane"), "silk": word("sabika", "Silk"),
    "clay": word("sabika", "Clay"), "sugar": word("sabika", "Sugar"), "clothes": word("sabika", "Clothes"),
    "pottery": word("sabika", "Pottery"),
}

#: The three Rondels (``components.RING_WORDS``).
RING_SAY: dict[str, Msg] = {"outer": word("sabika", "Outer Rondel"), "middle": word("sabika", "Middle Rondel"),
                            "inner": word("sabika", "Inner Rondel")}

#: Main Actions (``components.ACTION_WORDS``).
ACTION_SAY: dict[str, Msg] = {
    "minor_quarry": word("sabika", "Minor Quarry"), "major_quarry": word("sabika", "Major Quarry"),
    "storehouse": word("sabika", "Storehouse"), "market": word("sabika", "Market"),
    "construction": word("sabika", "Construction"), "major_construction": word("sabika", "Major Construction"),
    "minor_construction": word("sabika", "Minor Construction"), "export": word("sabika", "Export"),
    "consolidate": word("sabika", "Consolidate"), "produce": word("sabika", "Produce"),
    "carve": word("sabika", "Carve Poem"), "reactivate": word("sabika", "Reactivate"),
    "artisanal": word("sabika", "Artisanal Labour"),
}

#: Workers (``components.WORKER_WORDS``), as a sentence names them and as a heading does.
WORKER_SAY: dict[str, Msg] = {"builder1": word("sabika", "first Master Builder"),
                              "builder2": word("sabika", "second Master Builder"),
                              "merchant": word("sabika", "Merchant"), "poet": word("sabika", "Poet")}
WORKER_TITLE: dict[str, Msg] = {"builder1": word("sabika", "First Master Builder"),
                                "builder2": word("sabika", "Second Master Builder"),
                                "merchant": word("sabika", "Merchant"), "poet": word("sabika", "Poet")}

#: A Secondary Action square's kind (``rondel.Spot.kind``).
SPOT_SAY: dict[str, Msg] = {"raw": word("sabika", "Raw Material"), "marble": word("sabika", "Marble")}

#: Ceramic Artwork colours named by their Architectural Balance bonus (``components.ARTWORK_WORDS``).
ARTWORK_SAY: dict[str, Msg] = {
    "coins": word("sabika", "4 Dinars/Parias"), "trade": word("sabika", "Raw Material + Good or Export"),
    "poem": word("sabika", "Gypsum + Glazed Ceramic or Carve Poem"), "store": word("sabika", "1 Dinar + Storehouse"),
}

#: Poem colours.
COLOUR_SAY: dict[str, Msg] = {"blue": word("sabika", "blue"), "red": word("sabika", "red"),
                              "grey": word("sabika", "grey")}


def items_say(items: list[str] | tuple[str, ...]) -> Msg:
    """Items (at least one) joined as the engine's options join them: ``"Gypsum + Marble"``."""
    out = ITEM_SAY[items[0]]
    for item in items[1:]:
        out = Msg("{first} + {second}", first=out, second=ITEM_SAY[item])
    return out


def comma_list(said: list[Msg]) -> Msg:
    """Messages (at least one) joined with commas, in each reader's language: "Outer Rondel, Middle Rondel"."""
    out = said[0]
    for one in said[1:]:
        out = Msg("{first}, {second}", first=out, second=one)
    return out


#: A phase as an error names it: the English keeps the engine's key (``start_tiles``), German says it in words.
PHASE_KEY_SAY: dict[str, Msg] = {
    "setup": word("sabika phase", "setup"), "start_tiles": word("sabika phase", "start_tiles"),
    "actions": word("sabika phase", "actions"), "end_round": word("sabika phase", "end_round"),
    "final": word("sabika phase", "final"), "finished": word("sabika phase", "finished"),
}

#: The Main Board's sides (1-2 players: small, 3-4: large).
SIDE_SAY: dict[str, Msg] = {"small": word("sabika side", "small"), "large": word("sabika side", "large")}

#: What a Sultan's Wishes tile counts, as its question names it (the key with spaces).
ELEMENT_SAY: dict[str, Msg] = {
    "palace": word("sabika element", "palace"), "fountain": word("sabika element", "fountain"),
    "door": word("sabika element", "door"), "garden": word("sabika element", "garden"),
    "tower": word("sabika element", "tower"), "window": word("sabika element", "window"),
    "presence": word("sabika element", "presence"), "consolidated": word("sabika element", "consolidated"),
    "seals": word("sabika element", "seals"), "blue_poems": word("sabika element", "blue poems"),
    "red_poems": word("sabika element", "red poems"), "poems": word("sabika element", "poems"),
}

#: A Secondary Action square as an option names it: the English keeps the key (``raw square 1``).
SPOT_KEY_SAY: dict[str, Msg] = {"raw": word("sabika spot", "raw"), "marble": word("sabika spot", "marble")}
