"""The Morocco JSON-lines log (damage names the source and line), the CLI hooks and the result report."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.errors import KeshiError
from companion.games.morocco import (
    ActionFormatError,
    LogError,
    Place,
    SetupError,
    SetupOptions,
    Swap,
    action_from_dict,
    action_to_dict,
    cli_api,
)
from companion.games.morocco.game import Game
from companion.games.morocco.simulate import play_random_game


@pytest.fixture(scope="module")
def log_text() -> str:
    return cli_api.write_log(cli_api.play_random(3, 11))


def test_log_is_a_header_then_one_action_per_line(log_text: str) -> None:
    lines = log_text.splitlines()
    head = json.loads(lines[0])
    assert head["format"] == "keshi-game-log" and head["version"] == 1 and head["game"] == "morocco"
    assert head["setup"]["players"] == ["Sarah", "Jan", "Marie"]
    assert all("type" in json.loads(line) for line in lines[1:])


def test_damaged_json_names_the_source_and_line(log_text: str) -> None:
    lines = log_text.splitlines()
    lines[5] = lines[5][:-3]
    with pytest.raises(LogError, match=r"^morocco.jsonl:6: not valid JSON"):
        cli_api.read_log("\n".join(lines), "morocco.jsonl")


def test_illegal_action_in_the_log_names_the_line_and_the_rule(log_text: str) -> None:
    lines = log_text.splitlines()
    first = json.loads(lines[0])["setup"]["start_player"]
    assert json.loads(lines[1])["type"] == "roll"  # 3 players: the start player rolls, then scouts first
    bad = [*lines[:2], json.dumps({"type": "scout", "player": first, "space": 9})]
    with pytest.raises(LogError, match=r"^game.jsonl:3: .*outer rooftop spaces") as info:
        cli_api.read_log("\n".join(bad), "game.jsonl")
    assert isinstance(info.value, KeshiError)


def test_header_problems() -> None:
    with pytest.raises(LogError, match="^x:1: not a keshi-game-log header"):
        cli_api.read_log('{"type": "scout"}\n', "x")
    with pytest.raises(LogError, match="unsupported log version 2"):
        cli_api.read_log('{"format": "keshi-game-log", "version": 2}\n', "x")
    with pytest.raises(LogError, match="^x:1: this is not a Morocco log"):
        cli_api.read_log('{"format": "keshi-game-log", "version": 1, "edition": "essential", "setup": {}}\n', "x")
    with pytest.raises(LogError, match="^x:1: bad setup in header: .*lacks players"):
        cli_api.read_log('{"format": "keshi-game-log", "version": 1, "game": "morocco", "setup": {}}\n', "x")
    with pytest.raises(LogError, match="^x: empty game log"):
        cli_api.read_log("\n", "x")


def test_a_doctored_setup_is_refused() -> None:
    game = Game.new(SetupOptions(players=("Sarah", "Jan"), seed=2))
    setup = dict(game.setup, rows=["green"] * 5)
    with pytest.raises(SetupError, match="rows must list one cube of each colour"):
        Game(setup)
    with pytest.raises(SetupError, match="board-profile key"):
        Game.new(SetupOptions(players=("Sarah", "Jan"), profile={"overflow.empty_stall": 1}))
    with pytest.raises(SetupError, match="Morocco is for 2-5 players, not 6"):
        Game.new(SetupOptions(players=("a", "b", "c", "d", "e", "f")))
    with pytest.raises(SetupError, match="juice seller token is worth 2, 3 or 4"):
        Game.new(SetupOptions(players=("a", "b"), draws={"juice": [[5] * 6] * 6}))
    with pytest.raises(SetupError, match="with table draws the table must enter: rows, columns, rooftop, juice"):
        Game.new(SetupOptions(players=("a", "b"), table_draws=True))


def test_action_json_round_trip_and_errors() -> None:
    for action in (Place(1, "cousins", (3, 4), "blue", (2, 4)), Swap(0, ("row4", "row1"))):
        assert action_from_dict(action_to_dict(action)) == action
    assert Swap(0, ("row4", "row1")) == Swap(0, ("row1", "row4"))
    with pytest.raises(ActionFormatError, match="unknown action type 'dance'"):
        action_from_dict({"type": "dance"})
    with pytest.raises(ActionFormatError, match="lacks field 'player'"):
        action_from_dict({"type": "pass"})
    with pytest.raises(ActionFormatError, match=r"'space' must be \[row, column\]"):
        action_from_dict({"type": "place", "player": 0, "worker": "assistant", "space": [1]})


def test_result_summary_and_text() -> None:
    game = play_random_game(4, 5)
    summary = cli_api.result_summary(game)
    assert json.loads(json.dumps(summary)) == summary
    assert summary["finished"] and summary["winners"] and len(summary["players"]) == 4
    for p in summary["players"]:
        assert p["score"] == sum(p["breakdown"].values())
    best = max(p["score"] for p in summary["players"])
    assert all(p["score"] == best for p in summary["players"] if p["name"] in summary["winners"])
    text = cli_api.result_text(summary)
    assert text.startswith("Morocco, ") and f"Winner: {' and '.join(summary['winners'])}" in text
    assert "juice sellers" in text and "largest district" in text


def test_cli_random_then_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "morocco.jsonl"
    assert main(["game", "random", "--game", "morocco", "--players", "2", "--seed", "3", "--out", str(out)]) == 0
    assert "Winner" in capsys.readouterr().out
    assert main(["game", "replay", "--game", "morocco", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "morocco" and result["finished"] is True and len(result["players"]) == 2


def test_partial_log_replays_to_a_game_in_progress(log_text: str) -> None:
    partial = "\n".join(log_text.splitlines()[:30]) + "\n"
    summary = cli_api.result_summary(cli_api.read_log(partial, "partial.jsonl"))
    assert summary["finished"] is False and summary["winners"] == [] and summary["actions"] == 29
    assert "in progress: round" in cli_api.result_text(summary)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_damage_gives_a_log_error_naming_a_line(log_text: str, data: st.DataObject) -> None:
    """Replace one line with junk: the replay still works or fails with a LogError naming a line."""
    lines = log_text.splitlines()
    index = data.draw(st.integers(min_value=0, max_value=len(lines) - 1))
    junk = data.draw(st.sampled_from([
        '{"type": "pass", "player": 0}', "[]", "{}", "null", '{"type": "scout", "player": "x", "space": 1}',
        '{"type": "choose"}', '{"type": "place", "player": 0, "worker": "assistant", "space": [99, 0]}',
        '{"type": "swap", "player": 1, "lines": ["row1", 3]}', '{"type": "answer", "key": 1, "value": 1}',
        '{"format": "keshi-game-log", "version": 1, "game": "morocco", "setup": {"players": "ab"}}']))
    lines[index] = junk
    try:
        cli_api.read_log("\n".join(lines), "log")
    except LogError as exc:
        named = re.match(r"log:(\d+): ", str(exc))
        assert named is not None and int(named.group(1)) >= index + 1, str(exc)
