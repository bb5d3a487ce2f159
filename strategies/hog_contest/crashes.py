"""A strategy that crashes: it takes the largest digit of the score difference, which is
negative when behind, and int("-") fails.

At any state where it trails, it raises ValueError, and the submission is disqualified with the
scores where it happened.
"""

TEAM_NAME = "Digit Trouble"


def final_strategy(score, opponent_score):
    largest = max(int(d) for d in str(score - opponent_score))  # ValueError on "-"
    return 4 if largest > 5 else 6
