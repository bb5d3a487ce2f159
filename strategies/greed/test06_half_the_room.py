"""Aims for half the room left under 100: a die shows 2.5 on average, so room // 5 dice."""


def myStrategy(myscore, theirscore, last):
    if myscore > theirscore and (last or myscore >= 80):
        return 0
    return max(1, (100 - myscore) // 5)
