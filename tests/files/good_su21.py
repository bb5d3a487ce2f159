"""A small, valid hog-su21 strategy used by the tests."""

TEAM_NAME = "Test Team"


def final_strategy(score, opponent_score):
    return 0 if opponent_score % 10 in (0, 9) else 5
