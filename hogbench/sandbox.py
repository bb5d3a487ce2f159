"""Submitted strategy files run only here: in a sandboxed worker process that sends back data.

The parent never imports a submission. ``hogbench/worker.py`` runs in its own interpreter
(standard library only), imports the file with the file's folder importable, calls the
strategy at every state twice (the second pass in reverse order) and sends back only data: the
raw answers, encoded so that ints, bools, floats, strings and None stay distinct, or what went
wrong. This process validates all of it and builds the table with
``tables.table_from_answers``, so illegal values and non-determinism are judged by trusted code.

Where bwrap (bubblewrap) works (tried once per process), the worker runs inside it:

* unshared network, IPC, UTS and PID namespaces (``--unshare-all``: no network at all), its own
  session, killed when we die;
* read-only system directories, Python installation and worker script; of the user's files
  only the submission's own folder, read-only; a private empty ``/tmp``, which is also HOME;
  nothing else (no home directory, no other submissions); the root itself is read-only.

Always, before it imports anything submitted, the worker limits its address space, CPU time,
file size (0: no file can grow), processes and open files, and on Linux installs a seccomp
filter that refuses new processes and sockets (root ignores the process limit). Here, a wall
clock kills the worker's whole process group when time runs out, and threads drain its stdout
and stderr, keeping the first and last few KB.

Without bwrap (or with HOGBENCH_SANDBOX=off) the worker runs with its limits only, after a
one-line warning; ``require_sandbox=True`` refuses instead.

Tables are cached on disk ($HOGBENCH_CACHE, else ~/.cache/hogbench), keyed by the content of
the file and of the .py files beside it, the function asked for and the rule set.
"""

from __future__ import annotations

import binascii
import dataclasses
import functools
import json
import math
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hogbench.bundled import is_bundled
from hogbench.entrants import Spec, parse_spec
from hogbench.errors import HogbenchError, IllegalChoice, StrategyError, UsageError
from hogbench.rules import course_functions_not_strategies
from hogbench.rules.base import RuleSet
from hogbench.submission import Snapshot, remove, snapshot
from hogbench.tables import CodedAnswers

WORKER = Path(__file__).with_name("worker.py").resolve()
INSIDE = "/submission"  # where a worker inside bwrap finds its private copy
SANDBOX_ENV = "HOGBENCH_SANDBOX"  # "off": run workers without bwrap (limits only)
STARTUP_SECONDS = 10.0
CPU_CHECK_SECONDS = 0.1  # how often a waiting parent looks at the worker's CPU time
_CLOCK_TICKS = (
    os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
)  # our own start (bwrap, interpreter), not charged to the strategy
KEEP_OUTPUT = 2048  # bytes kept from the start and from the end of stdout, and of stderr
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What an OSError message means inside the worker.
HINTS = {
    "Read-only file system": "strategies may not write files",
    "File too large": "strategies may not write files",
    "Network is down": "strategies have no network",
    "Resource temporarily unavailable": "strategies may not start processes",
}


@dataclass(frozen=True)
class SandboxOptions:
    """The keyword options of ``loading.load_entrant`` (files), ``collect_answers`` and
    ``LiveStrategy``."""

    require_sandbox: bool = False  # refuse to run without bwrap rather than warn
    #: seconds to import and answer every state (live: to import); None: the rule set's
    #: default (``default_time_limit``)
    time_limit: float | None = None
    decision_time_limit: float = 1.0  # live play: seconds per decision
    memory_mb: int = 1024  # the worker's address space
    cache: bool = True  # use the table cache
    #: top-level modules a submission may import beyond the standard library and numpy
    allow_imports: tuple[str, ...] = ()
    no_sandbox: bool = False  # the user asked to run without bwrap (limits and filter only)
    #: bwrap is missing and the run was let go on because its files are hogbench's own
    #: (``hogbench.bundled``): refuse any other file rather than run it unsandboxed
    bundled_only: bool = False

    def __post_init__(self) -> None:
        for name in ("time_limit", "decision_time_limit"):
            value = getattr(self, name)
            if value is not None and not 0 < value < 1e6:
                raise UsageError(f"{name} must be a positive number of seconds")
        if self.memory_mb < 64:
            raise UsageError(f"a memory limit of {self.memory_mb} MB is too small for Python")
        object.__setattr__(self, "allow_imports", tuple(sorted(set(self.allow_imports))))
        for name in self.allow_imports:
            if not name.isidentifier():
                raise UsageError(f"--allow-import takes a module name, got {name!r}")

    @classmethod
    def for_rules(cls, rules: RuleSet, **options: Any) -> SandboxOptions:
        """The options, with the rule set's default time limit unless one is given."""
        opts = cls(**options)
        if opts.time_limit is None:
            opts = dataclasses.replace(opts, time_limit=default_time_limit(rules))
        return opts


def default_time_limit(rules: RuleSet) -> float:
    """Seconds a file may take to import and answer every state of RULES: 10, and 20 µs a
    state where there are more than half a million (Pig 20 s, Big Pig 45 s). A plain strategy
    answers a state in 2 to 5 µs there, so the limit still catches a file that hangs without
    disqualifying one that is merely written in Python."""
    return max(10.0, 20e-6 * int(np.prod(rules.obs_shape)))


