"""The Summer 2021 Hog text (seed 000, rules-sources/000_43b54f3618147b13.txt), example by
example: each test runs one worked example or doctest of the text against the hog-su21 course
functions, and says in a comment where in the text it is (line numbers of that file).

What the text holds, and where it is tested:

- Sow Sad, Examples 1-2 (lines 27-28, again 159-160): test_sow_sad_examples
- Piggy Points, Examples 1-4 (lines 33-36, again 206-209): test_piggy_points_examples
- More Boar, Examples 1-4 (lines 38-41, again 249-252): test_more_boar_examples,
  test_more_boar_example_4_in_play
- Problem 0's unlocking doctest, make_test_dice(4, 1, 2) (lines 143-144): test_test_dice
- roll_dice(2, make_test_dice(3, 4)) gives 7 (lines 186-188): test_roll_dice_with_fixed_dice
- The rules clarification, 29, 38, 48 against 55 (line 285): test_more_boar_extra_turns_stack
- The commentary sample "Player 1 has reached a new maximum point gain. 22 point(s)!" (line
  315): test_announce_highest_message
- announce_lead_changes' doctest (lines 333-339): test_announce_lead_changes_doctest
- both's doctest (lines 353-358): test_both_doctest
- The GUI's commentary, both(announce_highest(0), both(announce_highest(1),
  announce_lead_changes())) (line 423): test_the_gui_commentary_composes
- max_scoring_num_rolls: tied numbers of rolls give the lower (line 474): test_max_scoring_ties
- Problem 11: more_boar_strategy "gives a significant edge over always_roll(6)" (line 538):
  test_more_boar_strategy_has_an_edge_over_always_roll_6

Not hogbench's to test: print(9, 12) (line 376) and the printed(f) example of *args (lines
443-455) show Python itself, not a course function.
"""

from __future__ import annotations

import pytest

from hogbench import exact
from hogbench.experiments import max_scoring_num_rolls
from hogbench.rules import get_rules
from hogbench.rules import hog_su21 as su21
from hogbench.tables import tabulate
from tests.test_rules_hog import scores_after_turns, scripted


def test_sow_sad_examples():
    # lines 27-28: 7 dice, five 1's: 1 point; 4 dice, all 3's: 12 points
    assert su21.roll_dice(7, su21.make_test_dice(1, 1, 1, 1, 1, 2, 3)) == 1
    assert su21.roll_dice(4, su21.make_test_dice(3)) == 12
    assert su21.roll_dice(4, su21.make_test_dice(4, 6, 1)) == 1


# lines 33-36: opponents 14, 50, 9 and 156 give 7, 9, 13 and 5 points
@pytest.mark.parametrize("opponent, points", [(14, 7), (50, 9), (9, 13), (156, 5)])
def test_piggy_points_examples(opponent, points):
    assert su21.piggy_points(opponent) == points
    assert su21.take_turn(0, opponent) == points


# lines 38-41: 25 vs 43 goes again, 32 vs 33 does not, 7 vs 10 does not, then 26 vs 43 does
@pytest.mark.parametrize(
    "player, opponent, extra", [(25, 43, True), (32, 33, False), (7, 10, False), (26, 43, True)]
)
def test_more_boar_examples(player, opponent, extra):
    assert su21.more_boar(player, opponent) == extra


def test_more_boar_example_4_in_play():
    """Line 41: 25 vs 43 goes again; a 1 then makes 26 vs 43, and More Boar activates again."""
    log: list[int] = []
    strategy0 = scripted({(20, 43): 1, (25, 43): 1, (26, 43): 1}, log, 0)
    strategy1 = scripted({}, log, 1)
    seen = scores_after_turns(
        lambda say: su21.play(strategy0, strategy1, 20, 43, su21.make_test_dice(5, 1), say=say),
        3,
    )
    assert seen == [(25, 43), (26, 43), (31, 43)]
    assert log == [0, 0, 0]


