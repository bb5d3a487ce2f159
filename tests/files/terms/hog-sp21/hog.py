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
    total, sad = 0, False
    while num_rolls:
        outcome = dice()
        sad = sad or outcome == 1
        total, num_rolls = total + outcome, num_rolls - 1
    return 1 if sad else total
    # END PROBLEM 1


def piggy_points(score):
    """Return the points scored from rolling 0 dice.

    score:  The opponent's current score.
    """
    # BEGIN PROBLEM 2
    square, smallest = score * score, 9
    while square >= 10:
        smallest = min(smallest, square % 10)
        square //= 10
    return 3 + min(smallest, square)
    # END PROBLEM 2


def take_turn(num_rolls, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 in the case
    of a player using Piggy Points."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < goal, 'The game should be over.'
    # BEGIN PROBLEM 3
    if num_rolls == 0:
        return piggy_points(opponent_score)
    return roll_dice(num_rolls, dice)
    # END PROBLEM 3


def more_boar(player_score, opponent_score):
    """Return whether the player gets an extra turn."""
    # BEGIN PROBLEM 4
    def first_two(score):
        while score >= 100:
            score //= 10
        return score // 10, score % 10
    p1, p2 = first_two(player_score)
    o1, o2 = first_two(opponent_score)
    return p1 < o1 and p2 < o2
    # END PROBLEM 4


def next_player(who):
    """Return the other player, for a player WHO numbered 0 or 1."""
    return 1 - who


def silence(score0, score1):
    """Announce nothing (see Phase 2)."""
    return silence


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided,
         goal=GOAL_SCORE, say=silence):
    """Simulate a game and return the final scores of both players."""
    who = 0  # Who is about to take a turn, 0 (first) or 1 (second)
    # BEGIN PROBLEM 5
    while score0 < goal and score1 < goal:
        if who == 0:
            score0 += take_turn(strategy0(score0, score1), score1, dice, goal)
            if not more_boar(score0, score1):
                who = next_player(who)
        else:
            score1 += take_turn(strategy1(score1, score0), score0, dice, goal)
            if not more_boar(score1, score0):
                who = next_player(who)
        # END PROBLEM 5
        # BEGIN PROBLEM 6
        say = say(score0, score1)
        # END PROBLEM 6
    return score0, score1


#######################
# Phase 3: Strategies #
#######################


def always_roll(n):
    """Return a strategy that always rolls N dice."""
    def strategy(score, opponent_score):
        return n
    return strategy


def piggypoints_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice if that gives at least CUTOFF points, and
    rolls NUM_ROLLS otherwise."""
    # BEGIN PROBLEM 10
    return 0 if piggy_points(opponent_score) >= cutoff else num_rolls
    # END PROBLEM 10


def more_boar_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice when it triggers an extra turn. It also
    rolls 0 dice if it gives at least CUTOFF points and does not give an extra turn.
    Otherwise, it rolls NUM_ROLLS."""
    # BEGIN PROBLEM 11
    if more_boar(score + piggy_points(opponent_score), opponent_score):
        return 0
    return piggypoints_strategy(score, opponent_score, cutoff, num_rolls)
    # END PROBLEM 11


def final_strategy(score, opponent_score):
    """Write a brief description of your final strategy.

    More Boar whenever it triggers; Piggy Points for 7 or more; else 5 dice.
    """
    # BEGIN PROBLEM 12
    return more_boar_strategy(score, opponent_score, 7, 5)
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
