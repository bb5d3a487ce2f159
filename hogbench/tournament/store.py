"""The results store: one SQLite file per tournament, so a tournament can stop and resume.

A pair's result depends only on what it is keyed by: the rule set (name, goal, options), the two
entrants' keys (table hashes, or file hashes for live entrants), the mode, the seed and the
number of games. Names, paths and the order of the entrants are not part of the key, so renaming
or reordering submissions costs nothing and a changed submission gets a new key (and new pairs).

Pairs are stored once, with A the smaller key; the other seating order is derived (see
``PairResult.flipped``). Each finished batch is one transaction, so a tournament killed at any
point keeps every batch it committed and loses at most the batches in flight.
"""

from __future__ import annotations

import sqlite3
from collections.abc import ItemsView, Iterable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

import numpy as np

from hogbench import stats
from hogbench.errors import HogbenchError

SCHEMA = """
CREATE TABLE IF NOT EXISTS pairs (
    rules TEXT NOT NULL,
    a TEXT NOT NULL,
    b TEXT NOT NULL,
    mode TEXT NOT NULL,
    seed INTEGER NOT NULL,
    games INTEGER NOT NULL,
    first REAL NOT NULL,
    second REAL NOT NULL,
    counts TEXT,
    seconds REAL NOT NULL,
    ties TEXT
)
"""
# No primary key: a pair's key is six columns, two of them content hashes, so every batch's
# rows land all over a unique index on it, and a commit rewrote most of its pages: 8-9 s of
# the main process's CPU in a 1000-entrant round robin, taken from the workers on two cores,
# against 1.4 s without it (measured). A key put again is a new row, and the last row put is
# the one read (``get``), as a replacing insert would have kept. Stores made with the key
# still work the same.


COLUMNS = "a, b, mode, seed, games, first, second, counts, seconds, ties"


class PairKey(NamedTuple):
    """What a pair's result depends on. Exact pairs use seed 0 and games 0.

    A named tuple, hashed and compared in C: a 1000-entrant round robin looks up half a
    million of them in sets and dicts."""

    rules: str
    a: str
    b: str
    mode: str  # "exact", "mc", or "sprt:P0,P1" (see sprt_mode)
    seed: int
    games: int


#: A Monte Carlo pair stopped by a sequential probability ratio test has the mode "sprt:P0,P1"
#: (the test of win rate P0 against P1, at SPRT_ERRORS' alpha and beta); "mc" pairs stop when
#: their interval excludes the threshold.
SPRT_PREFIX = "sprt:"
SPRT_ERRORS = 0.05


def sprt_mode(sprt: tuple[float, float]) -> str:
    """The mode of a pair stopped by the SPRT of win rate P0 against P1."""
    return f"{SPRT_PREFIX}{sprt[0]:g},{sprt[1]:g}"


def key_sprt(key: PairKey) -> stats.Sprt | None:
    """The SPRT a pair's key names (None: not an SPRT pair)."""
    if not key.mode.startswith(SPRT_PREFIX):
        return None
    p0, p1 = (float(x) for x in key.mode.removeprefix(SPRT_PREFIX).split(","))
    return stats.Sprt(p0, p1, SPRT_ERRORS, SPRT_ERRORS)


#: A's results in one game, in the order of the joint counts.
WON, LOST, TIED = range(3)
_FROM_B = [LOST, WON, TIED]  # the same game's result seen from B


