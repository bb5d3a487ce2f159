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
    rolled_one, total = False, 0
    for _ in range(num_rolls):
        value = dice()
        if value == 1:
            rolled_one = True
        total += value
    return 1 if rolled_one else total
    # END PROBLEM 1


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon)."""
    assert score < 100, 'The game should be over.'
    # BEGIN PROBLEM 2
    return 1 + min(score // 10, score % 10)
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
    while player_score > 0 and opponent_score > 0:
        if player_score % 10 == opponent_score % 10:
            return True
        player_score, opponent_score = player_score // 10, opponent_score // 10
    return False
    # END PROBLEM 4


def other(player):
    """Return the other player, for a player PLAYER numbered 0 or 1."""
    return 1 - player


def silence(score0, score1):
    """Announce nothing (see Phase 2)."""
    return silence


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided,
         goal=GOAL_SCORE, say=silence):
    """Simulate a game and return the final scores of both players."""
    player = 0
    # BEGIN PROBLEM 5
    while score0 < goal and score1 < goal:
        if player == 0:
            score0 += take_turn(strategy0(score0, score1), score1, dice)
        else:
            score1 += take_turn(strategy1(score1, score0), score0, dice)
        if is_swap(score0, score1):
            score0, score1 = score1, score0
        player = other(player)
        say = say(score0, score1)
    # END PROBLEM 5
    return score0, score1


def always_roll(n):
    """Return a strategy that always rolls N dice."""
    def strategy(score, opponent_score):
        return n
    return strategy


def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):
    """Roll 0 dice if that gives at least MARGIN points, else NUM_ROLLS."""
    # BEGIN PROBLEM 10
    return 0 if free_bacon(opponent_score) >= margin else num_rolls
    # END PROBLEM 10


def swap_strategy(score, opponent_score, margin=8, num_rolls=4):
    """Roll 0 dice when it triggers a beneficial swap, or when it gives at
    least MARGIN points and does not trigger a non-beneficial swap."""
    # BEGIN PROBLEM 11
    new_score = score + free_bacon(opponent_score)
    swaps = is_swap(new_score, opponent_score)
    if swaps and new_score < opponent_score:
        return 0
    if swaps and new_score > opponent_score:
        return num_rolls
    return bacon_strategy(score, opponent_score, margin, num_rolls)
    # END PROBLEM 11


def final_strategy(score, opponent_score):
    """Take any beneficial swap, then free points near the end, else roll
    fewer dice when ahead."""
    # BEGIN PROBLEM 12
    if score + free_bacon(opponent_score) >= GOAL_SCORE:
        if not is_swap(score + free_bacon(opponent_score), opponent_score):
            return 0
    if score > opponent_score + 20:
        return swap_strategy(score, opponent_score, 5, 3)
    return swap_strategy(score, opponent_score, 6, 5)
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
