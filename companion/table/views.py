"""The JSON view of a game every phone renders: state, whose turn, legal choices, tower result.

A view is built once per game version (and tower result) and shared by every request and stream,
so 30 phones cost one ``to_dict`` and one legal-action listing per change.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from companion import COLOURS
from companion.games.marrakesh import Game
from companion.games.marrakesh.board import COLOUR_SECTOR, GOODS, MARKER_COLOURS, SECTOR_COLOUR, SECTORS, TRACK_MAX
from companion.i18n import Msg, sector_name, word
from companion.table import keshi_box, marrakesh_engine, seats
from companion.table.service import LiveGame

#: A follow-up decision with more options than this stays a screen of its own (one tap each is no saving).
MAX_FOLLOW_UP_OPTIONS = 6
#: Above this many legal actions no follow-ups are looked ahead (each costs a copy of the state).
MAX_LOOKAHEAD_ACTIONS = 24

#: The player board's sectors in player words (the engine's keys are never shown); English, for the
#: view's ``label``; the page shows ``say`` (the rulebook's word in the phone's language).
SECTOR_WORDS: dict[str, str] = {
    "river": "River", "date_orchard": "Date orchard", "souk": "Souk", "main_square": "Main square",
    "madrasa": "Madrasa", "palace": "Palace", "mosque": "Mosque", "medina": "Medina", "sahara": "Sahara",
}


Fresh = Callable[[LiveGame], dict[str, Any]]
"""Builds a game's view from scratch (Marrakesh's here; the other games' in ``kinds.view``)."""


def build_view(live: LiveGame, last_event_id: int, fresh: Fresh | None = None) -> dict[str, Any]:
    """The view of ``live`` (cached per version; ``event_id`` is always the caller's latest)."""
    return {**_cached(live, fresh or _fresh)[1], "event_id": last_event_id}


def build_view_json(live: LiveGame, last_event_id: int, fresh: Fresh | None = None) -> str:
    """``build_view`` as JSON text, serialised once per change however many phones are streaming."""
    return f'{{"event_id": {int(last_event_id)}, {_cached(live, fresh or _fresh)[2][1:]}'


def _cached(live: LiveGame, fresh: Fresh) -> tuple[int, dict[str, Any], str]:
    with live.lock:
        cached = live.view_cache
        if cached is None or cached[0] != live.version:
            view = {**fresh(live), "devices": devices_view(live)}
            cached = (live.version, view, json.dumps(view))
            live.view_cache = cached
        return cached


def devices_view(live: LiveGame) -> list[dict[str, Any]]:
    """Who plays on which device, as every phone shows it (never a device's id): each seat taken, and
    each shared device by its name ("Ana's tablet plays for everyone")."""
    return [{**role.to_json(), "say": seats.device_words(role, live.names).to_json()}
            for role in live.devices.values()]


def _fresh(live: LiveGame) -> dict[str, Any]:
    game = live.game
    state = hide_choices_in_progress(game.to_dict())
    names = [str(p["name"]) for p in state["players"]]
    to_move = game.to_move
    if game.finished:
        turn = "Game over"
    elif to_move == "table" or to_move is None:
        turn = "The table"
    else:
        turn = names[int(to_move)]
    legal = with_follow_ups(game, marrakesh_engine.legal_json(game, names), names)
    winners: list[str] = []
    if game.finished:
        winners = [names[i] if isinstance(i, int) else str(i) for i in game.winners()]
    return {
        "id": live.id,
        "title": live.title,
        "version": live.version,
        "actions": len(game.log),
        "seating": live.seating,
        "edition": state["edition"],
        "in_the_box": keshi_box.IN_THE_BOX[state["edition"]],  # the most of each colour a count may say
        "expansions": state["expansions"],
        "variant": marrakesh_engine.variant_text(state["edition"], state["expansions"]),
        "names": names,
        "phase": game.phase,
        "phase_label": marrakesh_engine.phase_text(game.phase),
        "season": game.season,
        "round": game.round,
        "to_move": to_move,
        "turn": turn,
        "pending": game.pending,
        "finished": bool(game.finished),
        "winners": winners,
        "legal": legal,
        "selections": marrakesh_engine.selection_options(game),
        "pieces_in": pieces_in(state),
        "tower_result": live.tower_result,
        "tossing": live.tossing is not None,
        "tower_check": live.tower_check,
        "season_scoring": live.season_scoring,
        "undo": undo_view(live),
        "undo_say": undo_say(live),
        "category_order": list(CATEGORY_ORDER),
        "category_labels": {key: category_say(key).to_json() for key in sorted(
            set(marrakesh_engine.CATEGORY_LABELS).union(*(p["breakdown"] for p in state["players"])))},
        "boards": boards(state, live.seating),
        "score_track": score_track(state, live.seating, type(game).lap),
        "claim_display": claim_display(state, legal, names),
        "state": state,
    }


