"""Segfaults through ctypes at (3, 3). Expected: crashed, killed by signal SIGSEGV at (3, 3)."""

import ctypes


def final_strategy(score, opponent_score):
    if (score, opponent_score) == (3, 3):
        ctypes.string_at(0)
    return 4
