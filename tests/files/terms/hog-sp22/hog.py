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
    outcomes = 0
    sad = False
    for _ in range(num_rolls):
        value = dice()
        sad = sad or value == 1
        outcomes += value
    return 1 if sad else outcomes
    # END PROBLEM 1


def digit_fn(digit):
    """Return the corresponding function for the given DIGIT."""
    assert isinstance(digit, int) and 0 <= digit < 10
    if digit == 0:
        return lambda value: value + 1
    if digit == 1:
        return lambda value: value ** 2
    if digit == 2:
        return lambda value: value * 3
    if digit == 3:
        return lambda value: value // 4
    if digit == 4:
        return lambda value: value - 5
    if digit == 5:
        return lambda value: value % 6
    if digit == 6:
        return lambda value: int((value % 7) * 8)
    if digit == 7:
        return lambda value: int(value * 8.8)
    if digit == 8:
        return lambda value: int(value / 99 * 15) + 10
    return lambda value: value


def hefty_hogs(player_score, opponent_score):
    """Return the points scored by player due to Hefty Hogs."""
    # BEGIN PROBLEM 2
    if opponent_score == 0:
        return 1
    result = player_score
    rest = opponent_score
    while rest > 0:
        result = digit_fn(rest % 10)(result)
        rest = rest // 10
    return result % 30
    # END PROBLEM 2


def take_turn(num_rolls, player_score, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 in the case of a
    player using Hefty Hogs. Return the points scored for the turn."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert max(player_score, opponent_score) < goal, 'The game should be over.'
    # BEGIN PROBLEM 3
    if num_rolls == 0:
        return hefty_hogs(player_score, opponent_score)
    return roll_dice(num_rolls, dice)
    # END PROBLEM 3


def hog_pile(player_score, opponent_score):
    """Return the points scored by player due to Hog Pile."""
    # BEGIN PROBLEM 4
    if player_score % 10 != opponent_score % 10:
        return 0
    return player_score % 10
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
            score0 += hog_pile(score0, score1)
        else:
            score1 += take_turn(strategy1(score1, score0), score1, score0, dice, goal)
            score1 += hog_pile(score1, score0)
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


def hefty_hogs_strategy(score, opponent_score, threshold=8, num_rolls=6):
    """This strategy returns 0 dice if that gives at least THRESHOLD points, and
    returns NUM_ROLLS otherwise."""
    # BEGIN PROBLEM 10
    if hefty_hogs(score, opponent_score) >= threshold:
        return 0
    return num_rolls
    # END PROBLEM 10


def hog_pile_strategy(score, opponent_score, threshold=8, num_rolls=6):
    """This strategy returns 0 dice when this would result in Hog Pile taking
    effect. It also returns 0 dice if it gives at least THRESHOLD points.
    Otherwise, it returns NUM_ROLLS."""
    # BEGIN PROBLEM 11
    if hefty_hogs_strategy(score, opponent_score, threshold, num_rolls) == 0:
        return 0
    after = score + hefty_hogs(score, opponent_score)
    if hog_pile(after, opponent_score) > 0:
        return 0
    return num_rolls
    # END PROBLEM 11


def final_strategy(score, opponent_score):
    """Write a brief description of your final strategy.

    Hog Pile with a higher threshold and one die fewer.
    """
    # BEGIN PROBLEM 12
    return hog_pile_strategy(score, opponent_score, 10, 5)
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
