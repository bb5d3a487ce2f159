"""hog-fa19 against the staff contest engine's figures, the course's ok tests and seeded games
(``tests/play.sol``), the course's rules and its play."""

from __future__ import annotations

import doctest
import math
import random

import pytest

from hogbench import exact
from hogbench.loading import load_entrant
from hogbench.rules import get_rules
from hogbench.rules import hog_fa19 as course
from tests.course.course_cases import check_calls, load
from tests.course.play_sol import differing, seeded_games
from tests.course.turns import reference_turn
from tests.reference import win_chance


def tables(rules, *names):
    return [load_entrant(name, rules).table.choices for name in names]


def test_the_staff_engine_figures():
    staff = load("hog-fa19")["staff_figures"]
    rules = get_rules("hog-fa19")
    values = exact.evaluate(rules, *tables(rules, "always_roll:4", "always_roll:6"))
    assert values.first == pytest.approx(staff["first_seat"], abs=1e-9)
    assert values.second == pytest.approx(staff["second_seat"], abs=1e-9)
    assert values.average == pytest.approx(staff["averaged"], abs=1e-9)


def test_the_course_ok_tests():
    """Questions 4, 5a, 5b and 11 of the course's ok tests: Swine Swap, play with and without
    Feral Hogs, swap_strategy."""
    assert check_calls("hog-fa19", course) == 36


def test_the_course_seeded_games():
    """The course's 1000 seeded games, every one compared by digest. The course's ``play`` rolls
    its own six-sided dice (``dice=six_sided``, bound when it was defined), so the tracer sees no
    roll. The games confirm Feral Hogs as read here (without it 999 games differ; not counting a
    0-dice turn as a number of dice, 978) and the swap after a turn that reaches the goal
    (without it 30 games differ)."""
    data = load("hog-fa19")["play_sol"]
    games = seeded_games(
        lambda strategy0, strategy1, *tracer_dice: course.play(strategy0, strategy1)
    )
    differ = differing(games, data["digests"])
    assert not differ, f"{len(differ)} of the course's games differ, the first {differ[:10]}"
    assert sum(map(len, games)) == data["turns"] == 21_790


def test_the_course_functions():
    assert doctest.testmod(course).failed == 0
    assert [course.free_bacon(s) for s in (0, 7, 39, 90, 99)] == [10, 10, 7, 10, 1]
    assert course.is_swap(106, 16) and course.is_swap(100, 0) and not course.is_swap(12, 13)


@pytest.mark.parametrize(
    "a, b", [("always_roll:4", "always_roll:6"), ("swap_strategy", "always_roll:4")]
)
def test_the_model_agrees_with_a_plain_recursion(a, b):
    rules = get_rules("hog-fa19")
    table_a, table_b = tables(rules, a, b)

    def strategy(table):
        return lambda score, opponent: int(table[score * 100 + opponent])

    values = exact.evaluate(rules, table_a, table_b)
    first = win_chance(reference_turn("hog-fa19"), strategy(table_a), strategy(table_b), 100)
    second = 1 - win_chance(reference_turn("hog-fa19"), strategy(table_b), strategy(table_a), 100)
    assert values.first == pytest.approx(first, abs=1e-12)
    assert values.second == pytest.approx(second, abs=1e-12)


def test_without_feral_hogs():
    rules = get_rules("hog-fa19", feral_hogs=False)
    values = exact.evaluate(rules, *tables(rules, "always_roll:4", "always_roll:6"))
    turn = reference_turn("hog-fa19", feral_hogs=False)
    first = win_chance(turn, course.always_roll(4), course.always_roll(6), 100)
    assert values.first == pytest.approx(first, abs=1e-12)


def test_the_course_play_agrees_with_the_model_within_4_se():
    random.seed(19)
    games = 20_000
    four, six = course.always_roll(4), course.always_roll(6)
    wins = sum(s0 > s1 for s0, s1 in (course.play(four, six) for _ in range(games)))
    staff = load("hog-fa19")["staff_figures"]["first_seat"]
    assert abs(wins / games - staff) < 4 * math.sqrt(staff * (1 - staff) / games)


def test_narration_follows_the_model():
    rules = get_rules("hog-fa19")
    rng = random.Random(3)
    for _ in range(300):
        state, choice = rng.randrange(rules.model.n_states), rng.randrange(11)
        step = rules.play_step(state, choice, random.Random(rng.random()))
        value = 0 if choice == 0 else course.pig_out(step.dice)
        assert step.code == rules.model.resolve(rules.model.params, state, choice, value)
        previous = state // 10_000 // 11
        assert ("Feral Hogs: +3" in step.events) == (abs(choice - previous) == 2)