def with_follow_ups(game: Game, legal: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """Each legal action of a player that leads straight to another decision of the same player
    gets that decision as ``then`` (``{prompt, options: [{action, label}]}``), so a phone can offer
    "souk assistant → new yellow keshi" as one tap (two requests) instead of two screens.

    Looked ahead on a copy of the game (never the live one), once per game version like the rest of
    the view. Decisions for the table (printed values, draws) and other players are never looked ahead.
    """
    mover = game.to_move
    if not isinstance(mover, int) or len(legal) > MAX_LOOKAHEAD_ACTIONS:
        return legal
    out = []
    for entry in legal:
        ahead = _fork(game)
        try:
            ahead.apply(marrakesh_engine.parse_action(entry["action"]))
        except Game.rule_error:
            out.append(entry)
            continue
        pending = ahead.pending
        if (pending is not None and pending.get("kind") == "choice" and pending.get("player") == mover
                and 1 < len(pending["options"]) <= MAX_FOLLOW_UP_OPTIONS and not ahead.finished):
            entry = {**entry, "then": {"prompt": pending["prompt"], "say": pending.get("say"),
                                       "options": marrakesh_engine.legal_json(ahead, names)}}
        out.append(entry)
    return out


def _fork(game: Game) -> Game:
    """A copy of ``game`` to try an action on. The log is shared read-only (it is only appended to), and
    the board profile is copied one level deep: its values are only ever replaced, never changed in
    place, and a filled Board page makes a deep copy of it most of a preview's cost."""
    return copy.deepcopy(game, memo={id(game.log): list(game.log), id(game.s.profile): dict(game.s.profile)})


def undo_view(live: LiveGame) -> dict[str, Any]:
    """What the Undo button would take back, in player words, or why it cannot now."""
    game = live.game
    said = live.undo_refusal_say(None)
    refusal = said.english() if said is not None else None
    reason_say = said.to_json() if said is not None else None
    if not game.log:
        return {"available": False, "label": None, "reason": refusal, "reason_say": reason_say}
    last = marrakesh_engine.to_json(game.log[-1])
    secret = last["type"] == "select" and game.phase == "select"
    return {"available": refusal is None, "label": marrakesh_engine.taken_back_text(last, live.names, secret),
            "reason": refusal, "reason_say": reason_say}


def undo_say(live: LiveGame) -> dict[str, Any] | None:
    """``undo_view``'s ``label`` as a message the page renders in its language (``None``: nothing to take back)."""
    game = live.game
    if not game.log:
        return None
    last = marrakesh_engine.to_json(game.log[-1])
    secret = last["type"] == "select" and game.phase == "select"
    return marrakesh_engine.taken_back_say(last, live.names, secret).to_json()


#: Score categories in the rulebook's words (``marrakesh_engine.CATEGORY_LABELS`` has the English).
CATEGORY_WORDS: dict[str, Msg] = {
    "river_evaluation": word("category", "River evaluation"), "river_bonus": word("category", "River bonus"),
    "line_bonus": word("category", "Line bonus"), "desert_towns": word("category", "Desert towns"),
    "filled_sectors": word("category", "Filled sectors"), "gates": word("category", "City gates"),
    "green": word("category", "Green keshis"), "green_steps": word("category", "Palace and mosque steps"),
    "jetty": word("category", "Jetty"), "luxury_goods": word("category", "Luxury goods"),
    "main_square": word("category", "Main square"), "oases": word("category", "Oases"),
    "provisions": word("category", "Provisions"), "resources": word("category", "Leftover resources"),
    "sahara": word("category", "Sahara"), "scrolls": word("category", "Scrolls"),
    "exchange": word("category", "Exchange office"),
}


#: The order of score categories in every score table (the final one: one row per category, for every player
#: alike), as a game scores them: the start score; the points of play by the player board's sectors (river,
#: date orchard, souk, main square, madrasa, palace, mosque, medina, sahara) and the exchange office; the
#: season scoring (the river tile, then providing for citizens); last the rulebook's final scoring, its
#: 1) completely filled sectors, 2) oases (expansion 5's desert towns scored with them) and 3) remaining
#: resources. A category not listed here follows these, in the order it was found.
CATEGORY_ORDER: tuple[str, ...] = (
    "start", "river_bonus", "jetty", "green", "green_steps", "luxury_goods", "main_square", "scrolls",
    "palace_final", "line_bonus", "mosque_final", "gates", "sahara", "exchange",
    "river_evaluation", "provisions",
    "filled_sectors", "oases", "desert_towns", "resources",
)


def category_say(key: str) -> Msg:
    """A score category as a message: the rulebook's word, or the engine's English for a key it does not know."""
    return CATEGORY_WORDS.get(key) or Msg("{category}", category=marrakesh_engine.category_text(key))


def hide_choices_in_progress(state: dict[str, Any]) -> dict[str, Any]:
    """While some still choose, a player who has chosen shows nothing of it (the keshis stay behind the screen).

    Every phone gets the same view, so a selection must not leak through ``selected``, the assistants
    it sent out, or the screen it came from, until the last player has chosen.
    """
    if state.get("phase") != "select":
        return state
    for player in state["players"]:
        if player.get("has_selected"):
            for colour in player["selected"]:
                player["screen"][colour] += 1
            player["selected"] = []
            player["assistants"] = []
    return state


def pieces_in(state: dict[str, Any]) -> dict[str, int]:
    """The keshis that go into the tower this round: every player's revealed selection."""
    counts = dict.fromkeys(COLOURS, 0)
    for player in state.get("players", []):
        for colour in player.get("selected", []):
            if colour in counts:
                counts[colour] += 1
    return counts


def boards(state: dict[str, Any], seating: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each player's board as the table sees it, drawn from ``to_dict()`` only, in seat order.

    Per sector: how strong it is (marker step, or the keshis placed there), out of 8, and whether a
    water vendor stands on it; then the pawns on the shared board (fisherman, palace courtier, imam's
    student), scrolls, oases, goods and resources.
    """
    return [_board(seat, player, seating[seat] if seat < len(seating) else {})
            for seat, player in enumerate(state["players"])]


def _board(seat: int, player: dict[str, Any], seat_info: dict[str, Any]) -> dict[str, Any]:
    placed = player.get("sector_keshis") or player.get("markers") or {}
    kind = "keshis" if "sector_keshis" in player else "marker"
    strength = {COLOUR_SECTOR[c]: n for c, n in placed.items() if c in COLOUR_SECTOR}
    strength["main_square"] = len(player["entertainers"])
    strength["medina"] = int(player["watchtower"]) + len(player["gates"])
    strength["sahara"] = sum(player["sahara"].values())
    vendors = set(player["water_vendors"])
    sectors = []
    for sector in SECTORS:
        colour = SECTOR_COLOUR.get(sector)
        if sector == "souk":
            sectors.append({"sector": sector, "label": SECTOR_WORDS[sector], "say": _sector_say(sector),
                            "colours": list(GOODS),
                            "kind": "goods", "value": sum(player["goods"].get(g, 0) for g in GOODS),
                            "max": None, "vendor": False})
            continue
        sectors.append({"sector": sector, "label": SECTOR_WORDS[sector], "say": _sector_say(sector),
                        "colours": [colour],
                        "kind": kind if colour in MARKER_COLOURS else "keshis",
                        "value": int(strength.get(sector, 0)), "max": TRACK_MAX, "vendor": sector in vendors})
    return {
        "seat": seat, "name": player["name"], "colour": seat_info.get("colour") or "",
        "score": player["score"], "sectors": sectors,
        "river": {"space": player["fisherman"], "jetty_spot": player["jetty_spot"]},
        "palace": player["palace"], "mosque": player["mosque"],
        "scrolls": list(player["scrolls"]),
        "oases": {"discovered": sum(1 for d in player["discovered"] if d), "spaces": len(player["discovered"]),
                  "claimed": list(player["claimed_oases"])},
        "goods": {g: int(player["goods"].get(g, 0)) for g in GOODS},
        "luxury_goods": len(player["luxury_goods"]),
        "resources": dict(player["resources"]),
        "assistants": list(player.get("assistants", [])),
    }


def _sector_say(sector: str) -> dict[str, Any]:
    name = sector_name(sector)
    return name.to_json() if isinstance(name, Msg) else Msg("{sector}", sector=name).to_json()


def score_track(state: dict[str, Any], seating: list[dict[str, Any]], lap: int) -> dict[str, Any]:
    """The scoring track: every marker's space on the ``lap``-space track and its laps (the 70/140 tile)."""
    colours = [s.get("colour", "") for s in seating]
    markers = [{"seat": seat, "name": p["name"], "colour": colours[seat] if seat < len(colours) else "",
                "score": p["score"], "space": p["score"] % lap, "laps": p["score"] // lap}
               for seat, p in enumerate(state["players"])]
    return {"lap": lap, "markers": sorted(markers, key=lambda m: (-m["score"], m["seat"]))}


def claim_display(state: dict[str, Any], legal: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """The tower-base display per colour and, while claiming, how many of it the mover may take and where they go.

    ``takes`` is the most of that colour one of the mover's legal claims takes (0: that sector of theirs
    is complete); ``None`` outside the claim phase.
    """
    display = state["tower"]["display"]
    claiming = state.get("phase") == "claim" and isinstance(state.get("to_move"), int)
    mover = names[state["to_move"]] if claiming else None
    most: dict[str, int] = {}
    for entry in legal:
        action = entry["action"]
        if action.get("type") == "claim":
            for colour in set(action["colours"]):
                most[colour] = max(most.get(colour, 0), list(action["colours"]).count(colour))
    out = []
    for colour in COLOURS:
        if not display.get(colour):
            continue
        sector = COLOUR_SECTOR.get(colour)
        goes_to = "a water-vendor space" if sector is None else SECTOR_WORDS[sector]
        to_say = Msg("a water-vendor space").to_json() if sector is None else _sector_say(sector)
        out.append({"colour": colour, "count": int(display[colour]), "who": mover,
                    "takes": most.get(colour, 0) if claiming else None, "to": goes_to, "to_say": to_say})
    return out
