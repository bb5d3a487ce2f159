"""The Big Pig text (seed 004, rules-sources/004_297586f15ed07790.txt), example by example:
each test runs one worked example of the text against the course's Big Pig functions (the
big-pig rule set's module) or its rule set, and says in a comment where in the text it is (line
numbers of that file). The text has no doctests.

What the text holds, and where it is tested:

- Rules 1-5, each with its example: Big Pig, 6 + 2 = 8, two 1s add 25, 2 * (5 + 5) = 20, hold
  (lines 37-45): test_roll_points_follow_the_text
- The game ends after a round in which someone has 100, the higher score winning; "If both the
  user and the computer get to 100, the higher score wins" (lines 47, 81): test_rounds
- The demonstration game: HUMAN 18, COMPUTER 41, then a Big Pig each (lines 53-69):
  test_demonstration_game
- "The user always goes first and the computer always gets a final turn" (lines 53, 77):
  test_the_user_goes_first
- "The only allowed user input is roll or hold, as well as r or h for short" (line 79):
  test_only_roll_or_hold
- The computer's rules: roll below 20 while the player has fewer than 100; then roll until
  the points would let it win (lines 85-95): test_the_computer
"""

from __future__ import annotations

import itertools

import pytest

from hogbench.errors import IllegalChoice
from hogbench.loading import load_entrant
from hogbench.rules import big_pig, get_rules
from tests.test_rules_cousins import big_pig_points


def test_roll_points_follow_the_text():
    # lines 37-43: a 1 on one die only scores nothing; 6 and 2 add 8; two 1s add 25; two 5s
    # add 2 * (5 + 5) = 20; and the demonstration's rolls (lines 55-67)
    assert big_pig.roll_points(6, 2) == 8
    assert big_pig.roll_points(5, 6) == 11 and big_pig.roll_points(3, 4) == 7
    assert big_pig.roll_points(4, 4) == 16 and big_pig.roll_points(1, 1) == 25
    assert big_pig.roll_points(6, 6) == 24 and big_pig.roll_points(5, 5) == 20
    assert big_pig.roll_points(4, 1) == 0 and big_pig.roll_points(1, 3) == 0
    for d1, d2 in itertools.product(range(1, 7), repeat=2):
        assert big_pig.roll_points(d1, d2) == big_pig_points(d1, d2)


def test_rounds():
    # lines 47 and 81: after a round in which someone has the goal, the higher score wins
    holder = big_pig.hold_at(1)
    # Both reach the goal in the same round: equal scores tie.
    assert big_pig.play(holder, holder, goal=10, dice=big_pig.make_test_dice(6, 5)) == (11, 11)
    # The first player reaches the goal; the second still has the round's last turn.
    dice = big_pig.make_test_dice(6, 5, 6, 6, 5, 5)  # 11, then 24 + 20
    assert big_pig.play(holder, big_pig.hold_at(30), goal=10, dice=dice) == (11, 44)


def test_demonstration_game():
    """Lines 53-69, the text's demonstration: human 18, computer 41, then a Big Pig each."""
    dice = big_pig.make_test_dice(5, 6, 3, 4, 4, 4, 1, 1, 6, 6, 4, 5, 4, 1, 3, 2, 6, 2, 1, 3)
    answers = iter(["roll", "hold", "roll", "roll"])

    def human(score, opponent_score, turn_total):
        return next(answers)

    computer = big_pig.computer()
    assert big_pig.take_turn(human, 0, 0, dice) == 18
    assert big_pig.take_turn(computer, 0, 18, dice) == 41
    assert big_pig.take_turn(human, 18, 41, dice) == 0
    assert big_pig.take_turn(computer, 41, 18, dice) == 0


def test_the_user_goes_first():
    # lines 53 and 77: "The user always goes first and the computer always gets a final turn"
    assert get_rules("big-pig").person_moves_first
    assert not get_rules("pig").person_moves_first  # a game whose text does not say: asked


def test_only_roll_or_hold():
    # line 79: "The only allowed user input is roll or hold, as well as r or h for short."
    rules = get_rules("big-pig")
    for word, move in [("roll", big_pig.ROLL), ("r", big_pig.ROLL), ("hold", big_pig.HOLD),
                       ("h", big_pig.HOLD), (" Roll ", big_pig.ROLL)]:  # fmt: skip
        assert rules.parse_choice(word) == move
    for bad in ("x", "4", "", "rollhold"):
        with pytest.raises(IllegalChoice, match="type r to roll or h to hold"):
            rules.parse_choice(bad)


def test_the_computer():
    # lines 85-95: while the player has fewer than 100, roll below a round score of 20, else
    # hold; once the player has 100 or more, roll while the points so far do not win
    computer = big_pig.computer()
    assert computer(0, 99, 19) is True and computer(0, 99, 20) is False
    assert computer(50, 110, 60) is True and computer(50, 110, 61) is False
    goal = big_pig.computer(10)  # the same rules at goal 10
    assert goal(0, 9, 19) is True and goal(0, 9, 20) is False
    assert goal(5, 12, 7) is True and goal(5, 12, 8) is False  # rolls until ahead
    # and as the rule set's built-in, the table every engine plays
    rules = get_rules("big-pig", 20)
    table = load_entrant("computer", rules).table
    assert table.at(rules, 0, 10, 19) == big_pig.ROLL and table.at(rules, 0, 10, 20) == big_pig.HOLD
    assert table.at(rules, 3, 30, 27) == big_pig.ROLL and table.at(rules, 3, 30, 28) == big_pig.HOLD