@dataclass
class Answers:
    """What a worker sent back for a table job, checked for shape and types only."""

    function: str
    team: str | None
    first: Sequence[Any]  # a list, or CodedAnswers
    second: Sequence[Any]  # the second pass, in observation order like the first
    seconds: float  # to import the file and answer every state once
    output: str  # what it printed, cut to the first and last few KB
    output_bytes: int
    isolated: bool  # ran inside bwrap
    digest: str  # the digest of the entrant's files (``Snapshot.digest``), taken before it ran


# ---------------------------------------------------------------------------------------------
# A file's answers at every state
# ---------------------------------------------------------------------------------------------


def collect_answers(
    spec: Spec, rules: RuleSet, files: Snapshot | None = None, **options: Any
) -> Answers:
    """Run the file's strategy in a worker at every state of RULES, twice, on a private copy of
    FILES (by default the spec's snapshot).

    Returns the raw answers, not yet judged; StrategyError when the file does not load, raises,
    hangs, crashes, exits or breaks the protocol.
    """
    opts = SandboxOptions.for_rules(rules, **options)
    files = files or snapshot(spec.path, spec.share)
    digest = files.digest
    n = int(np.prod(rules.obs_shape))
    job = {**_job(spec, rules, "table", opts), "shape": list(rules.obs_shape), "states": None}
    if type(rules).observations is not RuleSet.observations:  # not plain ndindex order: spell out
        job["states"] = [_plain(state) for state in rules.observations()]
    # Limits are CPU seconds, measured here from the worker's processes, so a verdict does not
    # depend on how busy the machine is; a generous wall clock catches what waits or sleeps.
    # The kernel's own CPU limit is a backstop above both passes.
    cpu = math.ceil(2 * opts.time_limit) + 2
    longest = 2048 * n + (1 << 16)  # a pass of answers: each is short when encoded
    with _Session(spec, opts, job, cpu, longest, rules, n, files) as session:
        function, team = session.start()
        session.stage = "first pass"
        first = session.expect_answers("first", session.started + wall_cap(opts.time_limit))
        seconds = session.worker.cpu_used()
        session.stage = "second pass"
        session.worker.cpu_budget = seconds + opts.time_limit
        second = session.expect_answers("second", time.monotonic() + wall_cap(opts.time_limit))
        session.close()  # then its output is complete
        output, output_bytes = session.worker.output()
    isolated = session.worker.isolated
    return Answers(function, team, first, second, seconds, output, output_bytes, isolated, digest)


def wall_cap(limit: float) -> float:
    """The wall-clock seconds a worker gets for what LIMIT CPU seconds allow: generous, so that
    only a strategy that waits or sleeps (or a machine far overloaded) meets it."""
    return 3 * limit + 5


def _plain(state: tuple) -> tuple:
    """A state's arguments as JSON carries them: ints (numpy's too) and bools (Greed's last)."""
    return tuple(x if type(x) is bool else int(x) for x in state)


def _job(spec: Spec, rules: RuleSet, mode: str, options: SandboxOptions) -> dict[str, Any]:
    return {
        "mode": mode,
        # After the submission's own folder, so a student's own dice.py wins.
        "paths": [str(COURSE_MODULES), str(importable(options.allow_imports))],
        "path": None,  # the strategy file in the private copy, set by the session
        "function": spec.function,
        "names": list(rules.strategy_names),
        "arity": len(rules.strategy_args),
        "not_strategies": sorted(course_functions_not_strategies(rules.name)),
        "where": str(spec.path),
    }


# ---------------------------------------------------------------------------------------------
# Probing a file's course functions
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Raised:
    """A probed call that raised: the exception's type name."""

    kind: str


#: Calls in one probe job: enough for every score pair of a few functions.
PROBE_CALLS = 200_000


