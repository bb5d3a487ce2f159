"""Writes a reply nested 20,000 deep on every inherited file descriptor at import. Expected: broke the protocol with hogbench (nested too deep), no RecursionError in hogbench."""

import os

for fd in range(3, 64):
    try:
        os.write(fd, b'{"loaded": ' + b"[" * 20_000 + b"]" * 20_000 + b"}\n")
    except OSError:
        pass


def final_strategy(score, opponent_score):
    return 4
