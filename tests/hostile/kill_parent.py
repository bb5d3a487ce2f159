"""Kills its parent (hogbench, without bwrap) at import. Expected: fails, the parent lives on."""

import os
import signal

try:
    os.kill(os.getppid(), signal.SIGKILL)
except OSError:
    pass


def final_strategy(score, opponent_score):
    return 4
