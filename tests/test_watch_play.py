"""Watching a game turn by turn, and a person playing one in the terminal."""

import json

import pexpect
import pytest
from typer.testing import CliRunner

from hogbench.cli import app
from hogbench.rules import get_rules
from hogbench.watch import play_game

runner = CliRunner()


def test_watched_game_follows_the_rules():
    rules = get_rules("hog-su21")
    decide = (lambda state: 3, lambda state: 0)
    turns = list(play_game(rules, decide, seed=5))
    assert turns[-1].over and max(turns[-1].scores) >= 100
    previous = (0, 0)
    for turn in turns:
        mover = turn.player
        gained = turn.scores[mover] - previous[mover]
        if turn.choice == 0:
            tens, ones = (previous[1 - mover] // 10) % 10, previous[1 - mover] % 10
            assert gained == abs(tens - ones) + 4
        else:
            dice = turn.step.dice
            assert len(dice) == 3 and gained == (1 if 1 in dice else sum(dice))
        assert turn.scores[1 - mover] == previous[1 - mover]
        assert ("More Boar: extra turn!" in turn.step.events) == (
            not turn.over and turns[turns.index(turn) + 1].player == mover
        )
        previous = turn.scores
    assert turns[-1].winner == turns[-1].player


def test_watch_json_is_repeatable_by_seed():
    args = ["watch", "always_roll:5", "more_boar_strategy", "--seed", "9", "--json"]
    one, two = runner.invoke(app, args), runner.invoke(app, args)
    assert one.exit_code == 0, one.output
    assert one.stdout == two.stdout
    data = json.loads(one.stdout)
    assert data["winner"] in (0, 1) and len(data["turns"]) > 3


def test_play_through_cli_runner_rejects_bad_moves_and_stops_on_eof():
    result = runner.invoke(
        app, ["play", "always_roll:4", "--first", "me", "--seed", "1"], input="x\n11\n5\n"
    )
    assert result.exit_code == 0, result.output
    assert "not a number of dice" in result.stdout
    assert "outside 0..10" in result.stdout
    assert "You ▸ 5" in result.stdout
    assert "bye" in result.stdout


def test_play_in_a_pseudo_terminal_to_the_end():
    child = pexpect.spawn(
        "hogbench play always_roll:4 --seed 2 --goal 20",
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 200),
    )
    child.expect("go first")
    child.sendline("n")
    for _ in range(40):
        index = child.expect(["Your move", "wins", "tie"])
        if index:
            break
        child.sendline("6")
    else:
        pytest.fail("the game did not end")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
