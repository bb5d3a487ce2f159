"""Play the score: roll more dice when behind and fewer when ahead.

Behind by more than 10, a player needs big turns and can afford risk: 8 dice. Ahead by more than
10, steady small gains are enough: 4 dice. In between, 6 dice. Piggy Points is never used, which
costs a lot under these rules.
"""

TEAM_NAME = "Lead Aware"


def final_strategy(score, opponent_score):
    lead = score - opponent_score
    if lead < -10:
        return 8
    if lead > 10:
        return 4
    return 6
