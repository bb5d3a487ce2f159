"""Writes a short reply of 25,000 items on every inherited file descriptor at import. Expected: broke the protocol with hogbench (too many items)."""

import os

for fd in range(3, 64):
    try:
        os.write(fd, b'{"loaded": [' + b",".join([b"0"] * 25_000) + b"]}\n")
    except OSError:
        pass


def final_strategy(score, opponent_score):
    return 4
