"""A deliberate bug: rolls one die more when behind, even when it already rolls 10.

The idea (more risk when behind) is fine, but 10 + 1 = 11 dice is not a legal move: at scores
where it is behind by more than 30 and would roll 10, it returns 11. One illegal answer anywhere
disqualifies a submission, with the scores where it happened.
"""

TEAM_NAME = "Off By One"


def final_strategy(score, opponent_score):
    num_rolls = 10 if opponent_score - score > 30 else 6
    if opponent_score > score:
        num_rolls += 1  # BUG: 10 + 1 is not a legal number of dice
    return num_rolls
