"""The course's experiments, with the course's names, signatures and defaults.

``make_averaged`` and ``max_scoring_num_rolls`` follow the course text literally.
``average_win_rate`` keeps its meaning (a Monte Carlo estimate over ``trials_count`` games per
seating) but plays on the fast engine whenever both strategies are deterministic functions of
the scores.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from hogbench.dice import six_sided
from hogbench.errors import StrategyError, UsageError
from hogbench.players import LivePlayer, Player
from hogbench.rules import DEFAULT_RULES, get_rules
from hogbench.rules.base import RuleSet, dice_distribution
from hogbench.tables import NotDeterministic, tabulate


def make_averaged(original_function: Callable, trials_count: int = 1000) -> Callable:
    """Return a function that returns the average value of ORIGINAL_FUNCTION called
    TRIALS_COUNT times.

    >>> from hogbench import make_test_dice
    >>> dice = make_test_dice(4, 2, 5, 1)
    >>> averaged_dice = make_averaged(roll_dice, 1000)
    >>> averaged_dice(1, dice)
    3.0
    """

    def averaged(*args):
        return sum(original_function(*args) for _ in range(trials_count)) / trials_count

    return averaged


def roll_dice(num_rolls: int, dice: Callable = six_sided) -> int:
    """The default rule set's roll_dice (hog-su21), for the course's experiments."""
    from hogbench.rules.hog_su21 import roll_dice as su21_roll_dice

    return su21_roll_dice(num_rolls, dice)


def max_scoring_num_rolls(
    dice: Callable = six_sided, trials_count: int = 1000, *, rules: str = DEFAULT_RULES
) -> int:
    """Return the number of dice (1 to 10) that gives the highest average turn score by calling
    roll_dice with the provided DICE a total of TRIALS_COUNT times. Assume that the dice always
    return positive outcomes. Ties go to the fewer dice.

    >>> from hogbench import make_test_dice
    >>> max_scoring_num_rolls(make_test_dice(1, 6))
    1
    """
    roll = get_rules(rules).roll_dice
    best, best_score = 0, 0.0
    for num_rolls in range(1, 11):
        score = make_averaged(roll, trials_count)(num_rolls, dice)
        if score > best_score:
            best, best_score = num_rolls, score
    return best


def always_roll(n: int) -> Callable:
    """Return a strategy that always rolls N dice.

    >>> strategy = always_roll(5)
    >>> strategy(0, 0)
    5
    """
    assert 0 <= n <= 10

    def strategy(score, opponent_score):
        return n

    return strategy


def baseline_strategy(rules: RuleSet) -> Callable:
    """The rule set's baseline as a strategy function (the same opponent the CLI uses)."""
    from hogbench.loading import builtin_strategy, parse_spec

    return builtin_strategy(parse_spec(rules.baseline), rules)


def average_win_rate(
    strategy: Callable,
    baseline: Callable | None = None,
    *,
    trials_count: int = 1000,
    rules: str | RuleSet = DEFAULT_RULES,
    seed: int | None = None,
) -> float:
    """Return the average win rate of STRATEGY against BASELINE (default: the rule set's
    baseline, as the CLI uses: always_roll(6) in Summer 2021, always_roll(4) in Summer 2020),
    averaging over TRIALS_COUNT games with STRATEGY first and as many with it second.

    Deterministic strategies become decision tables and play on the compiled engine;
    others are called at every turn.
    """
    from hogbench.pairs import play_pair

    rules = get_rules(rules) if isinstance(rules, str) else rules
    baseline = baseline_strategy(rules) if baseline is None else baseline
    players = [_in_process_player(s, rules) for s in (strategy, baseline)]
    seed = random.randrange(2**63) if seed is None else seed
    played = play_pair(rules, *players, "mc", 2 * trials_count, seed)
    return (played.first + played.second) / 2


def winner(
    strategy0: Callable,
    strategy1: Callable,
    *,
    rules: str | RuleSet = DEFAULT_RULES,
    seed: int | None = None,
) -> int:
    """Return 0 if strategy0 wins against strategy1, and 1 otherwise (the course's winner:
    one game, strategy0 moving first; a tie is "otherwise"). Played on the rule set's own turn,
    the one ``watch`` narrates, with random dice from SEED."""
    from hogbench.watch import play_game

    rules = get_rules(rules) if isinstance(rules, str) else rules

    def decider(strategy: Callable) -> Callable[[int], int]:
        return lambda state: rules.choice(strategy(*rules.state_args(state)))

    seed = random.randrange(2**63) if seed is None else seed
    *_, last = play_game(rules, (decider(strategy0), decider(strategy1)), seed)
    return 0 if last.winner == 0 else 1


