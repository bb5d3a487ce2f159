"""Playing pairs: exact for two tables, Monte Carlo otherwise, in batches through joblib (local
processes or a Dask cluster), reusing and filling the store.

A batch carries the rule set (which drops its model when pickled) and the tables it needs, each
once; a live entrant travels as its spec and is opened by the sandbox in the worker. Workers
never receive submission code.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from joblib import Parallel, delayed, parallel_config

from hogbench.entrants import Entrant
from hogbench.errors import HogbenchError, StrategyError, UsageError
from hogbench.pairs import opponents_at_once, play_exact_grid, play_pair, player_of
from hogbench.players import Player
from hogbench.processes import die_with_parent, pool_workers_deaf_to_ctrl_c
from hogbench.rules import resident
from hogbench.rules.base import RuleSet
from hogbench.standings import DEFAULT_THRESHOLD
from hogbench.tournament.config import BACKENDS, DEFAULT_GAMES, DEFAULT_LIVE_BUDGET
from hogbench.tournament.field import Progress
from hogbench.tournament.schedule import (
    PairFailure,
    auto_batch_size,
    make_batches,
    pair_key,
    pair_mode,
    pair_seed,
)
from hogbench.tournament.store import PairKey, PairResult, PairResults, Store, key_sprt

#: About what starting local worker processes costs (imports, compiled code, the model).
WORKER_START_SECONDS = 3.0


@dataclass(frozen=True)
class PlaySettings:
    """How pairs are played and where: the part of a tournament's settings that a pair needs
    (``rules``: how one Monte Carlo pair stops) and the machinery (jobs, backend, batches)."""

    mode: str = "exact"
    games: int = DEFAULT_GAMES
    seed: int = 0
    threshold: float = DEFAULT_THRESHOLD
    #: (P0, P1): a Monte Carlo pair stops when a sequential test tells win rate P0 from P1
    sprt: tuple[float, float] | None = None
    pair_seconds: float | None = None
    live_budget: float | None = None
    jobs: int = 1
    backend: str = "local"
    scheduler: str | None = None
    batch_size: int | None = None
    #: the sandbox request (``sandbox.Request``) the entrants were loaded under: a file played
    #: live runs under it too
    request: Any = None

    @classmethod
    def of(cls, tournament: Any, **machinery: Any) -> PlaySettings:
        """The settings of a Tournament, with MACHINERY (jobs, backend, ...) added."""
        t = tournament
        return cls(
            mode=t.mode,
            games=t.games,
            seed=t.seed,
            threshold=t.threshold,
            sprt=t.sprt,
            pair_seconds=t.pair_seconds,
            live_budget=t.live_budget,
            **machinery,
        )


@dataclass(frozen=True)
class StopRule:
    """When a Monte Carlo pair stops (sent with each batch): decided against THRESHOLD, or by
    the sequential test SPRT, or at PAIR_SECONDS; a live pair within LIVE_BUDGET."""

    threshold: float = DEFAULT_THRESHOLD
    sprt: tuple[float, float] | None = None
    pair_seconds: float | None = None
    live_budget: float | None = None


def play_batch(
    rules: RuleSet,
    players: dict[str, Player],
    keys: list[PairKey],
    stop: StopRule = StopRule(),
) -> list[PairResult | PairFailure]:
    """Play a batch of pairs (in a worker): exact for tables; otherwise Monte Carlo game pairs
    until the paired interval excludes the threshold, or the key's SPRT accepts a win rate,
    with the key's games as the cap (see StopRule)."""
    die_with_parent()
    rules = resident(rules)
    results = _play_exact(rules, players, [k for k in keys if k.mode == "exact"])
    for key in keys:
        if key.mode == "exact":
            continue
        try:
            played = play_pair(
                rules,
                players[key.a],
                players[key.b],
                "mc",
                key.games,
                pair_seed(key),
                until_decided=None if key_sprt(key) else stop.threshold,
                sprt=key_sprt(key),
                seconds=stop.pair_seconds,
                live_budget=stop.live_budget,
            )
        except StrategyError as exc:
            results.append(PairFailure(key, str(exc), True, exc.entrant, exc.also))
            continue
        except HogbenchError as exc:
            results.append(PairFailure(key, str(exc), False))
            continue
        flat = tuple(int(c) for c in played.joint.ravel())
        results.append(PairResult(key, played.first, played.second, flat, played.seconds))
    return results


