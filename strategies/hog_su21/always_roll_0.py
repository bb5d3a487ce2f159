"""Always roll 0 dice, whatever the scores.

Rolling 0 dice always takes Piggy Points: |tens - ones| of the opponent's score, plus 4.
Safe (never a Sow Sad) but small: 4 to 13 points a turn, and the opponent's digits decide.
"""

TEAM_NAME = "Always 0"


def final_strategy(score, opponent_score):
    return 0
