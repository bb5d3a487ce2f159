"""A third of the room each turn (room // 7.5 dice), a pass once ahead past 75."""


def myStrategy(myscore, theirscore, last):
    if myscore > theirscore and (last or myscore >= 75):
        return 0
    return max(1, (100 - myscore) * 2 // 15)
