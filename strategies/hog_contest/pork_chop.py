"""Pork Chop when far behind: -1 (swap the scores for no points) once the opponent leads by 30,
otherwise always 5 dice.

A strategy cannot see whether it has used its Pork Chop: after the first, every -1 rolls 10
dice. This one keeps asking for -1 while it is 30 behind, so it sometimes rolls 10 dice.
"""

TEAM_NAME = "Chop Suey"


def final_strategy(score, opponent_score):
    if opponent_score - score >= 30:
        return -1
    return 5
