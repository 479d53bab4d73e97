"""Classic edition and expansions through the HTTP API: setup, names on every screen, a whole game."""

from __future__ import annotations

import json
import random
from typing import Any

from flask.testing import FlaskClient

from tests.web.conftest import PLAYERS, Table, csrf_of, share
from tests.web.play import first_action

ALL_EXPANSIONS = [1, 2, 3, 4, 5]


def create(client: FlaskClient, **form: Any) -> Table:
    csrf = csrf_of(client)
    response = client.post("/api/games", json={"players": PLAYERS, "seed": 11, **form},
                           headers={"X-CSRF-Token": csrf})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    share(client, csrf, body["id"])
    return Table(client, csrf, body["id"], body["pin"])


def random_legal_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal choice of ``view`` (selections and tower releases as ``first_action`` makes them)."""
    if view["legal"] and not (view["phase"] in ("select", "toss") and not view["pending"]):
        return dict(rng.choice(view["legal"])["action"])
    return first_action(view)


def test_a_classic_game_with_every_expansion_plays_to_the_end_through_the_api(client: FlaskClient) -> None:
    table = create(client, edition="classic", expansions=ALL_EXPANSIONS)
    view = table.view()
    assert view["edition"] == "classic" and view["expansions"] == ALL_EXPANSIONS
    assert "Classic (2022)" in view["variant"] and "Imam & Sultan" in view["variant"]
    state = view["state"]
    assert "sector_keshis" in state["players"][0] and "markers" not in state["players"][0]  # Classic: no markers
    assert state["desert_town_display"] and state["figures"]  # expansions 5 and 2 are on the board
    rng = random.Random(5)
    kinds: set[str] = set()
    for _ in range(5000):
        if view["finished"]:
            break
        action = random_legal_action(view, rng)
        kinds.add(action["type"])
        response = table.act(action, view["version"])
        assert response.status_code == 201, (action, response.get_json())
        view = response.get_json()["view"]
        page = client.get(f"/games/{table.game_id}")
        assert page.status_code == 200
    assert view["finished"] and view["winners"], "the game did not reach final scoring"
    # the game went through claims, assistants, the engine's decisions and its questions to the table
    assert {"select", "release", "claim", "use_assistant", "choose", "answer"} <= kinds
    # the exported log's setup line names the edition and the expansions; an import restores them
    log = client.get(f"/api/games/{table.game_id}/log").get_data(as_text=True)
    head = json.loads(log.splitlines()[0])
    assert head["edition"] == "classic" and head["setup"]["expansions"] == ALL_EXPANSIONS
    imported = table.client.post("/api/games/import", data=log.encode(),
                                 headers={"X-CSRF-Token": table.csrf, "Content-Type": "application/x-ndjson"})
    assert imported.status_code == 201, imported.get_json()
    again = imported.get_json()["view"]
    assert again["variant"] == view["variant"] and again["state"]["players"] == view["state"]["players"]


def test_the_games_list_and_the_game_page_name_the_edition_and_expansions(client: FlaskClient) -> None:
    classic = create(client, edition="classic", expansions=[2, 5])
    create(client)  # an Essential game without expansions
    games = {g["id"]: g for g in client.get("/api/games").get_json()["games"]}
    assert games[classic.game_id]["edition"] == "classic" and games[classic.game_id]["expansions"] == [2, 5]
    assert games[classic.game_id]["variant"] == "Classic (2022) + expansions 2 Imam & Sultan, 5 desert towns"
    plain = next(g for g in games.values() if g["id"] != classic.game_id)
    assert plain["variant"] == "Essential Edition (2023)" and plain["expansions"] == []
    listing = client.get("/").get_data(as_text=True)
    assert "Classic (2022) + expansions 2 Imam &amp; Sultan, 5 desert towns" in listing
    assert "Essential Edition (2023)" in listing
    page = client.get(f"/games/{classic.game_id}").get_data(as_text=True)
    assert "Classic (2022) + expansions 2 Imam &amp; Sultan, 5 desert towns" in page


def test_the_setup_wizard_offers_both_editions_and_the_five_expansions(client: FlaskClient) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    assert 'value="classic"' in page and 'value="classic" disabled' not in page
    assert page.count('name="expansion"') == 5


def test_bad_edition_or_expansions_are_refused_naming_the_field(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    for form, words in (({"edition": "deluxe"}, "edition"), ({"expansions": [6]}, "expansion 6"),
                        ({"expansions": "1,2"}, "expansions"), ({"expansions": [2, 2]}, "twice")):
        response = client.post("/api/games", json={"players": PLAYERS, **form}, headers={"X-CSRF-Token": csrf})
        assert response.status_code == 400 and words in response.get_json()["error"], response.get_json()
    assert client.get("/api/games").get_json()["games"] == []
