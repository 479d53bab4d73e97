"""Sabika's fixed vocabulary: resources, rondel actions, bonus icons, scoring metrics, pool sizes.

Everything here is stated by the rulebook text (``shared/rules/sabika-en.txt``, cited as ``L<line>``)
or is a *label* the engine needs to name components (pool sizes used only by seeded draws). Printed
values the text does not give (rondel layout, tile and card contents) are not here: they are asked
of the table (``questions.py``) and kept in the board profile.
"""

from __future__ import annotations

ROUNDS = 5
"""A game lasts 5 rounds: 1-2 are Era I, 3-5 Era II (L414-415)."""

NARRATOR_LAST = ROUNDS + 1
"""The narrator starts on space 1 and advances once per round; space 6 ends the game (L1017)."""

WISH_SPACES = (2, 4, 6)
"""Sultan's Wishes are scored at the end of rounds 1, 3 and 5 (L920): narrator spaces 2, 4, 6."""

FINAL_TRIBUTE = 6
"""Parias paid at the end of the game (L1020)."""

START_PP = 5
"""Every Prestige Point token starts on space 5 (L140-141)."""

SHIPS = 9
"""Ships per player, in the Kingdom of Granada at the start (L148-149)."""

CITIES = 9
"""Cities on the Map (L121-122); the Kingdom of Granada is node 0 of the route graph."""

MATERIALS: tuple[str, ...] = ("gypsum", "wood", "marble", "glazed")
"""Market Table order, lowest to highest (L549-566)."""

MATERIAL_PP = {"gypsum": 1, "wood": 2, "marble": 3, "glazed": 4}
"""PP for each Material used in a construction or carving (L617-620)."""

BUY_PRICE = {"gypsum": 1, "wood": 1, "marble": 2, "glazed": 3}
"""Market: buying a Material (L549-551); a Raw Material costs 1 Dinar."""

SELL_PRICE = {"gypsum": 1, "wood": 2, "marble": 3, "glazed": 4}
"""Market: selling a Material (L555-557); a Good sells for 3 Dinars."""

RAW_BUY_PRICE = 1
GOOD_SELL_PRICE = 3

RAWS: tuple[str, ...] = ("cane", "silk", "clay")
"""Raw Materials (L220): sugar cane, silk, clay."""

GOOD_OF = {"cane": "sugar", "silk": "clothes", "clay": "pottery"}
"""Each Raw Material's processed side (L220)."""

GOODS: tuple[str, ...] = ("sugar", "clothes", "pottery")

ITEMS: tuple[str, ...] = MATERIALS + GOODS
"""What a Storehouse holds: Materials and Goods (L293-303)."""

WORDS = {"gypsum": "Gypsum", "wood": "Wood", "marble": "Marble", "glazed": "Glazed Ceramic",
         "cane": "Sugar cane", "silk": "Silk", "clay": "Clay", "sugar": "Sugar", "clothes": "Clothes",
         "pottery": "Pottery"}

RINGS: tuple[str, ...] = ("outer", "middle", "inner")
RING_WORDS = {"outer": "Outer Rondel", "middle": "Middle Rondel", "inner": "Inner Rondel"}

RING_ACTIONS: dict[str, tuple[str, ...]] = {
    "outer": ("minor_quarry", "major_quarry", "storehouse", "market", "construction"),  # L505-579
    "middle": ("export", "consolidate", "produce"),  # L693-791
    "inner": ("carve", "reactivate", "artisanal"),  # L793-852
}

ACTION_WORDS = {
    "minor_quarry": "Minor Quarry", "major_quarry": "Major Quarry", "storehouse": "Storehouse",
    "market": "Market", "construction": "Construction", "major_construction": "Major Construction",
    "minor_construction": "Minor Construction", "export": "Export", "consolidate": "Consolidate",
    "produce": "Produce", "carve": "Carve Poem", "reactivate": "Reactivate", "artisanal": "Artisanal Labour",
}

QUARRY_MATERIALS = {"minor_quarry": ("gypsum", "wood"), "major_quarry": ("wood", "marble")}  # L511-514

WORKERS: tuple[str, ...] = ("builder1", "builder2", "merchant", "poet")
"""2 Master Builders (outer), 1 Merchant (middle), 1 Poet (inner) (L137-138, L429-438)."""

WORKER_RING = {"builder1": "outer", "builder2": "outer", "merchant": "middle", "poet": "inner"}
WORKER_WORDS = {"builder1": "first Master Builder", "builder2": "second Master Builder", "merchant": "Merchant",
                "poet": "Poet"}

