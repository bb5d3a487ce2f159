"""Imports a module that does not exist. Expected: import failed, ModuleNotFoundError."""

from hog_helpers_that_do_not_exist import best_roll


def final_strategy(score, opponent_score):
    return best_roll(score, opponent_score)
