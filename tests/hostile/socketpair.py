"""Makes a socket pair (a socket family the filter must refuse too). Expected: import failed, no network."""

import socket

a, b = socket.socketpair()


def final_strategy(score, opponent_score):
    return 4
