"""Class tournaments: where the entrants come from, which pairs to play, and playing them.

A tournament is a round robin: every pair of entrants plays in both seatings. Submissions are
loaded once (in the sandbox) into decision tables; pairs of tables are evaluated exactly, and a
pair with a live entrant (one that is not a table, e.g. a randomised strategy) is played by Monte
Carlo. In ``mc`` mode every pair is played by Monte Carlo.

Pairs are keyed by content (see ``hogbench.store``), looked up in the tournament's store, and only
the missing ones are computed: in batches, through joblib, on local processes or a Dask or Ray
cluster. A batch carries the rule set (which drops its model when pickled) and the tables it
needs, each once; a live entrant travels as its spec and is opened by the sandbox in the worker.
Workers never receive submission code.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import math
import os
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from joblib import Parallel, delayed, parallel_config

from hogbench import sandbox
from hogbench.discovery import Entry, discover
from hogbench.entrants import NAME_WIDTH, Entrant, Spec, clean_name
from hogbench.errors import HogbenchError, StrategyError, UsageError
from hogbench.loading import load_entrant
from hogbench.pairs import decision_z, opponents_at_once, play_exact_grid, play_pair, player_of
from hogbench.players import Player
from hogbench.processes import die_with_parent
from hogbench.rules import DEFAULT_RULES, resident
from hogbench.rules.base import RuleSet
from hogbench.standings import DEFAULT_THRESHOLD, Standing, standings
from hogbench.stats import ABOVE, UNDECIDED
from hogbench.store import PairKey, PairResult, Store

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

MODES = ("exact", "mc")
#: Where pairs are played: this machine (joblib), or a Dask cluster (the way out of one machine).
BACKENDS = ("local", "dask")
DEFAULT_GAMES = 10_000
DEFAULT_LIVE_BUDGET = 120.0
#: Most pairs in one joblib task: enough to make the task overhead small against the engine's
#: time per pair, few enough that the progress bar moves and the work spreads over workers. A
#: batch is a tile of the pair matrix, 32 by 32 here: the engine plays one entrant against 32
#: at once, 10% faster per pair than against 16 (hog-su21, measured).
MAX_BATCH = 1024
#: Most bytes of tables one task carries: a tile of side s brings 2s tables to its worker, which
#: holds them while it plays the tile (Big Pig's are 2.3 MB each: tiles of 5 by 5, so that a
#: worker stays within 300 MB; Hog's 10 KB do not limit its tiles).
MAX_BATCH_TABLE_BYTES = 24 << 20
#: About what starting local worker processes costs (imports, compiled code, the model).
WORKER_START_SECONDS = 3.0

TOML_KEYS = {
    "name": "the tournament's title",
    "rules": "rule set name, e.g. hog-su21",
    "goal": "score to win (default 100)",
    "options": "table of rule options, e.g. feral_hogs = false",
    "entrants": "list of .py paths, folders, globs or built-in specs",
    "mode": '"exact" (default) or "mc"',
    "games": "Monte Carlo games per pair at most (pairs play until decided)",
    "seed": "seed for Monte Carlo pairs (default 0)",
    "threshold": "win rate above which a match scores a point (default 0.500001)",
    "store": "SQLite results file",
    "out": "folder for the reports",
    "score_undecided": "whether a Monte Carlo pair undecided at its cap scores by its estimate",
    "allow_imports": "list of modules submissions may import beyond the standard library",
    "allow_live": "whether strategies that are not deterministic play (by Monte Carlo)",
    "pair_seconds": "seconds a Monte Carlo pair may play before it stops, undecided",
    "live_budget": "seconds a pair with a live strategy may take before that one is disqualified",
    "time_limit": (
        "seconds a submission may take to answer every state (default: 10; Pig 20, Big Pig 45)"
    ),
}


@dataclass
class Tournament:
    """What to play: the entrants' specs (paths already resolved) and how."""

    name: str
    rules: RuleSet
    entrants: list[Entry | str]  # found by hogbench.discovery, or specs given directly
    mode: str = "exact"
    games: int = DEFAULT_GAMES
    seed: int = 0
    threshold: float = DEFAULT_THRESHOLD
    store: Path | None = None
    out: Path | None = None
    time_limit: float | None = None  # the sandbox's limit for loading one submission
    #: Monte Carlo pairs still undecided at their cap score by their estimate (True) or for
    #: nobody (False); either way the standings say how many points hang on them.
    score_undecided: bool = True
    allow_imports: tuple[str, ...] = ()  # modules submissions may import beyond stdlib, numpy
    #: Play strategies that are not deterministic by Monte Carlo where the rules disqualify them
    allow_live: bool = False
    no_sandbox: bool = False  # the user knowingly runs submissions without bwrap
    require_sandbox: bool = False
    #: Seconds a Monte Carlo pair may play before it stops, undecided if it is not yet decided
    #: (None: the games cap alone). A time cap makes results depend on the machine's speed.
    pair_seconds: float | None = None
    #: Seconds a pair with a live strategy may take in all; past it the live one is disqualified
    live_budget: float = DEFAULT_LIVE_BUDGET


