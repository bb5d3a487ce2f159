"""The course's functions, importable from hogbench, with the course's semantics."""

import doctest
import importlib
import math

import pytest

from hogbench import (
    always_roll,
    average_win_rate,
    four_sided,
    make_averaged,
    make_test_dice,
    max_scoring_num_rolls,
    six_sided,
)
from tests.reference import su21_win_probability


@pytest.mark.parametrize(
    "module",
    ["hogbench.dice", "hogbench.commentary", "hogbench.experiments", "hogbench.rules.hog_su21"],
)
def test_doctests(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


def test_make_averaged_calls_trials_count_times():
    calls = []

    def f(x):
        calls.append(x)
        return len(calls)

    assert make_averaged(f, 4)(9) == (1 + 2 + 3 + 4) / 4
    assert calls == [9, 9, 9, 9]
    assert make_averaged(f)(1) == sum(range(5, 1005)) / 1000  # default 1000 trials


def test_max_scoring_num_rolls_with_test_dice():
    assert max_scoring_num_rolls(make_test_dice(1, 6), trials_count=10) == 1
    assert max_scoring_num_rolls(make_test_dice(3), trials_count=3) == 10
    # ties go to fewer dice: every roll of 2+ dice of all 1s scores 1, like one die of 1
    assert max_scoring_num_rolls(make_test_dice(1), trials_count=3) == 1


def test_fair_dice_ranges():
    assert {six_sided() for _ in range(2000)} == set(range(1, 7))
    assert {four_sided() for _ in range(1000)} == set(range(1, 5))


def test_average_win_rate_agrees_with_exact_within_four_standard_errors():
    def strategy(score, opponent_score):
        return 4 if score < 50 else 6

    exact_first = su21_win_probability(strategy, always_roll(6), 100)
    exact_second = 1 - su21_win_probability(always_roll(6), strategy, 100)
    exact = (exact_first + exact_second) / 2
    rate = average_win_rate(strategy, trials_count=20_000, seed=4)
    se = math.sqrt(exact * (1 - exact) / 40_000)
    assert abs(rate - exact) < 4 * se


def test_average_win_rate_of_a_random_strategy_uses_the_live_path():
    import random

    rng = random.Random(1)

    def coin(score, opponent_score):
        return rng.choice([5, 6])

    rate = average_win_rate(coin, trials_count=300, seed=2)
    assert 0.3 < rate < 0.7


def test_always_roll_checks_its_argument():
    assert always_roll(0)(10, 20) == 0
    with pytest.raises(AssertionError):
        always_roll(11)


@pytest.mark.slow  # 15 s CPU: 600 games in the course's loop
def test_winner_plays_one_game_with_the_courses_answer():
    """winner(s0, s1) is 0 when s0 wins, else 1; over many games its mean is the chance that
    strategy1 wins, which a plain recursion gives (always_roll(5) first against always_roll(3),
    goal 100 by default)."""
    from hogbench import winner

    games = 600
    second_wins = sum(winner(always_roll(5), always_roll(3), seed=s) for s in range(games))
    truth = 1 - su21_win_probability(lambda s, o: 5, lambda s, o: 3, 100)
    assert abs(second_wins / games - truth) < 4 * math.sqrt(truth * (1 - truth) / games)
    assert winner(always_roll(5), always_roll(3), seed=1) in (0, 1)


def test_the_baseline_comes_from_the_rule_set_in_python_as_in_the_cli():
    """hog-su20's baseline is always_roll(4): a strategy that is always_roll(4) scores 50%
    against it, by symmetry of the paired games; against always_roll(6) it would not."""
    rate = average_win_rate(always_roll(4), rules="hog-su20", trials_count=2000, seed=1)
    assert rate == pytest.approx(0.5, abs=1e-12)
    other = average_win_rate(always_roll(6), rules="hog-su20", trials_count=2000, seed=1)
    assert other != pytest.approx(0.5, abs=1e-3)


@pytest.mark.slow  # 5 s of CPU: every experiment the course runs
def test_run_experiments_prints_as_the_course_does(capsys):
    from hogbench import run_experiments

    rates = run_experiments(trials_count=200, seed=1)
    said = capsys.readouterr().out.splitlines()
    assert said[0].startswith("Max scoring num rolls for six-sided dice: ")
    assert said[1].startswith("always_roll(6) win rate: ")
    assert rates["always_roll(6)"] == pytest.approx(0.5, abs=1e-12)  # against itself
    greed = run_experiments(
        {"sample2": __import__("hogbench.rules.greed").rules.greed.sample2},
        rules="greed",
        trials_count=200,
        seed=1,
    )
    assert 0 < greed["sample2"] < 1
    assert "Max scoring" not in capsys.readouterr().out  # a Hog experiment only
