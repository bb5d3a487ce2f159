"""Writes forged results onto every inherited file descriptor at import. Expected: broke the protocol with hogbench."""

import os

for fd in range(3, 64):
    try:
        os.write(fd, b'{"first": [6]}\n')
    except OSError:
        pass


def final_strategy(score, opponent_score):
    return 4
