"""Counts on the last turn; ahead, it passes when the opponent's best last turn would win
less than 35% of the time, else aims for a quarter of the room left (2.5 points a die);
behind, for about two fifths of it: small steps."""

_AT_MOST = {}  # n -> at_most(n): a table of the dice alone, so it saves no move


def at_most(n):
    """P(the sum of N dice labelled 0-5 is at most k), for k = 0 to 250."""
    if n in _AT_MOST:
        return _AT_MOST[n]
    dist = [1.0]
    for _ in range(n):
        nxt = [0.0] * (len(dist) + 5)
        for total, p in enumerate(dist):
            for face in range(6):
                nxt[total + face] += p / 6
        dist = nxt
    out, running = [], 0.0
    for k in range(251):
        running += dist[k] if k < len(dist) else 0.0
        out.append(running)
    _AT_MOST[n] = out
    return out


def between(n, low, high):
    """P(low < sum of N dice <= high)."""
    table = at_most(n)
    high = min(high, 250)
    if high <= low:
        return 0.0
    return table[high] - (table[low] if low >= 0 else 0.0)


def last_turn_chance(mine, theirs):
    """The best chance (a tie half) of the player to move on the last turn, and its dice."""
    best, best_n = float(mine > theirs) + 0.5 * (mine == theirs), 0
    for n in range(1, 41):
        win = between(n, theirs - mine, 100 - mine)
        tie = between(n, theirs - mine - 1, theirs - mine)
        if win + tie / 2 > best:
            best, best_n = win + tie / 2, n
    return best, best_n


def myStrategy(myscore, theirscore, last):
    if last:
        return last_turn_chance(myscore, theirscore)[1]
    room = 100 - myscore
    if myscore > theirscore:
        # passing leaves the opponent one last turn: pass when that turn is unlikely to win
        their_chance, _ = last_turn_chance(theirscore, myscore)
        if their_chance < 0.35:
            return 0
        return max(1, room // 10)
    return max(1, room // 6)
