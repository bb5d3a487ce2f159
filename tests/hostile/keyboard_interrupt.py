"""Raises KeyboardInterrupt at (0, 9). Expected: tried to stop the interpreter (KeyboardInterrupt) at (0, 9)."""


def final_strategy(score, opponent_score):
    if (score, opponent_score) == (0, 9):
        raise KeyboardInterrupt
    return 4
