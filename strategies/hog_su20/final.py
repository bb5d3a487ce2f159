"""A strong hand-written final strategy for Hog, Summer 2020 (Pig Out, Free Bacon, Feral Hogs,
Swine Swap).

The idea, in order of priority:

1. Free Bacon (rolling 0) scores 10 - ones + tens of the opponent's score, known in advance, so
   it is the only way to aim for a Swine Swap or steer clear of one. Swine Swap swaps the
   scores when |ones(mine) - ones(theirs)| equals tens(theirs) after the turn.
2. Take Free Bacon when it makes a swap that helps (we end up with the larger score), or when
   it wins the game outright without a swap.
3. Never take Free Bacon into a swap that hurts (we would give away the larger score).
4. Otherwise take Free Bacon when it gives at least CUTOFF (9) points, and roll dice when it
   does not: 5, or 7 when more than 20 behind, or 4 when more than 20 ahead. The numbers were
   tuned in tournaments against the course's bacon and swap strategies.

Feral Hogs (+3 when the number of dice is 2 away from the previous turn's points) cannot be
planned for: a strategy sees only the two scores.
"""

TEAM_NAME = "Swap Meet"
GOAL = 100
CUTOFF = 9


def free_bacon(opponent_score):
    return 10 - opponent_score % 10 + (opponent_score // 10) % 10


def is_swap(player_score, opponent_score):
    return abs(player_score % 10 - opponent_score % 10) == (opponent_score // 10) % 10


def final_strategy(score, opponent_score):
    """Return the number of dice to roll for this turn (0 to 10)."""
    bacon = free_bacon(opponent_score)
    after = score + bacon
    swaps = is_swap(after, opponent_score)
    if swaps and opponent_score > after:
        return 0  # a swap that hands us the larger score
    if not swaps and after >= GOAL:
        return 0  # a sure win
    lead = score - opponent_score
    num_rolls = 7 if lead < -20 else 4 if lead > 20 else 5
    if swaps and after > opponent_score:
        return num_rolls  # Free Bacon would swap our lead away
    return 0 if bacon >= CUTOFF else num_rolls
