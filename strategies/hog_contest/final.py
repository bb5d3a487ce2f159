"""A strong hand-written final strategy for the Hog contest (Pig Out, Free Bacon, Hogtimus Prime,
Hog Wild, Swine Swap, Pork Chop).

The idea, in order of priority:

1. Free Bacon (rolling 0) scores 1 + the largest digit of the opponent's score, raised to the
   next prime when it is prime (Hogtimus Prime). It is known in advance, so it is the way to
   aim for a Swine Swap (one score double the other after the turn) or to avoid one.
2. Take Free Bacon when it makes a swap that hands us the larger score, or wins outright.
3. Behind by CHOP_MARGIN (20) or more, use Pork Chop (-1): it swaps the scores for nothing. A
   strategy cannot see whether it has used its Pork Chop already, and a second -1 rolls 10
   dice; that far behind, 10 dice are a fair gamble anyway.
4. Never take Free Bacon into a swap that gives our lead away.
5. Otherwise take Free Bacon when it gives at least CUTOFF (8) points, else roll 5 dice. Under
   Hog Wild (both scores add up to a multiple of 7) the dice are four-sided and a 1 is likelier,
   so roll 4. The numbers were tuned in tournaments against the course's strategies.
"""

TEAM_NAME = "Prime Rib"
GOAL = 100
CUTOFF = 8
CHOP_MARGIN = 20
NUM_ROLLS = 5
WILD_ROLLS = 4


def is_prime(n):
    if n < 2:
        return False
    k = 2
    while k * k <= n:
        if n % k == 0:
            return False
        k += 1
    return True


def next_prime(n):
    n += 1
    while not is_prime(n):
        n += 1
    return n


def free_bacon(opponent_score):
    points = 1 + max(int(digit) for digit in str(opponent_score))
    return next_prime(points) if is_prime(points) else points


def is_swap(score0, score1):
    return score0 == 2 * score1 or score1 == 2 * score0


def final_strategy(score, opponent_score):
    """Return the number of dice to roll (0 to 10), or -1 for a Pork Chop."""
    bacon = free_bacon(opponent_score)
    after = score + bacon
    swaps = is_swap(after, opponent_score)
    if swaps and opponent_score > after:
        return 0
    if not swaps and after >= GOAL:
        return 0
    if opponent_score - score >= CHOP_MARGIN:
        return -1
    wild = (score + opponent_score) % 7 == 0
    num_rolls = WILD_ROLLS if wild else NUM_ROLLS
    if swaps and after > opponent_score:
        return num_rolls
    return 0 if bacon >= CUTOFF else num_rolls
