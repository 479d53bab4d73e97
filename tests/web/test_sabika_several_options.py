"""Issue 25: a Sabika question whose answer is several options (the Sultan's Workers' squares, a bonus's icons
left to right) is offered as such, as the Board page offers the same value; the game keeps the options in the
order the table gave them (the order a bonus's icons are earned in, L630-641)."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.conftest import csrf_of, share

PLAYERS = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}]


def test_a_question_taking_several_options_is_answered_with_several_in_the_order_given(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    made = client.post("/api/games", json={"game": "sabika", "players": PLAYERS, "seed": 2},
                       headers={"X-CSRF-Token": csrf})
    assert made.status_code == 201, made.get_json()
    game_id = made.get_json()["id"]
    share(client, csrf, game_id)
    view = client.get(f"/api/games/{game_id}").get_json()
    for _ in range(5):  # the board's sizes first (one stepper each), then the Sultan's Workers' squares: one or more
        if "options" in view["choices"].get("question", {}):
            break
        options = view["choices"]["options"]
        view = client.post(f"/api/games/{game_id}/actions", headers={"X-CSRF-Token": csrf},
                           json={"action": options[len(options) // 2]["action"], "version": view["version"]}
                           ).get_json()["view"]
    question = view["choices"]["question"]
    assert question["count"] is None and len(question["options"]) > 2
    assert len(question["words_say"]) == len(question["options"])
    assert all(len(option["action"]["value"]) == 1 for option in view["choices"]["options"])  # one each, only
    answer = [question["options"][2], question["options"][0]]
    sent = client.post(f"/api/games/{game_id}/actions", headers={"X-CSRF-Token": csrf},
                       json={"action": {"type": "answer", "key": question["key"], "value": answer},
                             "version": view["version"]})
    assert sent.status_code == 201, sent.get_json()
    assert "question" not in sent.get_json()["view"]["choices"]  # the next question takes one option
    kept = {e["key"]: e for e in client.get("/api/board-profile?edition=sabika").get_json()["entries"]}
    assert kept[question["key"]]["value"] == answer and kept[question["key"]]["multi"]  # the Board page's value
