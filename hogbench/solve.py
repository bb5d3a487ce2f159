"""Optimal play, strategies exported from it, and where a given strategy loses win probability.

The exact engine (``hogbench.exact``) solves a rule set's model by backward induction over its
*states*. A strategy decides on what it *sees*, an observation (in Hog: the two scores). Where
the two coincide (hog-su21, hog-su20 without Feral Hogs, hog-contest without Pork Chop, Pig) the
solved policy is a strategy, and its numbers are exact. Elsewhere the state holds something the
strategy cannot see: hog-su20's previous-turn points (Feral Hogs), hog-contest's Pork Chop
flags, the seat in Big Pig. There ``solve`` reports two things:

* the optimum for a player who sees the whole state: an upper bound for any strategy;
* a strategy that sees only the observation, found by projection: at each observation, the
  choice whose value (from the full-state solution) is largest on average over the hidden
  states, weighted by how often play from the start reaches each of them (optimal play, or
  the best response against the given opponent). Observations that play never reaches take
  the model's representative state (or an unweighted average). This strategy is then
  evaluated exactly like any other; it is a good strategy, not a proven optimum.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hogbench import exact
from hogbench.entrants import Entrant
from hogbench.errors import HogbenchError, UsageError
from hogbench.exact import SeatValues, Solution
from hogbench.loading import load_entrant
from hogbench.rules.base import RuleSet


def n_observations(rules: RuleSet) -> int:
    return int(np.prod(rules.obs_shape))


def sees_whole_state(rules: RuleSet) -> bool:
    """True when a strategy's observation determines the state at every state that is played."""
    m = rules.model
    return int(np.bincount(m.observation[m.order]).max()) <= 1


@dataclass(frozen=True)
class Solved:
    """The result of ``solve_rules``."""

    rules: RuleSet
    solution: Solution  # full-state optimum (self-play) or best response
    table: np.ndarray  # the strategy: a choice per observation
    exact_state: bool  # the strategy sees the whole state, so it is the optimum itself
    against: Entrant | None  # None: both players optimal
    baseline: Entrant
    vs_self_or_against: SeatValues  # the table against itself, or against AGAINST
    vs_baseline: SeatValues  # the table against the rule set's baseline
    seconds: float

    @property
    def first(self) -> float:
        """Full-state optimum: the solver's chance of winning when it moves first."""
        return self.solution.first

    @property
    def second(self) -> float:
        return self.solution.second

    @property
    def against_name(self) -> str:
        return self.against.name if self.against else "itself"

    def to_dict(self, export: str | None = None) -> dict:
        return {
            "rules": self.rules.key,
            "against": self.against.name if self.against else None,
            "sees_whole_state": self.exact_state,
            "first_mover_wins": self.first,
            "second_mover_wins": self.second,
            "strategy_vs": {"name": self.against_name, **_seats(self.vs_self_or_against)},
            "strategy_vs_baseline": {"name": self.baseline.name, **_seats(self.vs_baseline)},
            "seconds": self.seconds,
            "export": export,
        }


def _seats(values: SeatValues) -> dict:
    return {"first": values.first, "second": values.second, "average": values.average}


def solve_rules(rules: RuleSet, against: str | Entrant | None = None) -> Solved:
    """Optimal play for RULES (both players optimal), or the best response to AGAINST."""
    start = time.perf_counter()
    baseline = load_entrant(rules.baseline, rules)
    opponent = policy_b = None
    if against is not None:
        opponent = against if isinstance(against, Entrant) else load_entrant(against, rules)
        _require_table(opponent, "--against")
        (policy_b,) = exact.table_policies(rules, opponent.table.choices)
    solution = exact.solve(rules, policy_b)
    table = strategy_table(rules, solution)
    if opponent is not None:
        versus = exact.evaluate(rules, table, opponent.table.choices)
    else:
        versus = exact.evaluate(rules, table, table)
    _require_table(baseline, "the baseline")
    vs_baseline = exact.evaluate(rules, table, baseline.table.choices)
    return Solved(
        rules=rules,
        solution=solution,
        table=table,
        exact_state=sees_whole_state(rules),
        against=opponent,
        baseline=baseline,
        vs_self_or_against=versus,
        vs_baseline=vs_baseline,
        seconds=time.perf_counter() - start,
    )


