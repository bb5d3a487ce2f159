def aggressive(score, opponent_score):
    return 8


def careful(score, opponent_score):
    return 3
