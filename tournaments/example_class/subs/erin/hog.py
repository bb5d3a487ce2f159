"""The course's placeholder final_strategy, handed in unchanged: it always returns 6.

Its decision table is the same as always_roll_6.py's. A tournament keeps both as separate
entrants (each with its own name), and computes their shared pairs once.
"""

TEAM_NAME = "Placeholder (unchanged)"


def final_strategy(score, opponent_score):
    """Write a brief description of your final strategy.

    *** YOUR DESCRIPTION HERE ***
    """
    # BEGIN PROBLEM 12
    return 6  # Remove this line once implemented.
    # END PROBLEM 12
