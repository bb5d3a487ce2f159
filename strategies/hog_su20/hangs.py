"""A strategy that hangs: a search for a "perfect" score that loops forever at one state.

At 33 to 33 the loop looks for a number of dice that never satisfies its test, so the call never
returns. The sandbox's time limit stops it, and the submission is disqualified as too slow.
"""

TEAM_NAME = "Still Thinking"


def final_strategy(score, opponent_score):
    num_rolls = 4
    if score == opponent_score == 33:
        while num_rolls * 2 != 7:  # no whole number of dice doubles to 7
            num_rolls = (num_rolls + 1) % 11
    return num_rolls
