"""The functions ``keshi game random|replay --game sabika`` calls (companion/games/sabika/cli_api.py)."""

from __future__ import annotations

import json

import pytest

from companion.errors import KeshiError
from companion.games.sabika import cli_api


def test_random_game_log_round_trip_and_result() -> None:
    game = cli_api.play_random(3, 42)
    text = cli_api.write_log(game)
    first = json.loads(text.splitlines()[0])
    assert first["format"] == "keshi-game-log" and first["game"] == "sabika" and first["version"] == 1
    again = cli_api.read_log(text, "g.jsonl")
    assert again.to_dict() == game.to_dict()
    summary = cli_api.result_summary(again)
    assert json.loads(json.dumps(summary)) == summary
    assert summary["finished"] and summary["winners"] and len(summary["players"]) == 3
    assert summary["winner"] == " and ".join(summary["winners"])
    for p in summary["players"]:
        assert sum(p["breakdown"].values()) == p["score"]
    text_out = cli_api.result_text(summary)
    assert text_out.startswith("Sabika, ") and f"Winner: {summary['winners'][0]}" in text_out


def test_same_seed_same_game() -> None:
    assert cli_api.write_log(cli_api.play_random(2, 9)) == cli_api.write_log(cli_api.play_random(2, 9))


def test_damaged_log_is_a_keshi_error_naming_source_and_line() -> None:
    text = cli_api.write_log(cli_api.play_random(2, 1))
    lines = text.splitlines()
    lines[3] = '{"type": "work", "player": 0}'
    with pytest.raises(KeshiError, match=r"saved\.jsonl:4: work action lacks the field 'worker'"):
        cli_api.read_log("\n".join(lines), "saved.jsonl")
    with pytest.raises(KeshiError, match=r"saved\.jsonl:1: not a Sabika log header"):
        marrakesh = '{"format": "keshi-game-log", "version": 1, "edition": "essential", "setup": {}}'
        cli_api.read_log(marrakesh, "saved.jsonl")
