from hog import *  # noqa: F403  (students import their project this way)


def final_strategy(score, opponent_score):
    return 0 if piggy_points(opponent_score) >= 9 else 6  # noqa: F405
