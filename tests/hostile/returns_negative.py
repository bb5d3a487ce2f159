"""Returns -2 at (5, 6). Expected: illegal move at (5, 6), returned -2, outside 0..10."""


def final_strategy(score, opponent_score):
    return -2 if (score, opponent_score) == (5, 6) else 4
