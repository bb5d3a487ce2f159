"""Eight dice a turn until 70, then passes."""


def myStrategy(myscore, theirscore, last):
    if myscore >= 70:
        return 0
    return 8
