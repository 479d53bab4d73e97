"""``keshi game``: every registered game plays and replays through the one CLI, chosen by --game or the log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.game_cli import GAMES


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_then_replay_names_the_game_from_the_log(game: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"{game}.jsonl"
    assert main(["game", "random", "--game", game, "--players", "2", "--seed", "4", "--out", str(out), "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert main(["game", "replay", str(out), "--json"]) == 0  # no --game: the header says which
    assert json.loads(capsys.readouterr().out) == played


def test_replay_refuses_a_game_the_log_is_not_of(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "morocco.jsonl"
    assert main(["game", "random", "--game", "morocco", "--players", "2", "--seed", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["game", "replay", "--game", "sabika", str(out)]) == 2
    assert capsys.readouterr().err.strip() == f"keshi: error: {out} is a morocco log, not sabika"


def test_edition_is_refused_for_a_game_without_editions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "random", "--game", "sabika", "--players", "2", "--seed", "1", "--edition", "classic"]) == 2
    assert "--edition and --expansions are Marrakesh options; sabika has neither" in capsys.readouterr().err


@pytest.mark.parametrize(("game", "players"), [("sabika", 1), ("morocco", 5)])
def test_each_game_takes_its_own_player_counts(game: str, players: int, capsys: pytest.CaptureFixture[str]) -> None:
    """Sabika's solo mode (1 against the automa Yusuf) and Morocco's fifth family play from the CLI."""
    assert main(["game", "random", "--game", game, "--players", str(players), "--seed", "3", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["players"]) == (2 if game == "sabika" else players)


@pytest.mark.parametrize(("game", "players", "allowed"), [("marrakesh", 1, "2 to 4"), ("morocco", 6, "2 to 5"),
                                                          ("sabika", 5, "1 to 4")])
def test_a_player_count_the_game_does_not_take_is_refused(game: str, players: int, allowed: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "random", "--game", game, "--players", str(players), "--seed", "1"]) == 2
    assert capsys.readouterr().err.strip() == f"keshi: error: {game} is played by {allowed} players, not {players}"
