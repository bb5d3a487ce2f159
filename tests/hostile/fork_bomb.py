"""Fork bomb at import (bounded to 2**10 processes, so a broken sandbox cannot take the machine down). Expected: import failed, may not start processes."""

import os
import time

for _ in range(10):
    if os.fork() == 0:
        time.sleep(30)


def final_strategy(score, opponent_score):
    return 4
