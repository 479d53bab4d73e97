"""Board-profile benchmark: how many printed-value questions a table is asked in its 1st, 2nd, 3rd game.

Random legal play (seeded) through the dashboard's HTTP API (Flask's test client) at one companion:
each *table* plays 3 games one after another, so games 2 and 3 start with the board profile the
earlier games filled; between tables the profile is emptied. It prints, per game at the table, the
questions per game and per round, and the host's taps on question screens per round (median, p90).

Tap model for the stepper screens (``static/value-editor.js``): a word answer 1 tap; a number one "+"
per step above the lowest possible value, then Answer; a pair the same per part; a bundle one "+" per
item, then Answer; "all that apply" one tap per item, then Answer. Random answers are spread over all
possible values, so the taps are an upper bound (printed numbers are mostly small).

Run: ``.venv/bin/python benchmarks/bench_board_profile.py [--tables 6]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask.testing import FlaskClient  # noqa: E402

from companion.app import create_app, shutdown_app  # noqa: E402

SEATS = ["blue", "red", "green", "yellow"]


def taps(question: dict[str, Any], value: Any) -> int:
    """Taps to give ``value`` on the question's stepper screen (see the module docstring)."""
    options = question["options"]
    if question["multi"]:
        return len(value) + 1
    if all(isinstance(o, int) for o in options):
        return int(value - min(options)) + 1
    if all(isinstance(o, list) for o in options):
        return sum(abs(v - min(o[i] for o in options)) if isinstance(v, int) else 1 for i, v in enumerate(value)) + 1
    if all(isinstance(o, dict) for o in options):
        return sum(v if isinstance(v, int) else 1 for v in value.values()) + 1
    return 1


def random_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action of ``view`` (a random answer to a question)."""
    pending = view["pending"]
    if view["phase"] == "select" and not pending:
        seat, options = rng.choice(list(view["selections"].items()))
        option = rng.choice(options)
        return {"type": "select", "player": int(seat), "colours": option["colours"],
                "wild_sectors": rng.choice(option["wild"]) if option["wild"] else []}
    if view["phase"] == "toss" and not pending:
        return {"type": "release", "counts": {c: n for c, n in view["state"]["tower"]["inside"].items() if n}}
    if pending and pending["kind"] == "question":
        options = pending["options"]
        value = rng.sample(options, rng.randint(1, min(3, len(options)))) if pending["multi"] else rng.choice(options)
        return {"type": "answer", "key": pending["key"], "value": value}
    action: dict[str, Any] = rng.choice(view["legal"])["action"]
    return action


def play(client: FlaskClient, headers: dict[str, str], players: int, rng: random.Random
         ) -> tuple[int, dict[tuple[int, int], list[int]]]:
    """One random game to its end: questions asked, and [questions, taps] per (season, round)."""
    seating = [{"name": f"P{i + 1}", "colour": SEATS[i]} for i in range(players)]
    game_id = client.post("/api/games", json={"players": seating, "seed": rng.randrange(2**31)},
                          headers=headers).get_json()["id"]
    client.post(f"/api/games/{game_id}/role", json={"seat": "all"}, headers=headers)  # this screen plays for all
    client.post(f"/api/games/{game_id}/tower/empty", json={"found": {}}, headers=headers)
    view = client.get(f"/api/games/{game_id}").get_json()
    asked = 0
    per_round: dict[tuple[int, int], list[int]] = {}
    while not view["finished"]:
        action = random_action(view, rng)
        if action["type"] == "answer":
            asked += 1
            when = (view["season"], view["round"])
            counted = per_round.setdefault(when, [0, 0])
            counted[0] += 1
            counted[1] += taps(view["pending"], action["value"])
        response = client.post(f"/api/games/{game_id}/actions", headers=headers,
                               json={"action": action, "version": view["version"]})
        if response.status_code not in (200, 201):
            raise RuntimeError(f"action refused: {response.get_json()}")
        view = response.get_json()["view"]
    return asked, per_round


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=6)
    args = parser.parse_args()
    app = create_app({"TESTING": True, "SIMULATE": True, "SIMULATOR_TIME_SCALE": 0.05, "SIMULATOR_SEED": 7},
                     instance_path=Path(tempfile.mkdtemp()) / "instance")
    client = app.test_client()
    headers = {"X-CSRF-Token": client.get("/api/session").get_json()["csrf"]}
    questions: dict[int, list[int]] = {1: [], 2: [], 3: []}
    round_questions: dict[int, list[int]] = {1: [], 2: [], 3: []}
    round_taps: dict[int, list[int]] = {1: [], 2: [], 3: []}
    try:
        for table in range(args.tables):
            entries = client.get("/api/board-profile").get_json()["entries"]
            for entry in entries:  # a new table: its profile starts empty
                if entry["source"] not in ("rulebook", "missing"):
                    client.delete(f"/api/board-profile/essential/values/{entry['key']}", headers=headers)
            for game in (1, 2, 3):
                asked, per_round = play(client, headers, 2 + table % 3, random.Random(table * 10 + game))
                questions[game].append(asked)
                rounds = [per_round.get((s, r), [0, 0]) for s in (1, 2, 3) for r in (1, 2, 3, 4)]
                round_questions[game] += [q for q, _ in rounds]
                round_taps[game] += [t for _, t in rounds]
    finally:
        shutdown_app(app)
    for game in (1, 2, 3):
        taps_sorted = sorted(round_taps[game])
        print(f"game {game} at the table: questions per game median {statistics.median(questions[game])}"
              f" (mean {statistics.mean(questions[game]):.1f}); per round median"
              f" {statistics.median(round_questions[game])}; host's question taps per round median"
              f" {statistics.median(taps_sorted)}, p90 {taps_sorted[int(0.9 * len(taps_sorted))]}")


if __name__ == "__main__":
    main()
