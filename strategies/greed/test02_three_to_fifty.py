"""Three dice a turn until 50, then passes."""


def myStrategy(myscore, theirscore, last):
    if myscore >= 50:
        return 0
    return 3
