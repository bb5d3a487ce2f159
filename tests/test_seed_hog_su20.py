"""The Summer 2020 Hog text (seed 001, rules-sources/001_55ef9060cceeddd1.txt), example by
example: each test runs one worked example or doctest of the text against the hog-su20 course
functions, and says in a comment where in the text it is (line numbers of that file).

What the text holds, and where it is tested:

- Pig Out, Examples 1-2 (lines 193-194): test_pig_out_examples
- Free Bacon, Examples 1-4 (lines 42-48, again 256-259): test_free_bacon_examples
- Swine Swap, Examples 1-4 (lines 58-61, again 303-306): test_swine_swap_examples
- Swine Swap at the goal hands the opponent the win (line 54, again 299): test_swap_at_the_goal
- Feral Hogs, Example 1 (lines 364-372): test_feral_hogs_example_1_in_play
- Feral Hogs, Example 2 (lines 374-376): test_feral_hogs_example_2
- Problem 0's unlocking doctest, make_test_dice(4, 1, 2) (lines 174-175): test_test_dice
- roll_dice(2, dice=make_test_dice(3, 4)) gives 7 (lines 233-235): test_roll_dice_fixed_dice
- The commentary sample "22 points! That's the biggest gain yet for Player 1." (line 425):
  test_announce_highest_message
- announce_lead_changes' doctest (line 444): test_announce_lead_changes_doctest
- both's doctest (line 462): test_both_doctest
- max_scoring_num_rolls: tied numbers of rolls give the lower (line 579): test_max_scoring_ties
- Problems 10-11: bacon_strategy and swap_strategy, a swap of equal scores being neither
  beneficial nor detrimental (lines 605, 625, 629): test_bacon_and_swap_strategies
- Problem 11: swap_strategy "gives a significant edge over always_roll(4)" (line 643):
  test_swap_strategy_has_an_edge_over_always_roll_4

Not hogbench's to test: the printed(f) example of *args (lines 545-556) shows Python itself.
"""

from __future__ import annotations

import pytest

from hogbench import exact
from hogbench.experiments import max_scoring_num_rolls
from hogbench.rules import get_rules
from hogbench.rules import hog_su20 as su20
from hogbench.rules.base import LOSE, WIN
from hogbench.tables import tabulate
from tests.test_rules_hog import scores_after_turns, scripted


def test_pig_out_examples():
    # lines 193-194: 7 dice, five 1's: 1 point; 4 dice, all 3's: 12 points
    assert su20.roll_dice(7, su20.make_test_dice(1, 1, 1, 1, 1, 2, 3)) == 1
    assert su20.roll_dice(4, su20.make_test_dice(3)) == 12


# lines 42-48: opponents 32, 19, 80 and 5 give 11, 2, 18 and 5 points
@pytest.mark.parametrize("opponent, points", [(32, 11), (19, 2), (80, 18), (5, 5)])
def test_free_bacon_examples(opponent, points):
    assert su20.free_bacon(opponent) == points
    assert su20.take_turn(0, opponent) == points


# lines 58-61: 6 and 2, 17 and 65 do not swap; 55 and 23, 89 and 54 do
@pytest.mark.parametrize(
    "player, opponent, swap", [(6, 2, False), (17, 65, False), (55, 23, True), (89, 54, True)]
)
def test_swine_swap_examples(player, opponent, swap):
    assert su20.is_swap(player, opponent) == swap


def test_swap_at_the_goal():
    # line 54: "A swap may occur at the end of a turn in which a player reaches the goal
    # score, leading to the opponent winning." 95 + 12 = 107 against 43: |7 - 3| = 4 = the
    # tens digit of 43, so the scores swap.
    final = su20.play(su20.always_roll(4), su20.always_roll(4), 95, 43, su20.make_test_dice(3))
    assert final == (43, 107)
    rules = get_rules("hog-su20")
    model = rules.model
    state = 95 * 100 + 43  # both previous-points buckets 0
    assert model.resolve(model.params, state, 4, 12) == LOSE
    assert model.resolve(model.params, state, 4, 18) == WIN  # 113 vs 43: no swap


def test_feral_hogs_example_1_in_play():
    # lines 364-372: (7, 0), (7, 4), (20, 4), (20, 15), (43, 15), (43, 19)
    moves0 = {(0, 0): 3, (7, 4): 5, (20, 15): 8, (43, 19): 1}
    moves1 = {(0, 7): 1, (4, 20): 2, (15, 43): 6}
    # dice for 3, 1, 5, 2, 8, 6 and 1 dice: 7, 4, 10, 8, 20, 1 (Pig Out) and 2 points
    outcomes = iter([2, 2, 3, 4, 2, 2, 2, 2, 2, 4, 4, 2, 2, 2, 2, 3, 3, 3, 3, 6, 6, 6, 6, 6, 1, 2])

    def scripted_dice():
        return next(outcomes)

    seen = []

    def say(score0, score1):
        seen.append((score0, score1))
        return say

    final = su20.play(
        scripted(moves0), scripted(moves1), dice=scripted_dice, goal=45, say=say, feral_hogs=True
    )
    assert seen == [(7, 0), (7, 4), (20, 4), (20, 15), (43, 15), (43, 19), (45, 19)]
    assert final == (45, 19)


