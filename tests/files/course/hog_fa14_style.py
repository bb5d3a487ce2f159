"""The Game of Hog, as a student of an early term hands it in (written for hogbench's tests)."""

from dice import four_sided, six_sided, make_test_dice
from ucb import main, trace, log_current_line, interact

GOAL_SCORE = 100


def roll_dice(num_rolls, dice=six_sided):
    assert type(num_rolls) == int, "num_rolls must be an integer."
    assert num_rolls > 0, "Must roll at least once."
    total, pig = 0, False
    for _ in range(num_rolls):
        outcome = dice()
        pig = pig or outcome == 1
        total += outcome
    return 1 if pig else total


def piggy_points(score):
    return abs((score // 10) % 10 - score % 10) + 4


def final_strategy(score, opponent_score):
    """Piggy Points when it gives at least 8, else six dice."""
    if piggy_points(opponent_score) >= 8:
        return 0
    return 6


@main
def run(*args):
    """Read in the command-line argument and calls corresponding functions."""
    interact()
