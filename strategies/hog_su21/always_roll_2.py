"""Always roll 2 dice, whatever the scores.

Few dice rarely show a 1 (Sow Sad), but their sum is small too.
"""

TEAM_NAME = "Always 2"


def final_strategy(score, opponent_score):
    return 2