def test_feral_hogs_example_2():
    """Lines 374-376: rolling 2 dice on the first turn is 2 away from the 0 points before it:
    +3. (The text's 3 points from 2 dice cannot happen with a Pig Out rule, so the dice here
    show 2 and 2.)"""
    assert su20.feral_bonus(2, 0) == 3
    seen = scores_after_turns(
        lambda say: su20.play(
            su20.always_roll(2), su20.always_roll(2), dice=su20.make_test_dice(2), say=say
        ),
        1,
    )
    assert seen == [(7, 0)]
    seen = scores_after_turns(
        lambda say: su20.play(
            su20.always_roll(2),
            su20.always_roll(2),
            dice=su20.make_test_dice(2),
            say=say,
            feral_hogs=False,
        ),
        1,
    )
    assert seen == [(4, 0)]


def test_test_dice():
    # lines 174-175: test_dice = make_test_dice(4, 1, 2); test_dice() -> 4, then 1, 2, 4
    test_dice = su20.make_test_dice(4, 1, 2)
    assert [test_dice() for _ in range(4)] == [4, 1, 2, 4]


def test_roll_dice_fixed_dice():
    # lines 233-235: fixed_dice = make_test_dice(3, 4); roll_dice(2, dice=fixed_dice) -> 7
    fixed_dice = su20.make_test_dice(3, 4)
    assert su20.roll_dice(2, dice=fixed_dice) == 7


def test_announce_highest_message(capsys):
    # line 425: "22 points! That's the biggest gain yet for Player 1." The same text (line 490)
    # asks for "point(s)" in every case, and the course's doctests print no full stop: the
    # message as the doctests give it.
    su20.announce_highest(1)(0, 22)
    assert capsys.readouterr().out.splitlines() == [
        "22 point(s)! That's the biggest gain yet for Player 1"
    ]


def test_announce_lead_changes_doctest(capsys):
    # line 444
    f0 = su20.announce_lead_changes()
    f1 = f0(5, 0)
    f2 = f1(5, 12)
    f3 = f2(8, 12)
    f4 = f3(8, 13)
    f4(15, 13)
    assert capsys.readouterr().out.splitlines() == [
        "Player 0 takes the lead by 5",
        "Player 1 takes the lead by 7",
        "Player 0 takes the lead by 2",
    ]


def test_both_doctest(capsys):
    # line 462 (a game the rules do not allow, as its note says: only commentary)
    h0 = su20.both(su20.say_scores, su20.announce_lead_changes())
    h1 = h0(10, 0)
    h2 = h1(10, 6)
    h2(6, 17)
    assert capsys.readouterr().out.splitlines() == [
        "Player 0 now has 10 and Player 1 now has 0",
        "Player 0 takes the lead by 10",
        "Player 0 now has 10 and Player 1 now has 6",
        "Player 0 now has 6 and Player 1 now has 17",
        "Player 1 takes the lead by 11",
    ]


def test_max_scoring_ties():
    # line 579: tied numbers of rolls give the lower: dice always showing 1 tie all ten (Pig
    # Out scores 1), and 1 is returned
    assert max_scoring_num_rolls(su20.make_test_dice(1), trials_count=10, rules="hog-su20") == 1
    assert max_scoring_num_rolls(su20.make_test_dice(2), trials_count=10, rules="hog-su20") == 10


def test_bacon_and_swap_strategies():
    # line 605 (Problem 10): 0 when Free Bacon gives at least the cutoff, else num_rolls
    assert su20.bacon_strategy(0, 32) == 0  # 11 points
    assert su20.bacon_strategy(0, 19) == 6  # 2 points
    assert su20.bacon_strategy(0, 19, cutoff=2, num_rolls=3) == 0
    # line 625 (Problem 11): 0 for a beneficial swap, never 0 for a detrimental one.
    # 2 + 9 = 11 against 23 swaps: beneficial, so 0 whatever the cutoff
    assert su20.swap_strategy(2, 23, cutoff=20) == 0
    # 22 + 9 = 31 against 23 swaps: harmful, so no Free Bacon although 9 >= 8
    assert su20.swap_strategy(22, 23, cutoff=8, num_rolls=6) == 6
    assert su20.bacon_strategy(22, 23, cutoff=8, num_rolls=6) == 0
    # line 629: 0 + 5 = 5 against 5 "swaps" equal scores: neither, so the cutoff decides
    assert su20.swap_strategy(0, 5, cutoff=8, num_rolls=6) == 6
    assert su20.swap_strategy(0, 5, cutoff=5, num_rolls=6) == 0


def test_swap_strategy_has_an_edge_over_always_roll_4():
    # line 643: "You should find that it gives a significant edge over always_roll(4)":
    # exactly, over both seatings, Feral Hogs on, 79.3%
    rules = get_rules("hog-su20")
    mine, four = (
        tabulate(s, rules, "s").choices for s in (su20.swap_strategy, su20.always_roll(4))
    )
    assert exact.evaluate(rules, mine, four).average == pytest.approx(0.7930, abs=1e-4)
