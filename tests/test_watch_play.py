"""Watching a game turn by turn, and a person playing one in the terminal."""

import json
import random

import pexpect
import pytest
from typer.testing import CliRunner

from hogbench.cli import app
from hogbench.rules import get_rules
from hogbench.rules.base import LOSE
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


@pytest.mark.slow  # 6 s of CPU: fresh interpreters, each importing what watch and play need
def test_watching_and_playing_never_start_numba():
    """A watched or played game runs each turn as Python, so numba's start-up (most of a
    second) is never paid: for every rule set, in a fresh process."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from hogbench.cli import app\n"
        "from hogbench.rules import get_rules, names\n"
        "runner = CliRunner()\n"
        "for name in names():\n"
        "    rules = get_rules(name)\n"
        "    watch = ['watch', rules.baseline, rules.baseline, '--rules', name, '--seed', '1']\n"
        "    play = ['play', rules.baseline, '--rules', name, '--first', 'me', '--seed', '1']\n"
        "    for args in (watch, play):\n"
        "        result = runner.invoke(app, args, input='')\n"
        "        assert result.exit_code == 0, (args, result.output)\n"
        "print('numba loaded' if 'numba' in sys.modules else 'no numba')\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "no numba"


def test_play_through_cli_runner_rejects_bad_moves_and_stops_on_eof():
    result = runner.invoke(
        app, ["play", "always_roll:4", "--first", "me", "--seed", "1"], input="x\n11\n5\n"
    )
    assert result.exit_code == 0, result.output
    assert "not a number of dice" in result.stdout
    assert "outside 0..10" in result.stdout
    assert "You roll 5" in result.stdout
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
        index = child.expect(["Your move", "You win|wins", "tie"])
        if index:
            break
        child.sendline("6")
    else:
        pytest.fail("the game did not end")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# hog-su20 and hog-contest: each turn replayed from the dice shown, with the rules written out here


def _points(n):
    return f"{n} point{'s' * (n != 1)}"


def _su20_turn(choice, dice, mine, theirs, previous):
    """One su20 turn: (mine, theirs, the points Feral Hogs remembers, events, swapped)."""
    if choice == 0:
        assert dice == ()
        points = 10 - theirs % 10 + (theirs // 10) % 10
        events = [f"Free Bacon: {_points(points)}"]
    else:
        assert len(dice) == choice and all(1 <= d <= 6 for d in dice)
        points = 1 if 1 in dice else sum(dice)
        events = ["Pig Out! 1 point" if 1 in dice else _points(points)]
    mine += points
    if abs(choice - previous) == 2:
        mine += 3
        events.append("Feral Hogs: +3")
    swapped = abs(mine % 10 - theirs % 10) == (theirs // 10) % 10
    if swapped:
        mine, theirs = theirs, mine
        events.append("Swine Swap!")
    return mine, theirs, points, events, swapped


def _prime(n):
    return n > 1 and all(n % k for k in range(2, n))


def _contest_turn(choice, dice, mine, theirs, chopped):
    """One contest turn: (mine, theirs, whether the mover has chopped, events, swapped)."""
    if choice == -1 and not chopped:
        assert dice == ()
        return theirs, mine, True, ["Pork Chop: scores swapped"], False
    events = []
    if choice == -1:
        choice = 10
        events.append("Pork Chop already used: rolling 10 dice")
    if choice == 0:
        assert dice == ()
        points = 1 + max(int(d) for d in str(theirs))
        events.append(f"Free Bacon: {_points(points)}")
    else:
        wild = (mine + theirs) % 7 == 0
        if wild:
            events.append("Hog Wild: four-sided dice")
        assert len(dice) == choice and all(1 <= d <= (4 if wild else 6) for d in dice)
        if 1 in dice:
            points = min(11 - choice, dice.count(1))
            events.append(f"Pig Out! {_points(points)}")
        else:
            points = sum(dice)
            events.append(_points(points))
    if _prime(points):
        bigger = points + 1
        while not _prime(bigger):
            bigger += 1
        events.append(f"Hogtimus Prime: {points} → {bigger}")
        points = bigger
    mine += points
    swapped = mine == 2 * theirs or theirs == 2 * mine
    if swapped:
        mine, theirs = theirs, mine
        events.append("Swine Swap!")
    return mine, theirs, chopped, events, swapped


def _replay(turns, turn_rule, memory):
    """Check TURNS (dicts as in watch --json) against TURN_RULE, each player's memory (previous
    points, or whether they chopped) starting at MEMORY. Return the final scores and all events."""
    scores, memories, seen = [0, 0], [memory, memory], []
    for i, turn in enumerate(turns):
        mover = turn["player"]
        if i:
            assert mover == 1 - turns[i - 1]["player"]
        mine, theirs, memories[mover], events, swapped = turn_rule(
            turn["choice"], tuple(turn["dice"]), scores[mover], scores[1 - mover], memories[mover]
        )
        scores[mover], scores[1 - mover] = mine, theirs
        assert tuple(turn["scores"]) == tuple(scores), (i, turn)
        assert turn["events"] == events, (i, turn)
        assert ("Swine Swap!" in turn["events"]) == swapped
        assert (i == len(turns) - 1) == (max(scores) >= 100)
        seen += events
    return tuple(scores), seen


def _check_games(rules, turn_rule, memory, spread, seeds):
    """Play seeded games with choices that vary with the scores; return every event seen."""

    def decide(state):
        score, opponent = rules.scores(state)
        return (3 * score + opponent) % spread - (spread - 11)

    seen = []
    for seed in seeds:
        turns = list(play_game(rules, (decide, decide), seed))
        as_json = [
            {
                "player": t.player,
                "choice": t.choice,
                "dice": t.step.dice,
                "events": t.step.events,
                "scores": t.scores,
            }
            for t in turns
        ]
        final, events = _replay(as_json, turn_rule, memory)
        assert turns[-1].over and turns[-1].scores == final
        assert turns[-1].winner == (0 if final[0] >= 100 else 1)
        seen += events
    return seen


def test_watched_su20_games_follow_the_rules():
    seen = _check_games(get_rules("hog-su20"), _su20_turn, 0, 11, range(8))
    for rule in ("Pig Out!", "Free Bacon", "Feral Hogs", "Swine Swap!"):
        assert any(e.startswith(rule) for e in seen), rule


def test_watched_contest_games_follow_the_rules():
    seen = _check_games(get_rules("hog-contest"), _contest_turn, False, 12, range(8))
    for rule in ("Pig Out!", "Free Bacon", "Hogtimus Prime", "Hog Wild", "Swine Swap!", "Pork"):
        assert any(e.startswith(rule) for e in seen), rule
    assert "Pork Chop already used: rolling 10 dice" in seen


def test_watch_contest_json():
    args = ["watch", "pork_chop_strategy:margin=10", "always_roll:5", "--rules", "hog-contest"]
    result = runner.invoke(app, [*args, "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    final, events = _replay(data["turns"], _contest_turn, False)
    assert tuple(data["scores"]) == final and final[data["winner"]] >= 100
    assert "Pork Chop: scores swapped" in events


@pytest.mark.parametrize(
    ("name", "state", "bacon"),
    [
        # su20: 96 + Free Bacon 11 from 43 is 107, and |7 - 3| is 43's tens digit
        ("hog-su20", (13 * 14 + 13) * 100 * 100 + 96 * 100 + 43, 11),
        # contest: 94 + Free Bacon 6 from 50 is 100, double 50 (nobody has chopped)
        ("hog-contest", (94 * 100 + 50) * 4, 6),
    ],
)
def test_a_swap_at_the_goal_loses(name, state, bacon):
    rules = get_rules(name)
    score, opponent = rules.scores(state)
    step = rules.play_step(state, 0, random.Random(0))
    assert step.events == [f"Free Bacon: {bacon} points", "Swine Swap!"]
    assert step.code & 7 == LOSE
    assert step.final == (opponent, score + bacon)