# -- sources -----------------------------------------------------------------------------------
def load_source(sources: list[str], **overrides: Any) -> Tournament:
    """A tournament from a TOML file, a folder of submissions, or a list of specs and globs.

    OVERRIDES (rules, goal, options, mode, games, seed, threshold, store, out, name,
    time_limit) are the command line's; those that are not None win over the file's values.
    """
    overrides = {k: v for k, v in overrides.items() if v is not None}
    if not sources:
        raise UsageError("give a tournament .toml file, a folder of submissions, or strategies")
    if len(sources) == 1 and sources[0].endswith(".toml"):
        return from_toml(Path(sources[0]), **overrides)
    if len(sources) == 1 and Path(sources[0]).is_dir():
        name = Path(sources[0]).resolve().name
    elif len(sources) == 1:
        raise UsageError(
            f"{sources[0]}: no such tournament file or folder (or give two or more strategies)"
        )
    else:
        name = "tournament"
    settings = {"name": name, "entrants": list(sources), **overrides}
    return _build(
        settings, Path.cwd(), lambda key: "strategies" if key == "entrants" else f"--{key}"
    )


def from_toml(path: Path, **overrides: Any) -> Tournament:
    """Read a tournament file; UsageError naming the key for anything wrong in it."""
    if not path.is_file():
        raise UsageError(f"no such tournament file: {path}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from None
    for key in data:
        if key not in TOML_KEYS:
            known = ", ".join(TOML_KEYS)
            raise UsageError(f"{path}: unknown key {key!r} (known keys: {known})")
    if "entrants" not in data:
        raise UsageError(f"{path}: key 'entrants' is missing ({TOML_KEYS['entrants']})")
    data.setdefault("name", path.stem)
    for key in ("store", "out"):  # paths in the file are relative to the file
        if key in data and isinstance(data[key], str):
            data[key] = Path(os.path.normpath(path.parent / data[key]))
    if "options" in overrides:  # options given on the command line add to the file's
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise UsageError(f"{path}: key 'options': expected {TOML_KEYS['options']}")
        overrides["options"] = {**options, **overrides["options"]}
    data.update(overrides)
    return _build(data, path.parent, lambda key: f"{path}: key {key!r}")


def _build(settings: dict[str, Any], base: Path, where: Callable[[str], str]) -> Tournament:
    """Check every setting and make the Tournament; WHERE(key) names a setting in errors."""
    from hogbench.rules import get_rules

    def fail(key: str, problem: str) -> UsageError:
        return UsageError(f"{where(key)}: {problem}")

    def get(key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        value = settings.get(key, default)
        if value is not None and (
            not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool)
        ):
            expected = kind.__name__ if isinstance(kind, type) else kind[0].__name__
            raise fail(key, f"expected {TOML_KEYS[key]} ({expected}), got {value!r}")
        return value

    name = get("name", str, "tournament")
    rules_name = get("rules", str, DEFAULT_RULES)
    goal = get("goal", int, None)
    options = get("options", dict, {})
    mode = get("mode", str, "exact")
    games = get("games", int, DEFAULT_GAMES)
    seed = get("seed", int, 0)
    threshold = get("threshold", (float, int), DEFAULT_THRESHOLD)
    entrants = get("entrants", list, None)
    store = get("store", (str, Path), None)
    out = get("out", (str, Path), None)
    time_limit = get("time_limit", (float, int), None)
    score_undecided = get("score_undecided", bool, True)
    allow_imports = get("allow_imports", list, [])
    allow_live = get("allow_live", bool, False)
    pair_seconds = get("pair_seconds", (float, int), None)
    live_budget = get("live_budget", (float, int), DEFAULT_LIVE_BUDGET)
    if live_budget <= 0:
        raise fail("live_budget", f"must be positive, got {live_budget}")
    if pair_seconds is not None and pair_seconds <= 0:
        raise fail("pair_seconds", f"must be positive, got {pair_seconds}")
    if not all(isinstance(m, str) and m.isidentifier() for m in allow_imports):
        raise fail("allow_imports", f"expected module names, got {allow_imports!r}")
    if mode not in MODES:
        raise fail("mode", f'must be "exact" or "mc", got {mode!r}')
    if games < 1:
        raise fail("games", f"must be at least 1, got {games}")
    if not 0 <= seed < 2**63:
        raise fail("seed", f"must be between 0 and 2**63 - 1, got {seed}")
    if not 0.5 <= threshold < 1:
        raise fail("threshold", f"must be at least 0.5 and below 1, got {threshold}")
    if goal is not None and goal < 1:
        raise fail("goal", f"must be at least 1, got {goal}")
    if time_limit is not None and time_limit <= 0:
        raise fail("time_limit", f"must be positive, got {time_limit}")
    try:
        rules = get_rules(rules_name, goal, **options)
    except UsageError as exc:
        key = "rules" if "rule set" in str(exc) and "option" not in str(exc) else "options"
        raise fail(key, str(exc)) from None
    if not entrants or not all(isinstance(e, str) for e in entrants):
        raise fail("entrants", f"expected {TOML_KEYS['entrants']}, got {entrants!r}")
    try:
        specs = discover(entrants, base)
    except UsageError as exc:
        raise fail("entrants", str(exc)) from None
    if len(specs) < 2:
        raise fail("entrants", f"a tournament needs at least 2 entrants, found {len(specs)}")
    return Tournament(
        name=name,
        rules=rules,
        entrants=specs,
        mode=mode,
        games=games,
        seed=seed,
        threshold=float(threshold),
        store=Path(store) if store is not None else None,
        out=Path(out) if out is not None else None,
        time_limit=float(time_limit) if time_limit is not None else None,
        score_undecided=score_undecided,
        allow_imports=tuple(allow_imports),
        allow_live=allow_live,
        pair_seconds=None if pair_seconds is None else float(pair_seconds),
        live_budget=float(live_budget),
        no_sandbox=bool(settings.get("no_sandbox", False)),
        require_sandbox=bool(settings.get("require_sandbox", False)),
    )


# -- entrants ----------------------------------------------------------------------------------
@dataclass
class Slot:
    """An entrant in a tournament: loaded, or disqualified with the reason."""

    spec: str
    name: str
    entrant: Entrant | None = None
    disqualified: str | None = None
    same_as: list[str] = field(default_factory=list)  # entrants with the very same table


class Progress(Protocol):
    def start(self, label: str, total: int) -> None: ...
    def advance(self, n: int) -> None: ...
    def note(self, text: str) -> None: ...  # what is slow right now, beside the bar
    def stop(self) -> None: ...


def reason(exc: StrategyError) -> str:
    """Why a strategy failed, without its file name (shown beside it anyway)."""
    at = f"at {exc.state}: " if exc.state is not None else ""
    return f"{at}{exc.problem}"


def load_slots(
    specs: list[Entry | str],
    rules: RuleSet,
    jobs: int = 1,
    progress: Progress | None = None,
    allow_live: bool = False,
    **sandbox_options: Any,
) -> list[Slot]:
    """Load every entrant; a problem with one (an odd folder entry, a StrategyError, a
    strategy that is not deterministic where the rules demand one, unless ALLOW_LIVE)
    disqualifies that entrant and nothing else.

    Loading runs submissions in the sandbox, which waits on worker processes, so threads are
    enough to load several at once.
    """

    def one(item: Entry | str) -> Slot:
        entry = _entry(item)
        spec = entry.spec
        fallback = clean_name(entry.name or spec, None)
        if progress is not None:
            progress.note(f"loading {fallback}")
        try:
            if entry.problem is not None:
                raise StrategyError(spec, entry.problem)
            what: Spec | str = spec
            if entry.path is not None:
                what = Spec(spec, entry.path, entry.function, share=entry.share)
            entrant = load_entrant(what, rules, **sandbox_options)
            if entrant.live_reason and rules.requires_deterministic and not allow_live:
                raise StrategyError(spec, live_policy(entrant.live_reason))
        except StrategyError as exc:
            slot = Slot(spec, fallback, disqualified=reason(exc))
        except UsageError as exc:
            raise UsageError(f"entrant {spec}: {exc}") from None
        else:
            if entrant.name == spec:  # no TEAM_NAME: the student's folder, or the spec
                slot = Slot(spec, fallback, entrant=entrant)
            else:
                slot = Slot(spec, clean_name(entrant.name, NAME_WIDTH), entrant=entrant)
        if progress is not None:
            progress.advance(1)
        return slot

    if progress is not None:
        progress.start("loading entrants", len(specs))
    try:
        if jobs == 1 or len(specs) == 1:
            slots = [one(s) for s in specs]
        else:
            with ThreadPoolExecutor(max_workers=min(jobs, len(specs))) as pool:
                slots = list(pool.map(one, specs))
    finally:
        if progress is not None:
            progress.stop()
    _unique_names(slots)
    _flag_copies(slots)
    return slots


def _entry(item: Entry | str) -> Entry:
    """An entrant named by a string, found as the command line finds it: a file entrant sees
    itself alone, never the files beside it (which may be its classmates')."""
    if isinstance(item, Entry):
        return item
    try:
        found = discover([item], Path.cwd())
    except UsageError:
        return Entry(item)  # the problem is reported when it is loaded
    # Named as the caller named it (discovery would shorten the path).
    return dataclasses.replace(found[0], spec=item) if len(found) == 1 else Entry(item)


def live_policy(reason: str) -> str:
    """The disqualification of a strategy that is not a pure function, as the contest says."""
    reason = re.sub(r"^.*?:\w+ (?=at \()", "", reason)  # the file is named beside it already
    return (
        f"{reason}; the contest rules require a deterministic strategy of the scores"
        " (--allow-live, or allow_live = true, plays such strategies by Monte Carlo)"
    )


def _flag_copies(slots: list[Slot]) -> None:
    """Entrants with the same decision table say so: a TA sees copies at a glance."""
    groups: dict[str, list[Slot]] = {}
    for slot in slots:
        if slot.entrant is not None and slot.entrant.tableable:
            groups.setdefault(slot.entrant.key, []).append(slot)
    for group in groups.values():
        for slot in group:
            others = [other.name for other in group if other is not slot]
            if others:
                slot.same_as = others


def _unique_names(slots: list[Slot]) -> None:
    """Two entrants with the same TEAM_NAME are told apart by their spec."""
    seen: dict[str, int] = {}
    for slot in slots:
        seen[slot.name] = seen.get(slot.name, 0) + 1
    for slot in slots:
        if seen[slot.name] > 1:
            slot.name = f"{slot.name} ({slot.spec})"


# -- playing pairs -----------------------------------------------------------------------------
@dataclass(frozen=True)
class PairFailure:
    """A pair that could not be played (a live strategy failed, or games never ended)."""

    key: PairKey
    message: str
    strategy_error: bool
    #: the key of the entrant that failed (``key.a`` or ``key.b``), when the engines know it
    entrant: str | None = None


def pair_mode(mode: str, a: Entrant, b: Entrant) -> str:
    """Exact wherever both sides are tables and the tournament is exact, and for identical
    tables in any mode: they are exactly even, and no game needs playing to say so."""
    if not (a.tableable and b.tableable):
        return "mc"
    return "exact" if mode == "exact" or a.key == b.key else "mc"


def pair_key(rules: str, a: str, b: str, exact_pair: bool, seed: int, games: int) -> PairKey:
    """The store key of a pair of entrant keys, the smaller first (one row for both orders).

    Exact results depend on neither seed nor games, so exact pairs are keyed without them.
    """
    ka, kb = sorted((a, b))
    if exact_pair:
        return PairKey(rules, ka, kb, "exact", 0, 0)
    return PairKey(rules, ka, kb, "mc", seed, games)


def pair_seed(key: PairKey) -> int:
    """A Monte Carlo pair's own seed, from the tournament seed and the two entrants' keys.

    It does not depend on the other entrants or their order, so a pair's result is the same in
    any tournament that plays it with the same seed.
    """
    digest = hashlib.sha256(f"{key.seed}:{key.a}:{key.b}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def play_batch(
    rules: RuleSet,
    players: dict[str, Player],
    keys: list[PairKey],
    threshold: float = DEFAULT_THRESHOLD,
    pair_seconds: float | None = None,
    live_budget: float | None = None,
) -> list[PairResult | PairFailure]:
    """Play a batch of pairs (in a worker): exact for tables; otherwise Monte Carlo game pairs
    until the paired interval excludes THRESHOLD, with the key's games as the cap."""
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
                until_decided=threshold,
                seconds=pair_seconds,
                live_budget=live_budget,
            )
        except StrategyError as exc:
            results.append(PairFailure(key, str(exc), True, exc.entrant))
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
        values = play_exact_grid(rules, *seats, wanted)
    except HogbenchError:  # one pair that cannot be evaluated fails alone
        return [_play_exact_pair(rules, players, key) for key in keys]
    seconds = (time.perf_counter() - start) / len(keys)
    return [
        PairResult(key, *map(float, values[row[key.a], column[key.b]]), None, seconds)
        for key in keys
    ]