SECONDARY_COST = {("raw", "outer"): 1, ("raw", "middle"): 0, ("marble", "middle"): 2, ("marble", "inner"): 1}
"""Dinars for a Secondary Action by the ring of the Worker using it (L878-896)."""

BUILDING_TYPES = {"major": ("palace", "fountain", "door"), "minor": ("garden", "tower", "window")}  # L642, L276-277

ARTWORKS: tuple[str, ...] = ("coins", "trade", "poem", "store")
"""Ceramic Artwork colours, named by their Architectural Balance bonus (L669-679); the text names no colours."""

ARTWORK_WORDS = {"coins": "4 Dinars/Parias", "trade": "Raw Material + Good or Export",
                 "poem": "Gypsum + Glazed Ceramic or Carve Poem", "store": "1 Dinar + Storehouse"}

MAJORITY_PP = (14, 9, 6)
"""Majority Major Poems: 1st/2nd/3rd place (L1030-1036)."""

WISH_ELEMENTS: tuple[str, ...] = ("palace", "fountain", "door", "garden", "tower", "window", "presence",
                                  "consolidated", "seals", "blue_poems", "red_poems", "poems")
"""What a Sultan's Wishes tile can count (L948-963)."""

METRICS: tuple[str, ...] = ("poems", "blue_poems", "red_poems", "grey_poems", "poem_trios", "store_boxes",
                            "balances", "constructions", "major_constructions", "minor_constructions", "palace",
                            "fountain", "door", "garden", "tower", "window", "presence", "consolidated", "seals",
                            "ship_chain", "favour", "parias")
"""What a Major Poem or Trade Card can count (named on the cards; L1030-1118 name poems, store boxes,
balances, consolidated cities and chains of consecutive Ships)."""

BLUE_EFFECTS: tuple[str, ...] = ("income_start", "seal_bonus", "quarry_extra", "wood_bonus", "poem_scaffold",
                                 "goods_store", "export_double", "unmodelled")
"""Permanent (blue) Minor Poem effects the engine applies (L25-31, L322-325, L1070-1104); a blue side
showing anything else is ``unmodelled`` (the table applies it by hand)."""

#: Bonus icons (L1491-1660). A printed bonus is a list of these, earned left to right.
AMOUNT_ICONS: dict[str, range] = {
    "dinars": range(1, 7), "parias": range(1, 5), "pp": range(1, 7), "gypsum": range(1, 4), "wood": range(1, 4),
    "marble": range(1, 4), "glazed": range(1, 3), "material": range(1, 4), "raw": range(1, 3), "good": range(1, 3),
    "transactions": range(1, 4), "process": range(1, 3),
}
ACTION_ICONS: tuple[str, ...] = ("minor_quarry", "major_quarry", "storehouse", "market", "construction",
                                 "major_construction", "minor_construction", "export", "consolidate", "produce",
                                 "city_bonus", "carve", "reactivate", "artisanal", "favour")
SPECIAL_ICONS: tuple[str, ...] = ("major_tile_bonus", "free_ship", "red_city_action")
"""Red Minor Poems 4*, 14*, 17* (L1075-1077, L1087-1092, L1099-1100)."""


def icon_options() -> list[str]:
    """Every bonus icon as an answer option: ``"dinars:2"``, ``"export"``..."""
    out = [f"{name}:{n}" for name, amounts in AMOUNT_ICONS.items() for n in amounts]
    return out + list(ACTION_ICONS) + list(SPECIAL_ICONS)


ICON_OPTIONS: tuple[str, ...] = tuple(icon_options())

#: Pool sizes for *seeded* draws only (the text gives 24 Storehouse Tiles, 9 + 12 Major Construction
#: Tiles and Major Poem letters A-H; the other counts are the engine's labels, see docs/sabika.md).
POOLS = {"storehouse": 24, "minor_card": 24, "minor_poem": 21, "city_tile": 12, "trade_card": 8,
         "wish_per_letter": 4, "balance": 4, "start_tile": 8}
MAJOR_TILES = {"I": 9, "II": 12}
TWO_PLAYER_REMOVED = 3
"""2 players: the marked Era II tiles are removed so only 9 remain (L91-92)."""
POEM_LETTERS = "ABCDEFGH"
POEM_NUMBERS = 4
MINOR_POEM_DISPLAY = {2: 3, 3: 4, 4: 5}  # L104-110

EVENTS = range(1, 15)
"""Advanced mode Event Tiles: 1-5 positive, 6-14 negative (L1144-1182); 3 are used (L1128-1136)."""
