"""The course's bacon_strategy: roll 0 when Free Bacon gives at least 8 points, else roll 6.

Free Bacon scores 10 - ones + tens of the opponent's score (e.g. 11 points against 32).
"""

TEAM_NAME = "Bacon 8/6"
CUTOFF = 8
NUM_ROLLS = 6


def free_bacon(opponent_score):
    return 10 - opponent_score % 10 + (opponent_score // 10) % 10


def final_strategy(score, opponent_score):
    return 0 if free_bacon(opponent_score) >= CUTOFF else NUM_ROLLS
