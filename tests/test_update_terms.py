"""The Sow Sad kit's terms (hog-sp21, hog-fa21, hog-sp22, hog-su22, hog-fa22, hog-fa23 and
their aliases): the course functions and ok tests, the model against the shared reference recursion
over each term's course functions (tests/course/turns.py), narrated turns against those
functions, and a student-style file of each term loaded as written."""

from __future__ import annotations

import doctest
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from hogbench import exact
from hogbench.loading import load_entrant
from hogbench.rules import get_rules, hog_fa21, hog_fa22, hog_fa23, hog_sp21, hog_sp22, hog_su22
from hogbench.rules.base import OTHER, SAME
from tests.course.course_cases import check_calls
from tests.course.turns import POINTS_RULES, PointsRules, reference_turn
from tests.reference import win_chance

FILES = Path(__file__).parent / "files" / "terms"


@dataclass(frozen=True)
class Term:
    """A term of the kit, its aliases, and the built-in a student file of the term equals."""

    name: str
    aliases: tuple[str, ...]
    student_is: str

    @property
    def rules(self) -> PointsRules:  # the term's course functions, as the reference composes them
        return POINTS_RULES[self.name]


TERMS = [
    Term("hog-sp21", (), "more_boar_strategy:cutoff=7,num_rolls=5"),
    Term("hog-fa21", (), "hog_pile_strategy:cutoff=7,num_rolls=5"),
    Term("hog-sp22", (), "hog_pile_strategy:threshold=10,num_rolls=5"),
    Term("hog-su22", (), "pigs_on_prime_strategy:threshold=10,num_rolls=5"),
    Term("hog-fa22", ("hog-sp23",), "square_strategy:threshold=8,num_rolls=6"),
    Term(
        "hog-fa23",
        ("hog-sp24", "hog-fa24", "hog-sp25", "hog-fa25"),
        "sus_strategy:threshold=9,num_rolls=6",
    ),
]
BY_NAME = {term.name: term for term in TERMS}
# 3 to 7 s of CPU each at goal 100 (every term is checked at goal 40 by
# tests/test_every_rule_set.py): the quick run takes two terms under their own names, the full
# run every term under every name (hog-fa23's sp24, fa24, ... give the same rules).
QUICK = {"hog-fa21", "hog-fa22"}
ALL_NAMES = [
    pytest.param(term.name, name, marks=() if name in QUICK else pytest.mark.slow)
    for term in TERMS
    for name in (term.name, *term.aliases)
]


def test_the_course_functions_of_hog_fa23():
    assert doctest.testmod(hog_fa23).failed == 0
    assert [hog_fa23.num_factors(n) for n in (1, 4, 6, 8, 12, 49)] == [1, 3, 4, 4, 6, 3]
    # 49 (7 x 7) has 3 factors: it becomes 53, the next prime; 97 is prime and stays.
    assert hog_fa23.sus_points(49) == 53 and hog_fa23.sus_points(97) == 97
    assert hog_fa23.sus_update(0, 21, 46) == hog_fa23.sus_points(21 + 9)


def test_the_course_functions_of_hog_fa22():
    assert doctest.testmod(hog_fa22).failed == 0
    # The course's examples: Pig Tail of 2, 22, 57 and 91; 16 is square and becomes 25.
    assert [hog_fa22.tail_points(s) for s in (0, 2, 22, 57, 91)] == [1, 5, 1, 5, 17]
    assert hog_fa22.square_update(0, 15, 0) == 16 + 9  # 15 + 1 = 16, a square, becomes 25
    assert hog_fa22.square_update(0, 14, 0) == 15
    assert [hog_fa22.square_points(s) for s in (1, 4, 81, 99)] == [4, 9, 100, 99]


def test_the_course_ok_tests_of_hog_sp21():
    assert doctest.testmod(hog_sp21).failed == 0
    assert check_calls("hog-sp21", hog_sp21) == 123


def test_the_course_functions_of_hog_fa21():
    assert doctest.testmod(hog_fa21).failed == 0
    # The digits of 1/7 = 0.142857142857...: the nth is Picky Piggy of n; 0 scores 7.
    digits = f"{10**60 // 7:060d}"
    assert [hog_fa21.picky_piggy(n) for n in range(1, 60)] == [int(d) for d in digits[:59]]
    assert hog_fa21.picky_piggy(0) == 7
    # Hog Pile: 16 + 4 (Picky Piggy of 20) meets the opponent's 20 and doubles to 40.
    assert hog_fa21.play(hog_fa21.always_roll(0), hog_fa21.always_roll(0), 16, 20, goal=40) == (
        40,
        20,
    )


def test_the_course_ok_tests_of_hog_sp22():
    """Hefty Hogs (all 34 cases of the course's tests/02.py), take_turn, Hog Pile, play and
    the two strategies, as the course's ok tests have them (tests/course/hog-sp22)."""
    assert doctest.testmod(hog_sp22).failed == 0
    assert check_calls("hog-sp22", hog_sp22) == 56
    # The course's example of Hefty Hogs: f2 on 10 first, then f3; and 33 against 5439.
    f = hog_sp22.digit_fn
    assert hog_sp22.hefty_hogs(10, 32) == f(3)(f(2)(10)) % 30
    assert hog_sp22.hefty_hogs(33, 5439) == f(5)(f(4)(f(3)(f(9)(33)))) % 30
    # The course's example of Hog Pile, turn by turn: (5, 0), (5, 10), (11, 10), (11, 12).
    assert [s + hog_sp22.hog_pile(s, o) for s, o in ((5, 0), (5, 5), (11, 10), (11, 11))] == [
        5,
        10,
        11,
        12,
    ]