def strategy_table(rules: RuleSet, solution: Solution) -> np.ndarray:
    """A decision table from a full-state solution: the solution itself when a strategy sees
    the whole state, else the projection described in the module docstring."""
    m = rules.model
    n_obs = n_observations(rules)
    table = np.full(n_obs, m.choices[0], dtype=np.int64)
    if sees_whole_state(rules):
        table[m.observation[m.order]] = solution.policy[m.order]
        return table
    me = exact.state_policy(m, solution.policy)
    opponent = solution.against if solution.against is not None else me
    ra, rb = exact.reach(rules, me, opponent)
    weight = ra if solution.against is not None else ra + rb
    v_other = solution.v_opp
    score = exact.observation_values(rules, weight, solution.v_me, v_other, solution.memo)
    reached = np.zeros(n_obs, dtype=bool)
    reached[m.observation[weight > 0]] = True
    if not reached.all():
        fallback = np.zeros(m.n_states)
        if m.canonical is not None:
            fallback[m.canonical[~reached]] = 1.0
        else:
            fallback[np.isin(m.observation, np.flatnonzero(~reached))] = 1.0
        score[~reached] = exact.observation_values(
            rules, fallback, solution.v_me, v_other, solution.memo
        )[~reached]
    # Ties go to the earlier choice, as in the solver; a margin keeps rounding from deciding.
    best = score.max(axis=1, keepdims=True)
    first_best = np.argmax(score >= best - 1e-12 * np.maximum(1.0, np.abs(best)), axis=1)
    return m.choices[first_best].astype(np.int64)


def _require_table(entrant: Entrant, role: str) -> None:
    if entrant.table is None:
        raise UsageError(
            f"{entrant.name} ({role}) is not a decision table ({entrant.live_reason}):"
            " exact solving needs a deterministic strategy"
        )


# ---------------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------------


def answer_for(rules: RuleSet, choice: int) -> object:
    """The value a strategy returns for the engine's CHOICE (an int, or True/False for roll or
    hold), checked against the rule set's own reading of answers."""
    for candidate in (int(choice), bool(choice)):
        try:
            if rules.choice(candidate) == choice:
                return candidate
        except Exception:
            continue
    raise ValueError(f"{rules.name}: no strategy answer means choice {choice}")


def _runs(values: np.ndarray) -> str:
    """'6*12 0 5*3': each value, with *count when it repeats."""
    out = []
    start = 0
    for i in range(1, len(values) + 1):
        if i == len(values) or values[i] != values[start]:
            n = i - start
            out.append(f"{values[start]}*{n}" if n > 1 else f"{values[start]}")
            start = i
    return " ".join(out)


def strategy_source(rules: RuleSet, table: np.ndarray, team_name: str, notes: list[str]) -> str:
    """A readable, self-contained Python file whose strategy function plays TABLE."""
    shape = tuple(int(d) for d in rules.obs_shape)
    args = rules.strategy_args
    function = rules.strategy_names[0]
    grid = np.asarray(table).reshape(shape[0] if len(shape) == 1 else -1, shape[-1])
    lines = "\n".join(_runs(row) for row in grid)
    answers = {int(c): answer_for(rules, int(c)) for c in rules.model.choices}
    plain = all(answers[c] == c and type(answers[c]) is int for c in answers)
    index = args[0]
    for k, (arg, size) in enumerate(zip(args[1:], shape[1:], strict=True)):
        index = f"{f'({index})' if k else index} * {size} + {arg}"
    rows = "one line per " + ", ".join(args[:-1]) if len(args) > 1 else "one line"
    doc = "\n".join(notes)
    answer_line = "" if plain else f"\n_ANSWERS = {answers!r}  # engine choice -> what to return\n"
    returned = "_CHOICES[i]" if plain else "_ANSWERS[_CHOICES[i]]"
    return f'''"""{doc}

The decisions are in _TABLE: {rows}, giving the choices for
{args[-1]} = 0, 1, 2, ... in runs: "6*12" is 6 twelve times.
"""

TEAM_NAME = {team_name!r}
RULES = {rules.key!r}
SHAPE = {shape!r}
{answer_line}
_TABLE = """
{lines}
"""


def _decode(text):
    choices = []
    for token in text.split():
        value, _, count = token.partition("*")
        choices.extend([int(value)] * int(count or 1))
    return choices


_CHOICES = _decode(_TABLE)
assert len(_CHOICES) == {int(np.prod(shape))}, "the table does not match SHAPE"


def {function}({", ".join(args)}):
    """The solved decision at these arguments."""
    i = {index}
    return {returned}
'''


