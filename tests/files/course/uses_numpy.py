import numpy as np

CHOICES = np.where(np.arange(100) % 10 == 0, 0, 5)


def final_strategy(score, opponent_score):
    return int(CHOICES[opponent_score])
