"""The Game of Hog, as a Spring 2016 student hands it in (written for hogbench's tests)."""

from dice import four_sided, six_sided, make_test_dice
from ucb import main, trace, log_current_line, interact

GOAL_SCORE = 100  # The goal of Hog is to score 100 points.


def roll_dice(num_rolls, dice=six_sided):
    """Roll DICE for NUM_ROLLS times; 1 if any outcome is a 1 (Pig out)."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    total, pig = 0, False
    for _ in range(num_rolls):
        outcome = dice()
        total += outcome
        pig = pig or outcome == 1
    return 1 if pig else total


def free_bacon(opponent_score):
    """One more than the largest digit of OPPONENT_SCORE."""
    return 1 + max(opponent_score // 10, opponent_score % 10)


def is_prime(n):
    if n <= 1:
        return False
    k = 2
    while k * k <= n:
        if n % k == 0:
            return False
        k += 1
    return True


def next_prime(n):
    n += 1
    while not is_prime(n):
        n += 1
    return n


def hogtimus_prime(turn_score):
    """A prime turn score is boosted to the next prime."""
    if is_prime(turn_score):
        return next_prime(turn_score)
    return turn_score


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free bacon)."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert 0 <= num_rolls <= 10, 'Roll between 0 and 10 dice.'
    assert opponent_score < 100, 'The game should be over.'
    if num_rolls == 0:
        return hogtimus_prime(free_bacon(opponent_score))
    return hogtimus_prime(roll_dice(num_rolls, dice))


def is_perfect_piggy(turn_score):
    """Whether TURN_SCORE (not 1) is a perfect square or a perfect cube."""
    if turn_score == 1:
        return False
    root = 0
    while root * root < turn_score:
        root += 1
    if root * root == turn_score:
        return True
    root = 0
    while root * root * root < turn_score:
        root += 1
    return root * root * root == turn_score


def select_dice(dice_swapped):
    return four_sided if dice_swapped else six_sided


def is_swap(score0, score1):
    """Whether one score is double the other (Swine Swap)."""
    return score0 == 2 * score1 or score1 == 2 * score0


def other(who):
    return 1 - who


def play(strategy0, strategy1, score0=0, score1=0, goal=GOAL_SCORE):
    who, dice_swapped = 0, False
    while score0 < goal and score1 < goal:
        dice = select_dice(dice_swapped)
        if who == 0:
            points = take_turn(strategy0(score0, score1), score1, dice)
            score0 += points
        else:
            points = take_turn(strategy1(score1, score0), score0, dice)
            score1 += points
        if is_perfect_piggy(points):
            dice_swapped = not dice_swapped
        if is_swap(score0, score1):
            score0, score1 = score1, score0
        who = other(who)
    return score0, score1


def always_roll(n):
    def strategy(score, opponent_score):
        return n
    return strategy


def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):
    if hogtimus_prime(free_bacon(opponent_score)) >= margin:
        return 0
    return num_rolls


def final_strategy(score, opponent_score):
    return bacon_strategy(score, opponent_score, 9, 4)
