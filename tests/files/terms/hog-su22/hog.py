"""CS 61A Presents The Game of Hog."""

from dice import six_sided, four_sided, make_test_dice
from ucb import main, trace, interact, log_current_line
from math import sqrt

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
    total, pigged = 0, False
    while num_rolls > 0:
        value = dice()
        if value == 1:
            pigged = True
        total += value
        num_rolls -= 1
    if pigged:
        return 1
    return total
    # END PROBLEM 1


def oink_points(player_score, opponent_score):
    """Return the points scored by player due to Oink Points."""
    # BEGIN PROBLEM 2
    ones = opponent_score % 10
    tens = opponent_score // 10 % 10
    points = 2 * tens - ones
    if points < 1:
        points = 1
    return points
    # END PROBLEM 2


def take_turn(num_rolls, player_score, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 in the case of a
    player using Oink Points. Return the points scored for the turn."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert max(player_score, opponent_score) < goal, 'The game should be over.'
    # BEGIN PROBLEM 3
    if num_rolls == 0:
        return oink_points(player_score, opponent_score)
    else:
        return roll_dice(num_rolls, dice)
    # END PROBLEM 3


def is_prime(n):
    if n == 2:
        return True
    elif n % 2 == 0:
        return False
    i = 3
    while i <= sqrt(n):
        if n % i == 0:
            return False
        i += 2
    return True


def pigs_on_prime(player_score, opponent_score):
    """Return the points scored by the current player due to Pigs on Prime."""
    # BEGIN PROBLEM 4
    if not is_prime(player_score):
        return 0
    next_prime = player_score + 1
    while not is_prime(next_prime):
        next_prime += 1
    return next_prime - player_score
    # END PROBLEM 4


def next_player(who):
    """Return the other player, for a player WHO numbered 0 or 1."""
    return 1 - who


def silence(score0, score1, leader=None):
    """Announce nothing (see Phase 2)."""
    return leader, None


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided,
         goal=GOAL_SCORE, say=silence):
    """Simulate a game and return the final scores of both players."""
    who = 0  # Who is about to take a turn, 0 (first) or 1 (second)
    leader = None  # To be used in problem 7
    # BEGIN PROBLEM 5
    while score0 < goal and score1 < goal:
        if who == 0:
            score0 += take_turn(strategy0(score0, score1), score0, score1, dice, goal)
            score0 += pigs_on_prime(score0, score1)
        else:
            score1 += take_turn(strategy1(score1, score0), score1, score0, dice, goal)
            score1 += pigs_on_prime(score1, score0)
        who = next_player(who)
        # END PROBLEM 5
        # BEGIN PROBLEM 7
        leader, message = say(score0, score1, leader)
        if message:
            print(message)
        # END PROBLEM 7
    return score0, score1


#######################
# Phase 3: Strategies #
#######################


def always_roll(n):
    """Return a strategy that always rolls N dice."""
    def strategy(score, opponent_score):
        return n
    return strategy


def oink_points_strategy(score, opponent_score, threshold=8, num_rolls=6):
    """This strategy returns 0 dice if that gives at least THRESHOLD points, and
    returns NUM_ROLLS otherwise."""
    # BEGIN PROBLEM 10
    if oink_points(score, opponent_score) >= threshold:
        return 0
    return num_rolls
    # END PROBLEM 10


def pigs_on_prime_strategy(score, opponent_score, threshold=8, num_rolls=6):
    """This strategy returns 0 dice when this would result in Pigs on Prime taking
    effect. It also returns 0 dice if it gives at least THRESHOLD points.
    Otherwise, it returns NUM_ROLLS."""
    # BEGIN PROBLEM 11
    gain = oink_points(score, opponent_score)
    if pigs_on_prime(score + gain, opponent_score) > 0 or gain >= threshold:
        return 0
    return num_rolls
    # END PROBLEM 11


def final_strategy(score, opponent_score):
    """Write a brief description of your final strategy.

    Pigs on Prime with a higher threshold and one die fewer.
    """
    # BEGIN PROBLEM 12
    return pigs_on_prime_strategy(score, opponent_score, 10, 5)
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
