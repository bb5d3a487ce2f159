"""A strategy that is far too slow: it simulates thousands of turns at every call.

Each call estimates the best number of dice by rolling simulated dice (seeded by the scores, so
the answer is still deterministic). That takes tens of milliseconds per call, and a strategy is
called at all 10,000 pairs of scores: minutes in all, far over the contest's time limit. The
sandbox stops it and disqualifies it as too slow.
"""

import random

TEAM_NAME = "Slowpoke"
TRIALS = 2000


def final_strategy(score, opponent_score):
    rng = random.Random(score * 100 + opponent_score)
    best, best_average = 6, 0.0
    for num_rolls in range(1, 11):
        total = 0
        for _ in range(TRIALS):
            dice = [rng.randint(1, 6) for _ in range(num_rolls)]
            total += 1 if 1 in dice else sum(dice)
        if total / TRIALS > best_average:
            best, best_average = num_rolls, total / TRIALS
    return best