class PairResult(NamedTuple):
    """A's results against B in both seatings.

    ``first``/``second`` are A's win rates moving first/second (a tie counts half). For Monte
    Carlo pairs ``counts`` holds the joint counts of the game pairs (two games on one dice
    stream, seats swapped): counts[3 * r1 + r2] pairs in which A's game moving first ended r1
    and its game moving second r2, results (won, lost, tied). The pair is the unit of sampling
    (``hogbench.stats``), so these counts carry the interval, not just the rates.

    An exact pair under rules whose games can tie (``RuleSet.has_ties``) keeps in ``ties`` the
    chance of a tied end, A first and A second: ``first`` is A's chance of winning plus half
    of it, so the two split each seating into win, loss and tie (``split``).

    A named tuple of immutable values, as its key is: a 1000-entrant round robin holds half a
    million, which the cycle collector then scans once and leaves alone.
    """

    key: PairKey
    first: float
    second: float
    counts: tuple[int, ...] | None = None
    seconds: float = 0.0
    ties: tuple[float, float] | None = None

    @property
    def exact(self) -> bool:
        return self.key.mode == "exact"

    @property
    def joint(self) -> np.ndarray:
        assert self.counts is not None
        return np.array(self.counts, dtype=np.int64).reshape(3, 3)

    @property
    def win_rate(self) -> float:
        if self.counts is None:
            return (self.first + self.second) / 2
        return self.paired.win_rate

    @property
    def b_win_rate(self) -> float:
        """B's win rate, as ``flipped().win_rate`` gives it (bit for bit), without making the
        flipped result where the pair is exact."""
        if self.counts is None:
            return ((1.0 - self.second) + (1.0 - self.first)) / 2
        return self.flipped().win_rate

    @property
    def paired(self) -> stats.PairedEstimate | None:
        """The paired estimate of a Monte Carlo pair (None when exact)."""
        return None if self.counts is None else stats.PairedEstimate.from_joint(self.joint)

    @property
    def interval(self) -> tuple[float, float] | None:
        paired = self.paired
        return None if paired is None else paired.interval()

    @property
    def split(self) -> tuple[float, float, float] | None:
        """An exact pair's chances of A winning, losing and tying, averaged over both seatings
        (None: Monte Carlo, or an exact pair whose ties were not computed)."""
        if self.counts is not None or self.ties is None:
            return None
        tie = (self.ties[0] + self.ties[1]) / 2
        win = max(0.0, self.win_rate - tie / 2)
        return win, max(0.0, 1.0 - win - tie), tie

    @property
    def totals(self) -> tuple[int, int, int]:
        """A's wins, losses and ties over both seatings (Monte Carlo pairs only)."""
        seats = self.seat_counts()
        return tuple(int(x) for x in seats.sum(axis=0))  # type: ignore[return-value]

    def seat_counts(self) -> np.ndarray:
        """counts[seat, (won, lost, tied)], seat 0 = A moving first (Monte Carlo pairs only)."""
        joint = self.joint
        return np.stack([joint.sum(axis=1), joint.sum(axis=0)])

    def decision(self, threshold: float, z: float) -> str:
        """ABOVE or BELOW THRESHOLD, or UNDECIDED: exact pairs are always decided (a rate
        equal to the threshold is below, as ties count as losses), Monte Carlo pairs when the
        interval of half-width z standard errors excludes the threshold. A pair stopped by an
        SPRT is decided by the test: above when it accepted P1, below when P0."""
        if self.counts is None:
            return stats.ABOVE if self.win_rate > threshold else stats.BELOW
        test = key_sprt(self.key)
        if test is not None:
            verdict = test.verdict(self.paired)
            return {"H1": stats.ABOVE, "H0": stats.BELOW}.get(verdict or "", stats.UNDECIDED)
        return stats.decision(self.paired, threshold, z)

    def flipped(self) -> PairResult:
        """The same pair seen from B: B first is A second, and wins are losses."""
        k = self.key
        counts, mode = None, k.mode
        if self.counts is not None:  # Monte Carlo: the counts turned round, the test restated
            joint = self.joint
            counts = tuple(
                int(joint[_FROM_B[second], _FROM_B[first]])
                for first in range(3)
                for second in range(3)
            )
            test = key_sprt(k)
            if test is not None:  # B's win rate is 1 - A's: B's test: 1 - P1 against 1 - P0
                mode = sprt_mode((round(1 - test.p1, 12), round(1 - test.p0, 12)))
        return PairResult(
            PairKey(k.rules, k.b, k.a, mode, k.seed, k.games),
            1.0 - self.second,
            1.0 - self.first,
            counts,
            self.seconds,
            None if self.ties is None else (self.ties[1], self.ties[0]),
        )


