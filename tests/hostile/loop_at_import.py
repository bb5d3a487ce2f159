"""Infinite loop at import. Expected: timed out while importing."""

while True:
    pass


def final_strategy(score, opponent_score):
    return 4
