"""hog-fa23 (and its aliases, every term to Fall 2025): the course functions, the model against a
plain recursion written from them, and a student-style file loaded as written."""

from __future__ import annotations

import doctest
import itertools
from functools import cache
from math import factorial, prod
from pathlib import Path

import numpy as np
import pytest

from hogbench import exact
from hogbench.loading import load_entrant
from hogbench.rules import get_rules
from hogbench.rules import hog_fa23 as course

STUDENT = Path(__file__).parent / "files" / "terms" / "hog-fa23" / "hog.py"


def test_the_course_functions():
    assert doctest.testmod(course).failed == 0
    assert [course.num_factors(n) for n in (1, 4, 6, 8, 12, 49)] == [1, 3, 4, 4, 6, 3]
    # 49 (7 x 7) has 3 factors: it becomes 53, the next prime; 97 is prime and stays.
    assert course.sus_points(49) == 53 and course.sus_points(97) == 97
    assert course.sus_update(0, 21, 46) == course.sus_points(21 + 9)


@cache
def dice(n: int) -> dict[int, float]:
    """Points of n six-sided dice under Sow Sad, by multiset (the course's roll_dice rule)."""
    dist: dict[int, float] = {}
    for combo in itertools.combinations_with_replacement(range(1, 7), n):
        ways = factorial(n) // prod(factorial(combo.count(f)) for f in set(combo))
        points = 1 if 1 in combo else sum(combo)
        dist[points] = dist.get(points, 0.0) + ways / 6**n
    return dist


def plain_win_chance(strategy_a, strategy_b, goal=100):
    """A's chance of winning moving first, by memoised recursion on the course's sus_update."""

    @cache
    def mover_wins(score, opponent, a_moves):
        strategy = strategy_a if a_moves else strategy_b
        n = strategy(score, opponent)
        outcomes = {course.boar_brawl(score, opponent): 1.0} if n == 0 else dice(n)
        total = 0.0
        for points, p in outcomes.items():
            new = course.sus_points(score + points)
            total += p if new >= goal else p * (1 - mover_wins(opponent, new, not a_moves))
        return total

    return mover_wins(0, 0, True)


@pytest.mark.parametrize("name", ["hog-fa23", "hog-fa25"])
def test_the_model_agrees_with_a_plain_recursion(name):
    rules = get_rules(name)
    rng = np.random.default_rng(23)
    random_a, random_b = rng.integers(0, 11, 10000), rng.integers(0, 11, 10000)
    pairs = [
        (load_entrant("always_roll:6", rules).table.choices, load_entrant("sus_strategy", rules)),
        (random_a, random_b),
    ]
    for a, b in pairs:
        b = b.table.choices if hasattr(b, "table") else b

        def strategy(table):
            return lambda score, opponent: int(table[score * 100 + opponent])

        values = exact.evaluate(rules, a, b)
        first = plain_win_chance(strategy(a), strategy(b))
        second = 1 - plain_win_chance(strategy(b), strategy(a))
        assert values.first == pytest.approx(first, abs=1e-9)
        assert values.second == pytest.approx(second, abs=1e-9)


def test_a_course_play_matches_the_narrated_turns():
    """The course's play with seeded dice, turn by turn, against what the model resolves."""
    import random

    rules = get_rules("hog-fa23")
    m = rules.model
    rng = random.Random(5)
    score, opponent = 0, 0
    for _ in range(30):
        n = rng.choice(range(11))
        state = score * 100 + opponent
        step = rules.play_step(state, n, random.Random(rng.random()))
        expected = course.sus_points(
            score + (course.boar_brawl(score, opponent) if n == 0 else course.sow_sad(step.dice))
        )
        if expected >= 100:
            assert step.final == (expected, opponent)
            break
        assert step.code >> 3 == opponent * 100 + expected
        assert (
            int(m.resolve(m.params, state, n, 0 if n == 0 else course.sow_sad(step.dice)))
            == step.code
        )
        score, opponent = opponent, expected


def test_a_student_file_of_the_term_loads_as_written():
    rules = get_rules("hog-fa23")
    entrant = load_entrant(str(STUDENT), rules, cache=False)
    same = load_entrant("sus_strategy:threshold=9,num_rolls=6", rules)
    assert entrant.function == "final_strategy"
    assert (entrant.table.choices == same.table.choices).all()
