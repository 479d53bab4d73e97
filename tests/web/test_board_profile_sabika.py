"""The Board page lists every printed value a Sabika game can ask, as the components are (board, tiles,
cards); a value that follows from another appears once that one is known; a table that gave them all
is asked nothing in a whole game (2 and 3 players, solo)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.games.sabika.simulate import random_action
from companion.store import Store
from companion.table.board_profile import BoardProfile, ProfileError
from companion.table.board_profile_sabika import split
from companion.table.kinds import profile as table_profile
from companion.table.kinds import sabika as kind

from .conftest import csrf_of

SABIKA = "sabika"


@pytest.fixture
def profile(tmp_path: Path) -> Iterator[BoardProfile]:
    with Store(tmp_path / "profile.sqlite3") as store:
        yield BoardProfile(store)


def _missing(profile: BoardProfile) -> list[dict[str, Any]]:
    return [e for e in profile.entries(SABIKA) if e["source"] == "missing"]


def fill(profile: BoardProfile) -> int:
    """Give every listed value (the middle option) until none is missing, as a table would on the Board
    page, here by importing a file of them; how many were given."""
    given = 0
    while missing := _missing(profile):
        values = {e["key"]: e["options"][:e["count"] or 1] if e["multi"] else e["options"][len(e["options"]) // 2]
                  for e in missing}
        assert profile.import_document({"format": "keshi-board-profile", "version": 1, "edition": SABIKA,
                                        "values": values})["added"] == len(split(values))  # a group's: each value
        given += len(split(values))
    return given


def test_the_page_lists_the_board_tiles_and_cards_and_what_follows_once_known(profile: BoardProfile) -> None:
    entries = profile.entries(SABIKA)
    keys = [e["key"] for e in entries]
    assert [e["component"] for e in entries] == sorted((e["component"] for e in entries),
                                                       key=("board", "tiles", "cards").index)
    assert {"rondel.small.sizes", "bag.tokens_per_type", "start_dinars.by_position", "wish.C4.elements",
            "minor_card.24.base", "yusuf.poet.8.actions", "solo.trade.8.cities"} <= set(keys)
    assert not [key for key in keys if key.startswith("rondel.small.outer.") and key.endswith(".action")]
    assert {e["key"]: e["source"] for e in entries}["major_poem.A1.metric"] == "rulebook"
    profile.set_value(SABIKA, "rondel.small.outer.size", 8)
    keys = [e["key"] for e in profile.entries(SABIKA)]
    assert [key for key in keys if key.startswith("rondel.small.outer.") and key.endswith(".action")] == [
        f"rondel.small.outer.{n}.action" for n in range(1, 9)]
    assert "yusuf.builder.1.square" in keys and "yusuf.poet.1.square" not in keys  # the inner ring's size first


def test_a_rondels_ring_sizes_are_one_entry_as_a_game_asks_them_and_saved_as_each_value(
        client: FlaskClient) -> None:
    csrf = {"X-CSRF-Token": csrf_of(client)}

    def entries() -> dict[str, dict[str, Any]]:
        return {e["key"]: e for e in client.get(f"/api/board-profile?edition={SABIKA}").get_json()["entries"]}

    listed = entries()
    assert not [key for key in listed if key.endswith(".size") or key.startswith("start_dinars.")
                and key != "start_dinars.by_position"]
    sizes = listed["rondel.large.sizes"]
    assert [part["name"] for part in sizes["group"]] == ["Outer Rondel", "Middle Rondel", "Inner Rondel"]
    assert sizes["title"] == "How many squares does each ring of the Rondel have (large board side)?"
    assert len(listed["start_dinars.by_position"]["group"]) == 4 and sizes["source"] == "missing"
    url = f"/api/board-profile/{SABIKA}/values/rondel.large.sizes"
    for bad in ({"rondel.large.outer.size": 12}, {"rondel.large.outer.size": 12, "rondel.large.middle.size": 40,
                                                  "rondel.large.inner.size": 7}, [12, 9, 7]):
        refused = client.put(url, json={"value": bad}, headers=csrf)
        assert refused.status_code == 400 and ("Middle Rondel" in refused.get_json()["error"] if
                                               len(bad) == 3 and isinstance(bad, dict) else
                                               "does not give one value for each" in refused.get_json()["error"])
    assert entries()["rondel.large.sizes"]["value"] is None  # nothing stored
    value = {"rondel.large.outer.size": 12, "rondel.large.middle.size": 9, "rondel.large.inner.size": 7}
    assert client.put(url, json={"value": value}, headers=csrf).status_code == 200
    assert entries()["rondel.large.sizes"]["value"] == value and entries()["rondel.large.sizes"]["source"] == "edit"
    assert client.get(f"/api/board-profile/{SABIKA}/export").get_json()["values"] == value  # each value, as answered
    assert "rondel.large.four_only" in entries()  # what follows from the sizes is listed now
    assert client.delete(url, headers=csrf).status_code == 200
    assert client.get(f"/api/board-profile/{SABIKA}/export").get_json()["values"] == {}


@pytest.mark.parametrize(("key", "value"), [("rondel.small.outer.size", 99), ("no.such.key", 1),
                                            ("rondel.small.outer.1.action", "market")])
def test_a_bad_value_is_refused_and_changes_nothing(profile: BoardProfile, key: str, value: Any) -> None:
    with pytest.raises(ProfileError):  # out of range; not a Sabika value; its ring's size is not known yet
        profile.set_value(SABIKA, key, value)
    assert profile.values(SABIKA) == {}


@pytest.mark.parametrize(("players", "seed"), [(("Ana", "Ben"), 1), (("Ana", "Ben", "Cy"), 2), (("Ana",), 3)])
def test_a_table_that_filled_the_page_is_asked_nothing_in_a_whole_game(profile: BoardProfile,
                                                                       players: tuple[str, ...], seed: int) -> None:
    assert fill(profile) > 500
    known = table_profile.remembered(profile.store, kind)  # what the next game of the table starts with
    game = kind.new_game(list(players), seed, {"profile": known})
    rng = random.Random(seed)
    while not game.finished:
        assert game.pending is None or game.pending["kind"] != "question", game.pending
        game.apply(random_action(game, rng))


def test_the_board_page_api_edits_and_exports_sabikas_values(client: FlaskClient) -> None:
    csrf = {"X-CSRF-Token": csrf_of(client)}
    sent = client.put(f"/api/board-profile/{SABIKA}/values/bag.tokens_per_type", json={"value": 10}, headers=csrf)
    assert sent.status_code == 200, sent.get_json()
    refused = client.put(f"/api/board-profile/{SABIKA}/values/bag.tokens_per_type", json={"value": 99}, headers=csrf)
    assert refused.status_code == 400 and "99 is not a possible value" in refused.get_json()["error"]
    entries = {e["key"]: e for e in client.get(f"/api/board-profile?edition={SABIKA}").get_json()["entries"]}
    assert entries["bag.tokens_per_type"]["value"] == 10 and entries["bag.tokens_per_type"]["source"] == "edit"
    assert entries["minor_card.1.base"]["component"] == "cards" and entries["minor_card.1.base"]["source"] == "missing"
    assert client.get(f"/api/board-profile/{SABIKA}/export").get_json()["values"] == {"bag.tokens_per_type": 10}


def test_a_german_phone_reads_sabikas_values_in_german(client: FlaskClient) -> None:
    german = {"Accept-Language": "de-DE,de"}
    entries = client.get(f"/api/board-profile?edition={SABIKA}", headers=german).get_json()["entries"]
    bag = next(e for e in entries if e["key"] == "bag.tokens_per_type")
    assert bag["where"] == "Beutel" and bag["title"].startswith("Wie viele Rohstoff-/Warenmarker")
    assert {e["where"] for e in entries} >= {"Rundenleiste", "Startplättchen", "Gleichgewichtskarten"}
    refused = client.put(f"/api/board-profile/{SABIKA}/values/rondel.small.outer.1.action", json={"value": "market"},
                         headers={**german, "X-CSRF-Token": csrf_of(client)})
    assert "ist kein aufgedruckter Wert" in refused.get_json()["error"]


def test_a_sabika_value_is_forgotten_on_the_board_page(client: FlaskClient) -> None:
    csrf = {"X-CSRF-Token": csrf_of(client)}
    url = f"/api/board-profile/{SABIKA}/values/bag.tokens_per_type"
    assert client.put(url, json={"value": 10}, headers=csrf).status_code == 200
    forgotten = client.delete(url, headers=csrf)
    assert forgotten.status_code == 200, forgotten.get_json()
    entries = {e["key"]: e for e in client.get(f"/api/board-profile?edition={SABIKA}").get_json()["entries"]}
    assert entries["bag.tokens_per_type"]["source"] == "missing" and entries["bag.tokens_per_type"]["value"] is None
    again = client.delete(url, headers=csrf)  # nothing left to forget: said with the value's question
    assert again.status_code == 400
    assert again.get_json()["error"] == f"{entries['bag.tokens_per_type']['title']}: your table has no value to forget"
    unknown = client.delete(f"/api/board-profile/{SABIKA}/values/no.such.key", headers=csrf)
    assert unknown.status_code == 400 and "'no.such.key' is no printed value a Sabika game asks" in \
        unknown.get_json()["error"]


def test_the_board_page_says_sabikas_options_in_player_words(client: FlaskClient) -> None:
    for language, two_dinars, artwork in (("en", "2 Dinars", "Raw Material + Good or Export (artwork)"),
                                          ("de", "2 Dinar", "Rohstoff + Ware oder Export (Kunstwerk)")):
        entries = {e["key"]: e for e in client.get(f"/api/board-profile?edition={SABIKA}",
                                                   headers={"Accept-Language": language}).get_json()["entries"]}
        bonus = entries["city_tile.1.bonus"]
        assert bonus["words"][bonus["options"].index("dinars:2")] == two_dinars
        card = entries["minor_card.1.left"]
        assert card["words"][card["options"].index("trade")] == artwork
        assert all(len(e["words"]) == len(e["options"]) for e in entries.values())
