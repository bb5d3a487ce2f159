"""The course's swap_strategy: roll 0 when Free Bacon triggers a beneficial Swine Swap, never
when it triggers a harmful one, and otherwise when it gives at least 8 points; else roll 6.

Swine Swap swaps the scores when |ones(mine) - ones(theirs)| equals tens(theirs) after the turn.
A swap is beneficial when it leaves us with the larger score.
"""

TEAM_NAME = "Swap 8/6"
CUTOFF = 8
NUM_ROLLS = 6


def free_bacon(opponent_score):
    return 10 - opponent_score % 10 + (opponent_score // 10) % 10


def is_swap(player_score, opponent_score):
    return abs(player_score % 10 - opponent_score % 10) == (opponent_score // 10) % 10


def final_strategy(score, opponent_score):
    new_score = score + free_bacon(opponent_score)
    if is_swap(new_score, opponent_score):
        if new_score < opponent_score:
            return 0
        if new_score > opponent_score:
            return NUM_ROLLS
    return 0 if free_bacon(opponent_score) >= CUTOFF else NUM_ROLLS
