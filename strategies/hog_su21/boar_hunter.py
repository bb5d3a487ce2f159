"""Hunt for More Boar extra turns and ignore everything else: roll 0 only when that gives an
extra turn, otherwise roll 5.

It never takes Piggy Points just for the points, which shows how much of more_boar_strategy's
strength comes from the extra turns and how much from the cutoff.
"""

TEAM_NAME = "Boar Hunter"


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
    return 5
