import pandas  # not allowed: only the standard library, numpy, dice and ucb


def final_strategy(score, opponent_score):
    return 5
