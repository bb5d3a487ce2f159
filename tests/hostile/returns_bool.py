"""Returns True, a bool. Expected: illegal move, returned True (bool), not an int."""


def final_strategy(score, opponent_score):
    return True
