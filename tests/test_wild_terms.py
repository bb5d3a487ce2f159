"""The Hog wild terms (hog-fa13, its alias hog-sp14, hog-fa14 and hog-sp15): the course's
examples and play tests, the model against the shared reference recursion (four-sided dice
included), and a student file loaded as written."""

from __future__ import annotations

import doctest
import random
from pathlib import Path

import numpy as np
import pytest

from hogbench import exact
from hogbench.dice import make_test_dice
from hogbench.errors import IllegalChoice, UsageError
from hogbench.loading import load_entrant
from hogbench.rules import get_rules, hog_fa13, hog_fa14, hog_sp15
from tests.course.turns import fa13_ham_hijinks_turn, reference_turn
from tests.reference import win_chance

STUDENT = Path(__file__).parent / "files" / "terms" / "hog-fa14" / "hog.py"
TERMS = {"hog-fa13": hog_fa13, "hog-sp14": hog_fa13, "hog-fa14": hog_fa14, "hog-sp15": hog_sp15}


def test_the_course_examples():
    for course in (hog_fa13, hog_fa14, hog_sp15):
        assert doctest.testmod(course).failed == 0
    # The project page: Player 1 at 5 scores 5 against 20, and the scores swap to 10 (P1) ...
    assert hog_fa13.is_swap(20, 10)
    # ... and Player 0 at 90 scores 10 against 50: the swap hands Player 1 the win, 100-50.
    assert hog_fa13.is_swap(100, 50)
    assert [hog_fa13.select_dice(s, 0) is hog_fa13.four_sided for s in (0, 7, 8, 14)] == [
        True, True, False, True,
    ]  # fmt: skip


FA14_PLAY_TESTS = [  # Fall 2014 ok test q05: four-sided dice always 1, six-sided always 3
    (("always", 5), ("always", 5), (92, 106)),
    (("always", 2), ("always", 2), (17, 102)),
    (("always", 2), ("always", 10), (19, 120)),
    (("always", 0), ("always", 0), (101, 97)),
    (("always", 0), ("always", 2), (100, 95)),
    (("always", 0), ("weird", None), (64, 109)),
    (("weird", None), ("weird", None), (108, 93)),
]


@pytest.mark.parametrize("a, b, expected", FA14_PLAY_TESTS)
def test_the_fall_2014_course_play_tests(a, b, expected, monkeypatch):
    monkeypatch.setattr(hog_fa14, "four_sided", make_test_dice(1))
    monkeypatch.setattr(hog_fa14, "six_sided", make_test_dice(3))

    def strategy(kind, n):
        return hog_fa14.always_roll(n) if kind == "always" else lambda score, opp: opp // 10

    assert hog_fa14.play(strategy(*a), strategy(*b)) == expected


@pytest.mark.parametrize(
    # 3 to 5 s of CPU each at goal 100: the quick run takes Fall 2013 (every term is checked at
    # goal 40 by tests/test_every_rule_set.py), the full run every term
    "name",
    [
        "hog-fa13",
        *(pytest.param(name, marks=pytest.mark.slow) for name in TERMS if name != "hog-fa13"),
    ],
)
def test_the_model_agrees_with_a_plain_recursion(name):
    rules, turn = get_rules(name), reference_turn(name)
    rng = np.random.default_rng(13)
    course_strategy = "prime_strategy" if name == "hog-sp15" else "swap_strategy"
    pairs = [
        tuple(
            load_entrant(spec, rules).table.choices for spec in ("always_roll:5", course_strategy)
        ),
        (rng.integers(0, 8, 10000), rng.integers(0, 8, 10000)),  # up to 7 dice: 4^7 outcomes
    ]
    for a, b in pairs:

        def strategy(table):
            return lambda score, opponent: int(table[score * 100 + opponent])

        values = exact.evaluate(rules, a, b)
        assert values.first == pytest.approx(
            win_chance(turn, strategy(a), strategy(b), 100), abs=1e-12
        )
        assert values.second == pytest.approx(
            1 - win_chance(turn, strategy(b), strategy(a), 100), abs=1e-12
        )


def test_the_spring_2014_strategy_examples():
    """The skeleton's doctests of bacon_strategy and swap_strategy (margin 8, 5 dice)."""
    bacon, swap = hog_fa13.bacon_strategy, hog_fa13.swap_strategy
    assert [bacon(0, 0), bacon(70, 50), bacon(50, 70)] == [5, 5, 0]
    # 23 + (1 + 6) = 30 against 60: a beneficial swap; 27 + 9 = 36 against 18: a harmful one;
    # 50 + 9 against 80: lots of free bacon; 12 against 12: the baseline.
    assert [swap(23, 60), swap(27, 18), swap(50, 80), swap(12, 12)] == [0, 5, 0, 5]


