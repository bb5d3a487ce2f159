"""A hog contest entry, as a student hands it in for the Spring 2017 contest (written for
hogbench's tests): the project's course functions beside the final strategy."""

from dice import four_sided, six_sided, make_test_dice

TEAM_NAME = 'Hogs of War'  # Change this line!

GOAL_SCORE = 100


def roll_dice(num_rolls, dice=six_sided):
    """The sum of NUM_ROLLS outcomes of DICE, or the number of 1's rolled,
    at most 11 - NUM_ROLLS (Pig Out)."""
    assert type(num_rolls) == int and num_rolls > 0
    outcomes = [dice() for _ in range(num_rolls)]
    if 1 in outcomes:
        return min(outcomes.count(1), 11 - num_rolls)
    return sum(outcomes)


def free_bacon(opponent_score):
    return 1 + max(int(d) for d in str(opponent_score))


def is_prime(n):
    return n > 1 and all(n % d for d in range(2, n))


def next_prime(n):
    n += 1
    while not is_prime(n):
        n += 1
    return n


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Points for a turn of NUM_ROLLS dice (0: Free Bacon), after Hogtimus Prime."""
    points = free_bacon(opponent_score) if num_rolls == 0 else roll_dice(num_rolls, dice)
    return next_prime(points) if is_prime(points) else points


def is_swap(score0, score1):
    return score0 == 2 * score1 or score1 == 2 * score0


def final_strategy(score, opponent_score):
    """Pork Chop when far behind, Free Bacon when it pays, else four dice."""
    points = take_turn(0, opponent_score)
    if is_swap(score + points, opponent_score) and opponent_score > score + points:
        return 0
    if opponent_score - score > 40:
        return -1
    if points >= 8:
        return 0
    return 4
