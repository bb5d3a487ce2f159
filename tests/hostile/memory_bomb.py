"""Memory bomb at (1, 1): allocates 50 MB blocks without end. Expected: ran out of memory at (1, 1)."""

blocks = []


def final_strategy(score, opponent_score):
    if (score, opponent_score) == (1, 1):
        while True:
            blocks.append(bytearray(50 * 2**20))
    return 4