def export(solved: Solved, path: str | Path, team_name: str | None = None) -> Path:
    """Write the solved strategy as a Python file that loads like any submission."""
    rules = solved.rules
    path = Path(path)
    if path.suffix != ".py":
        raise UsageError(f"--export needs a .py file name, got {path}")
    what = (
        f"the best response to {solved.against.name}"
        if solved.against is not None
        else "optimal play (both players optimal)"
    )
    notes = [
        f"{rules.title} ({rules.key}):",
        f"{what}, solved by hogbench.",
        "",
        f"Average win rate against {solved.baseline.name} (the rule set's baseline), exact:",
        f"{solved.vs_baseline.average:.10f}.",
    ]
    if not solved.exact_state:
        notes += [
            "",
            f"A strategy cannot see {rules.hidden_state}, which the game's state holds.",
            "These are the choices that are best on average over what it cannot see, weighted",
            "by how often play reaches each case; the optimum for a player who could see it is",
            f"an upper bound (first mover wins {solved.first:.10f}).",
        ]
    default_name = "hogbench " + ("best response" if solved.against is not None else "optimal")
    source = strategy_source(
        rules, solved.table, team_name or f"{default_name} ({rules.name})", notes
    )
    try:
        path.write_text(source)
    except OSError as exc:
        raise HogbenchError(f"cannot write {path}: {exc.strerror}") from None
    return path


# ---------------------------------------------------------------------------------------------
# Analysis: where a strategy gives up win probability
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Analysis:
    """Strategy A against B, compared state by state with the best response to B.

    ``loss[x]``: with A to move at state x, the chance of winning A gives up by its choice
    there, against the best choice (both followed by best play against B). ``reach[x]``: the
    chance that A is to move at x, averaged over both seatings. Their product summed over all
    states is exactly the drop from the best response's average win rate to A's (the
    performance-difference identity): ``total``. Where a game may never end (hog-sp22), a
    state from which A's game against B never ends counts once, when A first comes to it
    (``exact.reach``), with the whole gap there as its loss: the best response's value less
    A's, a tie's 1/2.
    """

    rules: RuleSet
    a: Entrant
    b_name: str
    a_values: SeatValues  # A against B
    best: Solution  # the best response to B
    loss: np.ndarray
    reach: np.ndarray
    a_choice: np.ndarray  # A's choice at every state
    seconds: float
    by_identity: float = field(default=0.0)  # sum of reach * loss

    @property
    def best_average(self) -> float:
        return (self.best.first + self.best.second) / 2

    @property
    def total(self) -> float:
        """The drop in A's average win rate against B, compared with the best response."""
        return self.best_average - self.a_values.average

    def to_dict(self, worst: list[StateLoss], png: str | None = None) -> dict:
        return {
            "rules": self.rules.key,
            "strategy": self.a.name,
            "against": self.b_name,
            "win_rate": _seats(self.a_values),
            "best_response_win_rate": self.best_average,
            "total_loss": self.total,
            "worst_states": [
                {**w.__dict__, "expected": w.expected, "choice": w.choice, "best": w.best}
                for w in worst
            ],
            "png": png,
            "seconds": self.seconds,
        }


