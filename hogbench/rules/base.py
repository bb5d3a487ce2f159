"""What every rule set provides, and the shared pieces they are built from.

A rule set is one module under ``hogbench/rules/`` with a ``RuleSet`` subclass named ``RULES``.
It defines its game once, as

* plain course functions (``roll_dice``, ``take_turn``, ``play`` ...) that follow the course text
  and serve as the readable reference, and
* a ``GameModel``: the game as a graph of states, built from the same rule functions, which both
  engines (exact and Monte Carlo) run on.

The model is factored so that large state spaces stay small in memory: a choice at a state picks a
*roll kind* (a small probability distribution over turn values, tabulated once), and ``resolve``
maps (state, choice, value) to the next state. Both are functions for compiled code
(``hogbench.jit``) with fixed signatures, so the engines can take them as arguments and still be
cached on disk. The model keeps them as written: called from Python (``watch``, ``play``) they
run as Python and numba is not started; an engine takes their compiled form with
``jit.compiled``.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
import itertools
import random
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from hogbench.errors import IllegalChoice, UsageError
from hogbench.jit import jit
from hogbench.processes import return_freed_memory

# Outcome kinds returned by ``resolve``, packed as ``next_state * 8 + kind``.
OTHER = 0  # the other player moves next, at next_state (seen from their side)
SAME = 1  # the same player moves again, at next_state
WIN = 2  # the player who moved has won
LOSE = 3  # the player who moved has lost
TIE = 4  # the game is over and tied


# The rule functions' signatures, as functions of ``numba.types`` (see ``hogbench.jit``).
def roll_kind_signature(t):
    """(params, state, choice) -> row of the distribution table."""
    return t.int64(t.int64[::1], t.int64, t.int64)


def resolve_signature(t):
    """(params, state, choice, value) -> outcome(next_state, kind)."""
    return t.int64(t.int64[::1], t.int64, t.int64, t.int64)


def resolve_row_signature(t):
    """(params, state, choice, values, lo, hi, out): out[d - lo] = resolve(params, state,
    choice, values[d]) for lo <= d < hi."""
    return t.void(t.int64[::1], t.int64, t.int64, t.int64[::1], t.int64, t.int64, t.int64[::1])


def q_keys_signature(t):
    """(params, states, choices, lo, hi, out): out[j] = the key of (states[j], choices[j]) for
    lo <= j < hi."""
    return t.void(t.int64[::1], t.int64[::1], t.int64[::1], t.int64, t.int64, t.int64[::1])


@jit(inline="always")
def outcome(next_state: int, kind: int) -> int:
    """Pack a successor state and an outcome kind into one int64."""
    return next_state * 8 + kind


@jit(inline="always")
def where(condition, if_true, if_false):
    """``if_true if condition else if_false``, which also works elementwise on numpy arrays: a
    rule function that chooses by the state with it (and by the choice or value, which are one
    number, as it likes) can be called on every state at once (``jit(arrays=True)``)."""
    return if_false + condition * (if_true - if_false)


@jit(inline="always")
def turn_end(goal, score, opponent, goes_on):
    """The mover's outcome, from the mover's side of the scores after a turn: a win at the
    goal, a loss where the turn (a swap) handed the goal to the opponent, else GOES_ON."""
    return where(score >= goal, WIN, where(opponent >= goal, LOSE, goes_on))


@jit(inline="always")
def widest_roll(dist_ptr):
    """The most values any roll kind has: the size of a buffer for one choice's outcomes."""
    width = 1
    for k in range(len(dist_ptr) - 1):
        width = max(width, dist_ptr[k + 1] - dist_ptr[k])
    return width


def narrated_turn(func: Callable) -> Callable:
    """A term's turn, written once: the engines' ``resolve`` calls it compiled (numba inlines
    it), and the narration of ``watch`` and ``play`` calls the same function as Python on the
    dice it rolled and says from what it returns which rules fired.

    Write it, and any other inlined function that takes the params array, without branches:
    conditional expressions (``a if c else b``) are fine, but with an ``if`` statement, ``and``,
    ``or`` or an integer division (numba checks the divisor) numba keeps a reference count on
    the array for every call (measured: a resolve four times slower). An inlined function with
    a branch next to them does it too, even one that takes no array (``fast_divide``). Choose
    by the state with ``where`` rather than ``a if c else b``, and the engines' rule functions
    built on the turn can take arrays of states (``jit(arrays=True)``)."""
    return jit(inline="always")(func)


