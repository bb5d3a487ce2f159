def piggy_points(score):
    return abs((score // 10) % 10 - score % 10) + 4
