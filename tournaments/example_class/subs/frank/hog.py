"""piggypoints_strategy with an endgame: near the goal, roll fewer dice.

Needing only a few points, a Sow Sad (one die showing 1) is the main danger, so with at most 10
points to go it rolls 3 dice, and it takes Piggy Points whenever that reaches the goal.
"""

TEAM_NAME = "Endgame"
GOAL = 100


def piggy_points(score):
    return abs((score // 10) % 10 - score % 10) + 4


def final_strategy(score, opponent_score):
    bacon = piggy_points(opponent_score)
    if score + bacon >= GOAL:
        return 0
    if GOAL - score <= 10:
        return 3
    return 0 if bacon >= 8 else 6