@dataclass(frozen=True)
class Grid:
    """Every STRIDE-th argument list of the product of AXES (one list of values per argument;
    ``{"dice": [outcomes]}`` stands for the course's test dice cycling through them)."""

    axes: tuple[tuple[Any, ...], ...]
    stride: int = 1

    def __len__(self) -> int:
        return -(-math.prod(map(len, self.axes)) // self.stride)

    def to_dict(self) -> dict[str, Any]:
        return {"axes": [list(axis) for axis in self.axes], "stride": self.stride}


def probe_functions(
    spec: Spec, rules: RuleSet, probes: dict[str, list[Grid]], **options: Any
) -> dict[str, list[Any]]:
    """Call the file's module-level functions named in PROBES, each on the argument lists of
    its grids in turn, in a worker, before any strategy is chosen: name -> results (decoded
    answers, or Raised), for the names the file defines as functions. StrategyError when the
    file does not import or the probe fails."""
    opts = SandboxOptions.for_rules(rules, **options)
    counts = {name: sum(map(len, grids)) for name, grids in probes.items()}
    calls = sum(counts.values())
    if calls > PROBE_CALLS:
        raise UsageError(f"a probe of {calls} calls is more than {PROBE_CALLS}")
    grids = {name: [grid.to_dict() for grid in grids] for name, grids in probes.items()}
    job = {**_job(spec, rules, "probe", opts), "probes": grids}
    longest = 256 * calls + (1 << 16)  # a result is a short encoded value
    with _Session(spec, opts, job, math.ceil(opts.time_limit) + 2, longest, rules) as session:
        session.launch()
        session.worker.cpu_budget = opts.time_limit
        found = session.expect("probed", session.started + wall_cap(opts.time_limit))
        if type(found) is not dict:
            raise session._malformed("probe results that are not a record")
        results: dict[str, list[Any]] = {}
        for name, values in found.items():
            if name not in probes or type(values) is not list or len(values) != counts[name]:
                raise session._malformed("probe results that were not asked for")
            try:
                results[name] = [_probe_result(value) for value in values]
            except _Malformed as exc:
                raise session._malformed(str(exc)) from None
    return results


def _probe_result(value: Any) -> Any:
    if type(value) is dict and set(value) == {"raised"}:
        return Raised(_clean(value["raised"], 60) or "Exception")
    return decode_answer(value)


# ---------------------------------------------------------------------------------------------
# Live play
# ---------------------------------------------------------------------------------------------


class LiveStrategy:
    """A strategy file played live by a persistent sandboxed worker: ``live(*args) -> int``.

    For strategies that cannot be tables (random, or keeping history). Each decision is sent to
    the worker and its answer validated here with ``rules.choice``; a decision has
    ``decision_time_limit`` seconds. Use it as a context manager (or call ``close``), from the
    thread that opened it: the sandboxed worker dies with that thread. It pickles as its spec,
    rules and options: an unpickled copy (in a joblib worker) opens its own worker on first use.
    """

    def __init__(self, spec: Spec | str, rules: RuleSet, **options: Any) -> None:
        self.spec = parse_spec(spec) if isinstance(spec, str) else spec
        if not self.spec.is_file:
            raise UsageError(f"{self.spec.text}: only strategy files are played by a worker")
        self.rules = rules
        self._options = options
        self.options = SandboxOptions.for_rules(rules, **options)
        self.function: str | None = None
        self.team: str | None = None
        self._session: _Session | None = None
        self._error: StrategyError | None = None
        self._open()

    def _open(self) -> None:
        job = _job(self.spec, self.rules, "live", self.options)
        session = _Session(self.spec, self.options, job, 0, 1 << 16, self.rules)
        try:
            self.function, self.team = session.start()
        except BaseException:
            session.close()
            raise
        self._session = session

    def __call__(self, *args: Any) -> int:
        if self._error is not None:
            raise self._error
        if self._session is None:
            self._open()
        try:
            return self._session.decide(_plain(args), self.rules)
        except StrategyError as exc:
            self._error = exc  # it does not get to play on after failing
            self.close()
            raise

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None

    def __enter__(self) -> LiveStrategy:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # at interpreter exit, modules may be half gone
            pass

    def __getstate__(self) -> dict[str, Any]:
        rules = (self.rules.name, self.rules.goal, dict(self.rules.options))
        return {"spec": self.spec, "rules": rules, "options": self._options}

    def __setstate__(self, state: dict[str, Any]) -> None:
        from hogbench.rules import get_rules

        name, goal, rule_options = state["rules"]
        self.spec = state["spec"]
        self.rules = get_rules(name, goal, **rule_options)
        self._options = state["options"]
        self.options = SandboxOptions.for_rules(self.rules, **self._options)
        self.function = self.team = None
        self._session = None
        self._error = None


# ---------------------------------------------------------------------------------------------
# Sessions: one worker running one job, and how to explain its failures
# ---------------------------------------------------------------------------------------------


class _Malformed(Exception):
    """The worker broke the protocol (the submission tampered with it)."""


class _Timeout(Exception):
    pass


class _Session:
    """A worker running one job, with what is needed to say how it failed."""

    def __init__(
        self,
        spec: Spec,
        options: SandboxOptions,
        job: dict[str, Any],
        cpu_seconds: int,
        longest: int,
        rules: RuleSet,
        count: int = 0,
        files: Snapshot | None = None,
    ) -> None:
        self.where = str(spec.path)
        files = files or snapshot(spec.path, spec.share)
        # The worker sees a private read-only copy of the entrant's own files, nothing else;
        # inside bwrap at a fixed place, so messages never show a host path.
        self.copy = files.materialize()
        self.options = options
        self.job = job
        self.cpu_seconds = cpu_seconds
        self.rules = rules
        self.count = count  # states in a table job, each called twice
        self.stage = "import"
        self.request: tuple | None = None  # the decision asked for, in live play
        self.started = 0.0
        try:
            ours = is_bundled(files.files.values())  # the very bytes the worker gets
            self.worker = _Worker(self.copy, options, cpu_seconds, longest, ours)
        except BaseException:
            remove(self.copy)
            raise
        self.folder = Path(INSIDE) if self.worker.isolated else self.copy
        self.job["path"] = str(self.folder / files.main)

    def __enter__(self) -> _Session:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def close(self) -> None:
        self.worker.close()
        if self.copy.exists():
            remove(self.copy)

    def launch(self) -> None:
        """Send the job and wait until the worker has read it (no submitted code has run)."""
        deadline = time.monotonic() + STARTUP_SECONDS
        try:
            self.worker.send(self.job, deadline)
            started = self.worker.receive(deadline)
        except (_Timeout, _Malformed, BrokenPipeError):
            started = None
        if started != {"started": True}:  # no submitted code has run yet: this is our failure
            self.worker.close()
            raise HogbenchError(f"the strategy worker did not start: {self.worker.output()[0]}")
        self.started = time.monotonic()

    def start(self) -> tuple[str, str | None]:
        """Send the job, wait for the import; the strategy's function name and team name."""
        self.launch()
        if self.count:  # a table job: importing and the first pass share the CPU limit
            self.worker.cpu_budget = self.options.time_limit
        loaded = self.expect("loaded", self.started + wall_cap(self.options.time_limit))
        function = loaded.get("function") if isinstance(loaded, dict) else None
        team = loaded.get("team") if isinstance(loaded, dict) else None
        if not isinstance(function, str) or not function.isidentifier():
            raise self._malformed("a function name that is not a name")
        if team is not None and not isinstance(team, str):
            raise self._malformed("a TEAM_NAME that is not text")
        self.where = f"{self.where}:{function}"
        return function, (_clean(team, 100).strip() or None) if team is not None else None

    def expect_answers(self, key: str, deadline: float) -> Sequence[Any]:
        try:
            return decode_pass(self.expect(key, deadline), self.count)
        except _Malformed as exc:
            raise self._malformed(str(exc)) from None

    def decide(self, state: tuple, rules: RuleSet) -> int:
        """One live decision, validated with ``rules.choice``."""
        self.stage, self.request = "decision", state
        deadline = time.monotonic() + self.options.decision_time_limit
        try:
            self.worker.send(list(state), deadline)
        except _Timeout:
            raise self._timed_out() from None
        except BrokenPipeError:
            raise self._died() from None
        try:
            value = decode_answer(self.expect("answer", deadline))
        except _Malformed as exc:
            raise self._malformed(str(exc)) from None
        try:
            return rules.choice(value)
        except IllegalChoice as exc:
            raise self._failure(f"illegal move: {exc}", state) from None

    def expect(self, key: str, deadline: float) -> Any:
        """The next message, which must be KEY; else the StrategyError explaining why not."""
        try:
            message = self.worker.receive(deadline)
        except _Timeout:
            raise self._timed_out() from None
        except _Malformed as exc:
            raise self._malformed(str(exc)) from None
        if message is None:
            raise self._died()
        if key in message:
            return message[key]
        if "error" in message:
            raise self._reported(message["error"])
        raise self._malformed(f"{_clean(next(iter(message)), 40)!r} instead of {key!r}")

    # -- explaining failures --------------------------------------------------------------------
    def _failure(
        self, problem: str, state: tuple | None, detail: str = "", output: bool = True
    ) -> StrategyError:
        """The StrategyError for PROBLEM, after killing the worker; its output is the detail."""
        self.worker.close()
        if not detail and output:
            detail = self.worker.output()[0]
        return StrategyError(self.where, problem, state, detail)

    def _malformed(self, what: str) -> StrategyError:
        # No output: the worker is killed mid-stream, and what it printed then only misleads.
        problem = f"broke the protocol with hogbench (sent {what})"
        return self._failure(problem, self._state_now(), output=False)

    def _state_now(self) -> tuple | None:
        """The state being answered, from the position the worker keeps (or the live request)."""
        if self.stage == "decision":
            return self.request
        n = self.count
        index = self.worker.position()
        if self.stage.endswith("pass") and 0 <= index < 2 * n:
            return _plain(self.rules.obs_args(index % n))
        return None

    def _progress(self) -> str:
        n = self.count
        index = self.worker.position()
        if not 0 <= index < 2 * n:
            return ""
        if index < n:
            return f" ({index} of {n} states answered)"
        return f" (second pass, {2 * n - 1 - index} of {n} states answered again)"

    def _timed_out(self) -> StrategyError:
        state = self._state_now()
        limit = f"{self.options.time_limit:g} s"
        over_cpu = self.worker.over_budget
        if self.stage == "decision":
            problem = f"timed out: no answer within {self.options.decision_time_limit:g} s"
        elif not over_cpu:
            problem = (
                f"timed out: no answer within {wall_cap(self.options.time_limit):g} s of wall"
                f" clock (the limit is {limit} of CPU time; does it sleep or wait?)"
            )
        elif self.stage == "import":
            problem = f"timed out while importing (the {limit} CPU limit covers importing too)"
        else:
            problem = f"timed out: the {limit} CPU limit for answering every state ran out"
        if self.stage.endswith("pass"):
            problem += self._progress()
        return self._failure(problem, state)

    def _died(self) -> StrategyError:
        state = self._state_now()
        status = self.worker.exit_status()
        signum = self.worker.signal_of(status) if status is not None else 0
        if status is None:
            problem = "closed its pipe to hogbench"
        elif signum == signal.SIGXCPU:
            problem = f"timed out: used more than {self.cpu_seconds} s of CPU time"
        elif signum:
            problem = f"crashed: killed by signal {_signal_name(signum)}"
        else:
            problem = f"exited the interpreter (exit code {status})"
        if self.stage == "import":
            problem += " while importing"
        return self._failure(problem, state)

    def _reported(self, info: Any) -> StrategyError:
        """The failure the worker reported (untrusted text: cleaned and cut)."""
        if not isinstance(info, dict):
            return self._malformed("an error report that is not a record")
        message = _clean(info.get("message"), 300)
        if info.get("stage") == "find":
            return self._failure(message, None)
        kind = _clean(info.get("type"), 60) or "an exception"
        # Paths inside the private copy are shown relative to it: no host path leaks.
        trace = _clean(info.get("traceback"), 2000, newlines=True).replace(f"{self.folder}/", "")
        state = self.request if self.stage == "decision" else self._reported_state(info)
        if "file" in info:
            name = _clean(info["file"], 300)
            line = info.get("line") if type(info.get("line")) is int else "?"
            if name == self.job["path"]:  # the file itself: `where` names it already
                problem = f"syntax error at line {line}: {message}"
            else:  # a module it imports, e.g. its sibling hog.py
                if os.path.dirname(name) == str(self.folder):
                    name = os.path.basename(name)
                problem = f"syntax error in {name} at line {line}: {message}"
        elif kind == "MemoryError":
            problem = f"ran out of memory (limit {self.options.memory_mb} MB)"
        elif kind in ("SystemExit", "KeyboardInterrupt"):
            problem = f"tried to stop the interpreter (raised {kind}" + (
                f": {message})" if message else ")"
            )
        else:
            problem = f"raised {kind}: {message}" if message else f"raised {kind}"
            hints = {hint for text, hint in HINTS.items() if text in message}
            problem += "".join(f" ({hint})" for hint in sorted(hints))
        if info.get("stage") == "import" and "file" not in info:
            missing = _missing_course_name(message) if kind == "ImportError" else None
            if missing is not None:
                module, name = missing
                problem = (
                    f"import failed: hogbench's stand-in for the course's {module} module has no"
                    f" {name!r} (it has {', '.join(course_names(module))})"
                )
            else:
                problem = f"import failed: {problem}"
                absent = _absent_module(message) if kind == "ModuleNotFoundError" else None
                if absent is not None:
                    problem += (
                        f" ({absent!r} is neither beside the file nor installed: a module of the"
                        f" student's own goes in the file's folder; {IMPORT_POLICY})"
                    )
                elif kind in ("ModuleNotFoundError", "ImportError"):
                    problem += f" ({IMPORT_POLICY})"
        trace = trace.replace(f"{COURSE_MODULES}/", "")
        return self._failure(problem, state, trace)

    def _reported_state(self, info: dict) -> tuple | None:
        state = info.get("state")
        if isinstance(state, list) and all(type(x) in (int, bool) for x in state):
            return tuple(state)
        return None


def _signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return str(signum)


# ---------------------------------------------------------------------------------------------
# The worker process
# ---------------------------------------------------------------------------------------------


class _Worker:
    """One worker process: the job goes in on one pipe, messages come back on another."""

    def __init__(
        self,
        folder: Path,
        options: SandboxOptions,
        cpu_seconds: int,
        longest: int,
        bundled: bool = False,
    ):
        bwrap = _sandbox(options, bundled)
        self.isolated = bwrap is not None
        self.longest = longest
        self.buffer = bytearray()  # appended to in place: a table's answers are megabytes
        self.scanned = 0  # how much of the buffer holds no newline
        self.closed = False
        self.status: int | None = None
        self.cpu_budget: float | None = None  # CPU seconds the worker may use, in all
        self.over_budget = False
        # The index of the call under way, written by the worker, read here after a hang/crash.
        self.positions = tempfile.TemporaryFile()
        self.positions.write(struct.pack("q", -1))
        self.positions.flush()
        cmd_read, self.cmd = os.pipe()
        self.res, res_write = os.pipe()
        fds = (cmd_read, res_write, self.positions.fileno())
        memory = options.memory_mb << 20
        argv = [sys.executable, "-S", "-B", str(WORKER), *map(str, fds), str(memory)]
        argv.append(str(cpu_seconds))
        self.scratch = None
        if bwrap is not None:
            allowed = options.allow_imports
            visible = [COURSE_MODULES, importable(allowed), *_importable_paths(allowed)]
            argv = [*_bwrap_args(bwrap, folder, visible), "--", *argv]
            home = "/tmp"  # private to this worker
        else:
            self.scratch = home = tempfile.mkdtemp(prefix="hogbench-worker-")
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": home,
            "TMPDIR": home,
            "LANG": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8",
            "PYTHONHASHSEED": "0",  # the same set order in every run, so cached tables stay true
            # numpy's BLAS would start threads, which the process limit refuses
            "OPENBLAS_NUM_THREADS": "1",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
        }
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=fds,
                cwd=folder,
                env=env,
                start_new_session=True,  # one process group, killed as one
            )
        except BaseException:
            for fd in (self.cmd, self.res):
                os.close(fd)
            self.closed = True
            raise
        finally:
            os.close(cmd_read)
            os.close(res_write)
        os.set_blocking(self.cmd, False)
        self.stdout = _Capture(self.proc.stdout)
        self.stderr = _Capture(self.proc.stderr)

    def send(self, message: Any, deadline: float) -> None:
        data = memoryview(json.dumps(message).encode() + b"\n")
        while data:
            self._wait(self.cmd, select.POLLOUT, deadline)
            try:
                data = data[os.write(self.cmd, data[: 1 << 16]) :]
            except BlockingIOError:
                pass

    def receive(self, deadline: float) -> dict | None:
        """The next message (a one-key dict), or None when the worker closed its pipe."""
        while (end := self.buffer.find(b"\n", self.scanned)) < 0:
            self.scanned = len(self.buffer)
            self._wait(self.res, select.POLLIN, deadline)
            chunk = os.read(self.res, 1 << 20)
            if not chunk:
                return None
            self.buffer += chunk
            if len(self.buffer) > self.longest:
                raise _Malformed("a message longer than any answer")
        line = bytes(self.buffer[:end])
        del self.buffer[: end + 1]
        self.scanned = 0
        try:
            message = json.loads(line)
        except ValueError:
            raise _Malformed("text that is not JSON") from None
        if not isinstance(message, dict) or len(message) != 1:
            raise _Malformed("a message that is not a one-key record")
        return message

    def _wait(self, fd: int, event: int, deadline: float) -> None:
        """Wait for FD until DEADLINE (wall clock), or until the worker has used more CPU time
        than its budget; _Timeout then."""
        # poll, not select: a tournament loading in threads may hold fds past select's 1024.
        poller = select.poll()
        poller.register(fd, event)
        while True:
            timeout = deadline - time.monotonic()
            if timeout <= 0:
                raise _Timeout
            if poller.poll(math.ceil(min(timeout, CPU_CHECK_SECONDS) * 1000)):
                return
            if self.cpu_budget is not None and self.cpu_used() > self.cpu_budget:
                self.over_budget = True
                raise _Timeout

    def cpu_used(self) -> float:
        """CPU seconds used so far by the worker's processes (bwrap and what it started), read
        from /proc, not from the worker: a submission cannot lie about it."""
        total, pending, seen = 0, [self.proc.pid], set()
        while pending:
            pid = pending.pop()
            if pid in seen:
                continue
            seen.add(pid)
            try:
                with open(f"/proc/{pid}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])  # utime, stime
                with open(f"/proc/{pid}/task/{pid}/children", "rb") as f:
                    pending += [int(child) for child in f.read().split()]
            except (OSError, ValueError, IndexError):
                continue
        return total / _CLOCK_TICKS

    def position(self) -> int:
        try:
            return struct.unpack("q", os.pread(self.positions.fileno(), 8, 0))[0]
        except (OSError, ValueError, struct.error):
            return -1

    def output(self) -> tuple[str, int]:
        """What the worker printed (stdout, then stderr, each cut), and how many bytes in all."""
        text = "\n".join(filter(None, (self.stdout.text(), self.stderr.text())))
        return text, self.stdout.total + self.stderr.total

    def exit_status(self) -> int | None:
        """The status of a worker that closed its pipe, or None if it lives on without it."""
        try:
            self.status = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return None
        return self.status

    def signal_of(self, status: int) -> int:
        if status < 0:
            return -status
        if self.isolated and status > 128:  # bwrap reports a death by signal as 128 + signal
            return status - 128
        return 0

    def close(self) -> None:
        """Kill the worker's whole process group and reap it; safe to call again."""
        if self.closed:
            return
        self.closed = True
        if self.proc.poll() is None:  # once reaped, its pid may belong to someone else
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
        self.proc.wait()
        for fd in (self.cmd, self.res):
            os.close(fd)
        self.positions.close()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)