def _play_exact_pair(
    rules: RuleSet, players: dict[str, Player], key: PairKey
) -> PairResult | PairFailure:
    try:
        played = play_pair(rules, players[key.a], players[key.b], "exact")
    except HogbenchError as exc:
        return PairFailure(key, str(exc), False)
    return PairResult(key, played.first, played.second, None, played.seconds)


def make_batches(keys: list[PairKey], live: set[str], size: int) -> list[list[PairKey]]:
    """Cut the pairs into batches of at most SIZE: one tile of the pair matrix each.

    A tile of side sqrt(SIZE) holds up to SIZE pairs among at most 2 * sqrt(SIZE) entrants, so
    each table is sent once per batch, not once per pair. A pair with a live entrant is a batch
    of its own: it is slow, and spreading those out balances the workers.
    """
    names = sorted({k.a for k in keys} | {k.b for k in keys})
    index = {name: i for i, name in enumerate(names)}
    side = max(1, math.isqrt(size))

    def tile(k: PairKey) -> tuple[int, int]:
        return index[k.a] // side, index[k.b] // side

    tabled = sorted(
        (k for k in keys if k.a not in live and k.b not in live),
        key=lambda k: (tile(k), index[k.a], index[k.b]),
    )
    batches = [list(group) for _, group in itertools.groupby(tabled, key=tile)]
    return [[k] for k in keys if k.a in live or k.b in live] + batches