def _play_exact(
    rules: RuleSet, players: dict[str, Player], keys: list[PairKey]
) -> list[PairResult | PairFailure]:
    """Exact pairs, a grid at a time: the batch's entrants in the first seat by those in the
    second (``pairs.play_exact_grid``), meeting as many opponents at a time as the engine asks
    (``pairs.opponents_at_once``)."""
    if not keys:
        return []
    opponents = list(dict.fromkeys(key.b for key in keys))
    at_once = opponents_at_once(rules) or len(opponents)
    results: list[PairResult | PairFailure] = []
    for lo in range(0, len(opponents), at_once):
        block = set(opponents[lo : lo + at_once])
        results += _play_exact_grid(rules, players, [key for key in keys if key.b in block])
    return results


def _play_exact_grid(
    rules: RuleSet, players: dict[str, Player], keys: list[PairKey]
) -> list[PairResult | PairFailure]:
    row = {a: i for i, a in enumerate(dict.fromkeys(key.a for key in keys))}
    column = {b: j for j, b in enumerate(dict.fromkeys(key.b for key in keys))}
    wanted = np.zeros((len(row), len(column)), dtype=bool)
    for key in keys:
        wanted[row[key.a], column[key.b]] = True
    start = time.perf_counter()
    try:
        seats = ([players[name] for name in names] for names in (row, column))
        values, ties = play_exact_grid(rules, *seats, wanted)
    except HogbenchError:  # one pair that cannot be evaluated fails alone
        return [_play_exact_pair(rules, players, key) for key in keys]
    seconds = (time.perf_counter() - start) / len(keys)
    results: list[PairResult | PairFailure] = []
    for key in keys:
        at = row[key.a], column[key.b]
        tied = None if ties is None else (float(ties[at][0]), float(ties[at][1]))
        results.append(PairResult(key, *map(float, values[at]), None, seconds, tied))
    return results


def _play_exact_pair(
    rules: RuleSet, players: dict[str, Player], key: PairKey
) -> PairResult | PairFailure:
    try:
        played = play_pair(rules, players[key.a], players[key.b], "exact")
    except HogbenchError as exc:
        return PairFailure(key, str(exc), False)
    ties = played.ties or played.never_ends  # a game that never ends is a tie too
    return PairResult(key, played.first, played.second, None, played.seconds, ties)


def _dispatch(
    tasks: list[tuple],
    jobs: int,
    backend: str,
    scheduler: str | None,
    work: Callable[..., Any] | None = None,
    size: Callable[[tuple], int] = lambda task: len(task[2]),
    workers: Workers | None = None,
) -> Iterator[Any]:
    """Run WORK (by default play_batch) on each task, yielding each task's results as it
    finishes; SIZE is how many items (pairs) a task holds. WORKERS says whether an earlier
    phase of the run started the local workers, and is told when this one does."""
    work = work or play_batch
    workers = workers or Workers()
    if backend == "local":
        # Starting worker processes costs seconds (imports, compiled code, the model), more
        # than a small tournament takes: play the first task here, and go parallel only if
        # the rest would take long enough to be worth the start, or the workers are up
        # already (joblib keeps them between phases).
        if tasks:
            _ = resident(tasks[0][0]).model  # built outside the timing
        started = time.perf_counter()
        done = 0
        for k, task in enumerate(tasks):
            if jobs > 1 and (k or workers.started):  # up already: every task goes to them
                per_item = (time.perf_counter() - started) / max(done, 1)
                left = sum(size(t) for t in tasks[k:])
                if workers.started or per_item * left * (1 - 1 / jobs) > WORKER_START_SECONDS:
                    workers.started = True
                    rest = (delayed(work)(*t) for t in tasks[k:])
                    pool_workers_deaf_to_ctrl_c()  # Ctrl-C is the main process's alone
                    yield from Parallel(n_jobs=jobs, return_as="generator_unordered")(rest)
                    return
            yield work(*task)
            done += size(task)
        return
    calls = (delayed(work)(*task) for task in tasks)
    with _cluster(backend, scheduler, jobs):
        with parallel_config(backend=backend):
            yield from Parallel(n_jobs=-1, return_as="generator_unordered")(calls)


