"""A common bug: a branch without a return statement, so the function returns None there.

When the scores are equal neither branch returns, and Python returns None, which is not a
number of dice.
"""

TEAM_NAME = "Forgot Return"


def final_strategy(score, opponent_score):
    if score > opponent_score:
        return 4
    elif score < opponent_score:
        return 7
