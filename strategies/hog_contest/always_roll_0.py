"""Always roll 0 dice, whatever the scores.

Free Bacon every turn: 1 + the largest digit of the opponent's score, raised to the next
prime when prime (Hogtimus Prime). Safe, but it never scores more than 11.
"""

TEAM_NAME = "Always 0"


def final_strategy(score, opponent_score):
    return 0
