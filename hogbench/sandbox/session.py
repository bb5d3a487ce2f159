"""A session: one worker running one job, and how to explain its failures.

Every failure becomes a StrategyError naming the file, the strategy, the state and what went
wrong; what the worker said about itself is untrusted text, cleaned and cut.
"""

from __future__ import annotations

import functools
import os
import signal
import time
from pathlib import Path
from typing import Any

import numpy as np

from hogbench.bundled import is_bundled
from hogbench.entrants import Spec
from hogbench.errors import HogbenchError, IllegalChoice, StrategyError
from hogbench.names import shown, without_host_paths
from hogbench.rules import course_functions_not_strategies
from hogbench.rules.base import RuleSet
from hogbench.sandbox.bwrap import INSIDE, STARTUP_SECONDS
from hogbench.sandbox.imports import (
    COURSE_MODULES,
    IMPORT_POLICY,
    absent_module,
    course_names,
    importable,
    missing_course_name,
)
from hogbench.sandbox.limits import how
from hogbench.sandbox.process import Stopped, Timeout, Worker, stopping
from hogbench.sandbox.protocol import (
    PASS,
    SMALL,
    Bounds,
    Malformed,
    clean,
    decode_answer,
    decode_pass,
    parse_message,
    pass_size,
)
from hogbench.sandbox.request import Request
from hogbench.submission import Snapshot, remove, snapshot
from hogbench.tables import CodedAnswers

# What an OSError message means inside the worker.
HINTS = {
    "Read-only file system": "strategies may not write files",
    "File too large": "strategies may not write files",
    "Network is down": "strategies have no network",
    "Resource temporarily unavailable": "strategies may not start threads or processes",
    "can't start new thread": "strategies may not start threads or processes",
}


def wall_cap(limit: float) -> float:
    """The wall-clock seconds a worker gets for what a LIMIT of seconds (as ``limits.Clock``
    counts them) allows: a backstop that only a machine far overloaded meets."""
    return 10 * limit + 30


def plain(state: tuple) -> tuple:
    """A state's arguments as JSON carries them: ints (numpy's too) and bools (Greed's last)."""
    return tuple(x if type(x) is bool else int(x) for x in state)


def make_job(spec: Spec, rules: RuleSet, mode: str, request: Request) -> dict[str, Any]:
    """The job a worker reads first: what to import, where from, and what to call."""
    return {
        "mode": mode,
        # After the submission's own folder, so a student's own dice.py wins.
        "paths": [str(COURSE_MODULES), str(importable(request.allow_imports))],
        "path": None,  # the strategy file in the private copy, set by the session
        "function": spec.function,
        "names": list(rules.strategy_names),
        "arity": len(rules.strategy_args),
        "not_strategies": sorted(course_functions_not_strategies(rules.name)),
        "where": shown(spec.path),
    }


