"""The verdict cache: what a strategy file got (its table, or why it cannot play), by content.

An entry is keyed on everything a verdict depends on (the files' digest, the function asked
for, the rule set, the options that change what a worker may do, and the source of the code
that judges), and sealed (``hogbench.cache``), so an altered entry is not trusted.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from pathlib import Path

import numpy as np

from hogbench.cache import cache_root, read_sealed, write_sealed
from hogbench.entrants import Entrant, Spec, clean_name
from hogbench.errors import StrategyError
from hogbench.rules.base import RuleSet
from hogbench.sandbox import Request
from hogbench.tables import DecisionTable

#: The modules that turn a worker's answers into a verdict, and the course's dice and ucb as
#: hogbench supplies them (a submission imports them: a name added there can turn a failed import
#: into a table): a change to any of them retires every entry.
JUDGES = (
    "verdicts.py",
    *(f"sandbox/{p.name}" for p in sorted(Path(__file__).with_name("sandbox").glob("*.py"))),
    "tables.py",
    "submission.py",
    "loading.py",
    *(
        f"course_modules/{p.name}"
        for p in sorted(Path(__file__).with_name("course_modules").glob("*.py"))
    ),
)


def cache_dir() -> Path:
    return cache_root() / "tables"


def key(spec: Spec, rules: RuleSet, digest: str, opts: Request) -> str:
    """Everything a verdict depends on: the files' digest, the function asked for, the rule
    set, and the options that change what the worker may do (imports, memory); and the source
    of the code that judges it, so no entry outlives that code."""
    text = f"{digest}\0{spec.function}\0{rules.key}\0{opts.allow_imports}\0{opts.memory_mb}"
    return hashlib.sha256(f"{_judge_digest()}\0{text}".encode()).hexdigest()[:32]


@functools.cache
def _judge_digest() -> str:
    h = hashlib.sha256()
    for name in JUDGES:
        h.update((Path(__file__).parent / name).read_bytes())
    return h.hexdigest()


def read(key: str, spec: Spec, rules: RuleSet, opts: Request, digest: str) -> Entrant | None:
    """The cached verdict: an Entrant, or the StrategyError the file got (raised again, so a
    hang costs its limit once). None when there is no sound entry for this limit."""
    entry = read_sealed(cache_dir() / f"{key}.json", key)
    if entry is None:
        return None
    try:
        failure = entry.get("failure")
        if failure is not None:
            if failure["timed_out"] and opts.time_limit > entry["time_limit"]:
                return None  # a more generous limit may let it finish: run it again
            state = tuple(failure["state"]) if failure["state"] is not None else None
            problem = failure["problem"]
            if failure["timed_out"]:  # how long it takes depends on the machine and its load
                problem += " (kept from an earlier run; `hogbench cache clear` runs it again)"
            raise StrategyError(failure["where"], problem, state, failure["detail"])
        function, team, seconds = entry["function"], entry["team"], entry["seconds"]
        choices, live_reason, notes = entry["choices"], entry["live_reason"], entry["notes"]
        if seconds > opts.time_limit:
            return None  # measured slower than this limit allows: run it again
        if choices is None:
            table = None
        else:
            # The table was judged before it was written, and the seal says it is unaltered;
            # its values are the engines' choices, which are not all answers a strategy may
            # give (Pig's engine says 1 where a strategy says True), so they are not judged
            # again as answers.
            array = _unpacked(choices)
            if len(array) != int(np.prod(rules.obs_shape)):
                return None
            table = DecisionTable.from_choices(rules, array)
            live_reason = None
    except (ValueError, KeyError, TypeError):
        return None  # not an entry this version wrote: ignored, and rewritten
    return Entrant(
        spec,
        clean_name(team, None) if team else spec.text,  # views shorten it
        table,
        digest[:16],
        live_reason=live_reason,
        function=function,
        notes=[str(note) for note in notes],
    )


def write(key: str, entrant: Entrant, seconds: float) -> None:
    """Keep a file's verdict: its table (or why it plays live), name and notes."""
    entry = {
        "function": entrant.function,
        "team": None if entrant.name == entrant.spec.text else entrant.name,
        "seconds": seconds,
        "choices": None if entrant.table is None else _packed(entrant.table.choices),
        "live_reason": entrant.live_reason,
        "notes": entrant.notes,
    }
    write_sealed(cache_dir() / f"{key}.json", key, entry)


def write_failure(key: str, exc: StrategyError, opts: Request) -> None:
    """Keep why a file cannot play, so a hang costs its limit once."""
    failure = {
        "where": exc.where,
        "problem": exc.problem,
        "state": None if exc.state is None else list(exc.state),
        "detail": exc.detail,
        "timed_out": "timed out" in exc.problem,
    }
    write_sealed(
        cache_dir() / f"{key}.json", key, {"failure": failure, "time_limit": opts.time_limit}
    )


#: Integer types a kept table may be written in (its narrowest; ``DecisionTable`` narrows it).
_PACKED_TYPES = ("|i1", "<i2", "<i4", "<i8")


def _packed(choices: np.ndarray) -> dict:
    """A table's choices for a JSON entry: their bytes in base64, not a list of numbers (a Big
    Pig table's 2.3 million took 0.6 s to write and as long to read back as a list)."""
    array = np.ascontiguousarray(choices)
    array = array.astype(array.dtype.newbyteorder("<"))
    return {"type": array.dtype.str, "bytes": base64.b64encode(array.tobytes()).decode()}


def _unpacked(packed: dict) -> np.ndarray:
    """The choices ``_packed`` wrote; ValueError for anything else."""
    if packed["type"] not in _PACKED_TYPES:
        raise ValueError("not a table's integer type")
    data = base64.b64decode(packed["bytes"], validate=True)
    return np.frombuffer(data, dtype=np.dtype(packed["type"])).astype(np.int64)
