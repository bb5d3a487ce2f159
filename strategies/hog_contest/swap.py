"""The course's swap_strategy for the contest rules: roll 0 for a beneficial Swine Swap (one
score double the other after the turn), never for a harmful one, otherwise when Free Bacon gives
at least 8 points; else roll 6.
"""

TEAM_NAME = "Swap 8/6"
CUTOFF = 8
NUM_ROLLS = 6


def is_prime(n):
    return n > 1 and all(n % k for k in range(2, int(n**0.5) + 1))


def free_bacon(opponent_score):
    points = 1 + max(int(digit) for digit in str(opponent_score))
    if is_prime(points):
        points += 1
        while not is_prime(points):
            points += 1
    return points


def final_strategy(score, opponent_score):
    new_score = score + free_bacon(opponent_score)
    if new_score == 2 * opponent_score or opponent_score == 2 * new_score:
        if new_score < opponent_score:
            return 0
        if new_score > opponent_score:
            return NUM_ROLLS
    return 0 if free_bacon(opponent_score) >= CUTOFF else NUM_ROLLS