class _Capture:
    """Drains a worker's stdout or stderr in a thread, keeping only its head and tail."""

    def __init__(self, stream: Any) -> None:
        self.head = b""
        self.tail = b""
        self.total = 0
        self.thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self.thread.start()

    def _drain(self, stream: Any) -> None:
        with stream:
            while chunk := os.read(stream.fileno(), 1 << 16):
                self.total += len(chunk)
                if len(self.head) < KEEP_OUTPUT:
                    self.head += chunk[: KEEP_OUTPUT - len(self.head)]
                self.tail = (self.tail + chunk)[-KEEP_OUTPUT:]

    def text(self) -> str:
        self.thread.join(timeout=1.0)  # the worker is gone or done: the pipe ends promptly
        rest = self.total - len(self.head)  # bytes after the head
        if rest <= len(self.tail):
            data = self.head + self.tail[len(self.tail) - rest :]
        else:
            cut = f"\n[... {format_size(rest - len(self.tail))} cut ...]\n".encode()
            data = self.head + cut + self.tail
        return _clean(data.decode("utf-8", "replace"), 3 * KEEP_OUTPUT, newlines=True)


# ---------------------------------------------------------------------------------------------
# The sandbox itself
# ---------------------------------------------------------------------------------------------

_warned = False


@functools.cache
def bwrap_path() -> str | None:
    """bwrap, if it is installed and can build our sandbox on this machine (tried once)."""
    exe = shutil.which("bwrap")
    if exe is None:
        return None
    probe = [*_bwrap_args(exe, WORKER.parent), "--", sys.executable, "-S", "-c", "pass"]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=STARTUP_SECONDS)
    except (OSError, subprocess.SubprocessError):
        return None
    return exe if done.returncode == 0 else None