def run_experiments(
    strategies: dict[str, Callable] | None = None,
    *,
    rules: str | RuleSet = DEFAULT_RULES,
    trials_count: int = 1000,
    seed: int | None = None,
) -> dict[str, float]:
    """Run a series of strategy experiments and report results (the course's
    run_experiments): the max scoring number of dice for six-sided dice (Hog), then each of
    STRATEGIES' average win rate against the baseline, printed as the course prints them.
    STRATEGIES maps a name to a strategy; by default always_roll(6) in a Hog term, the
    baseline itself in the cousins. Returns the win rates by name."""
    rules = get_rules(rules) if isinstance(rules, str) else rules
    if rules.dice_points is not None:
        six_sided_max = max_scoring_num_rolls(six_sided, trials_count, rules=rules.name)
        print("Max scoring num rolls for six-sided dice:", six_sided_max)
    if strategies is None:
        strategies = (
            {"always_roll(6)": always_roll(6)}
            if rules.dice_points is not None
            else {rules.baseline: baseline_strategy(rules)}
        )
    rates = {}
    for name, strategy in strategies.items():
        rates[name] = average_win_rate(strategy, trials_count=trials_count, rules=rules, seed=seed)
        print(f"{name} win rate:", rates[name])
    return rates


def _in_process_player(strategy: Callable, rules: RuleSet) -> Player:
    try:
        name = getattr(strategy, "__name__", "strategy")
        return tabulate(strategy, rules, name)
    except NotDeterministic:
        return LivePlayer(lambda: strategy)


def expected_turn_scores(rules: RuleSet, sides: int = 6) -> dict[int, float]:
    """The exact mean of ``roll_dice(n, dice)`` for n = 1..10 with fair SIDES-sided dice.

    Computed from the rule set's own ``dice_points`` (the function the model's dice
    distributions are built from), enumerated over every roll: what the course's
    ``max_scoring_num_rolls`` experiment estimates.
    """
    points = rules.dice_rule()
    faces = tuple(range(1, sides + 1))
    return {
        n: sum(v * p for v, p in dice_distribution(n, faces, points).items()) for n in range(1, 11)
    }


@dataclass(frozen=True)
class TurnScore:
    num_rolls: int
    mean: float
    ci_low: float
    ci_high: float
    exact: float


def turn_scores(rules: RuleSet, sides: int, trials: int, seed: int) -> list[TurnScore]:
    """Average turn score for 1 to 10 dice by simulation, with 95% intervals, beside the exact
    expectation from the rule set's outcome distributions."""
    exact_means = expected_turn_scores(rules, sides)
    rng = random.Random(seed)

    def dice() -> int:
        return rng.randint(1, sides)

    rows = []
    for num_rolls in range(1, 11):
        samples = np.array([rules.roll_dice(num_rolls, dice) for _ in range(trials)], float)
        half = 1.959963984540054 * samples.std(ddof=1) / np.sqrt(trials) if trials > 1 else 0.0
        mean = samples.mean()
        rows.append(TurnScore(num_rolls, mean, mean - half, mean + half, exact_means[num_rolls]))
    return rows


def best_num_rolls(rows: list[TurnScore]) -> int:
    """The course's choice: the highest average, ties to fewer dice."""
    best = max(r.mean for r in rows)
    return next(r.num_rolls for r in rows if r.mean == best)


@dataclass(frozen=True)
class TurnScoreExperiment:
    """The course's max_scoring_num_rolls experiment, with intervals and the exact means."""

    rules: str
    dice: int
    trials: int
    seed: int
    rows: list[TurnScore]

    @property
    def best(self) -> int:
        return best_num_rolls(self.rows)

    def to_dict(self) -> dict:
        return {
            "rules": self.rules,
            "dice": self.dice,
            "trials": self.trials,
            "seed": self.seed,
            "max_scoring_num_rolls": self.best,
            "rows": [asdict(r) for r in self.rows],
        }


def turn_score_experiment(
    rules: RuleSet, sides: int, trials: int, seed: int
) -> TurnScoreExperiment:
    """``turn_scores`` with what it was asked, as one result."""
    return TurnScoreExperiment(
        rules.name, sides, trials, seed, turn_scores(rules, sides, trials, seed)
    )


@dataclass(frozen=True)
class SweepPoint:
    value: int
    win_rate: float
    first: float
    second: float
    #: Monte Carlo: the paired 95% interval of the average win rate, and the pairs played
    ci_low: float | None = None
    ci_high: float | None = None
    pairs: int | None = None


def sweep(
    rules: RuleSet,
    strategy: str,
    param: str,
    values: list[int],
    baseline: str,
    games: int | None = None,
    seed: int = 0,
) -> Sweep:
    """The course's cutoff experiments: STRATEGY's average win rate against BASELINE for each
    value of one parameter (exact, or GAMES Monte Carlo games per value)."""
    from hogbench.duel import run_duel
    from hogbench.loading import load_entrant, parse_spec

    base = parse_spec(strategy)
    if base.is_file:
        raise StrategyError(strategy, "a sweep varies a built-in's parameter; give a built-in")
    opponent = load_entrant(baseline, rules)
    points = []
    for value in values:
        kwargs = dict(base.kwargs) | {param: value}
        spec = f"{base.function}:" + ",".join(f"{k}={v}" for k, v in kwargs.items())
        result = run_duel(
            rules, load_entrant(spec, rules), opponent, games or 0, seed, 1, games is None
        )
        interval = result.interval or (None, None)
        paired = result.paired
        points.append(
            SweepPoint(
                value,
                result.total.win_rate,
                result.first.win_rate,
                result.second.win_rate,
                *interval,
                paired.pairs if paired else None,
            )
        )
    exact = games is None
    return Sweep(rules.key, strategy, param, baseline, exact, None if exact else seed, points)


