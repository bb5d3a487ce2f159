"""The Game of Hog in the oldest skeleton's shape: its dice are four_sided_dice and six_sided_dice
(written for hogbench's tests)."""

from dice import four_sided_dice, six_sided_dice, make_test_dice
from ucb import main, trace, log_current_line, interact

goal = 100  # The goal of Hog is to score 100 points.
commentary = False  # Whether to display commentary for every roll.


def roll_dice(num_rolls, dice=six_sided_dice, who="Boss Hogg"):
    """Calculate WHO's turn score after rolling DICE for NUM_ROLLS times."""
    assert type(num_rolls) == int, "num_rolls must be an integer."
    assert num_rolls > 0, "Must roll at least once."
    outcomes = [dice() for _ in range(num_rolls)]
    return 1 if 1 in outcomes else sum(outcomes)


def select_dice(score, opponent_score):
    """Select 6-sided dice unless the sum of scores is a multiple of 7.

    >>> select_dice(4, 24) == four_sided_dice
    True
    """
    if (score + opponent_score) % 7 == 0:
        return four_sided_dice
    return six_sided_dice


def final_strategy(score, opponent_score):
    """Fewer dice on the four-sided dice; rolls nothing when Free Bacon finishes the game."""
    if goal - score <= 1 + max(opponent_score // 10, opponent_score % 10):
        return 0
    if select_dice(score, opponent_score) == four_sided_dice:
        return 3
    return 5


@main
def run(*args):
    """Read in the command-line argument and calls corresponding functions."""
    interact()