def analyze(rules: RuleSet, a: str | Entrant, against: str | Entrant | None = None) -> Analysis:
    """Where strategy A loses win probability against B (default: the optimal opponent)."""
    start = time.perf_counter()
    m = rules.model
    entrant = a if isinstance(a, Entrant) else load_entrant(a, rules)
    _require_table(entrant, "the strategy analysed")
    m = rules.fit(entrant.table.choices)  # before solving: the model its answers need
    if against is None:
        optimal = exact.solve(rules)
        b = exact.state_policy(m, optimal.policy)
        b_name = "the optimal opponent"
        # Optimal play is itself a best response to optimal play (the game is constant-sum):
        # the same values solve the best-response equations, so no second solve is needed.
        best = Solution(
            optimal.policy, optimal.v_me, optimal.v_me, optimal.start, against=b, memo=optimal.memo
        )
    else:
        opponent = against if isinstance(against, Entrant) else load_entrant(against, rules)
        _require_table(opponent, "--against")
        m = rules.fit(entrant.table.choices, opponent.table.choices)
        b = exact.table_policy(m, opponent.table.choices)
        b_name = opponent.name
        best = exact.solve(rules, b)
    (pa,) = exact.table_policies(rules, entrant.table.choices)
    m = rules.model
    a_values = exact.evaluate_policies(rules, pa, b)
    q_a = exact.choice_values(rules, pa, best.v_me, best.v_opp, best.memo)
    loss = np.zeros(m.n_states)
    loss[m.order] = np.maximum(best.v_me[m.order] - q_a[m.order], 0.0)
    reach, _ = exact.reach(rules, pa, b)
    if m.may_never_end:  # where A's game never ends, its loss is all of the gap (see Analysis)
        endless = exact.ending(rules, pa, b)[0] < exact.NEVER
        loss[endless] = np.maximum(best.v_me[endless] - a_values.v_a[endless], 0.0)
    return Analysis(
        rules=rules,
        a=entrant,
        b_name=b_name,
        a_values=a_values,
        best=best,
        loss=loss,
        reach=reach,
        a_choice=pa.table[pa.index],
        seconds=time.perf_counter() - start,
        by_identity=float(reach @ loss),
    )


@dataclass(frozen=True)
class StateLoss:
    state: int
    where: str  # the state described
    choice: int  # A's choice
    best: int  # the best response's choice
    loss: float
    reach: float

    @property
    def expected(self) -> float:
        return self.loss * self.reach


def worst_states(analysis: Analysis, n: int = 20, by: str = "expected") -> list[StateLoss]:
    """The N states A can face where it gives up most: by expected loss (reach * loss), or by
    the loss there."""
    if by not in ("expected", "loss"):
        raise UsageError(f"--by takes expected or loss, got {by!r}")
    key = analysis.loss * analysis.reach if by == "expected" else analysis.loss
    key = np.where(analysis.reach > 0, key, 0.0)
    picked = np.argsort(-key, kind="stable")[:n]
    rules = analysis.rules
    return [
        StateLoss(
            state=int(x),
            where=rules.describe_state(int(x)),
            choice=int(analysis.a_choice[x]),
            best=int(analysis.best.policy[x]),
            loss=float(analysis.loss[x]),
            reach=float(analysis.reach[x]),
        )
        for x in picked
        if key[x] > 0
    ]


def loss_by_observation(analysis: Analysis) -> tuple[np.ndarray, np.ndarray]:
    """Per observation: expected loss (summed over hidden states) and the largest loss."""
    m = analysis.rules.model
    n_obs = n_observations(analysis.rules)
    expected = np.bincount(m.observation, weights=analysis.loss * analysis.reach, minlength=n_obs)
    largest = np.zeros(n_obs)
    np.maximum.at(largest, m.observation, analysis.loss)
    shape = analysis.rules.obs_shape
    return expected.reshape(shape), largest.reshape(shape)


#: (rule set identity, table digest) -> the best response's average win rate against it.
_BEST_RESPONSE_RATES: dict[tuple[str, str], float] = {}


