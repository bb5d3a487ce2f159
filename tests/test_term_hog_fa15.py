"""hog-fa15 against the course's ok tests, its seeded games (``tests/play.sol``), the rule text's
examples, the shared reference recursion (Pork Chop on and off) and a student file."""

from __future__ import annotations

import doctest
import random
from math import sqrt
from pathlib import Path

import numpy as np
import pytest

from hogbench import exact
from hogbench.errors import IllegalChoice
from hogbench.loading import load_entrant
from hogbench.rules import get_rules
from hogbench.rules import hog_fa15 as course
from tests.course.course_cases import check_calls, load
from tests.course.play_sol import differing, seeded_games, with_module_dice
from tests.course.turns import reference_turn
from tests.reference import win_chance

STUDENT = Path(__file__).parent / "files" / "terms" / "hog-fa15" / "hog.py"


def test_the_course_ok_tests():
    assert check_calls("hog-fa15", course) == 72
    assert doctest.testmod(course).failed == 0


def test_the_course_play_tests(monkeypatch):
    """Question 5: four-sided dice always 1, six-sided always 3 (Piggy Back for either player,
    swaps of three-digit scores, the goal not hardwired)."""
    data = load("hog-fa15")
    namespace = dict(vars(course))
    exec(data["play_setup"], namespace)
    monkeypatch.setattr(course, "four_sided", namespace["four_sided"])
    monkeypatch.setattr(course, "six_sided", namespace["six_sided"])
    namespace["always"] = course.always_roll
    for call, expected in data["play"]:
        assert list(eval(call, namespace)) == expected, call


def test_the_course_seeded_games():
    """The course's 1000 seeded games, every one compared: each game's hashed turns, written as
    ``play.sol`` writes them, have the course's digest (and the 29 games stored in full match
    turn for turn). Piggy Back before Swine Swap reproduces all of them; the other order does not
    (it already differs in the second game)."""
    data = load("hog-fa15")["play_sol"]
    games = seeded_games(with_module_dice(course))
    for index, turns in data["games"].items():
        assert games[int(index)] == turns, f"game {index}"
    differ = differing(games, data["digests"])
    assert not differ, f"{len(differ)} of the course's games differ, the first {differ[:10]}"
    assert len(games) == 1000 and sum(map(len, games)) == data["turns"] == 16_753


def test_the_rule_text_examples(monkeypatch):
    assert [course.free_bacon(s) for s in (42, 48, 7)] == [5, 9, 8]
    assert course.take_turn(0, 42) == 7  # Free Bacon 5 is prime: 7
    # Piggy Back: 3 dice that come up 1, 5, 1 score 0, and the opponent scores 3.
    monkeypatch.setattr(course, "six_sided", course.make_test_dice(1, 5, 1))
    assert course.chop_or_take_turn(3, 10, 20, False) == (10, 23, False)
    # Swine Swap 1: 13 against 91, two dice total 6: 19 against 91 swaps.
    monkeypatch.setattr(course, "six_sided", course.make_test_dice(2, 4))
    assert course.chop_or_take_turn(2, 13, 91, False) == (91, 19, False)
    # 2: 66 against 8, four dice total 14: 80 against 8 (08) swaps.
    monkeypatch.setattr(course, "six_sided", course.make_test_dice(2, 3, 4, 5))
    assert course.chop_or_take_turn(4, 66, 8, False) == (8, 80, False)
    # 3: both at 90, 7 dice total 17, boosted to 19: 109 against 90 swaps; the opponent wins.
    monkeypatch.setattr(course, "six_sided", course.make_test_dice(2, 2, 2, 2, 3, 3, 3))
    assert course.chop_or_take_turn(7, 90, 90, False) == (90, 109, False)
    assert course.play(course.always_roll(7), course.always_roll(7), 90, 90) == (90, 109)
    model = get_rules("hog-fa15").model
    assert model.resolve(model.params, 90 * 100 + 90, 7, 19) == 3  # LOSE


def _chop_when_behind(score, opponent_score):
    """Pork Chop when 10 or more behind (a second -1 rolls 10 dice), else the swap strategy."""
    if opponent_score - score >= 10:
        return -1
    return course.swap_strategy(score, opponent_score, 4)


