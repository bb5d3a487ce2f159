"""hog-sp20 against the course's ok tests, its seeded games and a plain recursion."""

from __future__ import annotations

import doctest
import random

import pytest

from hogbench import exact
from hogbench.loading import load_entrant
from hogbench.rules import get_rules
from hogbench.rules import hog_sp20 as course
from tests.course.course_cases import check_calls, load, replay_game
from tests.course.turns import reference_turn
from tests.reference import win_chance


def test_the_course_ok_tests():
    assert check_calls("hog-sp20", course) == 120


def test_the_course_functions():
    assert doctest.testmod(course).failed == 0


@pytest.mark.parametrize("game", load("hog-sp20")["describe_game"], ids=lambda g: str(g[0]))
def test_the_course_seeded_games(game):
    assert replay_game(course.play, game, feral_hogs=game[4]) == game[5]


@pytest.mark.parametrize(
    "a, b, feral, goal",
    [
        # The recursion in Python takes 45 s a seating at goal 100, so these are shorter games
        # (at goal 100 the model is checked against the reachable search: test_exact_memory).
        pytest.param("always_roll:4", "always_roll:6", True, 60, marks=pytest.mark.slow),  # 10 s
        ("always_roll:4", "always_roll:6", False, 40),
        ("swap_strategy", "always_roll:4", True, 40),
        ("swap_strategy", "always_roll:4", False, 40),
    ],
)
def test_the_model_agrees_with_a_plain_recursion(a, b, feral, goal):
    rules = get_rules("hog-sp20", goal, feral_hogs=feral)
    table_a, table_b = (load_entrant(name, rules).table.choices for name in (a, b))
    turn = reference_turn("hog-sp20", feral_hogs=feral)

    def strategy(table):
        return lambda score, opponent: int(table[score * goal + opponent])

    values = exact.evaluate(rules, table_a, table_b)
    first = win_chance(turn, strategy(table_a), strategy(table_b), goal)
    second = 1 - win_chance(turn, strategy(table_b), strategy(table_a), goal)
    assert values.first == pytest.approx(first, abs=1e-12)
    assert values.second == pytest.approx(second, abs=1e-12)


def test_narration_follows_the_model():
    rules = get_rules("hog-sp20")
    rng = random.Random(3)
    for _ in range(300):
        state, choice = rng.randrange(rules.model.n_states), rng.randrange(11)
        step = rules.play_step(state, choice, random.Random(rng.random()))
        value = 0 if choice == 0 else course.pig_out(step.dice)
        assert step.code == rules.model.resolve(rules.model.params, state, choice, value)


@pytest.mark.parametrize("game", load("hog-sp20")["short_games"], ids=lambda g: str(g[0]))
def test_more_course_seeded_games(game):
    turns = replay_game(course.play, [*game[:4], None], feral_hogs=game[4])
    assert [[who, n, e0, e1] for who, n, _, e0, e1 in turns] == game[5]