def auto_batch_size(n_pairs: int, workers: int, table_bytes: int) -> int:
    """About four batches per worker, at most MAX_BATCH pairs each, and tiles whose tables
    (TABLE_BYTES each) come to at most MAX_BATCH_TABLE_BYTES."""
    side = max(1, MAX_BATCH_TABLE_BYTES // (2 * table_bytes))
    return max(1, min(MAX_BATCH, side * side, math.ceil(n_pairs / (4 * max(1, workers)))))


def _dispatch(
    tasks: list[tuple], jobs: int, backend: str, scheduler: str | None
) -> Iterator[list[PairResult | PairFailure]]:
    """Run play_batch on each task, yielding each batch's results as it finishes."""
    if backend == "local":
        # Starting worker processes costs seconds (imports, compiled code, the model), more
        # than a small tournament takes: play the first batch here, and go parallel only if
        # the rest would take long enough to be worth the start.
        if tasks:
            _ = resident(tasks[0][0]).model  # built outside the timing
        started = time.perf_counter()
        done = 0
        for k, task in enumerate(tasks):
            if k and jobs > 1:
                per_pair = (time.perf_counter() - started) / done
                left = sum(len(t[2]) for t in tasks[k:])
                if per_pair * left * (1 - 1 / jobs) > WORKER_START_SECONDS:
                    rest = (delayed(play_batch)(*t) for t in tasks[k:])
                    yield from Parallel(n_jobs=jobs, return_as="generator_unordered")(rest)
                    return
            yield play_batch(*task)
            done += len(task[2])
        return
    calls = (delayed(play_batch)(*task) for task in tasks)
    with _cluster(backend, scheduler, jobs):
        with parallel_config(backend=backend):
            yield from Parallel(n_jobs=-1, return_as="generator_unordered")(calls)


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
    """Results of the pairs asked for, each from the first entrant's side."""

    results: dict[tuple[int, int], PairResult] = field(default_factory=dict)
    failures: dict[tuple[int, int], PairFailure] = field(default_factory=dict)
    computed: int = 0  # pairs computed in this run
    stored: int = 0  # pairs found in the store
    seconds: float = 0.0  # wall time spent computing


def play_pairs(
    rules: RuleSet,
    entrants: list[Entrant],
    wanted: list[tuple[int, int]],
    mode: str = "exact",
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    store: Store | None = None,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Progress | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    pair_seconds: float | None = None,
    live_budget: float | None = None,
) -> Played:
    """Play the WANTED pairs (indices into ENTRANTS), reusing and filling the store. Monte
    Carlo pairs play until decided against THRESHOLD, GAMES being each pair's cap."""
    names = [e.key for e in entrants]  # a table's key is a hash of it: worth computing once
    keys = {
        (i, j): pair_key(
            rules.key,
            names[i],
            names[j],
            pair_mode(mode, entrants[i], entrants[j]) == "exact",
            seed,
            games,
        )
        for i, j in wanted
    }
    by_key = dict(zip(names, entrants, strict=True))
    found = store.get(keys.values()) if store is not None else {}
    missing = sorted(set(keys.values()) - set(found), key=lambda k: (k.a, k.b, k.mode))
    played = Played(stored=len(set(keys.values()) & set(found)))
    live = {name for name, e in zip(names, entrants, strict=True) if not e.tableable}
    table_bytes = int(np.prod(rules.obs_shape))  # kept tables are int8
    size = batch_size or auto_batch_size(len(missing), jobs, table_bytes)
    tasks = []
    for batch in make_batches(missing, live, size):
        needed = {k.a for k in batch} | {k.b for k in batch}
        players = {name: player_of(_portable(by_key[name]), rules) for name in needed}
        tasks.append((rules, players, batch, threshold, pair_seconds, live_budget))
    failed: dict[PairKey, PairFailure] = {}
    worst = 0.5  # seconds: a pair faster than this is not worth naming
    start = time.perf_counter()
    if progress is not None and missing:
        progress.start("pairs", len(missing))
        if live:
            budget = live_budget or DEFAULT_LIVE_BUDGET
            progress.note(f"{len(live)} live strategies: each of their pairs within {budget:.0f} s")
    try:
        for results in _dispatch(tasks, jobs, backend, scheduler) if missing else ():
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
    for (i, j), key in keys.items():
        result = found.get(key)
        if result is not None:
            swap = names[i] != key.a
            played.results[i, j] = result.flipped() if swap else result
        elif key in failed:
            played.failures[i, j] = failed[key]
    return played


# -- the round robin ---------------------------------------------------------------------------
@dataclass
class TournamentResult:
    """A finished round robin: entrants (active first in source order), results, standings."""

    tournament: Tournament
    slots: list[Slot]  # every entrant, in source order
    active: list[Slot]  # those in the standings (loaded and not disqualified in play)
    results: dict[tuple[int, int], PairResult]  # (i, j) into active, from i's side, i != j
    standings: list[Standing]
    rates: np.ndarray  # rates[i, j]: active i's win rate against active j
    failures: list[str]  # pairs that could not be played, as messages
    computed: int
    stored: int
    seconds: float
    _modes: dict[int, tuple[int, int]] = field(default_factory=dict, repr=False)

    @property
    def disqualified(self) -> list[Slot]:
        return [s for s in self.slots if s.disqualified is not None]

    def modes(self, i: int) -> tuple[int, int]:
        """How many of active entrant i's pairs were exact, and how many Monte Carlo."""
        if not self._modes:
            for (a, _), r in self.results.items():
                exact_pairs, mc_pairs = self._modes.get(a, (0, 0))
                self._modes[a] = (exact_pairs + r.exact, mc_pairs + (not r.exact))
        return self._modes.get(i, (0, 0))


def default_store(tournament: Tournament) -> Path:
    """Where results go when the tournament names no store: beside the reports, or in a cache."""
    if tournament.out is not None:
        return tournament.out / "store.sqlite"
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", tournament.name).strip("-") or "tournament"
    return Path(".hogbench") / "tournaments" / f"{slug}.sqlite"


def run(
    tournament: Tournament,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Progress | None = None,
    slots: list[Slot] | None = None,
) -> TournamentResult:
    """Load the entrants (unless SLOTS are given), play every missing pair, and rank."""
    t = tournament
    if backend not in BACKENDS:
        raise UsageError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if batch_size is not None and batch_size < 1:
        raise UsageError(f"--batch-size must be at least 1, got {batch_size}")
    check_paths(t)
    if slots is None:
        options = sandbox_options(t)
        if any(isinstance(e, Entry) and e.path is not None for e in t.entrants):
            sandbox.refuse_without_sandbox("a tournament", sandbox.SandboxOptions(**options))
        slots = load_slots(t.entrants, t.rules, jobs, progress, t.allow_live, **options)
    active = [s for s in slots if s.entrant is not None]
    entrants = [s.entrant for s in active]
    wanted = [(i, j) for i in range(len(active)) for j in range(i + 1, len(active))]
    with Store(t.store or default_store(t)) as store:
        played = play_pairs(
            t.rules,
            entrants,  # type: ignore[arg-type]
            wanted,
            t.mode,
            t.games,
            t.seed,
            store,
            jobs,
            backend,
            scheduler,
            batch_size,
            progress,
            t.threshold,
            t.pair_seconds,
            t.live_budget,
        )
    failures = []
    for (i, j), failure in sorted(played.failures.items()):
        failures.append(f"{active[i].name} vs {active[j].name}: {failure.message}")
        if failure.strategy_error:  # only a live entrant can fail in play: disqualify it
            live = [s for s in (active[i], active[j]) if not s.entrant.tableable]  # type: ignore[union-attr]
            # By identity: the failure carries the failing entrant's key, never a name to match
            # (a spec can be a substring of another's). Unknown only when both are live and
            # together ran out of the pair's time budget: then both are charged.
            named = [s for s in live if s.entrant.key == failure.entrant]  # type: ignore[union-attr]
            for slot in named or live:
                slot.disqualified = slot.disqualified or failure.message
    keep = [k for k, s in enumerate(active) if s.disqualified is None]
    renumber = {old: new for new, old in enumerate(keep)}
    results: dict[tuple[int, int], PairResult] = {}
    for (i, j), r in played.results.items():
        if i in renumber and j in renumber:
            results[renumber[i], renumber[j]] = r
            results[renumber[j], renumber[i]] = r.flipped()
    active = [active[k] for k in keep]
    n = len(active)
    rates = np.full((n, n), np.nan)
    errors = np.zeros((n, n))
    undecided = np.zeros((n, n), dtype=bool)
    for (i, j), r in results.items():
        rates[i, j] = r.win_rate
        if not r.exact:
            errors[i, j] = r.paired.standard_error
            undecided[i, j] = r.decision(t.threshold, decision_z(r.key.games)) == UNDECIDED
    return TournamentResult(
        tournament=t,
        slots=slots,
        active=active,
        results=results,
        standings=standings(
            [s.name for s in active], rates, t.threshold, errors, undecided, t.score_undecided
        ),
        rates=rates,
        failures=failures,
        computed=played.computed,
        stored=played.stored,
        seconds=played.seconds,
    )


REPORT_FILES = (
    "standings.csv",
    "matrix.csv",
    "pairs.csv",
    "results.json",
    "index.html",
    "matrix.png",
    "standings.png",
)


def check_paths(t: Tournament) -> None:
    """Where results and reports go must be usable before any work starts: a run that fails
    only after an hour of work, on a path that is a file, helps nobody."""
    if t.out is not None:
        if t.out.exists() and not t.out.is_dir():
            raise UsageError(f"--out {t.out} is a file: give a folder for the reports")
        _writable_folder(t.out, "--out")
    store = t.store or default_store(t)
    if store.is_dir():
        raise UsageError(f"--store {store} is a folder: give the results file's path")
    _writable_folder(store.parent, "--store")
    if t.out is None:
        return
    for name in REPORT_FILES:
        path = t.out / name
        if path.is_dir():
            raise UsageError(f"{path} is a folder: the report file cannot be written there")
        if path.exists() and not os.access(path, os.W_OK):
            raise UsageError(
                f"{path} cannot be written (read-only): fix it or choose another --out"
            )


def _writable_folder(folder: Path, option: str) -> None:
    """FOLDER exists and is writable, or can be made; else UsageError naming OPTION."""
    existing = folder
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise UsageError(f"{option}: {existing} is a file, so {folder} cannot be a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UsageError(f"{option}: {existing} is not writable")


def sandbox_options(t: Tournament) -> dict[str, Any]:
    """The sandbox options a tournament's settings give."""
    options: dict[str, Any] = {
        "allow_imports": t.allow_imports,
        "no_sandbox": t.no_sandbox,
        "require_sandbox": t.require_sandbox,
    }
    if t.time_limit is not None:
        options["time_limit"] = t.time_limit
    return options


# -- gauntlet ----------------------------------------------------------------------------------
@dataclass
class GauntletRow:
    opponent: Slot
    result: PairResult | None  # from the challenger's side; None if not played
    beats: bool
    problem: str | None = None
    decision: str | None = None  # above / below / undecided the threshold (None: not played)


def gauntlet(
    rules: RuleSet,
    challenger: str,
    field_specs: list[str],
    threshold: float = DEFAULT_THRESHOLD,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
    allow_live: bool = False,
    **sandbox_options: Any,
) -> tuple[Slot, list[GauntletRow]]:
    """One strategy against a field, as the Greed course's testStrat: win rate and beats-or-not.

    The challenger failing to load is an error (StrategyError); an opponent failing is reported
    in its row. The field's files run in the sandbox, which must work (see
    ``sandbox.refuse_without_sandbox``); the policies are the tournament's.
    """
    field = discover(field_specs, Path.cwd())
    if any(e.path is not None for e in field):
        sandbox.refuse_without_sandbox("a gauntlet", sandbox.SandboxOptions(**sandbox_options))
    me = load_entrant(challenger, rules, **sandbox_options)
    if me.live_reason and rules.requires_deterministic and not allow_live:
        raise StrategyError(challenger, live_policy(me.live_reason))
    specs = [e for e in field if not _same_file(e, me)]
    opponents = load_slots(specs, rules, jobs, progress, allow_live, **sandbox_options)
    playing = [s for s in opponents if s.entrant is not None]
    entrants = [me] + [s.entrant for s in playing]
    wanted = [(0, k + 1) for k in range(len(playing))]
    played = play_pairs(
        rules,
        entrants,
        wanted,
        "exact",
        games,
        seed,
        jobs=jobs,
        progress=progress,
        threshold=threshold,
    )
    rows = []
    position = {id(slot): k + 1 for k, slot in enumerate(playing)}
    for slot in opponents:
        if slot.entrant is None:
            rows.append(GauntletRow(slot, None, False, slot.disqualified))
            continue
        ij = (0, position[id(slot)])
        result = played.results.get(ij)
        failure = played.failures.get(ij)
        decision = None
        if result is not None:
            decision = result.decision(threshold, decision_z(result.key.games))
        rows.append(
            GauntletRow(
                slot,
                result,
                decision == ABOVE,
                failure.message if failure else None,
                decision,
            )
        )
    return Slot(challenger, clean_name(me.name), entrant=me), rows


def _same_file(entry: Entry, entrant: Entrant) -> bool:
    """Whether ENTRY is the challenger's own file: a glob of the field often includes it, and
    a strategy played against itself says nothing."""
    if entrant.spec.path is None or entry.path is None:
        return entry.spec == entrant.spec.text
    try:
        return entry.path.resolve() == entrant.spec.path.resolve()
    except OSError:
        return False
