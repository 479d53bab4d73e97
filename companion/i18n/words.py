"""The game's own words in one place: colours, sectors, resources, main-square
spaces, Sahara paths, figures, phases and tower states as ``Msg`` words.

The German catalog spells them as the German Essential rulebook does (Türkis, Hellgrün, Großer Platz,
Dattelplantage, Datteln, Dinar ...); a name the engine does not know is shown as it was typed.
"""

from __future__ import annotations

from companion.i18n.text import Msg, word

#: Keshi colours (``companion.games.marrakesh.board.COLOURS``), the rulebook's colour words.
COLOUR_NAMES: dict[str, Msg] = {
    "turquoise": word("colour", "turquoise"),
    "green": word("colour", "green"),
    "gray": word("colour", "gray"),
    "white": word("colour", "white"),
    "black": word("colour", "black"),
    "pink": word("colour", "pink"),
    "beige": word("colour", "beige"),
    "brown": word("colour", "brown"),
    "yellow": word("colour", "yellow"),
    "orange": word("colour", "orange"),
    "purple": word("colour", "purple"),
    "red": word("colour", "red"),
}

#: The 9 sectors of a player board (``companion.games.marrakesh.board.SECTORS``).
SECTOR_NAMES: dict[str, Msg] = {
    "river": word("sector", "river"),
    "date_orchard": word("sector", "date orchard"),
    "souk": word("sector", "souk"),
    "main_square": word("sector", "main square"),
    "madrasa": word("sector", "madrasa"),
    "palace": word("sector", "palace"),
    "mosque": word("sector", "mosque"),
    "medina": word("sector", "medina"),
    "sahara": word("sector", "sahara"),
}

#: Resources (``companion.games.marrakesh.board.RESOURCES``), and points (what some scrolls turn dates into).
RESOURCE_NAMES: dict[str, Msg] = {
    "water": word("resource", "water"),
    "dates": word("resource", "dates"),
    "dinars": word("resource", "dinars"),
    "points": word("resource", "points"),
}

#: The 8 main-square spaces, named by their bonus (``companion.games.marrakesh.board.SQUARE_BONUSES``).
SQUARE_NAMES: dict[str, Msg] = {
    "water": word("square", "water"),
    "date": word("square", "date"),
    "dinar": word("square", "dinar"),
    "2_points": word("square", "2 points"),
    "river_step": word("square", "river step"),
    "palace_step": word("square", "palace step"),
    "mosque_step": word("square", "mosque step"),
    "goods": word("square", "goods"),
}

#: The Sahara's caravan paths (``companion.games.marrakesh.board.SAHARA_PATHS``).
PATH_NAMES: dict[str, Msg] = {
    "left": word("path", "left"),
    "right": word("path", "right"),
    "start": word("path", "start oasis"),
}

#: Expansion 2's figures on the staircases.
FIGURE_NAMES: dict[str, Msg] = {"sultan": word("figure", "Sultan"), "imam": word("figure", "Imam")}

#: Phases of a round (``GameState.phase``), named as the rulebook's section headings name them.
PHASE_NAMES: dict[str, Msg] = {
    "select": word("phase", "select keshis"),
    "toss": word("phase", "toss"),
    "claim": word("phase", "claim keshis"),
    "exchange": word("phase", "exchange"),
    "assistants": word("phase", "use assistants"),
    "round_end": word("phase", "end of round"),
    "season_end": word("phase", "end of season"),
    "final": word("phase", "final scoring"),
}

#: The tower's status words (``TowerService.status``: mode, camera, beam); device names stay as they are.
STATUS_NAMES: dict[str, Msg] = {
    "simulated": word("status", "simulated"),
    "hardware": word("status", "hardware"),
    "none": word("status", "none"),
    "starting": word("status", "starting"),
    "unknown": word("status", "unknown"),
    "ok": word("status", "ok"),
    "fault": word("status", "fault"),
}


def colour_name(colour: str) -> Msg | str:
    """The name of keshi colour ``colour`` (``"green"`` -> Hellgrün in German)."""
    return COLOUR_NAMES.get(colour, colour)


def claim_name(colours: tuple[str, ...] | list[str]) -> Msg | str:
    """A claim's keshis in words: ``("green",)`` -> green, ``("yellow", "orange")`` -> yellow+orange."""
    if len(colours) == 1:
        return colour_name(colours[0])
    if len(colours) == 2:
        return Msg("{first}+{second}", first=colour_name(colours[0]), second=colour_name(colours[1]))
    return "+".join(colours)


def sector_name(sector: str) -> Msg | str:
    """The name of sector ``sector`` (``"date_orchard"`` -> date orchard / Dattelplantage)."""
    return SECTOR_NAMES.get(sector, sector.replace("_", " "))


def resource_name(resource: str) -> Msg | str:
    """The name of resource ``resource`` (``"dates"`` -> dates / Datteln)."""
    return RESOURCE_NAMES.get(resource, resource)


def phase_name(phase: str) -> Msg | str:
    """The name of round phase ``phase`` (``"claim"`` -> claim keshis / Holz-Keshis nehmen)."""
    return PHASE_NAMES.get(phase, phase)


def status_name(status: str) -> Msg | str:
    """A tower status word (``"fault"`` -> fault / Störung); a device name is shown as it is."""
    return STATUS_NAMES.get(status, status)


def square_name(space: str) -> Msg | str:
    """The name of a main-square space (``"2_points"`` -> 2 points / 2 Punkte)."""
    return SQUARE_NAMES.get(space, space)


def path_name(path: str) -> Msg | str:
    """The name of a Sahara path (``"start"`` -> start oasis / Start-Oase)."""
    return PATH_NAMES.get(path, path)


def figure_name(figure: str) -> Msg | str:
    """The name of an expansion-2 figure (``"imam"`` -> Imam)."""
    return FIGURE_NAMES.get(figure, figure)
