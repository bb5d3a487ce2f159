"""Starts a thread at import. Expected: import failed, strategies may not start threads (as root and as an ordinary user alike)."""

import threading

helper = threading.Thread(target=lambda: None)
helper.start()
helper.join()


def final_strategy(score, opponent_score):
    return 4
