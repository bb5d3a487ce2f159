"""The Hog contest text (seed 002, rules-sources/002_5cf1b5d1d3670997.txt), example by example:
each test runs one worked example of the text against the hog-contest course functions, its
model or hogbench's contest scoring, and says in a comment where in the text it is (line
numbers of that file). The text has no doctests.

What the text holds, and where it is tested:

- Pig Out, Examples 1-3 (lines 21-23): test_pig_out_examples
- Free Bacon, Examples 1-3 (lines 26-28): test_free_bacon_examples
- Hogtimus Prime: 11 becomes 13; 1 is not a prime (line 29): test_hogtimus_prime
- Hog Wild: sums 0, 7, 14, 21, 35 roll four-sided dice (line 30): test_hog_wild
- Swine Swap, Example 1 (line 33): test_swine_swap_example_1
- Swine Swap, Example 2, a swap at the goal (line 34): test_swine_swap_example_2
- Pork Chop: once per player, a later -1 rolls 10 dice, at most one swap a turn (lines 35-37):
  test_pork_chop_once_then_ten_dice
- The sample game (lines 39-45): test_sample_game, test_sample_game_in_the_model
- The contest's scoring: a match point above 50.0001%, ties count as losses, ranked by match
  points (line 49): test_contest_scoring
- Deterministic, pure strategies only (line 64): test_a_strategy_that_is_not_deterministic
- Every pair of scores within 10 seconds (line 65): test_the_ten_second_rule
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hogbench.rules import DEFAULT_THRESHOLD, get_rules
from hogbench.rules import hog_contest as contest
from hogbench.rules.base import LOSE, OTHER
from hogbench.sandbox.request import default_time_limit
from hogbench.standings import match_points, shared_ranks
from tests.test_rules_hog import scores_after_turns, scripted

FILES = Path(__file__).parent / "files"


def test_pig_out_examples():
    # line 21: 7 dice, five 1's: min(11 - 7, 5) = 4, not a prime
    assert contest.roll_dice(7, contest.make_test_dice(1, 1, 1, 1, 1, 2, 3)) == 4
    assert contest.take_turn(7, 0, contest.make_test_dice(1, 1, 1, 1, 1, 2, 3)) == 4
    # line 22: 5 dice, three 1's: min(11 - 5, 3) = 3, which Hogtimus Prime makes 5
    assert contest.roll_dice(5, contest.make_test_dice(1, 1, 1, 4, 4)) == 3
    assert contest.take_turn(5, 0, contest.make_test_dice(1, 1, 1, 4, 4)) == 5
    # line 23: 4 dice, all 3's: 12
    assert contest.take_turn(4, 0, contest.make_test_dice(3)) == 12


# lines 26-28: opponents 42, 48 and 7 give 5, 9 and 8 points
@pytest.mark.parametrize("opponent, points", [(42, 5), (48, 9), (7, 8)])
def test_free_bacon_examples(opponent, points):
    assert contest.free_bacon(opponent) == points


def test_hogtimus_prime():
    # line 29: "if the dice outcomes sum to 11, the current player scores 13 points"
    assert contest.take_turn(2, 0, contest.make_test_dice(5, 6)) == 13  # 11 -> 13
    assert contest.take_turn(0, 42) == 7  # Free Bacon 5 -> 7
    assert contest.take_turn(0, 48) == 9  # 9 is not a prime
    assert contest.take_turn(10, 0, contest.make_test_dice(1, 2)) == 1  # "1 is not a prime!"
    assert [contest.next_prime(n) for n in (2, 3, 5, 7, 11, 59)] == [3, 5, 7, 11, 13, 61]


def test_hog_wild():
    # line 30: "a multiple of seven (e.g., 0, 7, 14, 21, 35)": four-sided dice
    for total in (0, 7, 14, 21, 35):
        assert contest.select_dice(total, 0) is contest.four_sided
        assert contest.select_dice(0, total) is contest.four_sided
    for score, opponent in ((1, 0), (10, 5), (50, 50)):
        assert contest.select_dice(score, opponent) is contest.six_sided


def test_swine_swap_example_1():
    # line 33: 37 + 9 = 46, half of 92: swapped, the turn ends 92 to 46
    seen = scores_after_turns(
        lambda say: contest.play(
            contest.always_roll(2),
            contest.always_roll(2),
            37,
            92,
            contest.make_test_dice(4, 5),
            say=say,
        ),
        1,
    )
    assert seen == [(92, 46)]


def test_swine_swap_example_2():
    # line 34: 91 + (17 -> 19) = 110, double 55: swapped, the opponent has 110 and wins
    dice = contest.make_test_dice(3, 3, 3, 4, 4)
    final = contest.play(contest.always_roll(5), contest.always_roll(5), 91, 55, dice)
    assert final == (55, 110)
    model = get_rules("hog-contest").model
    state = (91 * 100 + 55) * 4  # nobody has used Pork Chop
    assert model.resolve(model.params, state, 5, 19) == LOSE


def test_pork_chop_once_then_ten_dice():
    # lines 35-37: -1 swaps the scores for 0 points, once per player; "every subsequent roll
    # of -1 will be treated as if that player rolled 10 dice"
    log = []

    def chopper(score, opponent_score):
        log.append((score, opponent_score))
        return -1

    seen = scores_after_turns(
        lambda say: contest.play(
            chopper,
            contest.always_roll(1),
            0,
            5,
            contest.make_test_dice(2),
            say=say,
            wild_dice=contest.make_test_dice(3),
        ),
        4,
    )
    # Pork Chop: 5 to 0. Player 1 rolls a 2 (prime: 3). Player 0's second -1 rolls 10 dice:
    # 20 + 5 = 25. At 3 + 25 = 28 Player 1 rolls a four-sided 3 (prime: 5), making 8.
    assert seen == [(5, 0), (5, 3), (25, 3), (25, 8)]
    assert log == [(0, 5), (5, 3)]


def test_sample_game():
    """Lines 39-45: the text's sample game, from 14 to 42 with Player 0 to roll."""
    moves = {(14, 42): 0, (21, 42): -1, (42, 22): 3}
    seen = []

    def say(score0, score1):
        seen.append((score0, score1))
        return say

    final = contest.play(
        scripted(moves),
        scripted(moves),
        14,
        42,
        dice=contest.make_test_dice(3),
        goal=50,
        say=say,
        wild_dice=contest.make_test_dice(1, 2),
    )
    assert seen == [
        (42, 21),  # line 39: Free Bacon 5 -> 7 makes 21 to 42; Swine Swap
        (21, 42),  # line 41: Player 1's Pork Chop; no Swine Swap after it
        (42, 21),  # line 43: Player 0's Pork Chop
        (42, 22),  # line 45: Player 1's second -1 rolls 10 (four-sided: 63) dice: Pig Out, 1
        (51, 22),
    ]
    assert final == (51, 22)


