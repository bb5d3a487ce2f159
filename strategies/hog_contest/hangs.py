"""A strategy that hangs: it waits for a prime that its own loop skips over.

It steps through even numbers looking for a prime above 2, which never comes, whenever the
scores add up to 50. The sandbox's time limit stops it, and it is disqualified as too slow.
"""

TEAM_NAME = "Prime Time"


def final_strategy(score, opponent_score):
    if score + opponent_score == 50:
        n = 4
        while any(n % k == 0 for k in range(2, n)):  # an even n is never prime
            n += 2
    return 5
