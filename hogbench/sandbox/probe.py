"""Probing a file's course functions: call them on given arguments in a worker, as data.

Used to tell a file's term from what its functions do, before any strategy is chosen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from hogbench.entrants import Spec
from hogbench.errors import UsageError
from hogbench.rules.base import RuleSet
from hogbench.sandbox.protocol import Malformed, clean, decode_answer, probe_bounds
from hogbench.sandbox.request import Request
from hogbench.sandbox.session import Session, make_job, wall_cap


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
    spec: Spec,
    rules: RuleSet,
    probes: dict[str, list[Grid]],
    request: Request | None = None,
    **options: Any,
) -> dict[str, list[Any]]:
    """Call the file's module-level functions named in PROBES, each on the argument lists of
    its grids in turn, in a worker, before any strategy is chosen: name -> results (decoded
    answers, or Raised), for the names the file defines as functions. StrategyError when the
    file does not import or the probe fails."""
    opts = Request.for_rules(rules, request, **options)
    counts = {name: sum(map(len, grids)) for name, grids in probes.items()}
    calls = sum(counts.values())
    if calls > PROBE_CALLS:
        raise UsageError(f"a probe of {calls} calls is more than {PROBE_CALLS}")
    grids = {name: [grid.to_dict() for grid in grids] for name, grids in probes.items()}
    job = {**make_job(spec, rules, "probe", opts), "probes": grids}
    with Session(spec, opts, job, math.ceil(opts.time_limit) + 2, rules) as session:
        session.launch()
        session.worker.budget = opts.time_limit
        deadline = session.started + wall_cap(opts.time_limit)
        found = session.expect("probed", deadline, probe_bounds(calls))
        if type(found) is not dict:
            raise session.malformed("probe results that are not a record")
        results: dict[str, list[Any]] = {}
        for name, values in found.items():
            if name not in probes or type(values) is not list or len(values) != counts[name]:
                raise session.malformed("probe results that were not asked for")
            try:
                results[name] = [_probe_result(value) for value in values]
            except Malformed as exc:
                raise session.malformed(str(exc)) from None
    return results


def _probe_result(value: Any) -> Any:
    if type(value) is dict and set(value) == {"raised"}:
        return Raised(clean(value["raised"], 60) or "Exception")
    return decode_answer(value)
