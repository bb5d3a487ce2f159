"""Returns 11 at (0, 0). Expected: illegal move at (0, 0), returned 11, outside 0..10."""


def final_strategy(score, opponent_score):
    return 11 if (score, opponent_score) == (0, 0) else 4
