"""A tournament's settings: one schema from which the tournament file's keys, the command line's
options and their defaults all come.

Each ``Setting`` names its key in the tournament file, its option on the command line (if it
has one), the types it accepts, its default and one line saying what it is. ``load_source``
reads a file, a folder or a list of specs, lets the command line's values win over the file's,
checks each value against the schema and makes a ``Tournament``.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hogbench.discovery import Entry, discover
from hogbench.errors import UsageError
from hogbench.names import shown
from hogbench.rules import DEFAULT_RULES, DEFAULT_THRESHOLD

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

MODES = ("exact", "mc")
#: Where pairs are played: this machine (joblib), or a Dask cluster (the way out of one machine).
BACKENDS = ("local", "dask")


@dataclass(frozen=True)
class Setting:
    """One tournament setting: its file key, its command-line option, its types and default."""

    key: str
    kinds: tuple[type, ...]
    default: Any
    help: str
    option: str | None = None  # e.g. "--games"; None: the tournament file only
    short: str | None = None  # e.g. "-n"
    #: A problem with an accepted value, said as "must be ...", or None when it is fine.
    check: Callable[[Any], str | None] | None = None

    @property
    def flags(self) -> tuple[str, ...]:
        """The command line's names for it, long first."""
        return tuple(f for f in (self.option, self.short) if f)

    @property
    def cli_help(self) -> str:
        """The help line the command line shows: what it is, and its default."""
        if self.default is None or self.default in ((), [], {}) or self.kinds == (bool,):
            return self.help + "."
        return f"{self.help} (default {self.default})."


def _positive(x: float) -> str | None:
    return None if x > 0 else f"must be positive, got {x}"


def _at_least_one(x: int) -> str | None:
    return None if x >= 1 else f"must be at least 1, got {x}"


SETTINGS: tuple[Setting, ...] = (
    Setting("name", (str,), "tournament", "the tournament's title", "--name"),
    Setting("rules", (str,), DEFAULT_RULES, "rule set name, e.g. hog-su21", "--rules", "-r"),
    Setting("goal", (int,), None, "score to win (default 100)", "--goal", None, _at_least_one),
    Setting("options", (dict,), None, "table of rule options, e.g. feral_hogs = false", "--option"),
    Setting("entrants", (list,), None, "list of .py paths, folders, globs or built-in specs"),
    Setting(
        "mode",
        (str,),
        "exact",
        '"exact" or "mc" (Monte Carlo for every pair)',
        "--mode",
        None,
        lambda m: None if m in MODES else f'must be "exact" or "mc", got {m!r}',
    ),
    Setting(
        "games",
        (int,),
        10_000,
        "Monte Carlo games per pair at most (pairs play until decided)",
        "--games",
        "-n",
        _at_least_one,
    ),
    Setting(
        "seed",
        (int,),
        0,
        "seed for Monte Carlo pairs",
        "--seed",
        None,
        lambda s: None if 0 <= s < 2**63 else f"must be between 0 and 2**63 - 1, got {s}",
    ),
    Setting(
        "threshold",
        (float, int),
        DEFAULT_THRESHOLD,
        "win rate above which a match scores a point",
        "--threshold",
        None,
        lambda t: None if 0.5 <= t < 1 else f"must be at least 0.5 and below 1, got {t}",
    ),
    Setting(
        "sprt",
        (str,),
        None,
        "stop each Monte Carlo pair by a sequential probability ratio test of win rate P0"
        ' against P1, "P0,P1" (e.g. "0.45,0.55"; alpha = beta = 5%)',
        "--sprt",
    ),
    Setting("store", (str, Path), None, "SQLite results file", "--store"),
    Setting("out", (str, Path), None, "folder for the reports", "--out"),
    Setting(
        "roster",
        (str, Path),
        None,
        "CSV with the columns login, name and path (the submission's file or folder)",
        "--roster",
    ),
    Setting(
        "score_undecided",
        (bool,),
        True,
        "whether a Monte Carlo pair undecided at its cap scores by its estimate",
    ),
    Setting(
        "allow_imports",
        (list,),
        (),
        "list of modules submissions may import beyond the standard library",
        "--allow-import",
    ),
    Setting(
        "allow_live",
        (bool,),
        False,
        "whether strategies that are not deterministic play (by Monte Carlo)",
        "--allow-live",
    ),
    Setting(
        "no_sandbox",
        (bool,),
        False,
        "run submitted code without bwrap (it can then read and change your files)",
        "--no-sandbox",
    ),
    Setting(
        "require_sandbox",
        (bool,),
        False,
        "refuse to run submitted code without bwrap",
        "--require-sandbox",
    ),
    Setting(
        "pair_seconds",
        (float, int),
        None,
        "seconds a Monte Carlo pair may play before it stops, undecided",
        "--pair-seconds",
        None,
        _positive,
    ),
    Setting(
        "live_budget",
        (float, int),
        120.0,
        "seconds of its own answering a live strategy may take in one pair before it is disqualified",
        "--live-budget",
        None,
        _positive,
    ),
    Setting(
        "time_limit",
        (float, int),
        None,
        "seconds a submission may take to answer every state (default: 10; Pig 20, Big Pig 45)",
        "--time-limit",
        None,
        _positive,
    ),
)
SETTING = {s.key: s for s in SETTINGS}
#: The tournament file's keys and what each is (the README's table is checked against it).
TOML_KEYS = {s.key: s.help for s in SETTINGS}
DEFAULT_GAMES: int = SETTING["games"].default
DEFAULT_LIVE_BUDGET: float = SETTING["live_budget"].default


