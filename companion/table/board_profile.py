"""The table's board profile: printed values remembered for this companion, across games.

The rules engine asks the table for printed values it does not ship (oasis points, river spaces,
audience-disc spectators, ...). An answer belongs to the table's copy of the game, not to one game:
``BoardProfile`` keeps every answer per edition in the store, a new game starts with all of them
(``values``), the board-profile screen edits or forgets one, and a file exported here can be
imported at another table. Every value is checked against the key catalogue
(``board_profile_keys``) before it is stored; a bad file changes nothing and is refused with one
line naming the first problem.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from typing import Any

from companion.errors import KeshiError
from companion.games.marrakesh.catalogue import shipped_values
from companion.games.marrakesh.classic import classic_shipped_values
from companion.i18n import Msg, square_name
from companion.store import Store
from companion.table import board_profile_records as records
from companion.table import board_profile_sabika as sabika
from companion.table.board_profile_components import component_of, game_keys
from companion.table.board_profile_keys import KeyInfo, UnknownKey, check_value, info, reading_order
from companion.table.marrakesh_engine import EDITION_NAMES

log = logging.getLogger("keshi.table")

#: The editions whose boards differ (their values are kept apart), with the names shown to people.
EDITIONS: dict[str, str] = EDITION_NAMES
FILE_FORMAT = "keshi-board-profile"
FILE_VERSION = 1
#: At most this many values in one imported file (the engine knows a few hundred keys).
MAX_IMPORT_VALUES = 2000
#: Where a value came from, in player words (``SOURCES`` has the English the API sends; ``source_words``
#: the same in the language of the moment).
SOURCE_SAY: dict[str, Msg] = {"answer": Msg("answered in a game"), "edit": Msg("edited here"),
                              "import": Msg("imported"), "rulebook": Msg("from the rulebook"),
                              "missing": Msg("not known yet: set it now, or it is asked in play")}
SOURCES: dict[str, str] = {source: words.english() for source, words in SOURCE_SAY.items()}


def source_words() -> dict[str, str]:
    """``SOURCES`` in the language of the moment (a web request: the phone's)."""
    return {source: str(words) for source, words in SOURCE_SAY.items()}


class ProfileError(KeshiError, ValueError):
    """A board-profile value or file is unusable; the message names the problem in player words."""


def rulebook_values(edition: str) -> dict[str, Any]:
    """The values the edition's rulebook text proves (shipped with the engine)."""
    if edition == sabika.EDITION:
        return dict(sabika.SHIPPED_PROFILE)
    return classic_shipped_values() if edition == "classic" else shipped_values()


def check_edition(edition: Any) -> str:
    """``edition`` if the companion knows it (a Marrakesh edition, or Sabika), else ``ProfileError``."""
    if edition not in EDITIONS and edition != sabika.EDITION:
        raise ProfileError(Msg("the edition must be one of {editions}, not {edition!r}", editions=", ".join(EDITIONS),
                               edition=edition))
    return str(edition)


def value_title(edition: str, key: Any, known: Mapping[str, Any]) -> str:
    """The title of ``edition``'s value ``key`` in the language of the moment (Sabika's from its own list, with
    the table's ``known`` values; Marrakesh's from the key catalogue), or ``ProfileError`` naming an unknown key."""
    if check_edition(edition) != sabika.EDITION:
        return str(key_info(key).title)
    if key in sabika.GROUPS:  # values a game asks in one question: one entry
        return str(sabika.GROUPS[key].prompt)
    spec = sabika.specs({**sabika.SHIPPED_PROFILE, **known}).get(key)
    if spec is None:
        raise ProfileError(Msg("{key} is no printed value a Sabika game asks (or what it follows from is not known "
                               "yet)", key=repr(key)))
    return str(spec[1])


def key_info(key: Any) -> KeyInfo:
    """The catalogue entry of ``key``, or ``ProfileError`` naming the unknown key."""
    try:
        return info(key)
    except UnknownKey as exc:
        raise ProfileError(str(exc)) from None


class BoardProfile:
    """The board profiles of this companion (one per edition), stored in ``board_profile``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- reading ---------------------------------------------------------------------------
    def values(self, edition: str) -> dict[str, Any]:
        """key -> value the table has given for ``edition`` (what a new game starts with)."""
        return records.values(self.store, check_edition(edition))

    def value(self, edition: str, key: str) -> Any:
        """The table's value of ``key`` (None when it has none)."""
        return records.value(self.store, check_edition(edition), key)

    def entries(self, edition: str) -> list[dict[str, Any]]:
        """Every value a game of ``edition`` can ask, for the Board page: the table's, the rulebook's it does
        not override, then the ones nobody has given yet (source ``missing``, value None), so a table can
        enter them all before its first game and is asked nothing during play.

        Each entry: key, title, where (printed), options, multi, parts, component (``board`` or ``tiles``),
        value, source (``SOURCES``), updated_at; sorted by component, then as printed on it (values of
        expansions, which a game without them never asks, in reading order after them).
        """
        edition = check_edition(edition)
        if edition == sabika.EDITION:  # its own list: board, tiles and cards (``board_profile_sabika``)
            return sabika.entries(records.entries(self.store, edition), {**rulebook_values(edition),
                                                                         **self.values(edition)})
        out = [{**info(e["key"]).to_json(), **e} for e in records.entries(self.store, edition)]
        mine = {e["key"] for e in out}
        rulebook = rulebook_values(edition)
        out += [{**info(k).to_json(), "value": v, "source": "rulebook", "updated_at": None}
                for k, v in rulebook.items() if k not in mine]
        known = {**rulebook, **self.values(edition)}
        listed = game_keys(known)
        out += [{**info(k).to_json(), "value": None, "source": "missing", "updated_at": None}
                for k in listed if k not in known]
        for entry in out:
            entry["component"] = component_of(entry["key"])
        order = {key: i for i, key in enumerate(listed)}  # as on the components (river spaces, then jetty spots)
        return sorted(out, key=lambda e: (e["component"] != "board", order.get(e["key"], len(order)),
                                          reading_order(e["key"])))

    # -- changing --------------------------------------------------------------------------
    def set_value(self, edition: str, key: Any, value: Any, *, source: str = "edit",
                  game_id: str | None = None) -> dict[str, Any]:
        """Store ``value`` for ``key`` after checking it; the stored entry. ``ProfileError`` if it cannot be."""
        edition = check_edition(edition)
        entry = {"key": key} if edition == sabika.EDITION else key_info(key).to_json()
        self._check(edition, {key: value}, self.values(edition))
        given = sabika.split({key: value}) if edition == sabika.EDITION else {key: value}  # a group's: each
        with self.store.write() as db:
            for one, its in given.items():
                records.upsert(db, edition, one, its, source, game_id)
        return {**entry, "value": value, "source": source}

    def remember_answer(self, edition: str, key: str, value: Any, game_id: str) -> bool:
        """Keep the table's answer to a game's question; False (nothing stored) for a key or value the
        catalogue does not know, e.g. a tile drawn at the table, which is no printed value."""
        try:
            self.set_value(edition, key, value, source="answer", game_id=game_id)
        except ProfileError:
            return False
        return True

    def forget(self, edition: str, key: str) -> bool:
        """Drop the table's value of ``key`` (a Sabika group's: each of its values; the engine asks it again next
        game); False if there was none."""
        edition = check_edition(edition)
        keys = sabika.members(key) if edition == sabika.EDITION else [key]
        with self.store.write() as db:
            return sum(records.delete(db, edition, one) for one in keys) > 0

    def forget_answer(self, edition: str, key: str, value: Any, game_id: str) -> bool:
        """Drop an answer that ``game_id`` gave and then took back (only if it is still that answer)."""
        with self.store.write() as db:
            return records.delete_answer(db, check_edition(edition), key, game_id, value)

    # -- files -----------------------------------------------------------------------------
    def export(self, edition: str) -> dict[str, Any]:
        """The table's profile of ``edition`` as a JSON-ready document another table can import."""
        return {"format": FILE_FORMAT, "version": FILE_VERSION, "edition": check_edition(edition),
                "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "values": self.values(edition)}

    def import_document(self, doc: Any) -> dict[str, Any]:
        """Merge an exported profile into this table's: every value is checked first, then all are stored
        in one transaction (a bad file changes nothing). Answers how many values were new, changed, same."""
        if not isinstance(doc, dict):
            raise ProfileError(Msg("the file is not a board profile: it must be a JSON object"))
        if doc.get("format") != FILE_FORMAT:
            raise ProfileError(Msg("the file is not a board profile (its \"format\" must be \"{format}\")",
                                   format=FILE_FORMAT))
        if doc.get("version") != FILE_VERSION:
            raise ProfileError(Msg("this companion reads board-profile files of version {version}, not {sent!r}",
                                   version=FILE_VERSION, sent=doc.get("version")))
        edition = check_edition(doc.get("edition"))
        values = doc.get("values")
        if not isinstance(values, dict):
            raise ProfileError(Msg("the file's \"values\" must be an object of key: value"))
        if len(values) > MAX_IMPORT_VALUES:
            raise ProfileError(Msg("the file has {n} values; at most {most} are accepted", n=len(values),
                                   most=MAX_IMPORT_VALUES))
        current = self.values(edition)
        self._check(edition, values, current)
        values = sabika.split(values) if edition == sabika.EDITION else values  # a group's value: each of its values
        counts = {"added": 0, "changed": 0, "unchanged": 0}
        with self.store.write() as db:
            for key, value in values.items():
                if key not in current:
                    counts["added"] += 1
                elif _same(current[key], value):
                    counts["unchanged"] += 1
                    continue
                else:
                    counts["changed"] += 1
                records.upsert(db, edition, key, value, "import", None)
        return {"edition": edition, **counts}

    # -- helpers ---------------------------------------------------------------------------
    @staticmethod
    def _check(edition: str, new: Mapping[str, Any], current: Mapping[str, Any]) -> None:
        """Refuse the first bad value of ``new`` (merged over ``current``), naming it; count the rest."""
        problems: list[str | Msg] = (list(sabika.problems(new, current)) if edition == sabika.EDITION
                                     else _marrakesh_problems(edition, new, current))
        if problems:
            rest = len(problems) - 1
            if not rest:
                raise ProfileError(problems[0])
            raise ProfileError(Msg("{problem} (and 1 more problem)", problem=problems[0]) if rest == 1 else
                               Msg("{problem} (and {rest} more problems)", problem=problems[0], rest=rest))


def _marrakesh_problems(edition: str, new: Mapping[str, Any], current: Mapping[str, Any]) -> list[str | Msg]:
    """What is wrong with Marrakesh values ``new`` (merged over ``current``): each value against its key's
    catalogue entry, then two main-square spaces on one ring position."""
    problems: list[str | Msg] = []
    for key, value in new.items():
        try:
            problem = check_value(key, value)
        except UnknownKey as exc:
            problem = str(exc)
        if problem:
            problems.append(problem)
    merged = {**rulebook_values(edition), **current, **new}
    ring: dict[Any, str] = {}
    for key in sorted(k for k in merged if k.startswith("square.position.")):
        position = merged[key]
        if position in ring and (key in new or ring[position] in new):
            problems.append(Msg("Main square: ring position {position} cannot hold both the {first} and the "
                                "{second} space", position=position, first=_space(ring[position]),
                                second=_space(key)))
        ring.setdefault(position, key)
    return problems


# -- the games' hooks (called by ``companion.table.service``) ---------------------------------------
def starting_profile(store: Store, edition: Any, given: Any) -> Any:
    """The profile a new game of ``edition`` starts with: the table's values, then any ``given`` with the
    setup (which win). Anything but an object in ``given`` is passed on for the engine to refuse."""
    if given is not None and not isinstance(given, dict):
        return given
    table = BoardProfile(store).values(edition) if edition in EDITIONS else {}
    return {**table, **(given or {})}


def keep_answer(store: Store, game_id: str, setup: Mapping[str, Any], asked: Mapping[str, Any] | None,
                action: Mapping[str, Any]) -> None:
    """After the table answered a game's question about a printed value (already stored with the
    game), keep it in the table's profile. A drawn tile is no printed value; a failure to keep it is
    logged, not raised: the game's own copy of the answer is safe either way."""
    if action.get("type") != "answer" or not asked or asked.get("kind") != "question":
        return
    try:
        BoardProfile(store).remember_answer(str(setup.get("edition", "essential")), str(action["key"]),
                                            action["value"], game_id)
    except KeshiError as exc:
        log.warning("board profile: the answer to %s was not kept: %s", action.get("key"), exc)


def drop_answer(store: Store, game_id: str, setup: Mapping[str, Any], action: Mapping[str, Any]) -> None:
    """After the table took back a game's answer, forget it in the table's profile (if still that answer)."""
    if action.get("type") != "answer":
        return
    try:
        BoardProfile(store).forget_answer(str(setup.get("edition", "essential")), str(action["key"]),
                                          action["value"], game_id)
    except KeshiError as exc:
        log.warning("board profile: the taken-back answer to %s was not forgotten: %s", action.get("key"), exc)


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _space(key: str) -> Msg | str:
    """The main-square space of a ``square.position.<space>`` key in the reader's words."""
    return square_name(key.rsplit(".", 1)[-1])

