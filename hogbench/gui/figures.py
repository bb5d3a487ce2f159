"""The app's numbers, from the functions the commands use: strategies through the one door
(``loading``), exact values from ``exact`` and ``solve``, duels from ``duel``.

Nothing here knows of the web: the pages ask, these functions answer with plain data. What a
page sends is only ever parsed (a rule set's name from the list, a strategy spec that names a
built-in, a file given on the command line, or ``optimal``, numbers): no page can name a file
to load, and nothing a page sends is run.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from hogbench.entrants import Entrant, Spec
from hogbench.errors import UsageError
from hogbench.rules import get_rules, names
from hogbench.rules.base import RuleSet

if TYPE_CHECKING:  # the engines load when first asked for, not with the app
    from hogbench.exact import SeatValues, Solution
    from hogbench.solve import Analysis, Solved

#: The spec of the solved strategy (``hogbench solve``'s table) in the pages' lists.
OPTIMAL = "optimal"
#: A built-in spec as a page may send it: a name with parameters, never a path.
_BUILTIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\([A-Za-z0-9_:=.,\- ]*\))?(:[A-Za-z0-9_=.,\- ]*)?")
#: How many solved values, analyses and tables are kept: a Big Pig solution is about 70 MB.
KEEP = 6


class Kept:
    """A small least-recently-used store, safe across the server's threads."""

    def __init__(self, size: int = KEEP) -> None:
        self.size = size
        self.items: OrderedDict[Any, Any] = OrderedDict()
        self.lock = threading.Lock()

    def peek(self, key: Any) -> Any:
        """The value kept for KEY, or None."""
        with self.lock:
            return self.items.get(key)

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        value = make()
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


@dataclass
class Library:
    """What the app may play: the files given on the command line, every built-in, optimal
    play; and the rule set it opens with. Loads and solves once, keeps what it made."""

    rules_name: str
    goal: int | None = None
    files: tuple[str, ...] = ()
    door: Any = None  # the command's sandbox.Request for files (None: the defaults)
    options: dict[str, Any] = field(default_factory=dict)  # --option, for the command's rule set
    _kept: Kept = field(default_factory=lambda: Kept(4 * KEEP))
    _solved: Kept = field(default_factory=Kept)

    # -- what a page may send ------------------------------------------------------------------
    def rules(self, name: str | None = None, goal: str | int | None = None) -> RuleSet:
        """A rule set by name, from the list only; GOAL as a number or the command's."""
        name = (name or self.rules_name).strip().lower()
        if name not in names():
            raise UsageError(f"unknown rule set {name[:40]!r}")
        goal = _goal(goal, self.goal)
        options = self.options if name == self.rules_name else {}
        return self._kept.get(("rules", name, goal), lambda: get_rules(name, goal, **options))

    def choices_offered(self, rules: RuleSet) -> list[str]:
        """The strategies the pages list: the files, optimal play, the baseline, built-ins."""
        builtins = [name for name in rules.builtins() if name != rules.baseline.split(":")[0]]
        return [*self.files, OPTIMAL, rules.baseline, *builtins]

    def spec(self, text: str, rules: RuleSet) -> str:
        """A strategy spec a page sent, refused unless it is a file given on the command line,
        optimal play, or a built-in's name with parameters."""
        text = (text or "").strip()
        if text in self.files or text == OPTIMAL:
            return text
        if len(text) > 80 or not _BUILTIN.fullmatch(text) or ".py" in text:
            raise UsageError(
                "a strategy here is a built-in (e.g. always_roll:6), optimal, or a file given"
                " to hogbench gui on the command line"
            )
        return text

    # -- loading ---------------------------------------------------------------------------------
    def entrant(self, text: str, rules: RuleSet) -> Entrant:
        """A strategy as every command loads it: files through the sandbox and the verdict
        cache, built-ins as tables, ``optimal`` as ``solve``'s table."""
        spec = self.spec(text, rules)
        if spec == OPTIMAL:
            return self._kept.get(("optimal", rules.key), lambda: _optimal_entrant(rules, self))
        from hogbench.loading import load_entrant

        if spec in self.files:
            # Each time: a file edited while the app runs is judged anew (its verdict is kept
            # by its content's digest, so an unchanged file costs a cache read).
            return load_entrant(spec, rules, request=self.door)
        return self._kept.get(("entrant", rules.key, spec), lambda: load_entrant(spec, rules))

    def solved(self, rules: RuleSet) -> Solved:
        """``hogbench solve``'s result: optimal play (both players optimal)."""
        from hogbench import solve

        return self._solved.get(("solve", rules.key), lambda: solve.solve_rules(rules))

    def best_response(self, rules: RuleSet, opponent: Entrant) -> Solution:
        """The best response to OPPONENT (a table): the values every hint is read from."""
        require_table(opponent)
        key = ("best", rules.key, opponent.table.hash)
        return self._solved.get(key, lambda: _best_response(self, rules, opponent))

    def analysis(self, rules: RuleSet, strategy: Entrant, opponent: Entrant) -> Analysis:
        """``hogbench analyze``'s result: where STRATEGY gives up win probability."""
        from hogbench import solve

        require_table(strategy)
        require_table(opponent)
        key = ("analyze", rules.key, strategy.table.hash, opponent.table.hash)
        return self._solved.get(key, lambda: solve.analyze(rules, strategy, opponent))

    def analysis_kept(self, rules: RuleSet, strategy: Entrant, against: str) -> Analysis | None:
        """The analysis of STRATEGY against AGAINST if it is made already, else None (nothing
        is computed: not even optimal play as the opponent)."""
        spec = self.spec(against, rules)
        if spec == OPTIMAL:
            opponent = self._kept.peek(("optimal", rules.key))
        elif spec in self.files:
            opponent = self.entrant(spec, rules)
        else:
            opponent = self._kept.peek(("entrant", rules.key, spec))
        if opponent is None or opponent.table is None or strategy.table is None:
            return None
        key = ("analyze", rules.key, strategy.table.hash, opponent.table.hash)
        return self._solved.peek(key)