@dataclass
class Workers:
    """Whether a run has started joblib's local workers: they stay up between its phases
    (joblib reuses them), so a later phase sends them its tasks at once."""

    started: bool = False


class _cluster:
    """Connect to (or start) a Dask cluster for joblib's dask backend."""

    def __init__(self, backend: str, scheduler: str | None, jobs: int) -> None:
        self.backend, self.scheduler, self.jobs = backend, scheduler, jobs
        self.client: Any = None

    def __enter__(self) -> _cluster:
        if self.backend == "dask":
            try:
                from distributed import Client
            except ImportError:
                raise UsageError(
                    "--backend dask needs Dask: pip install 'hogbench[dask]'"
                ) from None
            try:
                if self.scheduler:
                    self.client = Client(self.scheduler, timeout=30)
                else:
                    self.client = Client(n_workers=self.jobs, threads_per_worker=1)
            except OSError as exc:
                raise HogbenchError(
                    f"cannot reach the Dask scheduler at {self.scheduler}: {exc}"
                ) from None
        else:
            raise UsageError(f"--backend must be one of {', '.join(BACKENDS)}, got {self.backend}")
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()


def _portable(entrant: Entrant) -> Entrant:
    """The entrant with an absolute path, so a worker elsewhere (a cluster) finds its file."""
    spec = entrant.spec
    if entrant.tableable or spec.path is None or spec.path.is_absolute():
        return entrant
    return dataclasses.replace(entrant, spec=dataclasses.replace(spec, path=spec.path.resolve()))


@dataclass
class Played:
    """Results of the pairs asked for, each seen from either side (``PairResults``)."""

    results: PairResults = field(default_factory=PairResults)
    failures: dict[tuple[int, int], PairFailure] = field(default_factory=dict)
    computed: int = 0  # pairs computed in this run
    stored: int = 0  # pairs found in the store
    seconds: float = 0.0  # wall time spent computing