@dataclass(frozen=True)
class Sweep:
    """A sweep's points with what was swept, against what, and how."""

    rules: str  # the rule set's key
    strategy: str
    param: str
    baseline: str
    exact: bool
    seed: int | None  # None when exact
    points: list[SweepPoint]

    @property
    def best(self) -> SweepPoint:
        return max(self.points, key=lambda p: p.win_rate)

    def to_dict(self) -> dict:
        return {
            "rules": self.rules,
            "strategy": self.strategy,
            "param": self.param,
            "baseline": self.baseline,
            "exact": self.exact,
            "seed": self.seed,
            "best": self.best.value,
            "points": [asdict(p) for p in self.points],
        }


#: The Greed field bundled with hogbench: test strategies of graded strength, test01 the
#: weakest, as the course's pr1testing module gives its students.
GREED_FIELD = Path(__file__).resolve().parent.parent / "strategies" / "greed"
#: The Greed seed's rule: "Running pr1testing.testStrat(myStrategy, 10000) ... should take no
#: more than 30 seconds."
TEST_STRAT_SECONDS = 30.0
#: The games per match of the seed's testStrat(myStrategy, 10000), for the time estimate.
TEST_STRAT_GAMES = 10_000


def greed_field() -> list[Path]:
    """The bundled Greed test strategies, weakest first."""
    field = sorted(GREED_FIELD.glob("test*.py"))
    if not field:
        raise UsageError(
            f"the bundled Greed field is missing ({GREED_FIELD}): hogbench was installed"
            " without its strategies folder"
        )
    return field


@dataclass(frozen=True)
class StratTest:
    """The Greed course's testStrat: one strategy against each test strategy of the field,
    and the seed's 30-second rule, estimated from how fast the strategy answered here."""

    strategy: str
    matches: list  # a DuelResult per test strategy, weakest first
    seconds_per_call: float | None  # the strategy's own time per call, import included
    calls: float  # calls the seed's testStrat(strategy, 10000) makes, expected exactly

    @property
    def beaten(self) -> int:
        return sum(1 for m in self.matches if beats(m) is True)

    @property
    def estimated_seconds(self) -> float | None:
        return None if self.seconds_per_call is None else self.seconds_per_call * self.calls

    @property
    def within_time(self) -> bool | None:
        estimate = self.estimated_seconds
        return None if estimate is None else estimate <= TEST_STRAT_SECONDS

    def to_dict(self) -> dict:
        return {
            "strategy": self.strategy,
            "beaten": self.beaten,
            "field": len(self.matches),
            "matches": [{"beats": beats(m), **m.to_dict()} for m in self.matches],
            "seconds_per_call": self.seconds_per_call,
            "test_strat_calls": self.calls,
            "test_strat_seconds": self.estimated_seconds,
            "limit_seconds": TEST_STRAT_SECONDS,
            "within_time": self.within_time,
        }


def beats(match) -> bool | None:
    """Whether A beats B (win rate above 50%): exact, or by Monte Carlo when its 95% interval
    is clear of 50% (None: undecided by these games)."""
    if match.exact:
        return match.total.win_rate > 0.5
    low, high = match.interval
    return True if low > 0.5 else (False if high < 0.5 else None)


def test_strat(
    rules: RuleSet,
    spec: str,
    games: int = TEST_STRAT_GAMES,
    seed: int = 0,
    exact_mode: bool = False,
    seconds: float | None = None,
    **door,
) -> StratTest:
    """The Greed course's testStrat(SPEC, GAMES): a match against each bundled test strategy
    (GAMES games, half in each seating, or exact), with the estimated time of the seed's own
    testStrat(SPEC, 10000), at SECONDS to import and answer every state twice (check's
    measure), against its 30-second rule."""
    from hogbench import exact
    from hogbench.duel import run_duel
    from hogbench.loading import load_entrant

    if rules.name != "greed":
        raise UsageError(f"test-strat is the Greed course's testStrat; --rules is {rules.name}")
    mine = load_entrant(spec, rules, **door)
    matches, calls = [], 0.0
    for path in greed_field():
        them = load_entrant(str(path), rules, **door)
        matches.append(run_duel(rules, mine, them, games, seed, 1, exact_mode))
        if mine.table is not None and them.table is not None:
            # the strategy's expected decisions in a game, averaged over the seatings
            policies = exact.table_policies(rules, mine.table.choices, them.table.choices)
            mine_moves, _ = exact.reach(rules, *policies)
            calls += float(mine_moves.sum()) * TEST_STRAT_GAMES
    per_call = None
    if seconds is not None:
        per_call = seconds / (2 * len(list(rules.observations())))
    return StratTest(mine.name, matches, per_call, calls)
