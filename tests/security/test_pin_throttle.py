"""Every PIN check is one throttle, per client: a stranger walking the 4 digits (by joining, by a PIN
header, by claiming a shared device or the owner code) is slowed to a crawl, never seats itself by a
header, and never locks out a player who has the PIN; the QR link's token works alone."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from companion.web.access import FREE_TRIES, LONGEST_WAIT_SECONDS, Throttle, TooManyTries
from tests.conftest import LiveServer
from tests.security.live import serve_for_module
from tests.security.table import device, new_game, view
from tests.web.play import first_action


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serve_for_module(tmp_path_factory, "throttle")


def test_guessing_the_pin_is_throttled_for_the_guesser_and_a_header_seats_nobody(server: LiveServer) -> None:
    screen, game = new_game(server)
    guesser = device(server, 20)
    current = view(guesser, game["id"])
    wrong = [f"{n:04d}" for n in range(10_000) if f"{n:04d}" != game["pin"]]
    for pin in [*wrong[:40], game["pin"]]:  # the header way: never seats, whatever the PIN
        acted = guesser.send("POST", f"/api/games/{game['id']}/actions",
                             f'{{"action": {{"type": "select", "player": 0}}, "version": {current["version"]}}}'
                             .encode(), {"Content-Type": "application/json", "X-Table-PIN": pin})
        assert acted.status == 403
    statuses = [guesser.call("POST", f"/api/games/{game['id']}/join", {"pin": pin}).status for pin in wrong[:10]]
    assert statuses[:FREE_TRIES + 1] == [403] * (FREE_TRIES + 1) and set(statuses[FREE_TRIES + 1:]) == {429}
    waiting = guesser.call("POST", f"/api/games/{game['id']}/join", {"pin": game["pin"]})
    assert waiting.status == 429 and int(waiting.headers["Retry-After"]) >= 1  # the right PIN waits too
    player = device(server, 21)  # Ben, at the same table, has the PIN
    assert player.call("POST", f"/api/games/{game['id']}/join", {"pin": game["pin"]}).status == 200
    assert view(screen, game["id"])["version"] == current["version"]


def test_the_qr_links_token_seats_a_phone_and_bad_links_lock_nobody_out(server: LiveServer) -> None:
    screen, game = new_game(server, seed=7)
    page = screen.send("GET", f"/games/{game['id']}").body.decode()
    token = re.search(r"join\?token=([0-9a-f]{32})", page)
    assert token and game["pin"] not in token.group(1)
    phone = device(server, 22)
    joined = phone.send("GET", f"/games/{game['id']}/join?token={token.group(1)}")
    assert joined.status == 302 and joined.headers["Location"].endswith(f"/games/{game['id']}")
    assert view(phone, game["id"])["seated"]
    player = device(server, 23)  # another site made this player's browser open bad links (an <img> each)
    for n in range(FREE_TRIES + 2):
        assert player.send("GET", f"/games/{game['id']}/join?token={n:032x}").status == 200  # the PIN page
    assert not view(player, game["id"])["seated"]
    assert player.call("POST", f"/api/games/{game['id']}/join", {"pin": game["pin"]}).status == 200  # no wait
    posted = [player.call("POST", f"/api/games/{game['id']}/join", {"token": f"{n:032x}"}).status
              for n in range(FREE_TRIES + 2)]
    assert posted[-1] == 429  # a token typed through the API (CSRF-checked, so this site's own page) is a guess


def test_at_the_permitted_pace_the_4_digits_take_months() -> None:
    clock = [0.0]
    throttle = Throttle(clock=lambda: clock[0])
    guesses = 0
    while guesses < 5000:  # half the PINs: the expected number to find one
        try:
            throttle.check("stranger", "game 1", "9999", f"{guesses:04d}")
            guesses += 1
        except TooManyTries as wait:  # wait exactly as long as told, then guess again
            clock[0] += wait.retry_after
    days = clock[0] / 86400
    assert days > 30, days  # months, not the 11.6 s it took before
    assert clock[0] / guesses > 0.9 * LONGEST_WAIT_SECONDS  # nearly every guess waits the longest wait
    assert throttle.check("player", "game 1", "9999", "9999")  # another client is not held up


def test_knowing_one_games_pin_buys_no_guesses_at_another() -> None:
    throttle = Throttle(clock=lambda: 0.0)
    for n in range(FREE_TRIES + 1):
        assert not throttle.check("stranger", "game B", "4321", f"{n:04d}")
    assert throttle.check("stranger", "game A", "1234", "1234")  # its own table's PIN, right
    with pytest.raises(TooManyTries):
        throttle.check("stranger", "game B", "4321", "0042")  # game B's count was not cleared


def test_any_text_is_a_wrong_answer_never_a_crash(server: LiveServer) -> None:
    screen, game = new_game(server, seed=9)
    phone = device(server, 25)
    for path, body in ((f"/api/games/{game['id']}/join", {"pin": "é12"}),
                       (f"/api/games/{game['id']}/join", {"token": "ß" * 32}),
                       ("/api/host", {"code": "ÄÖÜ-€€€€-😀😀😀😀"})):
        assert phone.call("POST", path, body).status == 403, path
    assert phone.send("GET", f"/games/{game['id']}/join?token=%C3%A9").status == 200  # the page asks for the PIN
    forged = phone.send("POST", "/api/games", b"{}", {"Content-Type": "application/json", "X-CSRF-Token": "é"})
    assert forged.status == 403


def test_a_watcher_still_watches(server: LiveServer) -> None:
    screen, game = new_game(server, seed=8)
    stranger = device(server, 24)
    assert stranger.send("GET", f"/games/{game['id']}").status == 200
    assert view(stranger, game["id"])["version"] == 0 and first_action(view(stranger, game["id"]))
