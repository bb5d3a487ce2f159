"""hog-su19 against the course's ok tests, its seeded games (``tests/play.sol``) and a plain
recursion of its rules."""

from __future__ import annotations

import doctest
import random

import pytest

from hogbench import exact
from hogbench.loading import load_entrant
from hogbench.rules import get_rules
from hogbench.rules import hog_su19 as course
from tests.course.course_cases import check_calls, load
from tests.course.play_sol import differing, seeded_games
from tests.course.turns import reference_turn
from tests.reference import win_chance


def test_the_course_ok_tests():
    assert check_calls("hog-su19", course) == 65


def test_the_summarised_rules():
    assert [course.free_bacon(s) for s in (0, 39, 90, 99)] == [10, 7, 10, 1]
    assert course.is_swap(42, 14) and course.is_swap(0, 10) and not course.is_swap(42, 41)


def test_the_course_seeded_games():
    """The course's 1000 seeded games, every one compared by digest. The course's ``play`` rolls
    its own six-sided dice (``dice=six_sided``, bound when it was defined), so the tracer sees no
    roll and records 6 sides for every turn. The games confirm the summarised rules and the
    swap after every turn: without the swap once the mover has reached the goal, 83 games
    differ."""
    data = load("hog-su19")["play_sol"]
    games = seeded_games(
        lambda strategy0, strategy1, *tracer_dice: course.play(strategy0, strategy1)
    )
    differ = differing(games, data["digests"])
    assert not differ, f"{len(differ)} of the course's games differ, the first {differ[:10]}"
    assert sum(map(len, games)) == data["turns"] == 23_081


def test_the_course_functions():
    assert doctest.testmod(course).failed == 0


@pytest.mark.parametrize(
    "a, b", [("always_roll:4", "always_roll:6"), ("swap_strategy", "always_roll:4")]
)
def test_the_model_agrees_with_a_plain_recursion(a, b):
    rules = get_rules("hog-su19")
    table_a, table_b = (load_entrant(name, rules).table.choices for name in (a, b))

    def strategy(table):
        return lambda score, opponent: int(table[score * 100 + opponent])

    values = exact.evaluate(rules, table_a, table_b)
    assert values.first == pytest.approx(
        win_chance(reference_turn("hog-su19"), strategy(table_a), strategy(table_b), 100), abs=1e-12
    )
    assert values.second == pytest.approx(
        1 - win_chance(reference_turn("hog-su19"), strategy(table_b), strategy(table_a), 100),
        abs=1e-12,
    )


def test_narration_follows_the_model():
    rules = get_rules("hog-su19")
    rng = random.Random(3)
    for _ in range(300):
        state, choice = rng.randrange(rules.model.n_states), rng.randrange(11)
        step = rules.play_step(state, choice, random.Random(rng.random()))
        value = 0 if choice == 0 else course.pig_out(step.dice)
        assert step.code == rules.model.resolve(rules.model.params, state, choice, value)
