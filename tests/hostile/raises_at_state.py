"""Divides by zero at (8, 0). Expected: raised ZeroDivisionError at (8, 0)."""


def final_strategy(score, opponent_score):
    if (score, opponent_score) == (8, 0):
        return 1 // 0
    return 4