def _goal(goal: str | int | None, default: int | None) -> int | None:
    if goal in (None, ""):
        return default
    try:
        return int(str(goal).strip())
    except ValueError:
        raise UsageError(f"the goal is a whole number, got {str(goal)[:20]!r}") from None


def require_table(entrant: Entrant) -> None:
    if entrant.table is None:
        raise UsageError(
            f"{entrant.name} is not a decision table ({entrant.live_reason}): exact values need"
            " a deterministic strategy"
        )


def _optimal_entrant(rules: RuleSet, library: Library) -> Entrant:
    from hogbench.tables import DecisionTable

    table = DecisionTable.from_choices(rules, library.solved(rules).table)
    digest = hashlib.sha256(f"{rules.key}:optimal".encode()).hexdigest()[:16]
    return Entrant(Spec(OPTIMAL, function=OPTIMAL), "optimal play", table, digest)


def _best_response(library: Library, rules: RuleSet, opponent: Entrant) -> Solution:
    from hogbench import exact
    from hogbench.exact import Solution

    solved = library.solved(rules)
    if solved.exact_state and opponent.table.hash == _optimal_hash(library, rules):
        # Optimal play is a best response to itself (the game is constant-sum), as in analyze.
        s = solved.solution
        policy = exact.state_policy(rules.model, s.policy)
        return Solution(s.policy, s.v_me, s.v_me, s.start, against=policy, memo=s.memo)
    (against,) = exact.table_policies(rules, opponent.table.choices)
    return exact.solve(rules, against)


def _optimal_hash(library: Library, rules: RuleSet) -> str:
    return library.entrant(OPTIMAL, rules).table.hash


# -- the figures the pages show -----------------------------------------------------------------
@dataclass(frozen=True)
class ChoiceValue:
    choice: int
    label: str
    win: float  # the mover's chance of winning with this choice, best play after it


@dataclass(frozen=True)
class Hint:
    """Each choice's exact chance of winning at one state against one opponent."""

    state: int
    where: str
    values: list[ChoiceValue]

    @property
    def best(self) -> ChoiceValue:
        top = max(v.win for v in self.values)
        # Ties go to the earlier choice, as in the solver.
        return next(v for v in self.values if v.win >= top - 1e-12)

    def loss(self, choice: int) -> float | None:
        """The win probability CHOICE gives up against the best choice; None for a choice
        the model does not value (Greed's dice past the most any table uses)."""
        mine = next((v.win for v in self.values if v.choice == choice), None)
        return None if mine is None else max(self.best.win - mine, 0.0)

    def to_dict(self) -> dict:
        return {
            "state": self.where,
            "best": self.best.choice,
            "values": [v.__dict__ for v in self.values],
        }


def state_values(rules: RuleSet, solution: Solution, weight: np.ndarray) -> np.ndarray:
    """Each choice's value, summed over the states WEIGHT picks (weights summing to 1), after
    which the solver plays best: ``exact.observation_values``, as ``analyze`` uses it."""
    from hogbench import exact

    m = rules.model
    picked = np.flatnonzero(weight)
    values = exact.observation_values(rules, weight, solution.v_me, solution.v_opp, solution.memo)
    return values[int(m.observation[picked[0]])]


def hint(library: Library, rules: RuleSet, opponent: Entrant, state: int) -> Hint:
    """The exact chance of winning of every choice at STATE, against OPPONENT, when the mover
    plays best afterwards."""
    solution = library.best_response(rules, opponent)
    m = rules.model
    weight = np.zeros(m.n_states)
    weight[state] = 1.0
    values = state_values(rules, solution, weight)
    return Hint(
        state,
        rules.describe_state(state),
        [
            ChoiceValue(int(c), rules.describe_choice(int(c)), float(v))
            for c, v in zip(m.choices, values, strict=True)
        ],
    )


def win_chances(rules: RuleSet, a: Entrant, b: Entrant) -> SeatValues:
    """Per-state values of A (moving first) against B: ``exact.evaluate_policies``."""
    from hogbench import exact

    require_table(a)
    require_table(b)
    m = rules.model
    return exact.evaluate_policies(
        rules,
        exact.table_policy(m, a.table.choices),
        exact.table_policy(m, b.table.choices),
        values=True,
    )


#: Rolls tried per choice to see which rules fire at a state (the same seeds every time).
ROLLS_TRIED = 36


def rules_here(rules: RuleSet, state: int) -> list[dict]:
    """Which rules fire at STATE, choice by choice, in ROLLS_TRIED rolls with fixed seeds: the
    rule set's own ``play_step``, as ``watch`` narrates it. Plain point counts are left out."""
    import random

    found = []
    for c in rules.model.choices:
        seen: dict[str, int] = {}
        for seed in range(ROLLS_TRIED):
            for event in rules.play_step(state, int(c), random.Random(seed)).events:
                if not re.match(r"^[+\-]?\d", event) and not event.startswith("turn total"):
                    seen[event] = seen.get(event, 0) + 1
        found.append(
            {
                "choice": int(c),
                "label": rules.describe_choice(int(c)),
                "events": [{"event": e, "rolls": n} for e, n in seen.items()],
            }
        )
    return found
