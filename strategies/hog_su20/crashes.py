"""A strategy that crashes: it looks up the opponent's tens digit in a table that is too short.

The table covers scores below 90; at an opponent score of 90 or more it raises IndexError, and
the submission is disqualified with the scores where it happened.
"""

TEAM_NAME = "Index Error"
DICE_BY_TENS = [6, 6, 5, 5, 5, 4, 4, 4, 3]  # one entry short: no entry for the 90s


def final_strategy(score, opponent_score):
    return DICE_BY_TENS[opponent_score // 10]
