"""hog-fa16 against the course's doctests and ok tests (paulhzq/cs61a ``projects/Hog/hog/tests/``
01-05 and 08-10, the unlocked cases), the course's seeded play-test games, the narration and a
plain recursion over the course functions."""

from __future__ import annotations

import doctest
import random
from hashlib import md5

import pytest

from hogbench import exact
from hogbench.dice import make_test_dice
from hogbench.errors import IllegalChoice
from hogbench.experiments import max_scoring_num_rolls
from hogbench.loading import load_entrant
from hogbench.rules import get_rules
from hogbench.rules import hog_fa16 as course
from hogbench.rules.base import LOSE, OTHER, WIN, outcome
from tests.course.turns import reference_turn
from tests.reference import win_chance


def test_the_course_functions():
    assert doctest.testmod(course).failed == 0


def test_roll_dice_ok_tests():
    """tests/01.py: Pig Out scores the number of 1s; the dice are called exactly NUM_ROLLS times."""
    roll = course.roll_dice
    assert roll(2, make_test_dice(4, 6, 1)) == 10
    assert roll(3, make_test_dice(4, 6, 1)) == 1
    assert roll(3, make_test_dice(1, 2, 3)) == 1
    assert roll(4, make_test_dice(1, 2, 3)) == 2
    counted = make_test_dice(4, 1, 2, 6)
    assert [roll(3, counted), roll(1, counted)] == [1, 6]
    assert roll(5, make_test_dice(4, 2, 3, 3, 4, 1)) == 16
    assert roll(2, make_test_dice(1)) == 2
    dice = make_test_dice(5, 4, 3, 2, 1)
    sequence = [roll(n, dice) for n in (1, 4, 2, 3, 3, 2, 4, 1, 5, 10)]
    assert sequence == [5, 1, 9, 1, 12, 1, 14, 1, 1, 2]


def test_take_turn_ok_tests(monkeypatch):
    """tests/02.py, the unlocked cases: Free Bacon, Hogtimus Prime, When Pigs Fly (the turn
    scores at most 25 minus the dice rolled, after the prime boost), and take_turn calling
    roll_dice."""
    turn = course.take_turn
    assert turn(2, 0, make_test_dice(6)) == 12
    assert turn(2, 0, make_test_dice(2, 3, 5)) == 7  # 5 is prime: 7
    assert turn(1, 0, make_test_dice(2)) == 3
    assert [turn(0, 60), turn(0, 10), turn(0, 24)] == [11, 3, 7]
    assert turn(10, 0, make_test_dice(5)) == 15  # "Remember When Pigs Fly!"
    assert [turn(n, 0, make_test_dice(4)) for n in (9, 8, 7, 6)] == [16, 17, 18, 19]
    monkeypatch.setattr(course, "roll_dice", lambda num_rolls, dice: 9002)
    assert turn(5, 0) == 20


def test_reroll_ok_test():
    """tests/03.py, the unlocked case: an odd outcome is rolled once more, and stands."""
    rerolled = course.reroll(make_test_dice(1, 1, 1, 1, 2))
    assert [rerolled() for _ in range(4)] == [1, 1, 2, 1]


def test_select_dice_ok_tests():
    """tests/04.py: Hog Wild re-rolls the dice in play; Pork Chop's exchange gives four-sided."""
    select = course.select_dice
    assert [
        select(s, o, swapped).__name__ == "rerolled"
        for s, o, swapped in ((4, 24, False), (16, 64, False), (0, 0, True), (50, 80, True))
    ] == [True, False, True, False]
    assert [
        select(s, o, swapped) == course.six_sided
        for s, o, swapped in ((4, 25, False), (3, 4, False), (0, 0, True), (60, 80, True))
    ] == [True, False, False, False]
    assert [
        select(s, o, swapped) == course.four_sided
        for s, o, swapped in ((4, 25, False), (3, 4, False), (0, 0, True), (50, 80, True))
    ] == [False, False, False, True]


