"""A deliberate bug: "one die fewer for every 10 points of lead" without any bounds.

Far ahead it asks for a negative number of dice, far behind for more than 10: neither is a
legal move. One illegal answer anywhere disqualifies the submission, with the scores where it
happened.
"""

TEAM_NAME = "Unbounded"


def final_strategy(score, opponent_score):
    lead = score - opponent_score
    return 6 - lead // 10  # BUG: 11 when over 40 behind, -1 when 70 ahead
