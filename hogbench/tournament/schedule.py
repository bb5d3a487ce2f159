"""The schedule: which pairs a tournament plays, how each is keyed in the store, and how they
are cut into batches (tiles of the pair matrix) for the workers."""

from __future__ import annotations

import hashlib
import itertools
import math
from dataclasses import dataclass

import numpy as np

from hogbench.entrants import Entrant
from hogbench.tournament.store import PairKey, sprt_mode

#: Most pairs in one joblib task: enough to make the task overhead small against the engine's
#: time per pair, few enough that the progress bar moves and the work spreads over workers. A
#: batch is a tile of the pair matrix, 32 by 32 here: the engine plays one entrant against 32
#: at once, 10% faster per pair than against 16 (hog-su21, measured).
MAX_BATCH = 1024
#: Most bytes of tables one task carries: a tile of side s brings 2s tables to its worker, which
#: holds them while it plays the tile (Big Pig's are 2.3 MB each: tiles of 5 by 5, so that a
#: worker stays within 300 MB; Hog's 10 KB do not limit its tiles).
MAX_BATCH_TABLE_BYTES = 24 << 20


def round_robin_pairs(n: int) -> list[tuple[int, int]]:
    """Every pair of N entrants once, (i, j) with i < j: each plays both seatings."""
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def gauntlet_pairs(n_opponents: int) -> list[tuple[int, int]]:
    """The challenger (entrant 0) against each of N_OPPONENTS (entrants 1 to N)."""
    return [(0, k + 1) for k in range(n_opponents)]


@dataclass(frozen=True)
class PairFailure:
    """A pair that could not be played (a live strategy failed, or games never ended)."""

    key: PairKey
    message: str
    strategy_error: bool
    #: the key of the entrant that failed (``key.a`` or ``key.b``), when the engines know it
    entrant: str | None = None
    #: the other entrant, when both failed (each over the time budget on its own)
    also: tuple[str, ...] = ()


def pair_mode(mode: str, a: Entrant, b: Entrant) -> str:
    """Exact wherever both sides are tables and the tournament is exact, and for identical
    tables in any mode: one exact pair gives each copy its real seats (the first mover's edge;
    only the average is 50%, by symmetry), cheaper than games that could only estimate it."""
    if not (a.tableable and b.tableable):
        return "mc"
    return "exact" if mode == "exact" or a.key == b.key else "mc"


def pair_key(
    rules: str,
    a: str,
    b: str,
    exact_pair: bool,
    seed: int,
    games: int,
    sprt: tuple[float, float] | None = None,
) -> PairKey:
    """The store key of a pair of entrant keys, the smaller first (one row for both orders).

    Exact results depend on neither seed nor games, so exact pairs are keyed without them. A
    Monte Carlo pair stopped by an SPRT is its own result: its mode names the test.
    """
    ka, kb = (a, b) if a <= b else (b, a)
    if exact_pair:
        return PairKey(rules, ka, kb, "exact", 0, 0)
    return PairKey(rules, ka, kb, sprt_mode(sprt) if sprt else "mc", seed, games)


def pair_seed(key: PairKey) -> int:
    """A Monte Carlo pair's own seed, from the tournament seed and the two entrants' keys.

    It does not depend on the other entrants or their order, so a pair's result is the same in
    any tournament that plays it with the same seed.
    """
    digest = hashlib.sha256(f"{key.seed}:{key.a}:{key.b}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def make_batches(keys: list[PairKey], live: set[str], size: int) -> list[list[PairKey]]:
    """Cut the pairs into batches of at most SIZE: one tile of the pair matrix each.

    A tile of side sqrt(SIZE) holds up to SIZE pairs among at most 2 * sqrt(SIZE) entrants, so
    each table is sent once per batch, not once per pair. A pair with a live entrant is a batch
    of its own: it is slow, and spreading those out balances the workers. The batches come in
    the same order whatever the order of KEYS.
    """
    names = sorted({k.a for k in keys} | {k.b for k in keys})
    index = {name: i for i, name in enumerate(names)}
    side = max(1, math.isqrt(size))
    tabled = [k for k in keys if k.a not in live and k.b not in live]
    a = np.array([index[k.a] for k in tabled], dtype=np.int64)
    b = np.array([index[k.b] for k in tabled], dtype=np.int64)
    # By tile (a's block, then b's), then by entrant within it: half a million keys sorted by
    # numpy, not by a key function.
    order = np.lexsort((b, a, b // side, a // side))
    tiles = (a // side * (len(names) // side + 1) + b // side)[order]
    starts = np.flatnonzero(np.diff(tiles, prepend=-1)).tolist() + [len(order)]
    ranked = [tabled[k] for k in order.tolist()]
    batches = [ranked[lo:hi] for lo, hi in itertools.pairwise(starts)]
    # Keys are tuples of one rule set: in the order of their entrants' keys, then mode.
    alone = sorted(k for k in keys if k.a in live or k.b in live)
    return [[k] for k in alone] + batches


def auto_batch_size(n_pairs: int, workers: int, table_bytes: int) -> int:
    """About four batches per worker, at most MAX_BATCH pairs each, and tiles whose tables
    (TABLE_BYTES each) come to at most MAX_BATCH_TABLE_BYTES."""
    side = max(1, MAX_BATCH_TABLE_BYTES // (2 * table_bytes))
    return max(1, min(MAX_BATCH, side * side, math.ceil(n_pairs / (4 * max(1, workers)))))