ALWAYS, OPP_ONES, OPP_TENS = "always", "opponent % 10", "opponent // 10"
PLAY_OK_TESTS = [  # tests/05.py: (player 0, player 1, start scores and goal, final scores)
    ((ALWAYS, 5), (ALWAYS, 3), {"score0": 91, "score1": 10}, (106, 10)),
    ((ALWAYS, 5), (ALWAYS, 5), {"goal": 10}, (20, 0)),  # Hog Wild, When Pigs Fly
    ((ALWAYS, 5), (ALWAYS, 3), {"score0": 5, "score1": 40, "goal": 50}, (55, 29)),
    ((ALWAYS, 5), (ALWAYS, 3), {"score0": 95, "score1": 55}, (55, 110)),
    ((ALWAYS, 4), (ALWAYS, 3), {"score0": 88, "score1": 20}, (100, 20)),
    ((ALWAYS, 2), (ALWAYS, 4), {"score0": 87, "score1": 88}, (97, 100)),
    ((OPP_ONES, None), (OPP_TENS, None), {"score0": 40, "score1": 92}, (102, 62)),
    ((ALWAYS, 5), (ALWAYS, 5), {"score0": 40, "score1": 95}, (110, 55)),
    ((ALWAYS, 0), (ALWAYS, 0), {"score0": 11, "score1": 99}, (21, 104)),
    ((ALWAYS, 0), (ALWAYS, 0), {}, (101, 98)),
    ((ALWAYS, 5), (ALWAYS, 0), {}, (110, 47)),
    # "Assume that six-sided dice are in play" (four-sided dice always 1)
    ((ALWAYS, -1), (ALWAYS, 3), {"score0": 98, "score1": 91}, (100, 96)),
    ((ALWAYS, -1), (ALWAYS, 3), {"score0": 97, "score1": 90}, (99, 104)),
    ((ALWAYS, -1), (ALWAYS, 3), {}, (13, 101)),
    ((ALWAYS, 2), (ALWAYS, -1), {}, (104, 20)),
]


