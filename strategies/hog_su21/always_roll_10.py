"""Always roll 10 dice, whatever the scores.

Many dice give big sums, but a 1 among them (Sow Sad) becomes likely: the turn often scores 1.
"""

TEAM_NAME = "Always 10"


def final_strategy(score, opponent_score):
    return 10
