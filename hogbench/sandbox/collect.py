"""A file's answers at every state: the table job.

Each state is called twice, the second time in reverse order. Under rules that demand a
deterministic strategy (the contests'), the two passes come from two imports of the file, each
with its own random seed: a strategy whose table depends on randomness drawn at import (a
Monte Carlo experiment run to pick its constants) then differs between them, as it would
between two runs of the course's tournament. The two imports run in two workers at the same
time, or (``Request.one_worker``, as a tournament loading many files asks) one after the other
in one worker, every module of the first import forgotten before the second: one cold start
of a worker instead of two. Elsewhere one worker makes both passes.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hogbench.entrants import Spec
from hogbench.errors import StrategyError
from hogbench.rules.base import RuleSet
from hogbench.sandbox.imports import COURSE_MODULES
from hogbench.sandbox.request import Request
from hogbench.sandbox.session import Session, make_job, plain, wall_cap
from hogbench.submission import Snapshot, snapshot

PASSES = ("first", "second")
#: How the two calls of each state are made where the rules demand a deterministic strategy.
ACROSS_IMPORTS = (
    "each state is called twice, in two separate imports with different random seeds, the"
    " second time in reverse order: randomness drawn at import shows too"
)


@dataclass
class Answers:
    """What a worker sent back for a table job, checked for shape and types only."""

    function: str
    team: str | None
    first: Sequence[Any]  # a list, or CodedAnswers
    second: Sequence[Any]  # the second pass, in observation order like the first
    seconds: float  # to import the file and answer every state once (``limits.Clock``)
    output: str  # what it printed, cut to the first and last few KB
    output_bytes: int
    isolated: bool  # ran inside bwrap
    digest: str  # the digest of the entrant's files (``Snapshot.digest``), taken before it ran
    across_imports: bool = False  # the two passes came from two imports, with different seeds


@dataclass
class _Run:
    """One worker's part of a table job."""

    session: Session
    passes: tuple[str, ...]
    function: str = ""
    team: str | None = None
    answers: tuple[Sequence[Any], ...] = ()
    seconds: float = 0.0
    output: str = ""
    output_bytes: int = 0
    error: BaseException | None = None
    reimport: bool = False  # each pass after the first comes from a second import
    again: str = ""  # the function the second import chose

    def __call__(self, limit: float) -> None:
        session = self.session
        try:
            with session:
                self.function, self.team = session.start()
                found = []
                for key in self.passes:
                    session.stage = f"{key} pass"
                    if key == self.passes[0]:
                        deadline = session.started + wall_cap(limit)
                    else:  # a pass after the first: its own limit
                        session.worker.budget = self.seconds + limit
                        deadline = time.monotonic() + wall_cap(limit)
                        if self.reimport:  # its import shares the pass's limit
                            session.stage = "import"
                            loaded = session.expect("loaded", deadline)
                            again = loaded.get("function") if isinstance(loaded, dict) else None
                            if not isinstance(again, str):
                                raise session.malformed("a function name that is not a name")
                            self.again = again
                            session.stage = f"{key} pass"
                    found.append(session.expect_answers(key, deadline))
                    if key == self.passes[0]:
                        self.seconds = session.worker.clock.taken()[0]
                self.answers = tuple(found)
                session.close()  # then its output is complete
                self.output, self.output_bytes = session.worker.output()
        except BaseException as exc:  # handed to the caller's thread
            self.error = exc


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
    n = int(np.prod(rules.obs_shape))
    job = {**make_job(spec, rules, "table", opts), "shape": list(rules.obs_shape), "states": None}
    if type(rules).observations is not RuleSet.observations:  # not plain ndindex order: spell out
        job["states"] = [plain(state) for state in rules.observations()]
    # Limits are seconds as limits.Clock counts them (wall time less the time spent waiting for
    # a CPU), so a verdict does not depend on how busy the machine is. The kernel's own CPU limit
    # is a backstop above both passes.
    cpu = math.ceil(2 * opts.time_limit) + 2
    across = rules.requires_deterministic
    plans = [(PASSES, 0)] if not across else [(("first",), 0), (("second",), 1)]
    if across and opts.one_worker:  # the second import in the same worker, seeded anew
        plans = [(PASSES, 0)]
        job["reimport"] = 1
        job["forget"] = [str(COURSE_MODULES)]  # with the file's folder, before the second
    runs: list[_Run] = []
    try:
        for passes, seed in plans:
            part = {**job, "passes": list(passes), "seed": seed}
            session = Session(spec, opts, part, cpu, rules, n, files)
            runs.append(_Run(session, passes, reimport="reimport" in job))
    except BaseException:
        for run in runs:
            run.session.close()
        raise
    helpers = [threading.Thread(target=run, args=(opts.time_limit,)) for run in runs[1:]]
    for helper in helpers:
        helper.start()
    runs[0](opts.time_limit)
    if runs[0].error is not None:  # the other import is moot: stop it now
        for run in runs[1:]:
            run.session.worker.kill()
    for helper in helpers:
        helper.join()
    for run in runs:
        if run.error is not None:
            raise run.error
    main = runs[0]
    first, second = (a for run in runs for a in run.answers)
    again = runs[1].function if len(runs) > 1 else main.again or main.function
    if across and again != main.function:
        raise StrategyError(
            f"{spec.path}:{main.function}",
            f"chose {again!r} as its strategy when imported again: not deterministic",
        )
    return Answers(
        main.function,
        main.team,
        first,
        second,
        main.seconds,
        main.output,
        main.output_bytes,
        all(run.session.worker.isolated for run in runs),
        files.digest,
        across,
    )
