"""The course's piggypoints_strategy: roll 0 when Piggy Points gives at least 8, else roll 6.

Piggy Points scores |tens - ones| of the opponent's score, plus 4, so it is worth taking when the
opponent's digits are far apart (e.g. 19 or 91 give 12 points). Otherwise 6 dice, the best
average under Sow Sad.
"""

TEAM_NAME = "Piggy Points 8/6"
CUTOFF = 8
NUM_ROLLS = 6


def piggy_points(score):
    return abs((score // 10) % 10 - score % 10) + 4


def final_strategy(score, opponent_score):
    return 0 if piggy_points(opponent_score) >= CUTOFF else NUM_ROLLS