def play_pairs(
    rules: RuleSet,
    entrants: list[Entrant],
    wanted: list[tuple[int, int]],
    settings: PlaySettings = PlaySettings(),
    store: Store | None = None,
    progress: Progress | None = None,
    workers: Workers | None = None,
) -> Played:
    """Play the WANTED pairs (indices into ENTRANTS) as SETTINGS say, reusing and filling the
    store. Monte Carlo pairs play until decided against the threshold (or by the SPRT), the
    games being each pair's cap."""
    s = settings
    if s.backend not in BACKENDS:
        raise UsageError(f"--backend must be one of {', '.join(BACKENDS)}, got {s.backend!r}")
    if s.batch_size is not None and s.batch_size < 1:
        raise UsageError(f"--batch-size must be at least 1, got {s.batch_size}")
    live_budget = s.live_budget
    names = [e.key for e in entrants]  # a table's key is a hash of it: worth computing once
    rules_key = rules.key  # built from the options each time: 0.65 s over 80,000 pairs
    keys = {
        (i, j): pair_key(
            rules_key,
            names[i],
            names[j],
            pair_mode(s.mode, entrants[i], entrants[j]) == "exact",
            s.seed,
            s.games,
            s.sprt,
        )
        for i, j in wanted
    }
    by_key = dict(zip(names, entrants, strict=True))
    found = store.get(keys.values()) if store is not None else {}
    if rules.has_ties or rules.turn_cap() is not None:  # exact pairs stored before their
        # ties were kept are played again
        found = {k: r for k, r in found.items() if not (r.exact and r.ties is None)}
    distinct = set(keys.values())
    missing = list(distinct.difference(found))  # in no order: make_batches orders them
    played = Played(stored=len(distinct) - len(missing))
    live = {name for name, e in zip(names, entrants, strict=True) if not e.tableable}
    table_bytes = int(np.prod(rules.obs_shape))  # kept tables are int8
    size = s.batch_size or auto_batch_size(len(missing), s.jobs, table_bytes)
    stop = StopRule(s.threshold, s.sprt, s.pair_seconds, s.live_budget)
    tasks = []
    for batch in make_batches(missing, live, size):
        needed = {k.a for k in batch} | {k.b for k in batch}
        players = {name: player_of(_portable(by_key[name]), rules, s.request) for name in needed}
        tasks.append((rules, players, batch, stop))
    failed: dict[PairKey, PairFailure] = {}
    worst = 0.5  # seconds: a pair faster than this is not worth naming
    start = time.perf_counter()
    if progress is not None and missing:
        progress.start("pairs", len(missing))
        if live:
            budget = live_budget or DEFAULT_LIVE_BUDGET
            progress.note(f"{len(live)} live strategies: each of their pairs within {budget:.0f} s")
    try:
        dispatched = _dispatch(tasks, s.jobs, s.backend, s.scheduler, workers=workers)
        for results in dispatched if missing else ():
            done = [r for r in results if isinstance(r, PairResult)]
            if store is not None:
                store.put(done)  # one transaction per batch: a kill loses no finished batch
            found.update((r.key, r) for r in done)
            failed.update((r.key, r) for r in results if isinstance(r, PairFailure))
            played.computed += len(done)
            if progress is not None:
                progress.advance(len(results))
                slowest = max(done, key=lambda r: r.seconds, default=None)
                if slowest is not None and slowest.seconds > worst:
                    worst = slowest.seconds
                    a, b = by_key[slowest.key.a].name, by_key[slowest.key.b].name
                    budget = ""
                    if live & {slowest.key.a, slowest.key.b}:  # a live pair has a budget
                        budget = f" of {live_budget or DEFAULT_LIVE_BUDGET:.0f} s live budget"
                    progress.note(f"slowest pair: {a} vs {b}, {worst:.1f} s{budget}")
    finally:
        if progress is not None and missing:
            progress.stop()
    played.seconds = time.perf_counter() - start
    once = {}
    for (i, j), key in keys.items():
        result = found.get(key)
        if result is not None:  # kept as stored, from the side of the smaller key
            once[(j, i) if names[i] != key.a else (i, j)] = result
        elif key in failed:
            played.failures[i, j] = failed[key]
    played.results = PairResults(once)
    return played


def solve_best_responses(
    rules: RuleSet,
    entrants: list[Entrant],
    budget: float,
    settings: PlaySettings = PlaySettings(),
    progress: Progress | None = None,
    workers: Workers | None = None,
) -> dict[str, float | None]:
    """The best response's rate against each of ENTRANTS' tables (``solve.best_response_rate``),
    by entrant key, solved in the worker processes as pairs are, once per distinct table; those
    solved before come from the cache. None for a table begun past BUDGET seconds."""
    from hogbench.solve import known_best_response

    deadline = time.time() + budget
    tables = {e.key: e.table.choices for e in entrants if e.table is not None}
    rates = {key: known_best_response(rules, table) for key, table in tables.items()}
    missing = [key for key, rate in rates.items() if rate is None]
    if not missing:
        return rates
    # One table first (a Fall 2019 one takes seconds: it tells whether workers are worth
    # starting), then about four tasks per worker.
    size = max(1, math.ceil((len(missing) - 1) / (4 * max(1, settings.jobs))))
    groups = [missing[:1]] + [missing[k : k + size] for k in range(1, len(missing), size)]
    tasks = [(rules, group, [tables[key] for key in group], deadline) for group in groups]
    if progress is not None:
        progress.start("best responses (for regret)", len(missing))
    try:
        for keys, solved in _dispatch(
            tasks,
            settings.jobs,
            settings.backend,
            settings.scheduler,
            work=_best_responses,
            size=lambda task: len(task[1]),
            workers=workers,
        ):
            rates.update(zip(keys, solved, strict=True))
            if progress is not None:
                progress.advance(len(keys))
    finally:
        if progress is not None:
            progress.stop()
    return rates


def _best_responses(
    rules: RuleSet, keys: list[str], tables: list[np.ndarray], deadline: float
) -> tuple[list[str], list[float | None]]:
    """A worker's task: the best responses to TABLES, with the KEYS they answer for."""
    from hogbench.solve import best_response_batch

    return keys, best_response_batch(rules, tables, deadline)