def _default(key: str) -> Any:
    return field(default=SETTING[key].default)


@dataclass
class Tournament:
    """What to play: the entrants' specs (paths already resolved) and how (see SETTINGS)."""

    name: str
    rules: Any  # a RuleSet (typed loosely: rule sets are below, and heavy to import here)
    entrants: list[Entry | str]  # found by hogbench.discovery, or specs given directly
    mode: str = _default("mode")
    games: int = _default("games")
    seed: int = _default("seed")
    threshold: float = _default("threshold")
    #: (P0, P1): each Monte Carlo pair stops when a sequential test tells win rate P0 from P1
    sprt: tuple[float, float] | None = None
    store: Path | None = None
    out: Path | None = None
    roster: Path | None = None
    time_limit: float | None = None  # the sandbox's limit for loading one submission
    #: Monte Carlo pairs still undecided at their cap score by their estimate (True) or for
    #: nobody (False); either way the standings say how many points hang on them.
    score_undecided: bool = _default("score_undecided")
    allow_imports: tuple[str, ...] = ()  # modules submissions may import beyond stdlib, numpy
    #: Play strategies that are not deterministic by Monte Carlo where the rules disqualify them
    allow_live: bool = _default("allow_live")
    no_sandbox: bool = _default("no_sandbox")  # the user knowingly runs submissions without bwrap
    require_sandbox: bool = _default("require_sandbox")
    #: Seconds a Monte Carlo pair may play before it stops, undecided if it is not yet decided
    #: (None: the games cap alone). A time cap makes results depend on the machine's speed.
    pair_seconds: float | None = None
    #: Seconds a pair with a live strategy may take in all; past it the live one is disqualified
    live_budget: float = _default("live_budget")