def test_pork_chop(monkeypatch):
    """The contest's rule, an option: -1 swaps the scores for 0 points (no Piggy Back, no Swine
    Swap after it) once per player; a later -1 rolls 10 dice."""
    off, on = get_rules("hog-fa15"), get_rules("hog-fa15", pork_chop=True)
    with pytest.raises(IllegalChoice, match="without Pork Chop takes 0 to 10 dice; -1 needs"):
        off.choice(-1)
    assert on.choice(-1) == -1 and on.model.n_states == 4 * off.model.n_states
    with pytest.raises(AssertionError):
        course.play(course.always_roll(-1), course.always_roll(4))
    monkeypatch.setattr(course, "six_sided", course.make_test_dice(3))
    monkeypatch.setattr(course, "four_sided", course.make_test_dice(1))
    # 0 against 5: the Pork Chop makes it 5 against 0, and nothing else happens.
    assert course.chop_or_take_turn(-1, 0, 5, False) == (5, 0, True)
    # Used already: -1 rolls 10 six-sided 3s (5 + 5 is no multiple of 7), 30 points.
    assert course.chop_or_take_turn(-1, 5, 5, True) == (35, 5, True)
    # At 7 to 0 (Hog Wild) a second -1 rolls 10 four-sided 1s: Piggy Back gives the other 10.
    assert course.chop_or_take_turn(-1, 7, 0, True) == (7, 10, True)


@pytest.mark.parametrize("pork_chop", [False, pytest.param(True, marks=pytest.mark.slow)])  # 6 s
def test_the_model_agrees_with_the_reference_recursion(pork_chop):
    """Exact values against the shared recursion over the course functions, to 1e-12: the
    course strategies at the goal of 100, and random tables (with -1 when Pork Chop is on)."""
    rules = get_rules("hog-fa15", pork_chop=pork_chop)
    turn = reference_turn("hog-fa15")
    rng = np.random.default_rng(15)
    low = -1 if pork_chop else 0
    pairs = [
        tuple(load_entrant(s, rules).table.choices for s in ("swap_strategy", "always_roll:5")),
        (rng.integers(low, 7, 10000), rng.integers(low, 7, 10000)),  # up to 6 dice: quick
    ]
    if pork_chop:
        chop = np.array([_chop_when_behind(s, o) for s in range(100) for o in range(100)])
        pairs.append((chop, pairs[0][0]))
    for a, b in pairs:

        def strategy(table):
            return lambda score, opponent: int(table[score * 100 + opponent])

        values = exact.evaluate(rules, a, b)
        first = win_chance(turn, strategy(a), strategy(b), 100)
        second = 1 - win_chance(turn, strategy(b), strategy(a), 100)
        assert values.first == pytest.approx(first, abs=1e-12)
        assert values.second == pytest.approx(second, abs=1e-12)


def test_the_course_play_matches_the_exact_value():
    """The course's play (random dice) within 4 standard errors of the exact chance, Pork Chop
    on: the model is the game the course's functions play."""
    rules = get_rules("hog-fa15", pork_chop=True)
    b = course.swap_strategy
    table = np.array([_chop_when_behind(s, o) for s in range(100) for o in range(100)])
    p = exact.evaluate(rules, table, load_entrant("swap_strategy", rules).table.choices).first
    random.seed(61)
    games = 4000
    wins = sum(course.play(_chop_when_behind, b, pork_chop=True)[0] >= 100 for _ in range(games))
    assert abs(wins / games - p) < 4 * sqrt(p * (1 - p) / games)


def test_narration_follows_the_model_with_pork_chop():
    rules = get_rules("hog-fa15", 40, pork_chop=True)
    m, rng = rules.model, random.Random(15)
    for _ in range(400):
        state, choice = rng.randrange(m.n_states), rng.randrange(-1, 11)
        step = rules.play_step(state, choice, random.Random(rng.random()))
        kind = int(m.roll_kind(m.params, state, choice))
        values = m.dist_value[m.dist_ptr[kind] : m.dist_ptr[kind + 1]]
        assert step.code in {int(m.resolve(m.params, state, choice, int(v))) for v in values}


def test_a_student_file_of_fall_2015_loads_as_written():
    rules = get_rules("hog-fa15")
    entrant = load_entrant(str(STUDENT), rules, cache=False)
    assert entrant.function == "final_strategy"
    expected = [
        0 if course.swap_strategy(s, o, 4) == 0 else course.bacon_strategy(s, o, 7, 4)
        for s in range(100)
        for o in range(100)
    ]
    assert entrant.table.choices.tolist() == expected