#: What a submission can do when it runs without bwrap, said whenever that happens.
UNSANDBOXED = (
    "submitted strategies run with resource limits and a system-call filter only: each can"
    " read every file you can read, and change or delete your files, other submissions and"
    " the results store"
)


def turned_off(options: SandboxOptions | None = None) -> bool:
    """Whether the user asked for no sandbox (--no-sandbox, or HOGBENCH_SANDBOX=off)."""
    if options is not None and options.no_sandbox:
        return True
    return os.environ.get(SANDBOX_ENV, "").strip().lower() in ("off", "0", "no", "false")


#: Said once when a run goes on without bwrap because its files are hogbench's own.
BUNDLED_ONLY = (
    "bwrap (bubblewrap) is not installed or does not work here: these entrants are hogbench's"
    " own bundled strategy files (each matches its recorded digest), so they run without the"
    " sandbox, under its limits; a folder of submissions needs bubblewrap"
)


def refuse_without_sandbox(
    what: str, options: SandboxOptions | None = None, files: Sequence[Any] = ()
) -> bool:
    """For commands that run several submissions: refuse to start without a working bwrap
    unless the user turned the sandbox off knowingly, or every one of FILES (entries with a
    ``path`` and ``share``) is one of hogbench's own bundled files.

    True when the run goes on only because of the latter: it then says so in one line, and
    should run with ``bundled_only`` so that a file changed since is refused, not run.
    """
    if turned_off(options) or bwrap_path() is not None:
        return False
    if files and all(_bundled(entry.path, entry.share) for entry in files):
        print(f"hogbench: {BUNDLED_ONLY}", file=sys.stderr)
        return True
    raise UsageError(
        f"bwrap (bubblewrap) is not installed or does not work here, so {what} would run"
        " submissions unsandboxed: install it (apt-get install bubblewrap), or pass"
        f" --no-sandbox to run them anyway ({UNSANDBOXED})"
    )