# -- sources -----------------------------------------------------------------------------------
def load_source(sources: list[str], **overrides: Any) -> Tournament:
    """A tournament from a TOML file, a folder of submissions, or a list of specs and globs.

    OVERRIDES are the command line's settings (keys of SETTINGS); those that are not None win
    over the file's values.
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

    def where(key: str) -> str:
        if key == "entrants":
            return "strategies"
        return SETTING[key].option or key if key in SETTING else f"--{key}"

    return _build(settings, Path.cwd(), where)


def from_toml(path: Path, **overrides: Any) -> Tournament:
    """Read a tournament file; UsageError naming the key for anything wrong in it."""
    if not path.is_file():
        raise UsageError(f"no such tournament file: {path}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from None
    for key in data:
        if key in ("alpha", "beta"):  # duel's SPRT options, which a tournament has not
            raise UsageError(
                f"{path}: key {key!r}: a tournament's sprt tests at alpha = beta = 5%, which"
                " the file does not change; drop the key"
            )
        if key not in SETTING:
            known = ", ".join(TOML_KEYS)
            raise UsageError(f"{path}: unknown key {key!r} (known keys: {known})")
    if "entrants" not in data:
        raise UsageError(f"{path}: key 'entrants' is missing ({TOML_KEYS['entrants']})")
    data.setdefault("name", path.stem)
    for key in ("store", "out", "roster"):  # paths in the file are relative to the file
        if key in data and isinstance(data[key], str):
            data[key] = Path(os.path.normpath(path.parent / data[key]))
    if "options" in overrides:  # options given on the command line add to the file's
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise UsageError(f"{path}: key 'options': expected {TOML_KEYS['options']}")
        overrides["options"] = {**options, **overrides["options"]}
    data.update(overrides)
    return _build(data, path.parent, lambda key: f"{path}: key {key!r}")


def parse_sprt(text: str) -> tuple[float, float]:
    """'P0,P1' as two win rates, P0 below P1, as ``duel --sprt`` takes them: UsageError saying
    what is wrong."""
    parts = text.split(",")
    try:
        p0, p1 = (float(x) for x in parts)
    except ValueError:
        raise UsageError(
            f'expected two win rates "P0,P1", e.g. "0.45,0.55"; got {text!r}'
        ) from None
    if not 0 <= p0 < p1 <= 1:
        raise UsageError(f"expected win rates P0 below P1, both between 0 and 1; got {text!r}")
    return p0, p1


def _build(settings: dict[str, Any], base: Path, where: Callable[[str], str]) -> Tournament:
    """Check every setting against SETTINGS and make the Tournament; WHERE(key) names a
    setting in errors."""
    from hogbench.rules import get_rules

    def fail(key: str, problem: str) -> UsageError:
        return UsageError(f"{where(key)}: {problem}")

    values: dict[str, Any] = {}
    for s in SETTINGS:
        value = settings.get(s.key, s.default)
        if (
            s.key in settings
            and value is not None
            and (
                not isinstance(value, s.kinds) or (isinstance(value, bool) and bool not in s.kinds)
            )
        ):
            raise fail(s.key, f"expected {s.help} ({s.kinds[0].__name__}), got {value!r}")
        if value is not None and s.check is not None:
            problem = s.check(value)
            if problem:
                raise fail(s.key, problem)
        values[s.key] = value
    allow_imports = list(values["allow_imports"])
    if not all(isinstance(m, str) and m.isidentifier() for m in allow_imports):
        raise fail("allow_imports", f"expected module names, got {allow_imports!r}")
    sprt = None
    if values["sprt"] is not None:
        try:
            sprt = parse_sprt(values["sprt"])
        except UsageError as exc:
            raise fail("sprt", str(exc)) from None
    try:
        rules = get_rules(values["rules"], values["goal"], **(values["options"] or {}))
    except UsageError as exc:
        key = "rules" if "rule set" in str(exc) and "option" not in str(exc) else "options"
        raise fail(key, str(exc)) from None
    entrants = values["entrants"]
    if not entrants or not all(isinstance(e, str) for e in entrants):
        raise fail("entrants", f"expected {TOML_KEYS['entrants']}, got {entrants!r}")
    try:
        specs = discover(entrants, base)
    except UsageError as exc:
        raise fail("entrants", str(exc)) from None
    if len(specs) < 2:
        raise fail("entrants", f"a tournament needs at least 2 entrants, found {len(specs)}")

    def path(key: str) -> Path | None:
        return None if values[key] is None else Path(values[key])

    def number(key: str) -> float | None:
        return None if values[key] is None else float(values[key])

    return Tournament(
        name=values["name"],
        rules=rules,
        entrants=specs,
        mode=values["mode"],
        games=values["games"],
        seed=values["seed"],
        threshold=float(values["threshold"]),
        sprt=sprt,
        store=path("store"),
        out=path("out"),
        roster=path("roster"),
        time_limit=number("time_limit"),
        score_undecided=values["score_undecided"],
        allow_imports=tuple(allow_imports),
        allow_live=values["allow_live"],
        no_sandbox=values["no_sandbox"],
        require_sandbox=values["require_sandbox"],
        pair_seconds=number("pair_seconds"),
        live_budget=float(values["live_budget"]),
    )


# -- where things go ---------------------------------------------------------------------------
def default_store(tournament: Tournament) -> Path:
    """Where results go when the tournament names no store: beside the reports, or in a cache."""
    if tournament.out is not None:
        return tournament.out / "store.sqlite"
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", tournament.name).strip("-") or "tournament"
    return Path(".hogbench") / "tournaments" / f"{slug}.sqlite"


REPORT_FILES = (
    "standings.csv",
    "matrix.csv",
    "pairs.csv",
    "results.json",
    "index.html",
    "matrix.png",
    "standings.png",
    "links.csv",
    "extra_credit.csv",
    "gradebook.csv",
)


def check_paths(t: Tournament) -> None:
    """Where results and reports go must be usable before any work starts: a run that fails
    only after an hour of work, on a path that is a file, helps nobody."""
    _outside_submissions(t)
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
    """FOLDER exists and a file can be made in it (it is made, and a file tried: as root,
    ``os.access`` says yes to /sys and /proc); else UsageError naming OPTION."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise UsageError(f"{option}: {existing} is a file, so {folder} cannot be a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UsageError(f"{option}: {existing} is not writable")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise UsageError(f"{option}: {folder} cannot be written ({exc.strerror})") from None


