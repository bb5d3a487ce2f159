"""The Game of Hog, as a Summer 2020 student hands it in (written for hogbench's tests)."""

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
    rolled = []
    while len(rolled) < num_rolls:
        rolled.append(dice())
    if 1 in rolled:
        return 1
    return sum(rolled)


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon): 10 minus the
    ones digit plus the tens digit of SCORE, the opponent's score."""
    assert score < 100, 'The game should be over.'
    return 10 - score % 10 + score // 10


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free Bacon)."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < 100, 'The game should be over.'
    if num_rolls == 0:
        return free_bacon(opponent_score)
    return roll_dice(num_rolls, dice)


def is_swap(player_score, opponent_score):
    """Return whether the two scores should be swapped."""
    ones_gap = abs(player_score % 10 - opponent_score % 10)
    return ones_gap == opponent_score // 10 % 10


def next_player(who):
    """Return the other player, for a player WHO numbered 0 or 1."""
    return 1 - who


def silence(score0, score1):
    """Announce nothing (see Phase 2)."""
    return silence


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided,
         goal=GOAL_SCORE, say=silence, feral_hogs=True):
    """Simulate a game and return the final scores of both players."""
    who = 0
    last0, last1 = 0, 0
    while score0 < goal and score1 < goal:
        if who == 0:
            rolls = strategy0(score0, score1)
            points = take_turn(rolls, score1, dice)
            bonus = 3 if feral_hogs and abs(rolls - last0) == 2 else 0
            last0 = points
            score0 += points + bonus
            if is_swap(score0, score1):
                score0, score1 = score1, score0
        else:
            rolls = strategy1(score1, score0)
            points = take_turn(rolls, score0, dice)
            bonus = 3 if feral_hogs and abs(rolls - last1) == 2 else 0
            last1 = points
            score1 += points + bonus
            if is_swap(score1, score0):
                score0, score1 = score1, score0
        who = next_player(who)
        say = say(score0, score1)
    return score0, score1


#######################
# Phase 3: Strategies #
#######################


def always_roll(n):
    def strategy(score, opponent_score):
        return n
    return strategy


def bacon_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """Roll 0 dice if Free Bacon gives at least CUTOFF points."""
    return 0 if free_bacon(opponent_score) >= cutoff else num_rolls


def swap_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """Roll 0 dice when it triggers a beneficial swap, or gives CUTOFF points."""
    new_score = score + free_bacon(opponent_score)
    if is_swap(new_score, opponent_score) and opponent_score > new_score:
        return 0
    return bacon_strategy(score, opponent_score, cutoff, num_rolls)


def final_strategy(score, opponent_score):
    return swap_strategy(score, opponent_score, 9, 5)
