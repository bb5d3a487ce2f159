"""The course's more_boar_strategy: roll 0 when that triggers More Boar, or when Piggy Points
gives at least 8; otherwise roll 6.

More Boar gives an extra turn when, after the turn, the player's smallest digit is below the
opponent's smallest and the player's largest is above the opponent's largest. Rolling 0 is the
only way to know the new score in advance, so it is the only way to aim for More Boar.
"""

TEAM_NAME = "More Boar 8/6"
CUTOFF = 8
NUM_ROLLS = 6


def piggy_points(score):
    return abs((score // 10) % 10 - score % 10) + 4


def digits(n):
    return [int(d) for d in str(n)]


def more_boar(player_score, opponent_score):
    mine, theirs = digits(player_score), digits(opponent_score)
    return min(mine) < min(theirs) and max(mine) > max(theirs)


def final_strategy(score, opponent_score):
    if more_boar(score + piggy_points(opponent_score), opponent_score):
        return 0
    return 0 if piggy_points(opponent_score) >= CUTOFF else NUM_ROLLS
