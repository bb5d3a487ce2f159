"""Calls sys.exit(0) at import. Expected: import failed, tried to stop the interpreter (SystemExit)."""

import sys

sys.exit(0)


def final_strategy(score, opponent_score):
    return 4
