"""The JSON-lines log (damage names the line), the action JSON form, and ``keshi game random/replay``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.marrakesh import ActionFormatError, LogError, Select, action_from_dict, action_to_dict
from companion.games.marrakesh.log import read_log, write_log
from companion.games.marrakesh.simulate import play_random_game


@pytest.fixture(scope="module")
def log_text() -> str:
    return write_log(play_random_game(3, 11))


def test_log_is_one_action_per_line(log_text: str) -> None:
    lines = log_text.splitlines()
    head = json.loads(lines[0])
    assert head["format"] == "keshi-game-log" and head["version"] == 1 and head["edition"] == "essential"
    assert all("type" in json.loads(line) for line in lines[1:])


def test_damaged_json_names_the_line(log_text: str) -> None:
    lines = log_text.splitlines()
    lines[5] = lines[5][:-3]
    with pytest.raises(LogError, match=r"game.jsonl:6: not valid JSON"):
        read_log("\n".join(lines), source="game.jsonl")


def test_illegal_action_in_log_names_the_line(log_text: str) -> None:
    bad = [*log_text.splitlines()[:4], json.dumps({"type": "claim", "player": 0, "colours": ["nothing"]})]
    with pytest.raises(LogError, match=r"log:5: "):
        read_log("\n".join(bad))


def test_unknown_version_and_header() -> None:
    with pytest.raises(LogError, match="log:1: not a keshi-game-log header"):
        read_log('{"type": "select"}\n')
    with pytest.raises(LogError, match="unsupported log version 9"):
        read_log('{"format": "keshi-game-log", "version": 9}\n')
    with pytest.raises(LogError, match="log:1: header lacks 'edition' or 'setup'"):
        read_log('{"format": "keshi-game-log", "version": 1}\n')
    with pytest.raises(LogError, match="log:1: bad setup in header: unknown edition 'chess'"):
        read_log('{"format": "keshi-game-log", "version": 1, "edition": "chess", "setup": {}}\n')
    with pytest.raises(LogError, match="empty game log"):
        read_log("\n")


def test_action_json_round_trip_and_errors() -> None:
    action = Select(1, ("red", "gray", "yellow"), ("river",))
    assert action_from_dict(action_to_dict(action)) == action
    with pytest.raises(ActionFormatError, match="unknown action type 'dance'"):
        action_from_dict({"type": "dance"})
    with pytest.raises(ActionFormatError, match="lacks field 'player'"):
        action_from_dict({"type": "claim", "colours": ["green"]})
    with pytest.raises(ActionFormatError, match="release count for green"):
        action_from_dict({"type": "release", "counts": {"green": -1}})


def test_cli_random_then_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.jsonl"
    assert main(["game", "random", "--players", "4", "--seed", "3", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "finished" in text and "Winner" in text
    assert main(["game", "replay", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["finished"] is True and len(result["players"]) == 4
    for p in result["players"]:
        assert p["score"] == sum(p["breakdown"].values())
        assert {"filled_sectors", "oases", "resources", "start"} <= set(p["breakdown"])


def test_cli_replay_of_a_damaged_log_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.jsonl"
    out.write_text('{"format": "keshi-game-log", "version": 1, "edition": "essential", "setup": {}}\n{oops\n')
    assert main(["game", "replay", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("keshi: error:") and "game.jsonl:1" in err


def test_cli_replay_of_a_partial_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = write_log(play_random_game(2, 4))
    out = tmp_path / "partial.jsonl"
    out.write_text("\n".join(text.splitlines()[:40]) + "\n")
    assert main(["game", "replay", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] is False


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_damage_gives_a_log_error_naming_a_line(log_text: str, data: st.DataObject) -> None:
    """Replace one line with junk: the replay either still works or fails with a LogError that names
    a line, never with another exception."""
    lines = log_text.splitlines()
    index = data.draw(st.integers(min_value=0, max_value=len(lines) - 1))
    junk = data.draw(st.sampled_from(['{"type": "claim", "player": 0, "colours": ["green"]}', "[]", "{}", "null",
                                      '{"type": "select", "player": "x", "colours": []}', '{"type": "choose"}',
                                      '{"format": "keshi-game-log", "version": 1, "edition": "essential", '
                                      '"setup": {"players": []}}']))
    lines[index] = junk
    try:
        read_log("\n".join(lines))
    except LogError as exc:
        named = re.match(r"log:(\d+): ", str(exc))
        assert named is not None and int(named.group(1)) >= index + 1, str(exc)