def test_sample_game_in_the_model():
    # lines 41-45, in the engines' model
    rules = get_rules("hog-contest")
    model = rules.model
    params = model.params

    def state(score, opponent, used, opponent_used):
        return (score * 100 + opponent) * 4 + used * 2 + opponent_used

    # Player 1 at 21 against 42, nobody has chopped: -1 is a Pork Chop, then Player 0 moves
    # at 21 against 42 (scores swapped) with Player 1's chop used.
    code = model.resolve(params, state(21, 42, 0, 0), -1, 0)
    assert code == state(21, 42, 0, 1) * 8 + OTHER
    # Player 1 again at 21 against 42, chop used: 10 four-sided dice (21 + 42 = 63)
    kind = model.roll_kind(params, state(21, 42, 1, 1), -1)
    assert kind == model.roll_kind(params, state(21, 42, 0, 0), 10)
    assert kind != model.roll_kind(params, state(22, 42, 0, 0), 10)  # 64: six-sided
    assert model.resolve(params, state(21, 42, 1, 1), -1, 1) == state(42, 22, 1, 1) * 8 + OTHER


def test_contest_scoring():
    # line 49: "A submission scores a match point each time it has an expected win rate above
    # 50.0001%. We will rank submissions based on the number of matches they won. Ties count
    # as losses."
    assert DEFAULT_THRESHOLD == 0.500001
    nan = np.nan
    rates = np.array(
        [
            [nan, 0.5000011, 0.6, 0.5],
            [0.4999989, nan, 0.500001, 0.7],
            [0.4, 0.499999, nan, 0.9],
            [0.5, 0.3, 0.1, nan],
        ]
    )
    # 0.5000011 is above the threshold; 0.500001 exactly is not; an even 0.5 scores for neither
    assert list(match_points(rates)) == [2, 1, 1, 0]
    assert shared_ranks([2, 1, 1, 0]) == [1, 2, 2, 4]


def test_a_strategy_that_is_not_deterministic():
    # line 64: "Non-deterministic strategies or strategies based on the history of the game
    # will be disqualified."
    from hogbench.check import check_file

    rules = get_rules("hog-contest")
    assert rules.requires_deterministic
    report = check_file(str(FILES / "randomised.py"), rules, cache=False)
    assert not report.valid and "not deterministic" in report.lines[0]


def test_the_ten_second_rule():
    # line 65: "Calling your final_strategy function on every possible pair of scores should
    # take less than 10 seconds."
    assert default_time_limit(get_rules("hog-contest")) == 10.0
