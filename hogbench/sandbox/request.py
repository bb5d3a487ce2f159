"""What the caller asks of the sandbox: one frozen request, made once and passed down.

The CLI (or a tournament file, or the Python API) builds one ``Request``; loading, the verdict
cache, ``check``, table jobs and live play all read that same object, and none rebuilds it from
loose options. ``Request.for_rules`` fills in the rule set's default time limit.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from hogbench.errors import UsageError
from hogbench.rules.base import RuleSet


@dataclass(frozen=True)
class Request:
    """How submitted files are to run: the sandbox's one set of options."""

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
    #: where the rules demand a deterministic table, import the file twice in one worker, one
    #: import after the other, instead of in two workers at once: half the workers to start
    #: when many files load at a time (a tournament), a little longer for one file alone
    one_worker: bool = False

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
    def of(cls, request: Request | None = None, **options: Any) -> Request:
        """REQUEST, with OPTIONS (the fields, by name) changed: the one place loose keyword
        options become a request. An unknown option is a UsageError, not a TypeError."""
        unknown = set(options) - {f.name for f in dataclasses.fields(cls)}
        if unknown:
            raise UsageError(f"unknown sandbox option {sorted(unknown)[0]!r}")
        base = request if request is not None else cls()
        return dataclasses.replace(base, **options) if options else base

    @classmethod
    def for_rules(cls, rules: RuleSet, request: Request | None = None, **options: Any) -> Request:
        """The request, with the rule set's default time limit unless one is given."""
        opts = cls.of(request, **options)
        if opts.time_limit is None:
            opts = dataclasses.replace(opts, time_limit=default_time_limit(rules))
        return opts


#: The name other modules used before the request had its own module.
SandboxOptions = Request


def default_time_limit(rules: RuleSet) -> float:
    """Seconds a file may take to import and answer every state of RULES: 10, and 20 µs a
    state where there are more than half a million (Pig 20 s, Big Pig 45 s). A plain strategy
    answers a state in 2 to 5 µs there, so the limit still catches a file that hangs without
    disqualifying one that is merely written in Python."""
    return max(10.0, 20e-6 * int(np.prod(rules.obs_shape)))
