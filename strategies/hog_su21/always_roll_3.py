"""Always roll 3 dice, whatever the scores.

Few dice rarely show a 1 (Sow Sad), but their sum is small too.
"""

TEAM_NAME = "Always 3"


def final_strategy(score, opponent_score):
    return 3
