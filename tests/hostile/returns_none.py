"""Forgets to return when ahead (score > opponent_score). Expected: illegal move at (1, 0), returned None (NoneType)."""


def final_strategy(score, opponent_score):
    if score <= opponent_score:
        return 4
