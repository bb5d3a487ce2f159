"""A strong hand-written final strategy for Hog, Summer 2021 (Sow Sad, Piggy Points, More Boar).

The idea, in order of priority:

1. Take a sure win: if rolling 0 (Piggy Points) reaches the goal, do it.
2. Take free extra turns: if the Piggy Points score would trigger More Boar, roll 0. Those points
   come with another turn, which is worth more than any roll.
3. Close to the goal, stop maximising points and maximise the chance of finishing: roll the
   number of dice most likely to score at least what is still needed.
4. Otherwise compare Piggy Points with what dice are expected to bring. Six dice average about
   8.7 points under Sow Sad; take Piggy Points when it gives 9 or more. When far behind, take
   more risk (8 dice, and Piggy Points only from 11); when far ahead, take less (5 dice, and
   Piggy Points from 8). The numbers were tuned with ``hogbench tournament``.

Dice chances are worked out once, at import, from the Sow Sad rule itself.
"""

TEAM_NAME = "Boar Necessities"
GOAL = 100


def piggy_points(score):
    """Points for rolling 0 dice: |tens - ones| of the opponent's score, plus 4."""
    return abs((score // 10) % 10 - score % 10) + 4


def digits(n):
    return [int(d) for d in str(n)]


def more_boar(player_score, opponent_score):
    """Whether the player gets an extra turn after reaching PLAYER_SCORE."""
    mine, theirs = digits(player_score), digits(opponent_score)
    return min(mine) < min(theirs) and max(mine) > max(theirs)


def turn_distribution(num_rolls):
    """{points: probability} for rolling NUM_ROLLS six-sided dice under Sow Sad."""
    sums = {0: 1.0}  # the sum of the dice so far, given that no die showed 1
    for _ in range(num_rolls):
        nxt = {}
        for total, p in sums.items():
            for face in range(2, 7):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / 6
        sums = nxt
    dist = {1: 1 - (5 / 6) ** num_rolls}  # any 1 makes the turn score 1
    for total, p in sums.items():
        dist[total] = dist.get(total, 0.0) + p
    return dist


DISTRIBUTIONS = {n: turn_distribution(n) for n in range(1, 11)}


def chance_to_score(num_rolls, needed):
    """The probability that rolling NUM_ROLLS dice scores at least NEEDED points."""
    return sum(p for points, p in DISTRIBUTIONS[num_rolls].items() if points >= needed)


def final_strategy(score, opponent_score):
    """Return the number of dice to roll for this turn (0 to 10)."""
    needed = GOAL - score
    bacon = piggy_points(opponent_score)
    if bacon >= needed:
        return 0
    if more_boar(score + bacon, opponent_score):
        return 0
    if needed <= 15:
        return max(range(1, 11), key=lambda n: (chance_to_score(n, needed), -n))
    lead = score - opponent_score
    if lead < -25:
        cutoff, num_rolls = 11, 8
    elif lead > 25:
        cutoff, num_rolls = 8, 5
    else:
        cutoff, num_rolls = 9, 6
    return 0 if bacon >= cutoff else num_rolls
