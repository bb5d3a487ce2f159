"""The Game of Hog, as a Spring 2015 student hands it in (written for hogbench's tests)."""

from dice import four_sided, six_sided, make_test_dice
from ucb import main, trace, log_current_line, interact

GOAL_SCORE = 100  # The goal of Hog is to score 100 points.


def roll_dice(num_rolls, dice=six_sided):
    """Roll DICE for NUM_ROLLS times. Return either the sum of the outcomes,
    or 1 if a 1 is rolled (Pig out)."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    outcomes = [dice() for _ in range(num_rolls)]
    return 1 if 1 in outcomes else sum(outcomes)


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free bacon)."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < 100, 'The game should be over.'
    if num_rolls == 0:
        return max(opponent_score // 10, opponent_score % 10) + 1
    return roll_dice(num_rolls, dice)


def select_dice(score, opponent_score):
    """Select six-sided dice unless the sum of the scores is a multiple of 7."""
    return four_sided if (score + opponent_score) % 7 == 0 else six_sided


def is_prime(n):
    """Return whether N is prime."""
    if n < 2:
        return False
    for k in range(2, n):
        if n % k == 0:
            return False
    return True


def hogtimus_prime(score0, score1, earned_score):
    """If the sum of the scores is prime and they differ, the player in the
    lead gains EARNED_SCORE again. Return the new scores."""
    if score0 != score1 and is_prime(score0 + score1):
        if score0 > score1:
            score0 += earned_score
        else:
            score1 += earned_score
    return score0, score1


def other(who):
    return 1 - who


def play(strategy0, strategy1, score0=0, score1=0, goal=GOAL_SCORE):
    """Simulate a game and return the final scores of both players."""
    who = 0
    while score0 < goal and score1 < goal:
        dice = select_dice(score0, score1)
        if who == 0:
            earned = take_turn(strategy0(score0, score1), score1, dice)
            score0 += earned
        else:
            earned = take_turn(strategy1(score1, score0), score0, dice)
            score1 += earned
        score0, score1 = hogtimus_prime(score0, score1, earned)
        who = other(who)
    return score0, score1


def always_roll(n):
    def strategy(score, opponent_score):
        return n
    return strategy


def bacon_strategy(score, opponent_score, margin=8, num_rolls=5):
    """Roll 0 dice if that gives at least MARGIN points."""
    if max(opponent_score // 10, opponent_score % 10) + 1 >= margin:
        return 0
    return num_rolls


def final_strategy(score, opponent_score):
    return bacon_strategy(score, opponent_score, 7, 5)
