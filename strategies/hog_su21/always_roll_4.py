"""Always roll 4 dice, whatever the scores.

Around 5 or 6 dice the average turn score of Sow Sad is at its highest (about 8.7 points
for 6 dice): the baseline of the course.
"""

TEAM_NAME = "Always 4"


def final_strategy(score, opponent_score):
    return 4