def _outside_submissions(t: Tournament) -> None:
    """The reports, the store and the cache must lie outside every student's folder: a
    worker sees a copy of its student's folder, and would see the store, the cache and the key
    that seals the cache's entries on the next run."""
    shares = [e.share for e in t.entrants if isinstance(e, Entry) and e.share is not None]
    folders = [s.resolve() for s in shares if s.is_dir() and not s.is_symlink()]
    if not folders:
        return
    from hogbench.cache import cache_root

    wanted = [("--out", t.out), ("--store", t.store or default_store(t))]
    wanted.append(("$HOGBENCH_CACHE", cache_root()))
    for option, path in wanted:
        if path is None:
            continue
        where = Path(os.path.abspath(path)).resolve()
        for folder in folders:
            if where.is_relative_to(folder):
                raise UsageError(
                    f"{option} {shown(path)} is inside the submission folder {shown(folder)},"
                    " which that entrant's worker sees: choose a place outside the submissions"
                )


#: The settings that belong to the sandbox, each a field of ``sandbox.Request`` by the same
#: name: the command line merges them with its own options into its one request.
SANDBOX_KEYS = ("allow_imports", "no_sandbox", "require_sandbox", "time_limit")


def sandbox_settings(t: Tournament) -> dict[str, Any]:
    """The tournament's sandbox settings (SANDBOX_KEYS) that are set, as plain values: what the
    tournament file (and the command line over it) asks of the sandbox. Never a request: the
    command line makes the one request from them."""
    settings = {key: getattr(t, key) for key in SANDBOX_KEYS}
    settings["allow_imports"] = tuple(settings["allow_imports"] or ())
    return {key: value for key, value in settings.items() if value is not None}
