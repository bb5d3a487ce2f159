"""Starts threads until it cannot, at import. Expected: import failed at the first thread, strategies may not start threads."""

import threading
import time

threads = []
while True:
    thread = threading.Thread(target=time.sleep, args=(60,), daemon=True)
    thread.start()
    threads.append(thread)


def final_strategy(score, opponent_score):
    return 4