def _bundled(path: Path, share: Path | None) -> bool:
    """Whether every file an entrant's worker would see is one of hogbench's own."""
    try:
        return is_bundled(snapshot(path, share).files.values())
    except StrategyError:  # unreadable: it is disqualified when loaded, and is not ours
        return False


def _sandbox(options: SandboxOptions, bundled: bool = False) -> str | None:
    """The bwrap to run a worker in, or None to run it with its limits only (BUNDLED: the
    worker's files are all hogbench's own, so there is nothing to warn about)."""
    global _warned
    if turned_off(options):
        why = "the sandbox is turned off"
    else:
        exe = bwrap_path()
        if exe is not None:
            return exe
        why = "bwrap (bubblewrap) is not installed or does not work here"
    if options.require_sandbox:
        raise HogbenchError(f"refusing to run submitted code without the sandbox: {why}")
    if bundled:
        return None
    if options.bundled_only:
        raise HogbenchError(
            f"refusing to run a file without the sandbox ({why}): it is no longer one of"
            " hogbench's own bundled files"
        )
    if not _warned:
        _warned = True
        print(f"hogbench: warning: {why}; {UNSANDBOXED}", file=sys.stderr)
    return None


def _bwrap_args(exe: str, folder: Path, visible: list[Path] = ()) -> list[str]:
    # --cap-drop ALL: run as root, bwrap would otherwise leave the worker every capability
    # inside its namespaces (enough to remount its folder writable).
    args = [exe, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    # The kernel's knobs stay read-only even for a worker that got a capability back.
    args += ["--ro-bind", "/proc/sys", "/proc/sys"]
    for top in SYSTEM_DIRS:
        if os.path.islink(top):  # merged /usr: /lib -> usr/lib
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    args += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]  # the dynamic linker's index
    for path in [*_python_dirs(), str(WORKER), *map(str, visible)]:
        args += ["--ro-bind", path, path]
    args += ["--ro-bind", str(folder), INSIDE]
    # Last: the root (where bwrap made the mount points) becomes read-only; /tmp stays writable.
    return [*args, "--chdir", INSIDE, "--remount-ro", "/"]


