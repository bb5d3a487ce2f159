"""Two candidate strategies and no final_strategy. Expected: ambiguous strategy (bold, careful)."""


def bold(score, opponent_score):
    return 8


def careful(score, opponent_score):
    return 2
