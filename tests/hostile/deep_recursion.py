"""Recurses without end at (6, 2). Expected: raised RecursionError at (6, 2)."""


def deeper(n):
    return deeper(n + 1) + 1


def final_strategy(score, opponent_score):
    if (score, opponent_score) == (6, 2):
        return deeper(0)
    return 4
