"""`hogbench check`: does a strategy file obey the contest's rules, and if not, where not.

The rules: the file loads; it has a strategy function; at every state it returns a legal move
(an int, not a bool, in the rule set's range: ``rules.choice`` decides); it is deterministic
(each state is called twice, the second time in reverse order, and must answer the same both
times); and it imports and answers every state within the time limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from hogbench import loading, sandbox
from hogbench.entrants import Spec, not_a_folder, parse_spec
from hogbench.errors import StrategyError, UsageError
from hogbench.names import shown
from hogbench.rules.base import RuleSet
from hogbench.tables import Fault, find_faults
from hogbench.terms import TermReport

SHOWN = 5  # failing states named in a report, per kind of failure
ONE_IMPORT = "each state is called twice, the second time in reverse order"


@dataclass
class CheckReport:
    """The verdict on one file: ``valid``, the lines that explain it, and the failing states."""

    file: str
    rules: str
    valid: bool = False
    lines: list[str] = field(default_factory=list)
    function: str | None = None
    team: str | None = None
    seconds: float | None = None  # to import and answer every state once
    failures: list[dict[str, Any]] = field(default_factory=list)  # state, returned, problem
    #: which rules were used and why, and how the file's own rule functions fare under them
    #: (``terms.TermReport.to_dict``); a disagreement there does not make a file invalid
    term: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def check_file(
    spec: str | Spec,
    rules: RuleSet,
    time_limit: float | None = None,
    *,
    memory_mb: int = 1024,
    cache: bool = True,
    term: TermReport | None = None,
    **sandbox_options: Any,
) -> CheckReport:
    """Check a strategy file against the contest's rules (always runs it: timing is part of it).

    TERM, when given, says which rules were chosen and why, and how the file's own rule
    functions fare under them (``terms.review``): its lines come first. A valid file's table is
    cached, so a duel right after starts warm.
    """
    spec = parse_spec(spec) if isinstance(spec, str) else spec
    if not spec.is_file:
        if Path(spec.text).is_dir():
            raise UsageError(not_a_folder(spec.text))
        raise UsageError(f"check takes a strategy file, not {spec.text!r}")
    report = CheckReport(shown(spec.path), rules.key)
    if term is not None:
        report.term = term.to_dict()
        report.lines += term.lines()
    options = {"time_limit": time_limit, "memory_mb": memory_mb, **sandbox_options}
    try:
        answers = sandbox.collect_answers(spec, rules, **options)
    except StrategyError as exc:
        report.lines.append(f"invalid: {exc}")
        report.lines += [f"  {line}" for line in exc.detail.strip().splitlines()]
        if exc.state is not None:
            report.failures.append(
                {"state": list(exc.state), "returned": None, "problem": str(exc.problem)}
            )
        return report
    report.function, report.team, report.seconds = answers.function, answers.team, answers.seconds
    where = f"{shown(spec.path)}:{answers.function}"
    illegal, unstable = find_faults(rules, answers.first, answers.second)[:2]
    n = len(answers.first)
    if illegal:
        report.lines.append(
            f"invalid: {where} returns an illegal move at {len(illegal)} of {n} states:"
        )
        report.lines += _shown(illegal, answers.first, rules, report)
    if unstable:
        report.lines.append(
            f"invalid: {where} is not deterministic at {len(unstable)} of {n} states"
            f" ({sandbox.ACROSS_IMPORTS if answers.across_imports else ONE_IMPORT}):"
        )
        report.lines += _shown(unstable, answers.first, rules, report)
    report.valid = not illegal and not unstable
    if report.valid:
        limit = sandbox.SandboxOptions.for_rules(rules, time_limit=time_limit).time_limit
        report.lines.append(
            f"valid: {where} answers all {n} states of {rules.key} with legal moves,"
            f" deterministically, in {answers.seconds:.2f} s (limit {limit:g} s)"
        )
        if answers.team:
            report.lines.append(f"team name: {answers.team}")
        elif rules.name == "hog-contest":
            report.lines.append(
                "warning: no TEAM_NAME: the contest lists every entry under its TEAM_NAME"
                " (set TEAM_NAME = '...' in the file)"
            )
        if len({(type(a), a) for a in answers.first}) == 1:  # the course's skeleton returns 4
            report.lines.append(
                f"note: it answers {answers.first[0]!r} at every state (as an unfinished"
                " skeleton does)"
            )
        opts = sandbox.Request.for_rules(rules, cache=cache, **options)
        loading.remember(spec, rules, answers, opts)
    if answers.output_bytes:
        report.lines.append(
            f"note: it printed {sandbox.format_size(answers.output_bytes)} (discarded)"
        )
    if not answers.isolated:
        report.lines.append("note: it ran without the sandbox (resource limits only)")
    return report


def _shown(found: Sequence[Fault], first: Sequence[Any], rules: RuleSet, report: CheckReport):
    """The first few FOUND faults, as lines and in the report (only those are made: a pass can
    break a rule at millions of states)."""
    lines = []
    for fault in found[:SHOWN]:
        state = tuple(x if type(x) is bool else int(x) for x in rules.obs_args(fault.index))
        report.failures.append(
            {"state": list(state), "returned": repr(first[fault.index]), "problem": fault.problem}
        )
        lines.append(f"  at {state}: {fault.problem}")
    if len(found) > SHOWN:
        lines.append(f"  ... and {len(found) - SHOWN} more")
    return lines