def test_more_boar_extra_turns_stack():
    """Line 285, the clarification: 29 vs 55, then 38 vs 55, then 48 vs 55: a fourth turn in a
    row."""
    log: list[int] = []
    strategy0 = scripted({(20, 55): 3, (29, 55): 3, (38, 55): 2, (48, 55): 2}, log, 0)
    strategy1 = scripted({}, log, 1)
    dice = su21.make_test_dice(3, 3, 3, 3, 3, 3, 4, 6, 6, 6)
    seen = []

    def say(score0, score1):
        seen.append((score0, score1))
        return say

    assert su21.play(strategy0, strategy1, 20, 55, dice, goal=60, say=say) == (60, 55)
    assert seen == [(29, 55), (38, 55), (48, 55), (60, 55)]
    assert log == [0, 0, 0, 0]


def test_test_dice():
    # lines 143-144: test_dice = make_test_dice(4, 1, 2); test_dice() -> 4, then 1, 2, 4
    test_dice = su21.make_test_dice(4, 1, 2)
    assert [test_dice() for _ in range(4)] == [4, 1, 2, 4]


def test_roll_dice_with_fixed_dice():
    # lines 186-188: fixed_dice = make_test_dice(3, 4); roll_dice(2, fixed_dice) -> 7
    fixed_dice = su21.make_test_dice(3, 4)
    assert su21.roll_dice(2, fixed_dice) == 7


def test_announce_highest_message(capsys):
    # line 315: "Player 1 has reached a new maximum point gain. 22 point(s)!"
    su21.announce_highest(1)(0, 22)
    assert capsys.readouterr().out.splitlines() == [
        "Player 1 has reached a new maximum point gain. 22 point(s)!"
    ]


def test_announce_lead_changes_doctest(capsys):
    # lines 333-339
    f0 = su21.announce_lead_changes()
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
    # lines 353-358 (h0 = both(say_scores, announce_lead_changes()), as in the course's file)
    h0 = su21.both(su21.say_scores, su21.announce_lead_changes())
    h1 = h0(10, 0)
    h2 = h1(10, 8)
    h2(10, 17)
    assert capsys.readouterr().out.splitlines() == [
        "Player 0 now has 10 and Player 1 now has 0",
        "Player 0 takes the lead by 10",
        "Player 0 now has 10 and Player 1 now has 8",
        "Player 0 now has 10 and Player 1 now has 17",
        "Player 1 takes the lead by 7",
    ]


def test_the_gui_commentary_composes(capsys):
    # line 423: the GUI's say, called turn after turn on its own return values
    say = su21.both(
        su21.announce_highest(0), su21.both(su21.announce_highest(1), su21.announce_lead_changes())
    )
    for scores in [(10, 0), (10, 22), (40, 22)]:
        say = say(*scores)
    assert capsys.readouterr().out.splitlines() == [
        "Player 0 has reached a new maximum point gain. 10 point(s)!",
        "Player 0 takes the lead by 10",
        "Player 1 has reached a new maximum point gain. 22 point(s)!",
        "Player 1 takes the lead by 12",
        "Player 0 has reached a new maximum point gain. 30 point(s)!",
        "Player 0 takes the lead by 18",
    ]


def test_max_scoring_ties():
    # line 474: "If two numbers of rolls are tied for the maximum average score, return the
    # lower number." Dice that always show 1 score 1 at every number of rolls (Sow Sad): all
    # ten tie, and the lowest, 1, is returned.
    assert max_scoring_num_rolls(su21.make_test_dice(1), trials_count=10) == 1
    # Dice that always show 2 score 2 per die: the most dice, 10, is the only maximum.
    assert max_scoring_num_rolls(su21.make_test_dice(2), trials_count=10) == 10


def test_more_boar_strategy_has_an_edge_over_always_roll_6():
    # line 538: "You should find that it gives a significant edge over always_roll(6)":
    # exactly, over both seatings, 57.0%
    rules = get_rules("hog-su21")
    mine, six = (
        tabulate(s, rules, "s").choices for s in (su21.more_boar_strategy, su21.always_roll(6))
    )
    assert exact.evaluate(rules, mine, six).average == pytest.approx(0.5700, abs=1e-4)
