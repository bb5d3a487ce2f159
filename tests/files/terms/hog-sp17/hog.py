"""The Game of Hog, as a Spring 2017 student hands it in (written for hogbench's tests)."""

from dice import four_sided, six_sided, make_test_dice
from ucb import main, trace, log_current_line, interact

GOAL_SCORE = 100  # The goal of Hog is to score 100 points.

######################
# Phase 1: Simulator #
######################


def roll_dice(num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS > 0 times. Return the sum of
    the outcomes unless any of the outcomes is 1. In that case, return the
    number of 1's rolled (capped at 11 - NUM_ROLLS)."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    total, ones = 0, 0
    for _ in range(num_rolls):
        outcome = dice()
        if outcome == 1:
            ones += 1
        total += outcome
    if ones:
        return min(ones, 11 - num_rolls)
    return total


def free_bacon(opponent_score):
    """Return the points scored from rolling 0 dice (Free Bacon)."""
    return max(opponent_score // 10, opponent_score % 10) + 1


def is_prime(n):
    """Return whether N is prime."""
    if n == 1 or n == 0:
        return False
    d = 2
    while d < n:
        if n % d == 0:
            return False
        d += 1
    return True


def next_prime(n):
    """The smallest prime larger than N."""
    candidate = n + 1
    while not is_prime(candidate):
        candidate += 1
    return candidate


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free Bacon).
    Return the points scored for the turn by the current player."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < 100, 'The game should be over.'
    if num_rolls == 0:
        points = free_bacon(opponent_score)
    else:
        points = roll_dice(num_rolls, dice)
    if is_prime(points):
        return next_prime(points)
    return points


def select_dice(score, opponent_score):
    """Four-sided dice when the sum of the scores is a multiple of 7 (Hog Wild)."""
    if (score + opponent_score) % 7 == 0:
        return four_sided
    return six_sided


def is_swap(score0, score1):
    """Returns whether one of the scores is double the other."""
    return score0 * 2 == score1 or score1 * 2 == score0


def other(player):
    """Return the other player, for a player PLAYER numbered 0 or 1."""
    return 1 - player


def play(strategy0, strategy1, score0=0, score1=0, goal=GOAL_SCORE):
    """Simulate a game and return the final scores of both players."""
    player = 0
    while score0 < goal and score1 < goal:
        dice = select_dice(score0, score1)
        if player == 0:
            score0 += take_turn(strategy0(score0, score1), score1, dice)
        else:
            score1 += take_turn(strategy1(score1, score0), score0, dice)
        if is_swap(score0, score1):
            score0, score1 = score1, score0
        player = other(player)
    return score0, score1


#######################
# Phase 2: Strategies #
#######################


def always_roll(n):
    def strategy(score, opponent_score):
        return n
    return strategy


def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):
    """Roll 0 dice if that gives at least MARGIN points."""
    points = free_bacon(opponent_score)
    if is_prime(points):
        points = next_prime(points)
    return 0 if points >= margin else num_rolls


def swap_strategy(score, opponent_score, margin=8, num_rolls=4):
    """Roll 0 dice when it triggers a beneficial swap, or gives MARGIN points."""
    points = free_bacon(opponent_score)
    if is_prime(points):
        points = next_prime(points)
    if 2 * (score + points) == opponent_score:
        return 0
    return bacon_strategy(score, opponent_score, margin, num_rolls)


def final_strategy(score, opponent_score):
    return swap_strategy(score, opponent_score, 8, 4)