class Session:
    """A worker running one job, with what is needed to say how it failed."""

    def __init__(
        self,
        spec: Spec,
        request: Request,
        job: dict[str, Any],
        cpu_seconds: int,
        rules: RuleSet,
        count: int = 0,
        files: Snapshot | None = None,
    ) -> None:
        self.where = shown(spec.path)  # escapes: a file name may hold any bytes
        files = files or snapshot(spec.path, spec.share)
        # The worker sees a private read-only copy of the entrant's own files, nothing else;
        # inside bwrap at a fixed place, so messages never show a host path.
        self.copy = files.materialize()
        self.request = request
        self.job = job
        self.cpu_seconds = cpu_seconds
        self.rules = rules
        self.count = count  # states in a table job, each called twice
        self.stage = "import"
        self.asked: tuple | None = None  # the decision asked for, in live play
        self.batch: np.ndarray = np.empty(0, dtype=np.int64)  # the observations asked for
        self.started = 0.0
        try:
            ours = is_bundled(files.files.values())  # the very bytes the worker gets
            self.worker = Worker(self.copy, request, cpu_seconds, ours)
        except BaseException:
            remove(self.copy)
            raise
        self.folder = Path(INSIDE) if self.worker.isolated else self.copy
        self.job["path"] = str(self.folder / files.main)

    def __enter__(self) -> Session:
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
        except (Timeout, Malformed, BrokenPipeError):
            started = None
        if started != {"started": True}:  # no submitted code has run yet: this is our failure
            self.worker.close()
            raise HogbenchError(f"the strategy worker did not start: {self.worker.output()[0]}")
        self.started = time.monotonic()
        self.worker.clock.start()

    def start(self) -> tuple[str, str | None]:
        """Send the job, wait for the import; the strategy's function name and team name."""
        self.launch()
        if self.count:  # a table job: importing and the first pass share the limit
            self.worker.budget = self.request.time_limit
        loaded = self.expect("loaded", self.started + wall_cap(self.request.time_limit))
        function = loaded.get("function") if isinstance(loaded, dict) else None
        team = loaded.get("team") if isinstance(loaded, dict) else None
        if not isinstance(function, str) or not function.isidentifier():
            raise self.malformed("a function name that is not a name")
        if team is not None and not isinstance(team, str):
            raise self.malformed("a TEAM_NAME that is not text")
        self.where = f"{self.where}:{function}"
        return function, (clean(team, 100).strip() or None) if team is not None else None

    def expect_answers(self, key: str, deadline: float) -> CodedAnswers:
        """A pass: the line naming its values, then its codes."""
        header = self.expect(key, deadline, PASS)
        try:
            codes = self.worker.receive_raw(pass_size(header, self.count), deadline)
        except Timeout:
            raise self._timed_out() from None
        if codes is None:
            raise self._died()
        try:
            return decode_pass(header, codes, self.count)
        except Malformed as exc:
            raise self.malformed(str(exc)) from None

    def decide(self, state: tuple, rules: RuleSet) -> int:
        """One live decision, validated with ``rules.choice``."""
        self.stage, self.asked = "decision", state
        deadline = time.monotonic() + self.request.decision_time_limit
        self.worker.asked(_line_whole)
        try:
            self.worker.send(list(state), deadline)
        except Timeout:
            raise self._timed_out() from None
        except BrokenPipeError:
            raise self._died() from None
        try:
            value = decode_answer(self.expect("answer", deadline))
        except Malformed as exc:
            raise self.malformed(str(exc)) from None
        self.worker.answered()
        try:
            return rules.choice(value)
        except IllegalChoice as exc:
            raise self._failure(f"illegal move: {exc}", state) from None

    def send_batch(self, observations: np.ndarray) -> None:
        """Ask for the strategy's answers at many observations (flat decision-table indices) at
        once; ``receive_batch`` collects them. The worker starts at once, so the caller may ask
        another worker meanwhile."""
        self.stage, self.batch = "batch", observations
        deadline = time.monotonic() + self.request.decision_time_limit + len(observations) * 1e-5
        self.worker.asked(functools.partial(_pass_whole, len(observations)))
        try:
            self.worker.send({"batch": len(observations)}, deadline)
            self.worker.send_raw(np.asarray(observations, dtype="<i4").tobytes(), deadline)
        except Timeout:
            raise self._timed_out() from None
        except BrokenPipeError:
            raise self._died() from None

    def receive_batch(self, rules: RuleSet) -> np.ndarray:
        """The choices asked for by ``send_batch``, each validated with ``rules.choice``. Each
        decision has ``decision_time_limit`` seconds: the worker is timed out when it has been
        at one call of the batch for that long (its position shows which)."""
        n = len(self.batch)
        header = self.expect("answers", 0.0, PASS, progressing=True)
        try:
            codes = self.worker.receive_raw(
                pass_size(header, n), time.monotonic() + self.request.decision_time_limit
            )
        except Timeout:
            raise self._timed_out() from None
        if codes is None:
            raise self._died()
        self.worker.answered()
        try:
            coded = decode_pass(header, codes, n)
        except Malformed as exc:
            raise self.malformed(str(exc)) from None
        legal = np.empty(len(coded.values), dtype=np.int64)
        for i, value in enumerate(coded.values):  # one check per distinct answer
            try:
                legal[i] = rules.choice(value)
            except IllegalChoice as exc:
                first = int(np.flatnonzero(coded.codes == i)[0])
                state = plain(rules.obs_args(int(self.batch[first])))
                raise self._failure(f"illegal move: {exc}", state) from None
        return legal[coded.codes]

    def _receive_progressing(self, bounds: Bounds) -> dict | None:
        """The next message of a batch: Timeout once one call has taken the decision limit."""
        limit = self.request.decision_time_limit
        seen = None
        while True:
            try:
                return self.worker.receive(time.monotonic() + limit, bounds | SMALL)
            except Timeout:
                now = self.worker.position()
                if now == seen:  # at the same call for a whole limit: a hang
                    raise
                seen = now

    def expect(
        self, key: str, deadline: float, bounds: Bounds = SMALL, progressing: bool = False
    ) -> Any:
        """The next message, which must be KEY (within BOUNDS); else the StrategyError explaining
        why not. PROGRESSING: a batch's answers, timed per call (DEADLINE unused)."""
        try:
            if progressing:
                message = self._receive_progressing(bounds)
            else:
                message = self.worker.receive(deadline, bounds | SMALL)
        except Timeout:
            raise self._timed_out() from None
        except Malformed as exc:
            raise self.malformed(str(exc)) from None
        if message is None:
            raise self._died()
        if key in message:
            return message[key]
        if "error" in message:
            raise self._reported(message["error"])
        raise self.malformed(f"{clean(next(iter(message)), 40)!r} instead of {key!r}")

    # -- explaining failures --------------------------------------------------------------------
    def _failure(
        self, problem: str, state: tuple | None, detail: str = "", output: bool = True
    ) -> StrategyError:
        """The StrategyError for PROBLEM, after killing the worker; its output is the detail.
        While the run is stopping, hogbench killed it: Stopped, never a verdict."""
        self.worker.close()
        if stopping():
            raise Stopped(f"{self.where}: stopped before it finished")
        if not detail and output:
            detail = self.worker.output()[0]
        private = (str(self.folder),)  # no host path in what is shown: its own files by name
        problem = without_host_paths(problem, private)
        return StrategyError(self.where, problem, state, without_host_paths(detail, private))

    def malformed(self, what: str) -> StrategyError:
        # No output: the worker is killed mid-stream, and what it printed then only misleads.
        problem = f"broke the protocol with hogbench (sent {what})"
        return self._failure(problem, self._state_now(), output=False)

    def _state_now(self) -> tuple | None:
        """The state being answered, from the position the worker keeps (or the live request)."""
        if self.stage == "decision":
            return self.asked
        if self.stage == "batch":
            index = self.worker.position()
            if 0 <= index < len(self.batch):
                return plain(self.rules.obs_args(int(self.batch[index])))
            return None
        n = self.count
        index = self.worker.position()
        if self.stage.endswith("pass") and 0 <= index < 2 * n:
            return plain(self.rules.obs_args(index % n))
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
        limit = f"{self.request.time_limit:g} s"
        taken, computing = self.worker.clock.taken()
        spent = (
            f"{computing:.1f} s computing, {max(taken - computing, 0):.1f} s sleeping or waiting"
        )
        if self.stage in ("decision", "batch"):
            problem = f"timed out: no answer within {self.request.decision_time_limit:g} s"
        elif not self.worker.over_budget:
            problem = (
                f"timed out: no answer within {wall_cap(self.request.time_limit):g} s of wall"
                f" clock, of which {taken:.1f} s counted ({spent}): the machine may be"
                " overloaded"
            )
        else:
            doing = how(taken, computing)
            if self.stage == "import":
                doing = f"while importing, {doing}"
            problem = (
                f"timed out {doing}: the {limit} limit for importing and answering every state"
                f" ran out ({spent}; time spent waiting for a busy CPU is not counted)"
            )
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
            return self.malformed("an error report that is not a record")
        message = clean(info.get("message"), 300)
        if info.get("stage") == "find":
            return self._failure(message, None)
        kind = clean(info.get("type"), 60) or "an exception"
        # Paths inside the private copy are shown relative to it: no host path leaks.
        trace = clean(info.get("traceback"), 2000, newlines=True).replace(f"{self.folder}/", "")
        state = self.asked if self.stage == "decision" else self._reported_state(info)
        if "file" in info:
            name = clean(info["file"], 300)
            line = info.get("line") if type(info.get("line")) is int else "?"
            if name == self.job["path"]:  # the file itself: `where` names it already
                problem = f"syntax error at line {line}: {message}"
            else:  # a module it imports, e.g. its sibling hog.py
                if os.path.dirname(name) == str(self.folder):
                    name = os.path.basename(name)
                problem = f"syntax error in {name} at line {line}: {message}"
        elif kind == "MemoryError":
            problem = f"ran out of memory (limit {self.request.memory_mb} MB)"
        elif kind in ("SystemExit", "KeyboardInterrupt"):
            problem = f"tried to stop the interpreter (raised {kind}" + (
                f": {message})" if message else ")"
            )
        else:
            problem = f"raised {kind}: {message}" if message else f"raised {kind}"
            hints = {hint for text, hint in HINTS.items() if text in message}
            problem += "".join(f" ({hint})" for hint in sorted(hints))
        if info.get("stage") == "import" and "file" not in info:
            missing = missing_course_name(message) if kind == "ImportError" else None
            if missing is not None:
                module, name = missing
                problem = (
                    f"import failed: hogbench's stand-in for the course's {module} module has no"
                    f" {name!r} (it has {', '.join(course_names(module))})"
                )
            else:
                problem = f"import failed: {problem}"
                absent = absent_module(message) if kind == "ModuleNotFoundError" else None
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


def _line_whole(buffer: bytearray) -> bool:
    """Whether a one-line reply has come whole (or is past its bound: it is over either way)."""
    return b"\n" in buffer or len(buffer) > SMALL.size


def _pass_whole(count: int, buffer: bytearray) -> bool:
    """Whether a batch's reply for COUNT observations has come whole: its header line and the
    codes it announces. A reply past its bounds, or one that is no pass, is over as well (it
    is judged when it is read)."""
    end = buffer.find(b"\n")
    if end < 0:
        return len(buffer) > PASS.size
    try:
        message = parse_message(bytes(buffer[:end]), PASS | SMALL)
    except Malformed:
        return True
    if "answers" not in message:
        return True
    return len(buffer) - end - 1 >= pass_size(message["answers"], count)


def _signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return str(signum)