DIVIDE_SHIFT = 50


def divider(d: int, below: int) -> int:
    """A multiplier M with ``(n * M) >> DIVIDE_SHIFT == n // d`` for every 0 <= n < BELOW, or 0
    when none fits in 64 bits; for ``fast_divide``. With M = ceil(2**S / d) and e = M*d - 2**S,
    n*M / 2**S = n/d + n*e / (d * 2**S), which stays below the next integer while n*e < 2**S."""
    m = -(-(1 << DIVIDE_SHIFT) // d)
    if (m * d - (1 << DIVIDE_SHIFT)) * below >= 1 << DIVIDE_SHIFT or below * m >= 1 << 63:
        return 0
    return m


@jit(inline="always")
def fast_divide(n: int, d: int, multiplier: int) -> int:
    """n // d, for 0 <= n below the bound ``divider`` was given, by a multiply and a shift: a
    division by a number known only at run time (the goal) takes tens of cycles, and the
    engines decode states millions of times."""
    if multiplier:
        return (n * multiplier) >> DIVIDE_SHIFT
    return n // d


@dataclass(frozen=True)
class GameModel:
    """A rule set as arrays and two compiled functions; the engines' only view of a game.

    States are numbered 0..n_states-1 and always seen from the side of the player to move.
    """

    n_states: int
    start: int
    observation: np.ndarray  # state -> index into a decision table (what the strategy sees)
    order: np.ndarray  # states, each level's successors before it
    level_ptr: np.ndarray  # order[level_ptr[i]:level_ptr[i+1]] is level i
    cyclic: bool  # transitions may stay inside a level: solve each level by iteration
    params: np.ndarray  # int64 parameters for the compiled functions (goal, options)
    roll_kind: Callable  # (params, state, choice) -> row of the distribution table
    resolve: Callable  # (params, state, choice, value) -> outcome(next_state, kind)
    dist_ptr: np.ndarray
    dist_value: np.ndarray
    dist_prob: np.ndarray
    choices: np.ndarray  # every legal choice, for solving
    canonical: np.ndarray = field(default=None)  # observation -> a representative state
    #: Optional, with Q_KEYS_SIGNATURE: a key for each of a run of (state, choice) pairs. States
    #: and choices with equal keys have the same outcomes (distribution and successors), so the
    #: exact engine computes a choice's value once per key; keys lie in [0, n_keys), -1: none.
    q_keys: Callable | None = None
    n_keys: int = 0
    #: Optional, with RESOLVE_ROW_SIGNATURE: ``resolve`` for all values of a roll kind at once.
    #: A model without rows is resolved outcome by outcome millions of times; decoding the
    #: state once per choice instead of once per value makes that several times faster.
    resolve_row: Callable | None = None
    #: True when no outcome stays in its level (every move leads to a level solved before):
    #: the solver may then take a level's states in any order, several at once.
    independent_levels: bool = False
    #: Optional: the states a turn can begin in, in the order's order, when a turn is a chain
    #: of rolls (SAME moves down the order, never to another turn start) that ends by handing
    #: the turn to one of them or by ending the game. A pair of tables is then evaluated on
    #: whole turns (``exact.turns``): Pig and Big Pig, whose turn totals are most of the states.
    turn_starts: np.ndarray | None = None
    #: True when some pairs of strategies can play forever (hog-sp22: two 0-point turns repeat
    #: a state). A game that never ends is a tie, half a win for each player: the exact engine
    #: starts its cyclic levels from 1/2, so a closed loop keeps that value and every other
    #: value converges as it would from 0 (see ``hogbench.exact``).
    may_never_end: bool = False
    #: Optional: the hidden state is each player's memory of their own previous turn, MEMORIES
    #: values each: state = (mover's memory * memories + opponent's memory) * P + observation,
    #: P observations, whose levels do not depend on the memories. The turn reads the mover's
    #: memory only through memory_class[choice - choices[0], memory] (0 or 1), keeps the
    #: opponent's and gives the mover a new one (``exact.memory`` evaluates tables by that).
    memories: int = 0
    memory_class: np.ndarray | None = None
    #: With memories: a player's new memory is the choice it made.
    memory_is_choice: bool = False


def rule_function_types(t):
    """numba types of the roll_kind and resolve functions the kernels take."""
    return t.FunctionType(roll_kind_signature(t)), t.FunctionType(resolve_signature(t))


def distribution_table(rows: list[dict[int, float]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pack a list of {value: probability} rows into CSR arrays (ptr, value, prob)."""
    ptr = np.zeros(len(rows) + 1, dtype=np.int64)
    values: list[int] = []
    probs: list[float] = []
    for i, row in enumerate(rows):
        for value in sorted(row):
            if row[value] > 0:
                values.append(value)
                probs.append(row[value])
        ptr[i + 1] = len(values)
    return ptr, np.array(values, dtype=np.int64), np.array(probs, dtype=np.float64)


def dice_distribution(
    num_rolls: int, faces: tuple[int, ...], points: Callable[[tuple[int, ...]], int]
) -> dict[int, float]:
    """Exact distribution of ``points(outcomes)`` when ``num_rolls`` fair dice are rolled.

    Only the multiset of outcomes matters, so this walks the multisets with their multinomial
    weights rather than every ordered roll.
    """
    from math import factorial, prod

    dist: dict[int, float] = {}
    total = len(faces) ** num_rolls
    for combo in itertools.combinations_with_replacement(faces, num_rolls):
        counts = [combo.count(f) for f in set(combo)]
        ways = factorial(num_rolls) // prod(factorial(c) for c in counts)
        value = points(combo)
        dist[value] = dist.get(value, 0.0) + ways / total
    return dist


def levels_by_key(
    keys: np.ndarray, within: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Order states by descending level key (successors have larger keys), ``within`` ascending.

    Returns (order, level_ptr) for a GameModel.
    """
    if within is None:
        within = np.zeros_like(keys)
    order = np.lexsort((within, -keys)).astype(np.int64, copy=False)
    sorted_keys = keys[order]
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    level_ptr = np.r_[starts, len(order)].astype(np.int64)
    return order, level_ptr


#: Above this many states, building a model frees enough temporaries to be worth handing back.
LARGE_MODEL = 1_000_000


MAX_DICE = 10  # a Hog turn rolls 0 to 10 dice


@jit(roll_kind_signature, arrays=True)
def dice_roll_kind(params, state, choice):
    """The roll kind of a Hog turn on ``dice_rows`` and then a no-dice row: N dice is kind N - 1,
    0 dice (the term's zero-dice rule) is kind MAX_DICE."""
    return MAX_DICE if choice == 0 else choice - 1


def dice_rows(points: Callable, faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)) -> list[dict]:
    """The distributions of POINTS(outcomes) for 1 to 10 dice with FACES: a Hog term's roll
    kinds 0 to 9."""
    return [dice_distribution(n, faces, points) for n in range(1, MAX_DICE + 1)]


def score_sum_model(
    goal: int,
    rows: list[dict[int, float]],
    params: list[int],
    roll_kind: Callable,
    resolve: Callable,
    copies: int = 1,
    may_never_end: bool = False,
) -> GameModel:
    """The model of a Hog term whose state is the two scores, ``score * goal + opponent``, in
    COPIES that differ only by what the strategies do not see (``copy * goal**2`` added). Every
    turn raises the sum of the scores, so the levels are the sums, none of them cyclic, and no
    outcome stays inside its level. ROWS are the roll kinds' distributions. MAY_NEVER_END: a
    turn may also keep the sum (a 0-point turn, hog-sp22), so the levels are cyclic."""
    ptr, values, probs = distribution_table(rows)
    states = np.arange(copies * goal * goal, dtype=np.int64)
    scores = states % (goal * goal)
    order, level_ptr = levels_by_key(scores // goal + scores % goal)
    return GameModel(
        n_states=len(states),
        start=0,
        observation=scores,
        order=order,
        level_ptr=level_ptr,
        cyclic=may_never_end,
        params=np.array(params, dtype=np.int64),
        roll_kind=roll_kind,
        resolve=resolve,
        dist_ptr=ptr,
        dist_value=values,
        dist_prob=probs,
        choices=np.arange(0, MAX_DICE + 1, dtype=np.int64),
        independent_levels=not may_never_end,
        may_never_end=may_never_end,
    )


def digits(n: int) -> list[int]:
    """The decimal digits of a non-negative number (7 has the single digit 7)."""
    return [int(d) for d in str(n)]


@dataclass(frozen=True)
class Step:
    """One decision played with real dice: what was rolled, what the rules did, and the result."""

    dice: tuple[int, ...]
    events: list[str]
    code: int  # outcome(next_state, kind), as the model's resolve gives it
    final: tuple[int, int] | None = None  # mover's and opponent's scores when the game ended


@dataclass(frozen=True)
class Builtin:
    """A strategy that ships with hogbench: ``make(**params)`` returns the strategy function."""

    make: Callable[..., Callable]
    help: str


class RuleSet:
    """Base class of a rule set. Subclasses set the class attributes and build the model."""

    name: ClassVar[str]
    title: ClassVar[str]
    #: the strategy's parameters, in order, e.g. ("score", "opponent_score")
    strategy_args: ClassVar[tuple[str, ...]]
    #: function names looked for in a submitted file, in order of preference
    strategy_names: ClassVar[tuple[str, ...]] = ("final_strategy", "strategy")
    #: option name -> (default, one-line description)
    options_help: ClassVar[dict[str, tuple[Any, str]]] = {}
    #: (rule name, one line on it), for ``hogbench rules``
    rule_lines: ClassVar[tuple[tuple[str, str], ...]] = ()
    default_goal: ClassVar[int] = 100
    #: The largest goal offered: states grow with the square of the goal (or faster), and past
    #: this the tables, the models and the time a file has to answer every state stop fitting.
    max_goal: ClassVar[int] = 1000
    baseline: ClassVar[str] = "always_roll:6"
    #: what a person types at ``hogbench play``
    choice_help: ClassVar[str] = "number of dice, 0 to 10"
    #: The contest disqualifies strategies that are not pure functions of what they see (Hog's
    #: contest rules); tournaments then do too, unless told to play them live.
    requires_deterministic: ClassVar[bool] = False
    #: True when a game can end tied (equal scores): an exact win rate then counts a tie half.
    can_tie: ClassVar[bool] = False
    #: what the game's state holds that a strategy does not see (``solve`` explains it)
    hidden_state: ClassVar[str] = "more than the strategy's arguments"
    #: The dice rule of a Hog term: the points of one roll from its outcomes (Pig Out, Sow Sad).
    #: None where turns are not "roll N dice" (Pig, Big Pig, Greed): the course's turn-score
    #: experiments are Hog's.
    dice_points: ClassVar[Callable[[list[int]], int] | None] = None
    #: The term's announce_highest(who) commentary for ``watch``; None: a generic wording.
    announce_highest: ClassVar[Callable | None] = None
    #: A game can end tied (its resolve gives TIE: equal final scores in Greed and Big Pig), so
    #: exact results split a win rate into win, loss and tie chances.
    has_ties: ClassVar[bool] = False
    #: In ``hogbench play``, the person moves first because the game's text says so (Big Pig:
    #: "The user always goes first"); False: the person is asked.
    person_moves_first: ClassVar[bool] = False

    def turn_cap(self) -> int | None:
        """Where a game may never end (its model's ``may_never_end``): the turns after which a
        simulated or watched game is over and tied. None: every game ends, and one still going
        after ``simulate.MAX_TURNS`` turns is an error."""
        return None

    def __init__(self, goal: int | None = None, **options: Any) -> None:
        self.goal = self.default_goal if goal is None else int(goal)
        if self.goal < 1:
            raise UsageError(f"--goal must be at least 1, got {goal}")
        if self.goal > self.max_goal:
            raise UsageError(
                f"--goal must be at most {self.max_goal} for {self.name} (its states grow with"
                f" the square of the goal or faster), got {goal}"
            )
        unknown = set(options) - set(self.options_help)
        if unknown:
            known = ", ".join(self.options_help) or "none"
            raise UsageError(
                f"unknown option {sorted(unknown)[0]!r} for rule set {self.name} (options: {known})"
            )
        self.options = {k: default for k, (default, _) in self.options_help.items()}
        for key, value in options.items():
            self.options[key] = _coerce_option(self.name, key, value, self.options_help[key][0])

    @classmethod
    def describe(cls) -> dict:
        """What ``hogbench rules`` says of this rule set."""
        from hogbench.rules import DEFAULT_RULES

        return {
            "name": cls.name,
            "title": cls.title,
            "default": cls.name == DEFAULT_RULES,
            "strategy": f"({', '.join(cls.strategy_args)})",
            "options": {k: {"default": d, "help": h} for k, (d, h) in cls.options_help.items()},
            "rules": dict(cls.rule_lines),
        }

    def dice_rule(self) -> Callable[[list[int]], int]:
        """The dice rule, or a UsageError saying why this game has none."""
        if self.dice_points is None:
            raise UsageError(
                f"{self.name} is not played by rolling a number of dice: the turn-score"
                " experiments are Hog's"
            )
        return self.dice_points

    def roll_dice(self, num_rolls: int, dice: Callable[[], int]) -> int:
        """The course's roll_dice: NUM_ROLLS outcomes of DICE, scored by the term's dice rule."""
        return self.dice_rule()([dice() for _ in range(num_rolls)])

    # -- identity ---------------------------------------------------------------------------
    @property
    def key(self) -> str:
        """A stable string naming the rule set, goal and options (used in caches and stores)."""
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.name}:goal={self.goal}" + (f":{opts}" if opts else "")

    @property
    def identity(self) -> str:
        """The key and a digest of the source the rule set is made from (the modules of its
        class and of its bases): what a cache entry made under these rules depends on, so that
        none outlives the code it came from."""
        return f"{self.key}:{_class_source_digest(type(self))}"

    @classmethod
    def course_functions(cls) -> dict[str, Callable[..., Any]]:
        """The course's functions of a Hog term, by name: those of its own course module (a term
        that only renames another has the other's). Empty for other rule sets."""
        for base in cls.__mro__:
            if base.__module__.startswith("hogbench.rules.hog_"):
                module = importlib.import_module(base.__module__)
                found = {
                    name: value
                    for name, value in vars(module).items()
                    if inspect.isfunction(value) and not name.startswith("_")
                }
                if found:
                    return found
        return {}

    def __repr__(self) -> str:
        return f"<rules {self.key}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleSet) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __getstate__(self) -> dict:
        # Workers rebuild the model: it is large and holds compiled functions.
        return {k: v for k, v in self.__dict__.items() if k != "model"}

    # -- what a strategy sees and answers -----------------------------------------------------
    @property
    def obs_shape(self) -> tuple[int, ...]:
        """Shape of a decision table; by default both scores in [0, goal)."""
        return (self.goal, self.goal)

    def observations(self) -> Iterator[tuple]:
        """The argument tuples a strategy is called with, in decision-table order (numpy's
        ndindex order, which is itertools.product's: three times faster for Big Pig's 2.3
        million)."""
        return itertools.product(*map(range, self.obs_shape))

    def obs_args(self, index: int) -> tuple:
        """The argument tuple for one flat decision-table index."""
        return tuple(int(i) for i in np.unravel_index(index, self.obs_shape))

    def choice(self, value: Any) -> int:
        """Validate one strategy answer and return it as the engine's int; raise IllegalChoice."""
        return check_int_choice(value, 0, 10, f"{self.name} takes a {self.choice_help}")

    def describe_choice(self, choice: int) -> str:
        return f"roll {choice}"

    def move_taken(self, state: int, choice: int) -> int:
        """The move the rules make of CHOICE at STATE: the choice itself, except where the
        rules read it as another move (a hold with nothing to hold rolls, in Pig and Big Pig),
        so that narration says what happened."""
        return choice

    def refusal(self, state: int, choice: int) -> str | None:
        """Why a person's CHOICE is not taken at STATE (``hogbench play`` asks again), or None.
        A strategy's answer is read as ``move_taken`` says instead."""
        return None

    def parse_choice(self, text: str) -> int:
        """A person's typed move (``hogbench play``); IllegalChoice with the reason if bad."""
        try:
            value = int(text.strip())
        except ValueError:
            raise IllegalChoice(f"{text.strip()!r} is not a number of dice") from None
        return self.choice(value)

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        """Play one decision with real dice from RNG, saying which rules fired (``watch``).

        The returned outcome code must be the model's ``resolve`` for the rolled value, so a
        watched game is a game of the same model the engines evaluate.
        """
        raise NotImplementedError(f"{self.name} cannot be watched turn by turn yet")

    def scores(self, state: int) -> tuple[int, int]:
        """The mover's and the opponent's score at an engine state."""
        args = self.state_args(state)
        return int(args[0]), int(args[1])

    # -- the engines' view --------------------------------------------------------------------
    @functools.cached_property
    def model(self) -> GameModel:
        model = self.build_model()
        if model.n_states > LARGE_MODEL:
            return_freed_memory()
        return model

    def build_model(self) -> GameModel:  # pragma: no cover - every rule set overrides it
        raise NotImplementedError

    def fit(self, *tables: np.ndarray) -> GameModel:
        """The model, holding the outcomes of every answer in TABLES (decision tables): what
        the engines take before they read a table. A rule set whose answers have no upper
        bound (Greed's dice) grows its model to the answers used; a table with an answer the
        model has no outcomes for is refused here (UsageError), never indexed past."""
        model = self.model
        check_answers(model, tables)
        return model

    def fit_any(self) -> GameModel:
        """The model, holding every answer a strategy called live may give (``choice``'s)."""
        return self.model

    def builtins(self) -> dict[str, Builtin]:
        """Strategies shipped with this rule set, by spec name."""
        return {}

    def state_args(self, state: int) -> tuple:
        """The strategy's arguments at an engine state (via the model's observation)."""
        return self.obs_args(int(self.model.observation[state]))

    def describe_state(self, state: int) -> str:
        """A short human description of an engine state, for errors and `watch`."""
        return ", ".join(
            f"{n}={v}" for n, v in zip(self.strategy_args, self.state_args(state), strict=False)
        )


def check_answers(model: GameModel, tables: Iterable[np.ndarray]) -> None:
    """UsageError unless every answer in TABLES is one of MODEL's choices (consecutive): the
    engines index their outcomes by the answer, and do not check it."""
    low, high = int(model.choices[0]), int(model.choices[-1])
    for table in tables:
        table = np.asarray(table)
        if not table.size:
            continue
        least, most = int(table.min()), int(table.max())
        if least < low or most > high:
            raise UsageError(
                f"a decision table answers {most if most > high else least}, which the model"
                f" has no outcomes for (it holds {low} to {high}); its rule set's fit() grows"
                f" the model where the rules allow more"
            )


def check_int_choice(value: Any, low: int, high: int, legal: str = "") -> int:
    """A legal answer is an int (not a bool, not a float) in [low, high]; LEGAL says in the
    rule set's words what it takes, for the message."""
    said = f" ({legal})" if legal else ""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise IllegalChoice(f"returned {value!r} ({type(value).__name__}), not an int{said}")
    if not low <= value <= high:
        raise IllegalChoice(f"returned {value}, outside {low}..{high}{said}")
    return int(value)


def _coerce_option(rules: str, key: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "1", "yes", "on"):
            return True
        if text in ("false", "0", "no", "off"):
            return False
        raise UsageError(f"option {key} of {rules} takes true or false, got {value!r}")
    if isinstance(default, int):
        try:
            return int(value)
        except (TypeError, ValueError):
            raise UsageError(
                f"option {key} of {rules} takes a whole number, got {value!r}"
            ) from None
    return value


@functools.cache
def _class_source_digest(cls: type) -> str:
    digest = hashlib.sha256()
    for name in dict.fromkeys(c.__module__ for c in cls.__mro__):
        if name.startswith("hogbench."):
            digest.update(name.encode() + Path(sys.modules[name].__file__).read_bytes())
    return digest.hexdigest()[:32]
