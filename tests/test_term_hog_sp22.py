"""hog-sp22's games that never end: Hefty Hogs can score 0, so two 0-point turns in a row repeat
a state, and two strategies that choose them play forever. Such a game is a tie: the exact
engine counts it half a win for each player (checked against the reference's linear algebra),
``analyze`` still breaks the loss down exactly, and Monte Carlo, ``watch`` and ``play`` end it
as a tie after the rule set's turn cap."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from hogbench import exact, simulate, solve
from hogbench.cli import app
from hogbench.players import LivePlayer
from hogbench.rules import get_rules
from hogbench.rules.hog_sp22 import hefty_hogs, hog_pile
from hogbench.tables import DecisionTable
from hogbench.watch import play_game
from tests.course.turns import reference_turn
from tests.reference import outcome_chances, win_chance

GOAL = 30
runner = CliRunner()


def nothing(score, opponent):
    """Whether rolling 0 at these scores scores nothing: no Hefty Hogs points, no Hog Pile."""
    return hefty_hogs(score, opponent) == 0 and hog_pile(score, opponent) == 0


def looper(num_rolls):
    """Roll 0 whenever that scores nothing (so two of them loop), else NUM_ROLLS dice."""
    return lambda score, opponent: 0 if nothing(score, opponent) else num_rolls


def table(strategy, goal=GOAL):
    return np.array([strategy(s, o) for s in range(goal) for o in range(goal)], dtype=np.int64)


@pytest.fixture(scope="module")
def rules():
    return get_rules("hog-sp22", GOAL)


@pytest.fixture(scope="module")
def pair(rules):
    return table(looper(1)), table(looper(2))


def test_a_closed_loop_is_worth_half_to_each_player(rules, pair):
    values = exact.evaluate(rules, *pair)
    loops = [
        s * GOAL + o for s in range(GOAL) for o in range(GOAL) if nothing(s, o) and nothing(o, s)
    ]
    assert loops
    assert np.all(values.v_a[loops] == 0.5) and np.all(values.v_b[loops] == 0.5)
    ends_a, ends_b = exact.ending(rules, *(exact.table_policy(rules.model, t) for t in pair))
    assert np.all(ends_a[loops] == 0.0) and np.all(ends_b[loops] == 0.0)


def test_values_and_the_chance_of_no_end_agree_with_the_reference_equations(rules, pair):
    """P(win) + P(never ends) / 2 from the engine's sweeps, and from the reference's linear
    algebra over the course functions; the same for the chance that the game ends."""
    a, b = pair
    turn = reference_turn("hog-sp22")
    strategies = [looper(1), looper(2)]
    values = exact.evaluate(rules, a, b)
    first = win_chance(turn, *strategies, GOAL)
    second = 1 - win_chance(turn, *reversed(strategies), GOAL)
    assert values.first == pytest.approx(first, abs=1e-12)
    assert values.second == pytest.approx(second, abs=1e-12)
    ends = exact.ending_chance(rules, *(exact.table_policy(rules.model, t) for t in pair))
    assert ends[0] == pytest.approx(sum(outcome_chances(turn, *strategies, GOAL)), abs=1e-12)
    assert ends[1] == pytest.approx(
        sum(outcome_chances(turn, *reversed(strategies), GOAL)), abs=1e-12
    )
    assert 0.9 < ends[0] < 0.95 and 0.9 < ends[1] < 0.95  # ties are common


def test_the_solver_and_its_strategy_agree(rules, pair):
    """Optimal play loops where both players' ways out are worth less than a tie: the solved
    values are those of the solved strategy, evaluated as any other; so is the best response
    to a strategy that loops."""
    full = get_rules("hog-sp22")  # at goal 100, optimal play sometimes never ends
    optimal = exact.solve(full)
    policy = solve.strategy_table(full, optimal)
    played = exact.evaluate(full, policy, policy)
    assert played.first == pytest.approx(optimal.first, abs=1e-12)
    assert played.second == pytest.approx(optimal.second, abs=1e-12)
    ends = exact.ending_chance(full, *[exact.table_policy(full.model, policy)] * 2)
    assert 0.999 < ends[0] < 1.0
    best = exact.solve(rules, pair[1])
    response = solve.strategy_table(rules, best)
    against = exact.evaluate(rules, response, pair[1])
    assert against.first == pytest.approx(best.first, abs=1e-12)
    assert against.second == pytest.approx(best.second, abs=1e-12)
    assert against.average >= exact.evaluate(rules, *pair).average


def test_analyze_breaks_down_a_pair_that_may_never_end(rules, tmp_path):
    """The losses state by state add up to the whole drop from the best response, although
    A's game against B never ends from some states: such a state counts once, when A comes
    to it, with all of the gap there."""
    path = tmp_path / "looper.py"
    path.write_text(LOOPER_FILE)
    for against in (f"{path}:strategy2", None):
        analysis = solve.analyze(rules, f"{path}:strategy", against)
        assert analysis.by_identity == pytest.approx(analysis.total, abs=1e-10)
        assert analysis.total > 0


def test_monte_carlo_ends_games_at_the_turn_cap_as_ties(rules, pair):
    """Games still going after 4 x goal turns are ties; as many as the exact engine says."""
    assert rules.turn_cap() == 4 * GOAL
    games = 20_000
    counts = simulate.simulate(
        rules,
        DecisionTable.from_choices(rules, pair[0]),
        DecisionTable.from_choices(rules, pair[1]),
        games,
        seed=11,
    )
    ends = exact.ending_chance(rules, *(exact.table_policy(rules.model, t) for t in pair))
    for seat in range(2):
        ties = counts[seat, 2] / counts[seat].sum()
        error = np.sqrt(ties * (1 - ties) / counts[seat].sum())
        assert ties > 0 and abs(ties - (1 - ends[seat])) <= 4 * error
    # A strategy that is called at every turn (the live path) ends the same way.
    live = simulate.simulate(
        rules,
        LivePlayer(lambda: looper(1)),
        DecisionTable.from_choices(rules, pair[1]),
        400,
        seed=11,
    )
    assert live.sum() == 400 and live[:, 2].sum() > 0


def test_watch_and_play_end_a_game_that_never_ends_as_a_tie(rules, pair, tmp_path):
    observation = rules.model.observation
    deciders = tuple((lambda x, t=t: int(t[observation[x]])) for t in pair)
    seed = next(s for s in range(200) if list(play_game(rules, deciders, s))[-1].winner is None)
    turns = list(play_game(rules, deciders, seed))
    assert len(turns) == 4 * GOAL and turns[-1].over
    assert turns[-1].step.events[-1] == f"no end after {4 * GOAL} turns: a tie"
    path = tmp_path / "looper.py"
    path.write_text(LOOPER_FILE)
    args = ["--rules", "hog-sp22", "--goal", str(GOAL), "--seed", str(seed)]
    shown = runner.invoke(app, ["watch", f"{path}:strategy", f"{path}:strategy2", *args])
    assert shown.exit_code == 0 and f"no end after {4 * GOAL} turns: a tie" in shown.output
    data = json.loads(
        runner.invoke(
            app, ["watch", f"{path}:strategy", f"{path}:strategy2", *args, "--json"]
        ).stdout
    )
    assert data["winner"] is None and len(data["turns"]) == 4 * GOAL
    # A person who always rolls 0, against the looper that rolls 1 die: a seed where they loop.
    person = (lambda x: 0, deciders[0])
    seed = next(s for s in range(200) if list(play_game(rules, person, s))[-1].winner is None)
    args[-1] = str(seed)
    played = runner.invoke(
        app, ["play", f"{path}:strategy", *args, "--first", "me"], input="0\n" * (4 * GOAL)
    )
    assert played.exit_code == 0 and f"no end after {4 * GOAL} turns" in played.stdout
    assert played.stdout.rstrip().splitlines()[-1].startswith("tie ")


def test_an_exact_duel_reports_the_chance_of_no_end(rules, pair, tmp_path):
    path = tmp_path / "looper.py"
    path.write_text(LOOPER_FILE)
    args = ["duel", f"{path}:strategy", f"{path}:strategy2", "--rules", "hog-sp22"]
    args += ["--goal", str(GOAL), "--exact"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    ends = exact.ending_chance(rules, *(exact.table_policy(rules.model, t) for t in pair))
    assert data["never_ends"]["first"] == pytest.approx(1 - ends[0], abs=1e-12)
    assert data["never_ends"]["second"] == pytest.approx(1 - ends[1], abs=1e-12)
    shown = runner.invoke(app, args)
    assert "a game that never ends is a tie" in shown.output


#: The loopers as a submission: only the standard library (a submission cannot import hogbench).
LOOPER_FILE = """
F = (lambda v: v + 1, lambda v: v ** 2, lambda v: v * 3, lambda v: v // 4, lambda v: v - 5,
     lambda v: v % 6, lambda v: int((v % 7) * 8), lambda v: int(v * 8.8),
     lambda v: int(v / 99 * 15) + 10, lambda v: v)


def hefty(score, opponent):
    if opponent == 0:
        return 1
    while opponent:
        score, opponent = F[opponent % 10](score), opponent // 10
    return score % 30


def nothing(score, opponent):
    pile = score % 10 if score % 10 == opponent % 10 else 0
    return hefty(score, opponent) == 0 and pile == 0


def strategy(score, opponent_score):
    return 0 if nothing(score, opponent_score) else 1


def strategy2(score, opponent_score):
    return 0 if nothing(score, opponent_score) else 2
"""
