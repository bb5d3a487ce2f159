"""A strategy that crashes: it divides by the difference of the scores.

The ratio idea works until the scores differ by exactly 10 and one is 50 or more, where it
divides by zero; the exception disqualifies it, and the report names those scores.
"""

TEAM_NAME = "Divide And Lose"


def final_strategy(score, opponent_score):
    if max(score, opponent_score) < 50:
        return 6
    pressure = 10 / (abs(score - opponent_score) - 10)  # ZeroDivisionError at a gap of 10
    return 8 if pressure > 0 else 5
