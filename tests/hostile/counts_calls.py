"""Counts its calls in a global and answers by the count. Expected: not deterministic (the second, reversed pass differs)."""

calls = 0


def final_strategy(score, opponent_score):
    global calls
    calls += 1
    return calls % 11
