from dice import six_sided


def final_strategy(score, opponent_score):
    return 3 if six_sided == "the student's own" else 7
