"""CS 61A Presents The Game of Hog."""

from dice import six_sided, four_sided, make_test_dice
from ucb import main, trace, interact

GOAL_SCORE = 100  # The goal of Hog is to score 100 points.

######################
# Phase 1: Simulator #
######################


def roll_dice(num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS > 0 times. Return the sum of
    the outcomes unless any of the outcomes is 1. In that case, return 1.
    """
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    # BEGIN PROBLEM 1
    total, pig_out, k = 0, False, 0
    while k < num_rolls:
        outcome = dice()
        pig_out = pig_out or outcome == 1
        total, k = total + outcome, k + 1
    return 1 if pig_out else total
    # END PROBLEM 1


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon).

    score:  The opponent's current score.
    """
    assert score < 100, 'The game should be over.'
    # BEGIN PROBLEM 2
    cube, sign, total = pow(score, 3), 1, 0
    while cube > 0:
        total += sign * (cube % 10)
        cube, sign = cube // 10, -sign
    return 1 + abs(total)
    # END PROBLEM 2


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free Bacon)."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < 100, 'The game should be over.'
    # BEGIN PROBLEM 3
    if num_rolls == 0:
        return free_bacon(opponent_score)
    return roll_dice(num_rolls, dice)
    # END PROBLEM 3


def is_swap(player_score, opponent_score):
    """
    Return whether the two scores should be swapped
    """
    # BEGIN PROBLEM 4
    excitement = pow(3, player_score + opponent_score)
    last = excitement % 10
    while excitement >= 10:
        excitement //= 10
    return excitement == last
    # END PROBLEM 4


def other(who):
    """Return the other player, for a player WHO numbered 0 or 1."""
    return 1 - who


def silence(score0, score1):
    """Announce nothing (see Phase 2)."""
    return silence


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided,
         goal=GOAL_SCORE, say=silence, feral_hogs=True):
    """Simulate a game and return the final scores of both players."""
    who = 0  # Who is about to take a turn, 0 (first) or 1 (second)
    # BEGIN PROBLEM 5
    last0 = last1 = 0
    while score0 < goal and score1 < goal:
        if who == 0:
            rolls = strategy0(score0, score1)
            points = take_turn(rolls, score1, dice)
            score0 += points + (3 if feral_hogs and abs(rolls - last0) == 2 else 0)
            last0 = points
        else:
            rolls = strategy1(score1, score0)
            points = take_turn(rolls, score0, dice)
            score1 += points + (3 if feral_hogs and abs(rolls - last1) == 2 else 0)
            last1 = points
        if is_swap(score0, score1):
            score0, score1 = score1, score0
        who = other(who)
        # END PROBLEM 5
        # BEGIN PROBLEM 6
        say = say(score0, score1)
        # END PROBLEM 6
    return score0, score1


def always_roll(n):
    """Return a strategy that always rolls N dice."""
    def strategy(score, opponent_score):
        return n
    return strategy


def bacon_strategy(score, opponent_score, margin=8, num_rolls=6):
    """This strategy rolls 0 dice if that gives at least MARGIN points, and
    rolls NUM_ROLLS otherwise.
    """
    # BEGIN PROBLEM 10
    return 0 if free_bacon(opponent_score) >= margin else num_rolls
    # END PROBLEM 10


def swap_strategy(score, opponent_score, margin=8, num_rolls=6):
    """This strategy rolls 0 dice when it triggers a beneficial swap. It also
    rolls 0 dice if it gives at least MARGIN points and does not trigger a
    non-beneficial swap. Otherwise, it rolls NUM_ROLLS.
    """
    # BEGIN PROBLEM 11
    after = score + free_bacon(opponent_score)
    if is_swap(after, opponent_score) and after != opponent_score:
        return 0 if after < opponent_score else num_rolls
    return bacon_strategy(score, opponent_score, margin, num_rolls)
    # END PROBLEM 11


def final_strategy(score, opponent_score):
    """Take swaps that help; otherwise free bacon of 9 or more; roll 5 when
    far ahead and 6 otherwise."""
    # BEGIN PROBLEM 12
    if score > opponent_score + 30:
        return swap_strategy(score, opponent_score, 7, 5)
    return swap_strategy(score, opponent_score, 9, 6)
    # END PROBLEM 12


##########################
# Command Line Interface #
##########################


@main
def run(*args):
    """Read in the command-line argument and calls corresponding functions."""
    import argparse
    parser = argparse.ArgumentParser(description="Play Hog")
    parser.add_argument('--run_experiments', '-r', action='store_true',
                        help='Runs strategy experiments')

    args = parser.parse_args()
