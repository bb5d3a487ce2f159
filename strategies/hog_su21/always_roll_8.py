"""Always roll 8 dice, whatever the scores.

Many dice give big sums, but a 1 among them (Sow Sad) becomes likely: the turn often scores 1.
"""

TEAM_NAME = "Always 8"


def final_strategy(score, opponent_score):
    return 8
