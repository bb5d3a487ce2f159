"""The Game of Hog, as a Summer 2021 student hands it in (written for hogbench's tests)."""

from dice import six_sided, four_sided, make_test_dice
from ucb import main, trace, interact

GOAL_SCORE = 100  # The goal of Hog is to score 100 points.

######################
# Phase 1: Simulator #
######################


def roll_dice(num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS > 0 times. Return the sum of
    the outcomes unless any of the outcomes is 1. In that case, return 1."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    sad, total = False, 0
    for _ in range(num_rolls):
        outcome = dice()
        if outcome == 1:
            sad = True
        total += outcome
    return 1 if sad else total


def piggy_points(score):
    """Return the points scored by rolling 0 dice according to Piggy Points."""
    tens = score // 10 % 10
    ones = score % 10
    return abs(tens - ones) + 4


def take_turn(num_rolls, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Piggy Points)."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    if num_rolls == 0:
        return piggy_points(opponent_score)
    return roll_dice(num_rolls, dice)


def digits(n):
    """The digits of N, e.g. [2, 5] for 25 and [7] for 7."""
    found = [n % 10]
    n //= 10
    while n:
        found.append(n % 10)
        n //= 10
    return found


def more_boar(player_score, opponent_score):
    """Return whether the player gets an extra turn."""
    mine, theirs = digits(player_score), digits(opponent_score)
    return min(mine) < min(theirs) and max(mine) > max(theirs)


def next_player(who):
    """Return the other player, for a player WHO numbered 0 or 1."""
    return 1 - who


def silence(score0, score1):
    """Announce nothing (see Phase 2)."""
    return silence


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided,
         goal=GOAL_SCORE, say=silence):
    """Simulate a game and return the final scores of both players."""
    who = 0
    while score0 < goal and score1 < goal:
        if who == 0:
            score0 += take_turn(strategy0(score0, score1), score1, dice, goal)
            again = more_boar(score0, score1)
        else:
            score1 += take_turn(strategy1(score1, score0), score0, dice, goal)
            again = more_boar(score1, score0)
        say = say(score0, score1)
        if not again:
            who = next_player(who)
    return score0, score1


#######################
# Phase 3: Strategies #
#######################


def always_roll(n):
    def strategy(score, opponent_score):
        return n
    return strategy


def piggypoints_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """Roll 0 dice if Piggy Points gives at least CUTOFF points."""
    return 0 if piggy_points(opponent_score) >= cutoff else num_rolls


def more_boar_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """Roll 0 dice when that gives an extra turn, or CUTOFF points."""
    if more_boar(score + piggy_points(opponent_score), opponent_score):
        return 0
    return piggypoints_strategy(score, opponent_score, cutoff, num_rolls)


def final_strategy(score, opponent_score):
    return more_boar_strategy(score, opponent_score, 9, 6)
