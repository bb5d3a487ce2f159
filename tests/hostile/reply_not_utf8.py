"""Writes a reply that is not UTF-8 on every inherited file descriptor at import. Expected: broke the protocol with hogbench (not JSON in UTF-8)."""

import os

for fd in range(3, 64):
    try:
        os.write(fd, b'{"loaded": {"function": "final_strategy", "team": "caf\xe9"}}\n')
    except OSError:
        pass


def final_strategy(score, opponent_score):
    return 4
