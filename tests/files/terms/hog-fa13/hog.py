"""The Game of Hog, as a Fall 2013 student hands it in (written for hogbench's tests)."""

from dice import four_sided, six_sided, make_test_dice
from ucb import main, trace, log_current_line, interact

GOAL_SCORE = 100  # The goal of Hog is to score 100 points.

######################
# Phase 1: Simulator #
######################


def roll_dice(num_rolls, dice=six_sided):
    """Roll DICE for NUM_ROLLS times. Return either the sum of the outcomes,
    or 1 if a 1 is rolled (Pig out). This calls DICE exactly NUM_ROLLS times."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    count, total, pigged = 0, 0, False
    while count < num_rolls:
        outcome = dice()
        if outcome == 1:
            pigged = True
        total = total + outcome
        count = count + 1
    if pigged:
        return 1
    return total


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free bacon)."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < 100, 'The game should be over.'
    if num_rolls == 0:
        tens, ones = opponent_score // 10, opponent_score % 10
        return 1 + max(tens, ones)
    return roll_dice(num_rolls, dice)


def select_dice(score, opponent_score):
    """Select six-sided dice unless the sum of SCORE and OPPONENT_SCORE is a
    multiple of 7, in which case select four-sided dice (Hog wild)."""
    if (score + opponent_score) % 7 == 0:
        return four_sided
    return six_sided


def is_swap(score0, score1):
    """Return whether one of the scores is exactly twice the other."""
    return score0 == score1 * 2 or score1 == score0 * 2


def other(who):
    """Return the other player, for a player WHO numbered 0 or 1."""
    return 1 - who


def play(strategy0, strategy1, goal=GOAL_SCORE):
    """Simulate a game and return the final scores of both players."""
    who = 0
    score, opponent_score = 0, 0
    while score < goal and opponent_score < goal:
        strategy = strategy0 if who == 0 else strategy1
        num_rolls = strategy(score, opponent_score)
        dice = select_dice(score, opponent_score)
        score += take_turn(num_rolls, opponent_score, dice)
        if is_swap(score, opponent_score):
            score, opponent_score = opponent_score, score
        who = other(who)
        score, opponent_score = opponent_score, score
    if who == 1:
        return score, opponent_score
    return opponent_score, score


#######################
# Phase 2: Strategies #
#######################


def always_roll(n):
    """Return a strategy that always rolls N dice."""
    def strategy(score, opponent_score):
        return n
    return strategy


BASELINE_NUM_ROLLS = 5
BACON_MARGIN = 8


def bacon_strategy(score, opponent_score):
    """Roll 0 dice when Free bacon gives at least BACON_MARGIN points."""
    if 1 + max(opponent_score // 10, opponent_score % 10) >= BACON_MARGIN:
        return 0
    return BASELINE_NUM_ROLLS


def final_strategy(score, opponent_score):
    """Bacon when it pays, fewer dice when the dice are wild."""
    if (score + opponent_score) % 7 == 0:
        return 3
    return bacon_strategy(score, opponent_score)
