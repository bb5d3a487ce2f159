"""The course's Hog (Summer 2021) as students write it: plain Python, the benchmarks' reference.

Kept apart from hogbench on purpose (hogbench compiles its rule functions), so the reference
runs at the speed of the course's own code.
"""

import random


def six_sided():
    return random.randint(1, 6)


def roll_dice(num_rolls, dice=six_sided):
    outcomes = [dice() for _ in range(num_rolls)]
    return 1 if 1 in outcomes else sum(outcomes)


def piggy_points(score):
    return abs((score // 10) % 10 - score % 10) + 4


def take_turn(num_rolls, opponent_score, dice=six_sided, goal=100):
    if num_rolls == 0:
        return piggy_points(opponent_score)
    return roll_dice(num_rolls, dice)


def digits(n):
    return [int(d) for d in str(n)]


def more_boar(player_score, opponent_score):
    player, opponent = digits(player_score), digits(opponent_score)
    return min(player) < min(opponent) and max(player) > max(opponent)


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=100):
    who = 0
    while score0 < goal and score1 < goal:
        if who == 0:
            score0 += take_turn(strategy0(score0, score1), score1, dice, goal)
            extra = more_boar(score0, score1)
        else:
            score1 += take_turn(strategy1(score1, score0), score0, dice, goal)
            extra = more_boar(score1, score0)
        if not extra:
            who = 1 - who
    return score0, score1


def make_averaged(original_function, trials_count=1000):
    def averaged(*args):
        return sum(original_function(*args) for _ in range(trials_count)) / trials_count

    return averaged


def winner(strategy0, strategy1):
    score0, score1 = play(strategy0, strategy1)
    return 0 if score0 > score1 else 1


def average_win_rate(strategy, baseline, trials_count):
    as_first = 1 - make_averaged(winner, trials_count)(strategy, baseline)
    as_second = make_averaged(winner, trials_count)(baseline, strategy)
    return (as_first + as_second) / 2


def stripped_average_win_rate(strategy, baseline, games, goal=100):
    """The course's loop stripped down: play's turn loop calling the course's own take_turn and
    more_boar, without make_averaged, winner or commentary. GAMES games, A first in every
    other one; returns A's win rate."""
    wins = 0
    for game in range(games):
        first = game % 2 == 0
        strategies = (strategy, baseline) if first else (baseline, strategy)
        scores = [0, 0]
        who = 0
        while scores[0] < goal and scores[1] < goal:
            me, them = scores[who], scores[1 - who]
            me += take_turn(strategies[who](me, them), them)
            scores[who] = me
            if not more_boar(me, them):
                who = 1 - who
        wins += (scores[0] >= goal) == first
    return wins / games


def table_average_win_rate(table_a, table_b, games, goal=100):
    """The bare minimum in Python, stricter still: strategies and the rule functions read from
    precomputed tables, dice drawn with random.random() inline, no call per turn. GAMES games,
    A first in every other one; returns A's win rate."""
    rand = random.random
    piggy = [piggy_points(o) for o in range(goal)]
    boar = [[more_boar(s, o) for o in range(goal)] for s in range(goal)]
    wins = 0
    for game in range(games):
        scores = [0, 0]
        tables = (table_a, table_b) if game % 2 == 0 else (table_b, table_a)
        who = 0
        while True:
            me, them = scores[who], scores[1 - who]
            n = tables[who][me][them]
            if n == 0:
                points = piggy[them]
            else:
                points, pig = 0, False
                for _ in range(n):
                    d = int(rand() * 6) + 1
                    pig = pig or d == 1
                    points += d
                if pig:
                    points = 1
            me += points
            scores[who] = me
            if me >= goal:
                wins += (who == 0) == (game % 2 == 0)
                break
            if not boar[me][them]:
                who = 1 - who
    return wins / games