@functools.cache
def _python_dirs() -> list[str]:
    """Where the interpreter lives, outside the system directories (a pyenv, venv or conda)."""
    dirs = {sys.base_prefix, sys.prefix, os.path.dirname(os.path.realpath(sys.executable))}
    dirs.add(os.path.dirname(sys.executable))
    outside = [
        d for d in dirs if not any(d == top or d.startswith(top + "/") for top in SYSTEM_DIRS)
    ]
    return sorted(outside, key=len)  # parents before children


# ---------------------------------------------------------------------------------------------
# What a submission may import
# ---------------------------------------------------------------------------------------------

#: The course's helper modules (dice, ucb) as harmless stand-ins: real submissions import them.
COURSE_MODULES = Path(__file__).with_name("course_modules").resolve()
#: Always importable besides the standard library and the course's modules.
ALLOWED_BY_DEFAULT = ("numpy",)
_MISSING_NAME = re.compile(r"cannot import name '(\w+)' from '(\w+)' \((.*)\)$")


def _missing_course_name(message: str) -> tuple[str, str] | None:
    """(module, name) when MESSAGE says a name is missing from one of the course stand-ins."""
    found = _MISSING_NAME.search(message)
    if found is None or found.group(3) != str(COURSE_MODULES / f"{found.group(2)}.py"):
        return None
    return found.group(2), found.group(1)


