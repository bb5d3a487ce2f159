"""Returns the string '4'. Expected: illegal move, returned '4' (str), not an int."""


def final_strategy(score, opponent_score):
    return "4"
