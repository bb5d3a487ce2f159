"""The Monte Carlo engine: agreement with an independent exact value, and seeding."""

import math

import numpy as np
import pytest

from hogbench import simulate
from hogbench.rules import get_rules
from hogbench.tables import tabulate
from tests.reference import su21_win_probability


def cutoff_strategy(score, opponent_score):
    return 0 if opponent_score % 10 == 0 else 3


def always5(score, opponent_score):
    return 5


@pytest.mark.parametrize("goal", [25, 40])
def test_monte_carlo_agrees_with_plain_recursion(goal):
    rules = get_rules("hog-su21", goal)
    a = ("table", tabulate(cutoff_strategy, rules, "a").choices)
    b = ("table", tabulate(always5, rules, "b").choices)
    games = 200_000
    counts = simulate.simulate(rules, a, b, games, seed=11)
    first = su21_win_probability(cutoff_strategy, always5, goal)
    second = 1 - su21_win_probability(always5, cutoff_strategy, goal)
    for seat, p in ((0, first), (1, second)):
        n = counts[seat].sum()
        observed = counts[seat, 0] / n
        se = math.sqrt(p * (1 - p) / n)
        assert abs(observed - p) < 4 * se, (seat, observed, p, se)


def test_live_path_agrees_with_plain_recursion():
    goal = 30
    rules = get_rules("hog-su21", goal)
    a = ("live", lambda: cutoff_strategy)
    b = ("table", tabulate(always5, rules, "b").choices)
    counts = simulate.simulate(rules, a, b, 20_000, seed=5)
    p = su21_win_probability(cutoff_strategy, always5, goal)
    n = counts[0].sum()
    assert abs(counts[0, 0] / n - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_same_seed_same_counts_for_any_jobs(monkeypatch):
    monkeypatch.setattr(simulate, "BLOCK_GAMES", 5_000)
    rules = get_rules()
    a = ("table", np.full(100 * 100, 6, dtype=np.int64))
    b = ("table", tabulate(cutoff_strategy, rules, "b").choices)
    one = simulate.simulate(rules, a, b, 23_001, seed=7, jobs=1)
    two = simulate.simulate(rules, a, b, 23_001, seed=7, jobs=2)
    assert (one == two).all()
    assert one.sum() == 23_001
    other = simulate.simulate(rules, a, b, 23_001, seed=8, jobs=1)
    assert (other != one).any()


def test_games_alternate_first_player():
    rules = get_rules()
    t = ("table", np.full(100 * 100, 6, dtype=np.int64))
    counts = simulate.simulate(rules, t, t, 1001, seed=1)
    assert counts[0].sum() == 501 and counts[1].sum() == 500


def test_pairs_share_a_dice_stream():
    """With identical strategies, the two games of a pair are the same game with seats swapped."""
    rules = get_rules()
    t = ("table", np.full(100 * 100, 5, dtype=np.int64))
    counts = simulate.simulate(rules, t, t, 2000, seed=3)
    assert counts[0, 0] == counts[1, 1] and counts[0, 1] == counts[1, 0]
