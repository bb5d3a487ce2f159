"""Infinite loop at one state, (7, 3). Expected: timed out at (7, 3)."""


def final_strategy(score, opponent_score):
    while (score, opponent_score) == (7, 3):
        pass
    return 4
