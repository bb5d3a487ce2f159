"""The swap kit's terms of Pig Out, Free Bacon and a swap after every turn (hog-fa17,
hog-sp18, hog-fa18): the course's examples, the model against the shared reference recursion
over each term's course functions, and a student-style file of each term loaded as written."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from hogbench import exact
from hogbench.loading import load_entrant
from hogbench.rules import get_rules, hog_fa17, hog_fa18, hog_sp18
from tests.course.turns import reference_turn
from tests.reference import win_chance

FILES = Path(__file__).parent / "files" / "terms"
#: term -> (course module, the built-in equal to the student file's final_strategy)
TERMS = {
    "hog-fa17": (hog_fa17, "swap_strategy:margin=7,num_rolls=4"),
    "hog-sp18": (hog_sp18, "swap_strategy:margin=8,num_rolls=5"),
    "hog-fa18": (hog_fa18, "swap_strategy:margin=9,num_rolls=5"),
}


def test_the_course_examples():
    # Fall 2017 and Spring 2018 (the course's commentary doctests): from 10-6, Player 0 gets 8
    # points, then Swine Swap applies: 18 is a multiple of 6, and the scores become 6-18.
    for course in (hog_fa17, hog_sp18):
        assert course.is_swap(18, 6) and not course.is_swap(1, 5) and not course.is_swap(10, 6)
    # ... and from 20-1, Player 1 gets 4 points: 5 and 20 swap.
    assert hog_fa17.is_swap(5, 20)
    # Fall 2018: from 20-11, Player 1 gets 2 points, then Swine Swap applies (13 and 20 both
    # have digits 2 apart); from 13-20, Player 0 gets 22 points: 35 and 20 swap.
    assert hog_fa18.is_swap(13, 20) and hog_fa18.is_swap(35, 20)
    assert [hog_fa17.free_bacon(s) for s in (0, 9, 35, 90)] == [1, 10, 6, 10]
    assert [hog_sp18.free_bacon(s) for s in (0, 9, 35, 90)] == [2, 11, 4, 11]
    assert [hog_fa18.free_bacon(s) for s in (0, 9, 35, 90)] == [1, 1, 1, 18]
    for course, _ in TERMS.values():
        assert doctest.testmod(course).failed == 0


def test_a_swap_at_the_goal_hands_the_game_over():
    """The course's play checks the swap before the loop's test: in Fall 2017, 94 + Free Bacon 6
    reaches 100 against 50, the scores swap, and the opponent wins 100-50."""
    assert hog_fa17.play(hog_fa17.always_roll(0), hog_fa17.always_roll(0), 94, 50) == (50, 100)


@pytest.mark.parametrize("name", TERMS)
@pytest.mark.parametrize("a, b", [("always_roll:4", "always_roll:6"), ("swap_strategy", None)])
def test_the_model_agrees_with_a_plain_recursion(name, a, b):
    student = TERMS[name][1]
    rules = get_rules(name)
    b = b or student
    table_a, table_b = (load_entrant(spec, rules).table.choices for spec in (a, b))

    def strategy(table):
        return lambda score, opponent: int(table[score * 100 + opponent])

    turn = reference_turn(name)
    values = exact.evaluate(rules, table_a, table_b)
    first = win_chance(turn, strategy(table_a), strategy(table_b), 100)
    second = 1 - win_chance(turn, strategy(table_b), strategy(table_a), 100)
    assert values.first == pytest.approx(first, abs=1e-12)
    assert values.second == pytest.approx(second, abs=1e-12)


@pytest.mark.parametrize("name", TERMS)
def test_a_student_file_of_the_term_loads_as_written(name):
    rules = get_rules(name)
    entrant = load_entrant(str(FILES / name / "hog.py"), rules, cache=False)
    assert entrant.function == "final_strategy"
    same = load_entrant(TERMS[name][1], rules)
    assert (entrant.table.choices == same.table.choices).all()


def test_the_spring_2016_rule_examples(monkeypatch):
    """hog-sp16's rule text: Free Bacon's examples, Hogtimus Prime's 11 to 13, Perfect Piggy's
    squares and cubes, and Swine Swap's example 2 played through the course's play: 91 against
    55, five dice sum to 17, boosted to 19; 110 is double 55, so the opponent ends with 110 and
    wins."""
    from hogbench.dice import make_test_dice
    from hogbench.rules import hog_sp16

    assert doctest.testmod(hog_sp16).failed == 0
    assert [hog_sp16.free_bacon(s) for s in (42, 48, 7)] == [5, 9, 8]
    assert hog_sp16.take_turn(0, 42) == 7  # 5 is prime: 7
    assert hog_sp16.is_swap(46, 92)  # example 1: 37 + 9 is half of 92
    monkeypatch.setattr(hog_sp16, "six_sided", make_test_dice(2, 3, 4, 4, 4))
    five = hog_sp16.always_roll(5)
    assert hog_sp16.play(five, five, 91, 55) == (55, 110)
