"""more_boar_strategy with other numbers: Piggy Points from 7 points, otherwise 5 dice.

The course asks students to try cutoffs and dice counts; this is one such try. Compare it with
more_boar.py (8 and 6) in a tournament to see which numbers are better.
"""

TEAM_NAME = "More Boar 7/5"
CUTOFF = 7
NUM_ROLLS = 5


def piggy_points(score):
    return abs((score // 10) % 10 - score % 10) + 4


def digits(n):
    return [int(d) for d in str(n)]


def more_boar(player_score, opponent_score):
    mine, theirs = digits(player_score), digits(opponent_score)
    return min(mine) < min(theirs) and max(mine) > max(theirs)


def final_strategy(score, opponent_score):
    if more_boar(score + piggy_points(opponent_score), opponent_score):
        return 0
    return 0 if piggy_points(opponent_score) >= CUTOFF else NUM_ROLLS
