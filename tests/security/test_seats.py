"""A seat belongs to a device: a seated phone acts only for its own player, whatever the body says;
a second phone cannot take a seat that is held; a shared device needs the table PIN and every phone
reads that it plays for everyone; the log names the device that acted for another player."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import LiveServer
from tests.security.live import serve_for_module
from tests.security.table import device, error, new_game, seated_phone, view
from tests.web.play import first_action


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serve_for_module(tmp_path_factory, "seats")


def selection_for(game_view: dict[str, object], seat: int) -> dict[str, object]:
    options = game_view["selections"][str(seat)]  # type: ignore[index]
    option = options[0]
    return {"type": "select", "player": seat, "colours": option["colours"],
            "wild_sectors": option["wild"][0] if option["wild"] else []}


def test_a_phone_cannot_act_for_another_seat_and_the_body_cannot_say_otherwise(server: LiveServer) -> None:
    screen, game = new_game(server)
    ben = seated_phone(server, 2, game, seat=1)
    before = view(ben, game["id"])
    for_ana = ben.call("POST", f"/api/games/{game['id']}/actions",
                       {"action": selection_for(before, 0), "version": before["version"], "by": 0})
    assert for_ana.status == 403 and error(for_ana) == "This phone plays for Ben: it cannot act for Ana"
    assert view(ben, game["id"])["version"] == before["version"]  # nothing changed
    own = ben.call("POST", f"/api/games/{game['id']}/actions",
                   {"action": selection_for(before, 1), "version": before["version"], "by": 0})
    assert own.status == 201, own.body
    newest = view(ben, game["id"])["history"][0]["label"]
    assert "Ben" in newest and "Ana" not in newest, newest  # the device's seat, never the body's "by"


def test_a_held_seat_is_refused_to_a_second_phone_until_the_host_frees_it(server: LiveServer) -> None:
    screen, game = new_game(server, seed=4)
    seated_phone(server, 3, game, seat=0)
    thief = seated_phone(server, 4, game)
    taken = thief.call("POST", f"/api/games/{game['id']}/role", {"seat": 0})
    assert taken.status == 409 and "Ana already plays on another phone" in error(taken)
    assert thief.call("DELETE", f"/api/games/{game['id']}/role/0").status == 403  # only the host frees a seat
    assert screen.call("DELETE", f"/api/games/{game['id']}/role/0").status == 200
    assert thief.call("POST", f"/api/games/{game['id']}/role", {"seat": 0}).status == 200


def test_a_shared_device_needs_the_pin_is_shown_everywhere_and_named_in_the_log(server: LiveServer) -> None:
    screen, game = new_game(server, seed=5)
    tablet = seated_phone(server, 5, game)
    wrong = "0000" if game["pin"] != "0000" else "1111"
    for pin in (None, wrong):
        refused = tablet.call("POST", f"/api/games/{game['id']}/role", {"seat": "all", "pin": pin})
        assert refused.status == 403 and "table PIN" in error(refused)
    shared = tablet.call("POST", f"/api/games/{game['id']}/role",
                         {"seat": "all", "pin": game["pin"], "device": "Ana's tablet"})
    assert shared.status == 200, shared.body
    watcher = seated_phone(server, 6, game)
    assert {"seat": "all", "label": "Ana's tablet"} in [
        {k: d[k] for k in ("seat", "label")} for d in view(watcher, game["id"])["devices"]]
    current = view(tablet, game["id"])
    acted = tablet.call("POST", f"/api/games/{game['id']}/actions",
                        {"action": first_action(current), "version": current["version"]})
    assert acted.status == 201, acted.body
    newest = view(watcher, game["id"])["history"][0]
    assert newest.get("via") == "Ana's tablet"


def test_a_phone_that_changes_who_it_plays_for_says_so_to_every_phone(server: LiveServer) -> None:
    screen, game = new_game(server, seed=7)
    ben = seated_phone(server, 9, game, seat=1)
    assert ben.call("POST", f"/api/games/{game['id']}/role", {"seat": 2}).status == 200
    assert view(screen, game["id"])["history"][0]["label"] == "Ben's phone now plays for Cem"


def test_a_bad_seat_is_refused_naming_the_problem_and_changes_nothing(server: LiveServer) -> None:
    screen, game = new_game(server, seed=10)
    phone = seated_phone(server, 12, game)
    for seat in (3, -1, "1", True, None, [0], "everyone"):
        refused = phone.call("POST", f"/api/games/{game['id']}/role", {"seat": seat})
        assert refused.status == 400 and "seat must be a player's number 0 to 2" in error(refused), seat
    for seat in ("7", "x"):
        freed = screen.call("DELETE", f"/api/games/{game['id']}/role/{seat}")
        assert freed.status == 400 and "no device plays for that seat" in error(freed), seat
    assert [d["label"] for d in view(phone, game["id"])["devices"]] == ["The companion's screen"]  # unchanged


def test_a_device_without_a_role_or_a_seat_acts_for_nobody(server: LiveServer) -> None:
    screen, game = new_game(server, seed=6)
    stranger = seated_phone(server, 7, game)  # joined, but has not said who it is
    current = view(stranger, game["id"])
    for path, body in ((f"/api/games/{game['id']}/actions", {"action": first_action(current)}),
                       (f"/api/games/{game['id']}/undo", {}),
                       (f"/api/games/{game['id']}/toss", {})):
        refused = stranger.call("POST", path, body)
        assert refused.status == 403 and "Who are you" in error(refused), (path, refused.body)
    assert view(stranger, game["id"])["version"] == current["version"]
    unjoined = device(server, 8)  # never typed the PIN: it cannot even say who it is
    refused = unjoined.call("POST", f"/api/games/{game['id']}/role", {"seat": 2})
    assert refused.status == 403 and "table PIN" in error(refused)
