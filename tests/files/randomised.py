import random


def final_strategy(score, opponent_score):
    return random.choice([4, 5, 6])
