"""
A minimal contest entry in the shape of the terms that name the entry PLAYER_NAME (written for
hogbench's tests).

Don't forget: your strategy must be deterministic and pure.
"""

PLAYER_NAME = 'Hogwarts Express'  # Change this line!


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon)."""
    return min(score % 10, score // 10) + 1


def final_strategy(score, opponent_score):
    if free_bacon(opponent_score) >= 100 - score:
        return 0
    return 5
