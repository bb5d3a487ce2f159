"""At its first state, writes 1.5 GB with no newline on every inherited file descriptor. Expected: broke the protocol with hogbench (a message too long), the parent holding a few MB of it at most."""

import os

CHUNK = b"7" * (1 << 20)


def final_strategy(score, opponent_score):
    for fd in range(3, 64):
        try:
            for _ in range(1536):
                os.write(fd, CHUNK)
        except OSError:
            pass
    return 4