class PairResults(Mapping[tuple[int, int], PairResult]):
    """Every played pair's result, from either side: ``[i, j]`` is i's view of its pair with j.

    Each pair is kept once, as it was played; the other side is made when asked for
    (``PairResult.flipped``), so a 1000-entrant round robin holds 499,500 results, not twice
    as many. ``once`` lists each pair once, for the views that fill both sides of a matrix."""

    def __init__(self, once: dict[tuple[int, int], PairResult] | None = None) -> None:
        self._once = once or {}

    def __getitem__(self, ij: tuple[int, int]) -> PairResult:
        result = self._once.get(ij)
        if result is not None:
            return result
        return self._once[ij[1], ij[0]].flipped()

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for i, j in self._once:
            yield i, j
            yield j, i

    def __len__(self) -> int:
        return 2 * len(self._once)

    def __contains__(self, ij: object) -> bool:
        if not (isinstance(ij, tuple) and len(ij) == 2):
            return False
        return ij in self._once or (ij[1], ij[0]) in self._once

    def once(self) -> ItemsView[tuple[int, int], PairResult]:
        """Each pair once, (i, j) and i's view of it."""
        return self._once.items()


class Store:
    """Finished pairs in an SQLite file; ``put`` commits one batch as one transaction."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # A long timeout: a second process reading the store (a report, a test) may hold a lock.
        try:
            self.db = sqlite3.connect(str(path), timeout=60)
            # A write-ahead log, synced at checkpoints: a batch's commit no longer waits on the
            # disk (10 ms each, 5 s of a 1000-entrant run), and a killed run still keeps every
            # batch it committed (only a machine that loses power may lose the last ones).
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            with self.db:
                self.db.execute(SCHEMA)
                columns = {row[1] for row in self.db.execute("PRAGMA table_info(pairs)")}
                if "ties" not in columns:  # a store from before exact ties were kept
                    self.db.execute("ALTER TABLE pairs ADD COLUMN ties TEXT")
            self.db.execute(f"SELECT {COLUMNS} FROM pairs LIMIT 1").fetchall()
        except sqlite3.DatabaseError as exc:
            raise HogbenchError(
                f"{path}: not a usable hogbench results store ({exc}); move it away or give"
                " another --store, and run again (finished pairs are then computed anew)"
            ) from None

    def get(self, keys: Iterable[PairKey]) -> dict[PairKey, PairResult]:
        """The stored results among KEYS: of a key put more than once, the last."""
        wanted = set(keys)
        found: dict[PairKey, PairResult] = {}
        for rules in {k.rules for k in wanted}:
            rows = self.db.execute(
                f"SELECT {COLUMNS} FROM pairs WHERE rules = ? ORDER BY rowid", (rules,)
            )
            for a, b, mode, seed, games, first, second, counts, seconds, ties in rows:
                key = PairKey(rules, a, b, mode, seed, games)
                if key in wanted:
                    parsed = tuple(int(c) for c in counts.split()) if counts else None
                    if mode != "exact" and (parsed is None or len(parsed) != 9):
                        continue  # kept per seating by an older version: play it again
                    tied = tuple(float(t) for t in ties.split()) if ties else None
                    if tied is not None and len(tied) != 2:
                        continue  # unreadable: play it again
                    result = PairResult(key, first, second, parsed, seconds, tied)  # type: ignore[arg-type]
                    found[key] = result
        return found

    def put(self, results: Iterable[PairResult]) -> None:
        """Store a finished batch, all or nothing. A key stored before is stored again, and
        read as put last (a replacing insert where the store has a key: one made before)."""
        rows = [
            (
                r.key.rules,
                r.key.a,
                r.key.b,
                r.key.mode,
                r.key.seed,
                r.key.games,
                r.first,
                r.second,
                " ".join(map(str, r.counts)) if r.counts is not None else None,
                r.seconds,
                " ".join(map(repr, r.ties)) if r.ties is not None else None,
            )
            for r in results
        ]
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO pairs (rules, a, b, mode, seed, games, first, second,"
                " counts, seconds, ties) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                rows,
            )

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
