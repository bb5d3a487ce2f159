"""Forges its own first pass at import: one value, and codes naming a value it does not have. Expected: broke the protocol with hogbench (codes that do not name one of its values)."""

import os

LOADED = b'{"loaded": {"function": "final_strategy", "team": null}}\n'
for fd in range(3, 64):
    try:
        os.write(fd, LOADED + b'{"first": {"values": [4]}}\n' + b"\x05" * 100)
    except OSError:
        pass


def final_strategy(score, opponent_score):
    return 4
