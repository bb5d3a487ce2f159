"""Prints 20 MB at import and a line at every call. Expected: valid; the output is cut and noted, not fatal."""

import sys

for _ in range(20):
    sys.stdout.write("flood " * 174763 + "\n")


def final_strategy(score, opponent_score):
    print("thinking about", score, opponent_score, file=sys.stderr)
    return 4