def _absent_module(message: str) -> str | None:
    """The top-level module a "No module named" MESSAGE names, when it is not installed here
    either (so no allow_imports could help), else None."""
    import importlib.util

    found = re.search(r"No module named '([\w.]+)'", message)
    if found is None:
        return None
    top = found.group(1).split(".")[0]
    try:
        return top if importlib.util.find_spec(top) is None else None
    except (ImportError, ValueError):
        return top


@functools.cache
def course_names(module: str) -> tuple[str, ...]:
    """The public names a course stand-in module defines, read from its source."""
    import ast

    tree = ast.parse((COURSE_MODULES / f"{module}.py").read_text())
    names = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
    return tuple(n for n in names if not n.startswith("_"))


IMPORT_POLICY = (
    "submissions may import the standard library, numpy and the course's dice and ucb;"
    " a tournament file's allow_imports or --allow-import adds an installed module"
)


@functools.cache
def _importable_paths(extra: tuple[str, ...]) -> tuple[Path, ...]:
    """Where the allowed modules live: each package's folder or module's file, and the
    ``<name>.libs`` folder beside it where a wheel keeps its shared libraries."""
    import importlib.util

    paths: list[Path] = []
    for name in (*ALLOWED_BY_DEFAULT, *extra):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None or (spec.origin is None and not spec.submodule_search_locations):
            if name in ALLOWED_BY_DEFAULT:
                continue  # not installed here: submissions simply cannot import it
            raise UsageError(f"--allow-import {name}: no module of that name is installed")
        if spec.submodule_search_locations:
            where = Path(next(iter(spec.submodule_search_locations)))
        else:
            where = Path(spec.origin)  # type: ignore[arg-type]
        if spec.origin in (None, "built-in", "frozen") and not spec.submodule_search_locations:
            continue  # part of the interpreter: importable already
        paths.append(where.resolve())
        libs = where.parent / f"{name}.libs"
        if libs.is_dir():
            paths.append(libs.resolve())
    return tuple(paths)


@functools.cache
def importable(extra: tuple[str, ...]) -> Path:
    """A folder holding only the allowed modules (links to where they are installed), for the
    worker's path: site-packages itself would make every installed package importable,
    hogbench included."""
    import atexit

    folder = Path(tempfile.mkdtemp(prefix="hogbench-imports-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    for path in _importable_paths(extra):
        (folder / path.name).symlink_to(path)
    return folder


# ---------------------------------------------------------------------------------------------
# Answers on the wire
# ---------------------------------------------------------------------------------------------


class Foreign:
    """An answer of a type that does not cross the pipe: its type's name and a short repr."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


@functools.lru_cache(maxsize=256)
def _foreign_type(name: str) -> type:
    # One class per type name, so that messages say "returned [1, 2] (list)".
    return type(name, (Foreign,), {})


PLAIN = {type(None), bool, int, float, str}  # answers that cross the pipe as themselves


def decode_answer(value: Any) -> Any:
    """An answer as the worker encoded it; _Malformed if it is not one."""
    if type(value) in PLAIN:
        return value
    if type(value) is dict and set(value) == {"type", "repr"}:
        name = _clean(value["type"], 60) or "object"
        return _foreign_type(name)(_clean(value["repr"], 120))
    raise _Malformed("an answer that is not an encoded value")


def decode_pass(answers: Any, count: int) -> Sequence[Any]:
    """A pass of COUNT answers as the worker sent it: a list of encoded answers, or a coded pass
    (``{"values": [distinct plain answers], "codes": base64 of one byte per state}``) as
    CodedAnswers; _Malformed if it is neither."""
    if type(answers) is list and len(answers) == count:
        if set(map(type, answers)) <= PLAIN:  # a list of plain answers, checked as a whole
            return answers
        return [decode_answer(a) for a in answers]
    if type(answers) is not dict or set(answers) != {"values", "codes"}:
        raise _Malformed(f"not {count} answers")
    values, text = answers["values"], answers["codes"]
    if not (
        type(values) is list
        and 0 < len(values) <= 256
        and set(map(type, values)) <= PLAIN
        and len({(type(v), v) for v in values}) == len(values)
        and type(text) is str
    ):
        raise _Malformed("a coded pass whose values are not distinct plain answers")
    try:
        codes = np.frombuffer(binascii.a2b_base64(text, strict_mode=True), dtype=np.uint8)
    except (binascii.Error, ValueError):
        raise _Malformed("a coded pass whose codes are not base64") from None
    if len(codes) != count or codes.max() >= len(values):
        raise _Malformed(f"not {count} codes, each naming one of its {len(values)} values")
    return CodedAnswers(values, codes)


def _clean(text: Any, limit: int, newlines: bool = False) -> str:
    """Untrusted text made safe to show: a string, cut, without control characters."""
    if not isinstance(text, str):
        return ""
    keep = "\n\t" if newlines else ""
    return "".join(c if c.isprintable() or c in keep else "?" for c in text[:limit])


def format_size(n: int) -> str:
    for unit in ("bytes", "KB", "MB"):
        if n < 1024 or unit == "MB":
            return f"{n} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} bytes"  # not reached
