"""Always roll 4 dice, whatever the scores.

The course measures final strategies against this one: its baseline.
"""

TEAM_NAME = "Always 4"


def final_strategy(score, opponent_score):
    return 4