def test_the_course_commentary_cases_of_hog_sp22(capsys):
    """The course's tests/07.py: play calls the commentary after every turn, Hog Pile included
    (3 meets 3 and becomes 6; 5 meets 5 and becomes 10; 10 meets 10 and gains 0)."""
    play, always_roll, dice = hog_sp22.play, hog_sp22.always_roll, hog_sp22.make_test_dice

    def echo(s0, s1, player=None):
        return player, f"{s0} {s1}"

    def count(n):
        def say(s0, s1, curr_count=None):
            curr_count = n if curr_count is None else curr_count
            return curr_count + 1, f"{curr_count} {s0}"

        return say

    def total(s0, s1, player=None):
        return player, str(s0 + s1)

    def strat0(score, opponent):
        return 1 - opponent // 10

    cases = [
        ((always_roll(1), always_roll(1)), {"dice": dice(3), "goal": 5, "say": echo}, "3 0|3 6"),
        (
            (always_roll(1), always_roll(1)),
            {"dice": dice(5), "goal": 15, "say": count(1)},
            "1 5|2 5|3 10|4 10",
        ),  # fmt: skip
        (
            (strat0, always_roll(3)),
            {"dice": dice(4, 2, 6), "goal": 15, "say": echo},
            "4 0|4 12|28 12",
        ),  # fmt: skip
        (
            (always_roll(1), always_roll(1)),
            {"dice": dice(2, 5), "goal": 10, "say": total},
            "2|7|9|14",
        ),  # fmt: skip
    ]
    for strategies, options, printed in cases:
        play(*strategies, **options)
        assert capsys.readouterr().out.split("\n")[:-1] == printed.split("|")


def test_the_course_functions_of_hog_su22():
    assert doctest.testmod(hog_su22).failed == 0
    # The course's is_prime counts 1 as prime: Sow Sad from 0 lands on 1, then on 2.
    assert [hog_su22.oink_points(0, s) for s in (0, 9, 10, 45, 90)] == [1, 1, 2, 3, 18]
    assert [s + hog_su22.pigs_on_prime(s, 0) for s in (1, 2, 4, 23, 89)] == [2, 3, 4, 29, 97]


def _strategy(table):
    return lambda score, opponent: int(table[score * 100 + opponent])


@pytest.mark.parametrize(("term_name", "name"), ALL_NAMES)
def test_the_model_agrees_with_a_plain_recursion(term_name, name):
    term, rules, turn = BY_NAME[term_name], get_rules(name), reference_turn(name)
    rng = np.random.default_rng(23)
    course_pair = (
        load_entrant("always_roll:6", rules).table.choices,
        load_entrant(term.student_is, rules).table.choices,
    )
    random_pair = (rng.integers(0, 11, 10000), rng.integers(0, 11, 10000))
    for a, b in (course_pair, random_pair):
        values = exact.evaluate(rules, a, b)
        first = win_chance(turn, _strategy(a), _strategy(b), 100)
        second = 1 - win_chance(turn, _strategy(b), _strategy(a), 100)
        assert values.first == pytest.approx(first, abs=1e-9)
        assert values.second == pytest.approx(second, abs=1e-9)


@pytest.mark.parametrize("term", TERMS, ids=lambda term: term.name)
def test_narrated_turns_resolve_as_the_course_functions(term):
    """Seeded turns, one by one: the narrated step, the model's resolution and the course's
    functions agree on every new score."""
    rules = get_rules(term.name)
    m = rules.model
    rng = random.Random(5)
    for _game in range(20):
        score, opponent = 0, 0
        while True:
            n = rng.choice(range(11))
            state = score * 100 + opponent
            step = rules.play_step(state, n, random.Random(rng.random()))
            points = (
                term.rules.zero_points(score, opponent) if n == 0 else hog_fa23.sow_sad(step.dice)
            )
            expected = term.rules.after_turn(score + points, opponent)
            code = int(m.resolve(m.params, state, n, 0 if n == 0 else points))
            assert code == step.code
            if expected >= 100:
                assert step.final == (expected, opponent)
                break
            assert step.final is None
            if term.rules.extra_turn(expected, opponent):
                assert step.code == (expected * 100 + opponent) << 3 | SAME
                score = expected
            else:
                assert step.code == (opponent * 100 + expected) << 3 | OTHER
                score, opponent = opponent, expected


@pytest.mark.parametrize("term", TERMS, ids=lambda term: term.name)
def test_a_student_file_of_the_term_loads_as_written(term):
    rules = get_rules(term.name)
    entrant = load_entrant(str(FILES / term.name / "hog.py"), rules, cache=False)
    same = load_entrant(term.student_is, rules)
    assert entrant.function == "final_strategy"
    assert (entrant.table.choices == same.table.choices).all()
