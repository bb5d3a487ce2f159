"""Returns an int subclass that claims to equal everything. Expected: illegal move, returned 4 (Sneaky), not an int."""


class Sneaky(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


def final_strategy(score, opponent_score):
    return Sneaky(4)
