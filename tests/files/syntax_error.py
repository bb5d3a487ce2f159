def final_strategy(score, opponent_score)
    return 4
