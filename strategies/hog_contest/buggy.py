"""A deliberate bug: "-1 means Pork Chop, so -2 must be a double Pork Chop".

There is no such move: -2 is illegal, and one illegal answer anywhere disqualifies the
submission, with the scores where it happened.
"""

TEAM_NAME = "Double Chop"


def final_strategy(score, opponent_score):
    if opponent_score - score >= 50:
        return -2  # BUG: not a legal number of dice
    return 5
