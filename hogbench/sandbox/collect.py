"""A file's answers at every state: the table job, run in one session."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hogbench.entrants import Spec
from hogbench.rules.base import RuleSet
from hogbench.sandbox.request import Request
from hogbench.sandbox.session import Session, make_job, plain, wall_cap
from hogbench.submission import Snapshot, snapshot


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


def collect_answers(
    spec: Spec,
    rules: RuleSet,
    files: Snapshot | None = None,
    request: Request | None = None,
    **options: Any,
) -> Answers:
    """Run the file's strategy in a worker at every state of RULES, twice, on a private copy of
    FILES (by default the spec's snapshot), as REQUEST (or OPTIONS, its fields) says.

    Returns the raw answers, not yet judged; StrategyError when the file does not load, raises,
    hangs, crashes, exits or breaks the protocol.
    """
    opts = Request.for_rules(rules, request, **options)
    files = files or snapshot(spec.path, spec.share)
    digest = files.digest
    n = int(np.prod(rules.obs_shape))
    job = {**make_job(spec, rules, "table", opts), "shape": list(rules.obs_shape), "states": None}
    if type(rules).observations is not RuleSet.observations:  # not plain ndindex order: spell out
        job["states"] = [plain(state) for state in rules.observations()]
    # Limits are CPU seconds, measured here from the worker's processes, so a verdict does not
    # depend on how busy the machine is; a generous wall clock catches what waits or sleeps.
    # The kernel's own CPU limit is a backstop above both passes.
    cpu = math.ceil(2 * opts.time_limit) + 2
    longest = 2048 * n + (1 << 16)  # a pass of answers: each is short when encoded
    with Session(spec, opts, job, cpu, longest, rules, n, files) as session:
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