@pytest.mark.parametrize("a, b, start, expected", PLAY_OK_TESTS)
def test_play_ok_tests(a, b, start, expected, monkeypatch):
    """The course's setup: re-rolled dice always 5, six-sided always 3, four-sided always 1."""
    monkeypatch.setattr(course, "reroll", lambda dice: make_test_dice(5))
    monkeypatch.setattr(course, "six_sided", make_test_dice(3))
    monkeypatch.setattr(course, "four_sided", make_test_dice(1))

    def strategy(kind, n):
        if kind == ALWAYS:
            return course.always_roll(n)
        return (lambda s, o: o % 10) if kind == OPP_ONES else (lambda s, o: o // 10)

    assert course.play(strategy(*a), strategy(*b), **start) == expected


def test_max_scoring_num_rolls_ok_tests():
    """tests/08.py, the unlocked cases, with the term's roll_dice (Pig Out by the number of 1s)."""
    best = [
        max_scoring_num_rolls(make_test_dice(*outcomes), 1000, rules="hog-fa16")
        for outcomes in ((3,), (1, 2, 2, 2, 2, 2, 2, 2), (1, 2, 3, 4, 5))
    ]
    assert best == [10, 4, 3]


def test_strategy_ok_tests():
    """tests/09.py and 10.py, the unlocked cases (Free Bacon with Hogtimus Prime)."""
    bacon, swap = course.bacon_strategy, course.swap_strategy
    assert [
        bacon(32, 4, margin=5, num_rolls=4),
        bacon(20, 18, margin=9, num_rolls=4),
        bacon(20, 20, margin=5, num_rolls=4),  # "Account for hogtimus prime rule"
        bacon(20, 4, margin=3, num_rolls=4),
        bacon(20, 23, margin=5, num_rolls=0),
        bacon(20, 24, margin=7, num_rolls=5),
        bacon(20, 25, margin=7, num_rolls=5),
        bacon(20, 26, margin=11, num_rolls=6),
    ] == [0, 0, 0, 0, 0, 0, 5, 0]
    cases = [(7, 23), (7, 26), (10, 38), (9, 1), (35, 28), (37, 24)]
    assert [swap(s, o, 8, 6) for s, o in cases] == [6, 0, 0, 6, 0, 6]


def test_strategies_return_minus_one_to_ten():
    """The skeleton's check_strategy_roll: "All strategy outputs must be integers from -1 to 10"."""
    rules = get_rules("hog-fa16")
    assert [rules.choice(n) for n in (-1, 0, 10)] == [-1, 0, 10]
    for bad in (-2, 11, 0.1, None):
        with pytest.raises(IllegalChoice):
            rules.choice(bad)


# ---------------------------------------------------------------------------------------------
# The course's play tests (tests/05.py's fuzz test, tests/play_utils.py): TEST_SEED 1337, 1000
# games, each between two random strategies choosing -1 to 10 from a seed drawn from Python's
# random; the dice are the course's (random.randint), wrapped as the course's tracer wraps them.
# The term's tests/play.sol (the solution's hashed turns) is in none of the copies found, so the
# games are checked turn by turn against the engines' model rather than against the course's
# recorded results.
# ---------------------------------------------------------------------------------------------
TEST_SEED, NUM_TESTS = 1337, 1000


def course_hash(value):
    """play_utils.hash: the low 32 bits of the md5 of str(VALUE)."""
    return int(md5(str(value).encode()).hexdigest(), base=16) & 0xFFFFFFFF


def course_random_strategy():
    """play_utils.make_random_strat: a seed drawn now; each choice from random reseeded with the
    hash of (score, opponent_score, seed), the random state kept for the dice."""
    seed = random.randrange(0, 2**31)

    def strategy(score, opponent_score):
        state = random.getstate()
        random.seed(course_hash((score, opponent_score, seed)))
        roll = random.randrange(-1, 11)
        random.setstate(state)
        return roll

    return strategy


def course_play_test_dice(monkeypatch):
    """play_utils.play_traced's dice: hog.six_sided and hog.four_sided as they were; hog.reroll
    replaced so that six-sided dice come from the tracer's re-rolled dice (the course's reroll of
    six_sided, called once more when its outcome is odd) and four-sided dice are not re-rolled."""
    rerolled = course.reroll(course.six_sided)

    def traced_rerolled():
        roll = rerolled()
        return rerolled() if roll % 2 == 1 else roll

    monkeypatch.setattr(
        course,
        "reroll",
        lambda dice: traced_rerolled if dice == course.six_sided else course.four_sided,
    )


def course_play_test_game():
    """One game of play_utils.check_play_function through the course's play: the turns as
    (mover's score, opponent's score, choice), and the final scores."""
    turns = []

    def traced(strategy):
        def choose(score, opponent_score):
            turns.append((score, opponent_score, strategy(score, opponent_score)))
            return turns[-1][2]

        return choose

    final = course.play(traced(course_random_strategy()), traced(course_random_strategy()))
    return turns, final


def test_the_course_play_test_games_are_games_of_the_model(monkeypatch):
    """Every turn of the course's 1000 seeded play-test games, played by the course's play, is
    a transition the model gives for that state (dice in play included) and choice."""
    rules = get_rules("hog-fa16")
    m, goal = rules.model, rules.goal
    course_play_test_dice(monkeypatch)
    saved = random.getstate()
    random.seed(TEST_SEED)
    checked, chops = 0, 0
    try:
        for _ in range(NUM_TESTS):
            turns, final = course_play_test_game()
            four = 0
            for i, (score, opponent, n) in enumerate(turns):
                state = four * goal * goal + score * goal + opponent
                four ^= n == -1
                if i + 1 < len(turns):  # the next mover's scores
                    theirs, mine = turns[i + 1][:2]
                    seen = outcome(four * goal * goal + theirs * goal + mine, OTHER)
                else:
                    mine, theirs = final if i % 2 == 0 else final[::-1]
                    seen = WIN if mine >= goal else LOSE
                kind = int(m.roll_kind(m.params, state, n))
                values = m.dist_value[m.dist_ptr[kind] : m.dist_ptr[kind + 1]]
                possible = {int(m.resolve(m.params, state, n, int(v))) for v in values}
                assert seen in possible, (score, opponent, four, n, turns[i + 1 : i + 2], final)
                checked, chops = checked + 1, chops + (n == -1)
    finally:
        random.setstate(saved)
    assert checked > 20 * NUM_TESTS and chops > NUM_TESTS


# ---------------------------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------------------------


def test_narration_follows_the_course_functions():
    """play_step's dice are legal for the dice in play, and its outcome is the model's for the
    course's take_turn of those dice (1 point for a Pork Chop)."""
    rules = get_rules("hog-fa16")
    m, area = rules.model, rules.goal * rules.goal
    rng = random.Random(5)
    for _ in range(1000):
        state, choice = rng.randrange(m.n_states), rng.randrange(-1, 11)
        step = rules.play_step(state, choice, random.Random(rng.random()))
        assert set(step.dice) <= set(range(1, 5 if state >= area else 7))
        score, opponent = rules.scores(state)
        if choice > 0:
            value = course.take_turn(choice, opponent, make_test_dice(*step.dice))
        else:
            value = 1 if choice == -1 else 0
        assert step.code == m.resolve(m.params, state, choice, value)


def test_hog_wild_re_rolls_odd_outcomes_once():
    """The model's re-rolled die: an even face 1/s + (1/2)(1/s), an odd face (1/2)(1/s)."""
    assert course.dice_faces(6, True) == pytest.approx(
        {1: 1 / 12, 2: 1 / 4, 3: 1 / 12, 4: 1 / 4, 5: 1 / 12, 6: 1 / 4}
    )
    assert course.dice_faces(4, True) == pytest.approx({1: 1 / 8, 2: 3 / 8, 3: 1 / 8, 4: 3 / 8})


@pytest.mark.parametrize(
    "a, b",
    [
        ("always_roll:4", "always_roll:6"),
        ("swap_strategy", "always_roll:4"),
        ("always_roll:-1", "bacon_strategy"),
    ],
)
def test_the_model_agrees_with_a_plain_recursion(a, b):
    rules = get_rules("hog-fa16")
    table_a, table_b = (load_entrant(name, rules).table.choices for name in (a, b))
    turn = reference_turn("hog-fa16")

    def strategy(table):
        return lambda score, opponent: int(table[score * 100 + opponent])

    values = exact.evaluate(rules, table_a, table_b)
    assert values.first == pytest.approx(
        win_chance(turn, strategy(table_a), strategy(table_b), 100), abs=1e-12
    )
    assert values.second == pytest.approx(
        1 - win_chance(turn, strategy(table_b), strategy(table_a), 100), abs=1e-12
    )