def test_hogtimus_prime_of_spring_2015():
    """The skeleton's rule: the leader gains the turn's points again on a prime sum of unequal
    scores, whoever moved; a prime sum of equal scores does nothing."""
    assert hog_sp15.hogtimus_prime(20, 9, 4) == (24, 9)  # 29 is prime, the mover leads
    assert hog_sp15.hogtimus_prime(9, 20, 4) == (9, 24)  # ... and the opponent leads
    assert hog_sp15.hogtimus_prime(21, 9, 4) == (21, 9)  # 30 is not prime
    # A Free bacon of 1 at 0-0 makes 1-0: 1 is not prime; from 1-0, 1 more makes 2-0: prime.
    assert hog_sp15.hogtimus_prime(1, 0, 1) == (1, 0) and hog_sp15.hogtimus_prime(2, 0, 1) == (3, 0)


def test_a_student_file_of_fall_2014_loads_as_written():
    rules = get_rules("hog-fa14")
    entrant = load_entrant(str(STUDENT), rules, cache=False)
    same = load_entrant("swap_strategy:margin=7,num_rolls=4", rules)
    assert (entrant.table.choices == same.table.choices).all()


# ---------------------------------------------------------------------------------------------
# The Fall 2013 and Spring 2014 contest's Ham Hijinks (option ham_hijinks)
# ---------------------------------------------------------------------------------------------


def test_the_contest_sample_game_of_ham_hijinks(monkeypatch):
    """The contest page's sample game: Player 0 rolls -1 (1 to 0); Player 1 rolls 2 four-sided
    dice for 6 (1 to 6); Player 0 rolls 4 six-sided dice under Hog wild for 13 (14 to 6); Player
    1 rolls -1, exchanging the dice again and invoking Swine swap (7 to 14); Player 0 would next
    roll four-sided dice because of Hog wild. Here that roll is 3 four-sided dice of 3, to 15."""
    monkeypatch.setattr(hog_fa13, "six_sided", make_test_dice(3, 3, 3, 4))
    monkeypatch.setattr(hog_fa13, "four_sided", make_test_dice(3))
    moves = ([-1, 4, 3], [2, -1])

    def scripted(who):
        turns = iter(moves[who])
        return lambda score, opponent: next(turns)

    game = hog_fa13.play(scripted(0), scripted(1), goal=15, ham_hijinks=True)
    assert game == (16, 14)
    assert hog_fa13.exchanged_dice(7, 14, False) is hog_fa13.four_sided


def test_ham_hijinks_is_an_option_of_fall_2013_and_spring_2014_only():
    for name in ("hog-fa13", "hog-sp14"):
        with pytest.raises(IllegalChoice):
            get_rules(name).choice(-1)
        assert get_rules(name, ham_hijinks=True).choice(-1) == -1
    for name in ("hog-fa14", "hog-sp15"):
        with pytest.raises(UsageError):
            get_rules(name, ham_hijinks=True)


@pytest.mark.parametrize("a, b", [("swap_strategy", "always_roll:5"), ("always_roll:-1", None)])
def test_ham_hijinks_agrees_with_a_plain_recursion(a, b):
    """The model with the dice exchanged (hidden, shared) against the reference recursion over
    the course functions, on course strategies and on random tables of -1 to 6 dice."""
    rules = get_rules("hog-fa13", ham_hijinks=True)
    rng = np.random.default_rng(17)
    table_a = load_entrant(a, rules).table.choices
    table_b = load_entrant(b, rules).table.choices if b else rng.integers(-1, 7, 10000)

    def strategy(table):
        return lambda score, opponent: int(table[score * 100 + opponent])

    values = exact.evaluate(rules, table_a, table_b)
    first = win_chance(fa13_ham_hijinks_turn, strategy(table_a), strategy(table_b), 100)
    second = 1 - win_chance(fa13_ham_hijinks_turn, strategy(table_b), strategy(table_a), 100)
    assert values.first == pytest.approx(first, abs=1e-12)
    assert values.second == pytest.approx(second, abs=1e-12)


def test_ham_hijinks_narration_follows_the_course_functions():
    """Watched turns roll the course's exchanged_dice and land where the model says."""
    rules = get_rules("hog-fa13", ham_hijinks=True)
    m, area = rules.model, rules.goal * rules.goal
    rng = random.Random(11)
    for _ in range(500):
        state, choice = rng.randrange(m.n_states), rng.randrange(-1, 11)
        step = rules.play_step(state, choice, random.Random(rng.random()))
        score, opponent = rules.scores(state)
        dice = hog_fa13.exchanged_dice(score, opponent, state >= area)
        assert set(step.dice) <= set(range(1, 5 if dice is hog_fa13.four_sided else 7))
        value = {-1: 1, 0: 0}.get(choice, hog_fa13.pig_out(step.dice))
        assert step.code == m.resolve(m.params, state, choice, value)


def test_ham_hijinks_through_the_cli():
    from typer.testing import CliRunner

    from hogbench.cli import app

    args = ["watch", "always_roll:-1", "swap_strategy", "--rules", "hog-fa13", "--goal", "30"]
    shown = CliRunner().invoke(app, [*args, "--option", "ham_hijinks=true", "--seed", "4"])
    assert shown.exit_code == 0, shown.output
    assert "Ham Hijinks: 1 point, the dice exchanged" in shown.output
