"""Always roll 8 dice, whatever the scores.

Big sums when no die shows a 1, which is rare with this many dice.
"""

TEAM_NAME = "Always 8"


def final_strategy(score, opponent_score):
    return 8