def best_response_rates(
    rules: RuleSet,
    entrants: list[Entrant | None],
    budget: float,
    progress: Any = None,
    known: Mapping[str, float | None] | None = None,
) -> tuple[np.ndarray, str]:
    """The exact best response's average win rate (both seatings) against each of ENTRANTS
    that is a decision table (NaN for the others, and for None), within BUDGET seconds; and a
    note saying what these numbers are, or why some are missing.

    The best response to a table is found by ``exact.best_response`` (a few milliseconds for
    Hog; on memory rows, some 50 ms, for a model with a memory of the last turn such as Fall
    2019's); live strategies have none.
    KNOWN, if given, holds the rates already solved (a tournament solves them in its worker
    processes, ``best_response_batch``), by entrant key: then nothing is solved here, and a
    table KNOWN lacks (or holds None for) went without one. PROGRESS, if given (``start``,
    ``advance``, ``stop``), shows the phase. Each is solved once per distinct table, ever: kept
    by the table's content in the disk cache, so copies of one table and later reports of the
    same field read it. Where the game's state holds more than a strategy sees, the solver
    sees it all, so the figure is an upper bound on what a strategy could reach.
    """
    best = np.full(len(entrants), np.nan)
    wanted = [e is not None and e.tableable for e in entrants]
    if not any(wanted):
        return best, "not computed: no entrant here is a decision table at hand"
    deadline = time.time() + budget
    late = 0
    if progress is not None and known is None:  # the phase named: it may take seconds
        progress.start("best responses (for regret)", sum(wanted))
    try:
        for p, entrant in enumerate(entrants):
            if not wanted[p]:
                continue
            if known is not None:
                rate = known.get(entrant.key)  # type: ignore[union-attr]
            else:
                rate = best_response_rate(rules, entrant.table.choices, deadline)  # type: ignore[union-attr]
                if progress is not None:
                    progress.advance(1)
            if rate is None:
                late += 1
                continue
            best[p] = rate
    finally:
        if progress is not None and known is None:
            progress.stop()
    done = int(np.sum(~np.isnan(best)))
    asked = sum(wanted)
    note = f"exact best response to each of {done} opponents"
    if late or done < asked:
        note += f" ({asked - done} without one: past the {budget:.0f} s budget)"
    if not sees_whole_state(rules):
        note += f"; it sees {rules.hidden_state}, so it is an upper bound"
    return best, note


def best_response_batch(
    rules: RuleSet, tables: list[np.ndarray], deadline: float
) -> list[float | None]:
    """The best response's rate against each of TABLES (a task for a worker process), each as
    ``best_response_rate`` finds it; None for those begun past DEADLINE (``time.time()``)."""
    from hogbench.processes import die_with_parent
    from hogbench.rules import resident

    die_with_parent()
    rules = resident(rules)  # the model built once per process, as for pairs
    return [best_response_rate(rules, table, deadline) for table in tables]


def known_best_response(rules: RuleSet, choices: np.ndarray) -> float | None:
    """The best response's rate against the table CHOICES if it was solved before (in this
    process, or kept in the disk cache), without solving it: None if it was not."""
    return best_response_rate(rules, choices, deadline=None, solve=False)


def best_response_rate(
    rules: RuleSet, choices: np.ndarray, deadline: float | None = None, solve: bool = True
) -> float | None:
    """The best response's average win rate against the table CHOICES: remembered, read from
    the cache, or solved (unless SOLVE is False) if DEADLINE (``time.time()``) has not passed;
    None otherwise, or where the solver cannot do the rule set. Solved by
    ``exact.best_response``: the figures of ``exact.solve``, on memory rows where the model
    has memories."""
    from hogbench.cache import load_arrays, save_arrays, table_entry
    from hogbench.tables import engine_table

    table = engine_table(choices)
    path = table_entry(
        "best-response",
        rules.identity,
        table,
        made_by=(__name__, "hogbench.exact.solving", "hogbench.exact.memory"),
    )
    key = (rules.identity, path.stem)
    rate = _BEST_RESPONSE_RATES.get(key)
    if rate is None:
        try:
            rate = float(load_arrays(path)["rate"])
        except (OSError, ValueError, KeyError):
            if not solve or (deadline is not None and time.time() > deadline):
                return None
            try:
                solved = exact.best_response(rules, table)
            except Exception:  # a rule set the solver cannot do: that entrant goes without
                return None
            rate = solved.average
            save_arrays(path, rate=np.float64(rate))
        _BEST_RESPONSE_RATES[key] = rate
    return rate
