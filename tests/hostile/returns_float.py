"""Returns 4.0, a float. Expected: illegal move, returned 4.0 (float), not an int."""


def final_strategy(score, opponent_score):
    return 4.0
