"""The command line: parse, call, render. No game logic lives here.

No ``from __future__ import annotations`` here: typer reads every command's annotations at each
start, and evaluating them from strings took 40 of its 60 ms (measured).
"""

import contextlib
import json
import os
import random
from collections.abc import Iterator
from typing import Annotated, Any, Literal

import typer
from rich.markup import escape
from typer.core import TyperGroup

from hogbench import views
from hogbench.errors import HogbenchError
from hogbench.rules import DEFAULT_RULES, DEFAULT_THRESHOLD
from hogbench.rules import names as rule_names
from hogbench.tournament.config import SETTING as _SETTING
from hogbench.views import err, out

#: click's usage errors: a bad option or value. Recent typers carry their own copy of click, so
#: the class is found from typer's, not imported from click.
_ClickError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


class _Commands(TyperGroup):
    """Report hogbench errors as one line on stderr with their exit code (2 usage, 1 failure);
    with --json, also as one JSON object on stdout, ``{"error": ..., "exit": ...}``, so a
    script reading stdout learns what went wrong (usage errors caught by click included)."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        _state["json"] = "--json" in args[: args.index("--") if "--" in args else len(args)]
        try:
            return super().parse_args(ctx, args)
        except _ClickError as exc:  # an option before the command, such as --bogus
            if not _state["json"]:
                raise
            _fail(exc.format_message(), exc.exit_code)

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except HogbenchError as exc:
            if _state["debug"]:
                raise
            _fail(str(exc), exc.exit_code)
        except _ClickError as exc:  # click's own usage errors: a bad option or value
            _name_the_fix(exc)
            if not _state["json"]:
                raise  # click prints them with the command's usage line
            _fail(exc.format_message(), exc.exit_code)


def _name_the_fix(exc: Exception) -> None:
    """An SPRT option that only duel has, given to gauntlet or tournament: the message says
    what to do instead of listing options that look alike."""
    flag, ctx = getattr(exc, "option_name", None), getattr(exc, "ctx", None)
    command = getattr(getattr(ctx, "command", None), "name", None)
    if flag in ("--alpha", "--beta") and command in ("gauntlet", "tournament"):
        exc.message = (  # type: ignore[attr-defined]
            f"{flag}: a {command}'s --sprt P0,P1 tests at alpha = beta = 5%, which it does not"
            f" change; drop {flag} (duel --sprt takes --alpha and --beta)"
        )
        exc.possibilities = None  # type: ignore[attr-defined]


@contextlib.contextmanager
def _resumable(t: Any) -> Iterator[None]:
    """Ctrl-C in a tournament: one line saying that the pairs finished are kept in its store
    and that the same command resumes from there; exit code 130."""
    try:
        yield
    except KeyboardInterrupt:
        from hogbench import tournament as tm

        store = t.store or tm.default_store(t)
        _fail(
            f"interrupted: every pair finished so far is kept in {store}; run the same"
            " command again to resume from there",
            130,
        )


def _fail(message: str, code: int) -> None:
    """End the command: MESSAGE as one line on stderr and, with --json, as JSON on stdout."""
    if _state["json"]:
        print(json.dumps({"error": message, "exit": code}))
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code) from None


app = typer.Typer(
    cls=_Commands,
    help="Measure strategies for Hog and its cousins: duels, exact win rates, tournaments.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Usage errors as click prints them: one line, never a box cut at 80 columns.
    rich_markup_mode=None,
)
experiment_app = typer.Typer(help="The course's experiments.", no_args_is_help=True)
app.add_typer(experiment_app, name="experiment")
cache_app = typer.Typer(help="hogbench's disk cache: see it, clear it.", no_args_is_help=True)
app.add_typer(cache_app, name="cache")

_state = {"debug": False, "json": False}


# -- shared options ----------------------------------------------------------------------------
# Enumerated options are Literal types: --help shows the choices, any case is accepted, and a
# wrong answer is refused with the list.
RuleName = Literal[tuple(rule_names())]  # type: ignore[valid-type]
RulesOpt = Annotated[
    RuleName,
    typer.Option("--rules", "-r", case_sensitive=False, help="Rule set (see `hogbench rules`)."),
]
FileRulesOpt = Annotated[
    RuleName | None,
    typer.Option(
        "--rules",
        "-r",
        case_sensitive=False,
        help=f"Rule set (default: the term the file's course functions are recognised as, else"
        f" {DEFAULT_RULES}).",
    ),
]
GoalOpt = Annotated[int | None, typer.Option("--goal", help="Score to win (default 100).")]
OptionOpt = Annotated[
    list[str] | None,
    # No -o: elsewhere -o means an output file.
    typer.Option("--option", help="Rule option name=value, e.g. feral_hogs=false."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]
RequireSandboxOpt = Annotated[
    bool, typer.Option("--require-sandbox", help="Refuse to run submitted code without bwrap.")
]
NoSandboxOpt = Annotated[
    bool,
    typer.Option(
        "--no-sandbox",
        help="Run submitted code without bwrap: it can then read and change your files.",
    ),
]
AllowImportOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-import",
        metavar="MODULE",
        help="A module submissions may import besides the standard library, numpy, dice, ucb.",
    ),
]
AllowLiveOpt = Annotated[
    bool,
    typer.Option(
        "--allow-live",
        help="Play strategies that are not deterministic (by Monte Carlo) instead of"
        " disqualifying them as the contest rules do.",
    ),
]
BaselineOpt = Annotated[str, typer.Option("--baseline", help="Opponent.")]
HeatmapOpt = Annotated[str | None, typer.Option("--png", help="Also a heatmap PNG.")]
#: Seeds are what numpy's SeedSequence takes; games are capped where a run would take hours.
MAX_SEED = 2**63 - 1
MAX_GAMES = 1_000_000_000
#: One seed policy: what measures (duel, experiments, tournaments) starts from seed 0 unless
#: told, so a result repeats exactly; a game for a person (watch, play) draws a fresh one. Both
#: print the seed they used.
DEFAULT_SEED = 0
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed", min=0, max=MAX_SEED, help="Random seed (default 0; watch and play: random)."
    ),
]
JobsOpt = Annotated[
    int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")
]
GamesOpt = Annotated[
    int,
    typer.Option(
        "-n", "--games", min=1, max=MAX_GAMES, help="Number of games (at most 1,000,000,000)."
    ),
]


def _version(asked: bool) -> None:
    if asked:
        from hogbench import __version__

        out.print(f"hogbench {__version__}", highlight=False)
        raise typer.Exit()


@app.callback()
def main_options(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks on errors.")] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    _state["debug"] = debug
    from hogbench.submission import clean_leftovers

    clean_leftovers()  # private copies a run killed with kill -9 left under $TMPDIR


def main() -> None:
    """The console script's entry point."""
    app()


def _rules(name: str, goal: int | None, options: list[str] | None):
    from hogbench.rules import get_rules, parse_options

    return get_rules(name, goal, **parse_options(options))


def _file_rules(
    file: str, rules: str | None, goal: int | None, option: list[str] | None, door, show: bool
):
    """The rule set for a command on a strategy file: --rules, else the term the file's course
    functions are recognised as (``terms.review``), and that report. Unless SHOW is false, the
    line saying which rules and why, and the check of the file's own rule functions, go to
    stderr."""
    from hogbench import terms
    from hogbench.entrants import parse_spec
    from hogbench.rules import parse_options

    given = _rules(rules, goal, option) if rules else None
    spec = parse_spec(file) if file else None
    if spec is None or not spec.is_file:
        return given or _rules(DEFAULT_RULES, goal, option), None
    rule_set, report = terms.review(spec, given, goal, parse_options(option), request=door)
    if show:
        for line in report.lines():
            err.print(escape(line), highlight=False, soft_wrap=True)
    return rule_set, report


def _with_term(data: dict, term) -> dict:
    """A command's JSON with, under ``term``, which rules were used and why (and the check of
    the file's own rule functions), when the rules came from a file."""
    return {**data, "term": term.to_dict()} if term is not None else data


def _other_file_term(file: str, rule_set, door):
    """How a second strategy file's own rule functions fare under RULE_SET (chosen from the
    first), or None when FILE is not a file."""
    from hogbench import terms
    from hogbench.entrants import parse_spec

    if not file or not parse_spec(file).is_file:
        return None
    return terms.review(file, rule_set, request=door)[1]


def _first_file(*specs: str) -> str:
    """The first of SPECS that names a file (which the rules are recognised from), else ''."""
    from hogbench.entrants import parse_spec

    return next((s for s in specs if s and parse_spec(s).is_file), "")


def _door(
    require_sandbox: bool = False, no_sandbox: bool = False, allow_import: list[str] | None = None
):
    """The sandbox request of a command that loads submitted files: one frozen
    ``sandbox.Request``, made and checked here, and passed down as it is."""
    from hogbench.errors import UsageError
    from hogbench.sandbox import Request

    if require_sandbox and no_sandbox:
        raise UsageError("--require-sandbox and --no-sandbox contradict each other")
    return Request(
        require_sandbox=require_sandbox,
        no_sandbox=no_sandbox,
        allow_imports=tuple(allow_import or ()),
    )


def _output_file(path: str | None, option: str) -> None:
    """A file the command will write must be writable before the work starts."""
    if not path:
        return
    import os
    from pathlib import Path

    from hogbench.errors import UsageError

    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{option} {path} is a folder: give a file name")
    folder = target.parent
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (
        target.exists() and not os.access(target, os.W_OK)
    ):
        raise UsageError(f"{option} {path} cannot be written")


def _jobs(jobs: int | None) -> int:
    if jobs is not None and jobs < 1:
        from hogbench.errors import UsageError

        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    return jobs or os.cpu_count() or 1


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, default=_json_value))


def _json_value(value: Any) -> Any:
    """A value JSON has no type for: a numpy number as the number (a score the engines kept
    as int64 is still a number), anything else as its text."""
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:
        return value.item()
    return str(value)


# -- commands ----------------------------------------------------------------------------------
@app.command()
def duel(
    a: Annotated[str, typer.Argument(help="Strategy A: file.py, file.py:name or a built-in.")],
    b: Annotated[str, typer.Argument(help="Strategy B (default: the rule set's baseline).")] = "",
    games: GamesOpt = 100_000,
    rules: FileRulesOpt = None,
    option: OptionOpt = None,
    goal: GoalOpt = None,
    seed: SeedOpt = None,
    jobs: JobsOpt = None,
    exact: Annotated[bool, typer.Option("--exact", help="Exact win probabilities.")] = False,
    until_decided: Annotated[
        bool,
        typer.Option(
            "--until-decided",
            help="Play pairs in blocks until the interval excludes --threshold; -n is the cap.",
        ),
    ] = False,
    threshold: Annotated[
        float, typer.Option("--threshold", help="Win rate --until-decided decides against.")
    ] = DEFAULT_THRESHOLD,
    sprt: Annotated[
        str | None,
        typer.Option("--sprt", metavar="P0,P1", help="SPRT of win rate P0 against P1; -n caps."),
    ] = None,
    alpha: Annotated[
        float | None,
        typer.Option("--alpha", help="With --sprt: chance of accepting P1 wrongly (0.05)."),
    ] = None,
    beta: Annotated[
        float | None,
        typer.Option("--beta", help="With --sprt: chance of accepting P0 wrongly (0.05)."),
    ] = None,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A match of two strategies, first player alternating: wins, losses and ties of A.

    Monte Carlo games come in pairs on one dice stream with the seats swapped; the interval is
    the paired one (pentanomial), whose unit is the pair.
    """
    door = _door(require_sandbox, no_sandbox, allow_import)
    from hogbench.duel import run_duel
    from hogbench.errors import UsageError
    from hogbench.loading import load_entrant

    for flag, value in (("--alpha", alpha), ("--beta", beta)):
        if value is not None and sprt is None:  # it would change nothing: say so
            raise UsageError(
                f"{flag} is an error rate of the SPRT, which runs only with --sprt P0,P1:"
                f" add --sprt (e.g. --sprt 0.5,0.55) or drop {flag}"
            )

    first = _first_file(a, b)
    rule_set, term = _file_rules(first, rules, goal, option, door, not as_json)
    other_term = _other_file_term(b if first and first == a else "", rule_set, door)
    if other_term is not None and not as_json:
        for line in other_term.lines()[1:]:  # the rules are said once, above
            err.print(escape(f"{b}: {line}"), highlight=False, soft_wrap=True)
    if not exact and games < 1:
        raise UsageError(f"-n must be at least 1, got {games}")
    test = _sprt(sprt, alpha, beta) if sprt else None
    if exact and (test or until_decided):
        raise UsageError("--exact needs no --until-decided or --sprt: exact values are decided")
    if test and until_decided:
        raise UsageError("choose one of --until-decided and --sprt")
    if not 0 < threshold < 1:
        raise UsageError(f"--threshold is a win rate between 0 and 1, got {threshold}")
    entrant_a = load_entrant(a, rule_set, request=door)
    entrant_b = load_entrant(b or rule_set.baseline, rule_set, request=door)
    seed = None if exact else (DEFAULT_SEED if seed is None else seed)
    advance, close = (None, None)
    live = not (entrant_a.tableable and entrant_b.tableable)  # told chunk by chunk
    if not exact and not as_json and (games > 200_000 or live):
        bar = views.PairProgress(err)
        bar.start("games (played live)" if live else "games", games)
        advance, close = bar.advance, bar.stop
    on_look = None
    if test and not as_json:

        def on_look(estimate) -> None:
            err.print(
                f"SPRT after {estimate.pairs:,} pairs: LLR {test.llr(estimate):+.3f}"
                f" (bounds {test.lower:+.3f}, {test.upper:+.3f})",
                highlight=False,
            )

    try:
        result = run_duel(
            rule_set,
            entrant_a,
            entrant_b,
            games,
            seed,
            _duel_jobs(jobs, games),
            exact,
            progress=advance,
            until_decided=threshold if until_decided else None,
            sprt=test,
            on_look=on_look,
            request=door,
        )
    finally:
        if close:
            close()
    if as_json:
        data = _with_term(result.to_dict(), term)
        _print_json({**data, "other_term": other_term.to_dict()} if other_term else data)
        return
    views.duel(result)


def _sprt(text: str, alpha: float | None, beta: float | None):
    """The SPRT that --sprt P0,P1 with --alpha and --beta (5% each when not given) asks for;
    each option's own problem is blamed on that option."""
    from hogbench.errors import UsageError
    from hogbench.stats import Sprt

    alpha = Sprt.alpha if alpha is None else alpha  # the test's defaults
    beta = Sprt.beta if beta is None else beta
    for option, value in (("--alpha", alpha), ("--beta", beta)):
        if not 0 < value < 0.5:
            raise UsageError(f"{option} is an error rate above 0 and below 0.5, got {value:g}")
    try:
        p0, p1 = (float(x) for x in text.split(","))
    except ValueError:
        raise UsageError(
            f"--sprt takes two win rates P0,P1 such as 0.5,0.55, got {text!r}"
        ) from None
    if not 0 <= p0 < p1 <= 1:
        raise UsageError(
            f"--sprt P0,P1 needs 0 <= P0 < P1 <= 1 (the win rate to reject, then the one to"
            f" accept), got {text!r}"
        )
    return Sprt(p0, p1, alpha, beta)


#: Below this many games a duel runs in one process: starting workers costs more than it saves.
PARALLEL_FROM_GAMES = 4_000_000


def _duel_jobs(jobs: int | None, games: int) -> int:
    """--jobs, or by default one worker for a duel that one process plays faster alone."""
    if jobs is None and games < PARALLEL_FROM_GAMES:
        return 1
    return _jobs(jobs)


@app.command("rules")
def list_rules(as_json: JsonOpt = False) -> None:
    """The rule sets, their options and one line on each rule."""
    from hogbench.rules import registry

    described = [cls.describe() for cls in registry().values()]
    if as_json:
        _print_json(described)
    else:
        views.rules_list(described)


@app.command()
def check(
    file: Annotated[str, typer.Argument(help="The strategy file, or file.py:name.")],
    rules: FileRulesOpt = None,
    option: OptionOpt = None,
    goal: GoalOpt = None,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            help="Seconds to import and answer every state (default: 10; Pig 20, Big Pig 45).",
        ),
    ] = None,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Does a submission obey the contest rules? Exit code 0 when it does, 1 when not."""
    door = _door(require_sandbox, no_sandbox, allow_import)
    from hogbench.check import check_file

    rule_set, term = _file_rules(file, rules, goal, option, door, show=False)
    report = check_file(file, rule_set, time_limit, term=term, request=door)
    if as_json:
        _print_json(report.to_dict())
    else:
        views.lines(report.lines)  # the submission's own text: no markup
    if not report.valid:
        raise typer.Exit(1)


@experiment_app.command("max-scoring-num-rolls")
def max_scoring_num_rolls(
    rules: RulesOpt = DEFAULT_RULES,
    dice: Annotated[
        Literal["six", "four"], typer.Option("--dice", case_sensitive=False, help="The dice.")
    ] = "six",
    games: Annotated[int, typer.Option("-n", "--trials", help="Trials per number of dice.")] = 1000,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Average turn score for 1 to 10 dice, beside the exact expectation."""
    from hogbench.errors import UsageError
    from hogbench.experiments import turn_score_experiment

    sides = {"six": 6, "four": 4, "6": 6, "4": 4}.get(dice)
    if sides is None:
        raise UsageError(f"--dice takes six or four, got {dice!r}")
    if games < 1:
        raise UsageError(f"-n must be at least 1, got {games}")
    rule_set = _rules(rules, None, None)
    result = turn_score_experiment(rule_set, sides, games, DEFAULT_SEED if seed is None else seed)
    if as_json:
        _print_json(result.to_dict())
    else:
        views.turn_scores(result)


@experiment_app.command("win-rate")
def win_rate(
    strategy: Annotated[str, typer.Argument(help="The strategy to measure.")],
    baseline: BaselineOpt = "",
    games: Annotated[
        int, typer.Option("-n", "--games", help="Games in all, half in each seating.")
    ] = 2000,
    rules: RulesOpt = DEFAULT_RULES,
    option: OptionOpt = None,
    goal: GoalOpt = None,
    seed: SeedOpt = None,
    exact: Annotated[bool, typer.Option("--exact", help="Exact average win rate.")] = False,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The course's average_win_rate: STRATEGY against a baseline, both seatings."""
    door = _door(require_sandbox, no_sandbox, allow_import)
    from hogbench.duel import run_duel
    from hogbench.errors import UsageError
    from hogbench.loading import load_entrant

    if not exact and games < 1:
        raise UsageError(f"-n must be at least 1, got {games}")
    rule_set = _rules(rules, goal, option)
    a = load_entrant(strategy, rule_set, request=door)
    b = load_entrant(baseline or rule_set.baseline, rule_set, request=door)
    seed = None if exact else (DEFAULT_SEED if seed is None else seed)
    result = run_duel(rule_set, a, b, games, seed, 1, exact)
    if as_json:
        _print_json({"average_win_rate": result.total.win_rate, **result.to_dict()})
    else:
        views.win_rate(result)


@experiment_app.command("test-strat")
def test_strat(
    file: Annotated[str, typer.Argument(help="Your Greed strategy file (myStrategy).")],
    games: Annotated[
        int | None,
        typer.Option(
            "-n",
            "--games",
            help="Monte Carlo games per match, half in each seating, as the course's"
            " testStrat(myStrategy, 10000) plays (default: exact win rates).",
        ),
    ] = None,
    seed: SeedOpt = None,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The Greed course's testStrat: your strategy against each of the ten bundled test
    strategies (strategies/greed/, weakest first), and the seed's 30-second rule."""
    door = _door(require_sandbox, no_sandbox, allow_import)
    from hogbench.check import check_file
    from hogbench.errors import UsageError
    from hogbench.experiments import test_strat as run_test_strat

    exact = games is None
    if not exact and games < 1:
        raise UsageError(f"-n must be at least 1, got {games}")
    rule_set = _rules("greed", None, None)
    report = check_file(file, rule_set, request=door)
    if not report.valid:
        if as_json:
            _print_json(report.to_dict())
        else:
            views.lines(report.lines)
        raise typer.Exit(1)
    seed = None if exact else (DEFAULT_SEED if seed is None else seed)
    result = run_test_strat(rule_set, file, games or 0, seed, exact, report.seconds, request=door)
    if as_json:
        _print_json(result.to_dict())
    else:
        views.test_strat(result)


@experiment_app.command("sweep")
def sweep(
    strategy: Annotated[str, typer.Argument(help="A built-in, e.g. bacon_strategy:num_rolls=6.")],
    param: Annotated[str, typer.Option("--param", help="The parameter to vary.")] = "cutoff",
    low: Annotated[int, typer.Option("--from", help="First value.")] = 0,
    high: Annotated[int, typer.Option("--to", help="Last value.")] = 12,
    baseline: BaselineOpt = "",
    games: Annotated[
        int | None,
        typer.Option("-n", "--games", help="Monte Carlo games per value (default: exact)."),
    ] = None,
    rules: RulesOpt = DEFAULT_RULES,
    option: OptionOpt = None,
    goal: GoalOpt = None,
    seed: SeedOpt = None,
    png: Annotated[str | None, typer.Option("--png", help="Also plot to this PNG file.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Average win rate against a baseline for each value of one parameter (e.g. cutoffs)."""
    from hogbench.errors import UsageError
    from hogbench.experiments import sweep as run_sweep

    if high < low:
        raise UsageError(f"--to ({high}) is below --from ({low})")
    if games is not None and games < 1:
        raise UsageError(f"-n must be at least 1, got {games}")
    if png:
        from hogbench.plots import require

        require()
        _output_file(png, "--png")
    rule_set = _rules(rules, goal, option)
    seed = DEFAULT_SEED if seed is None else seed
    values = list(range(low, high + 1))
    result = run_sweep(
        rule_set, strategy, param, values, baseline or rule_set.baseline, games, seed
    )
    if png:
        from hogbench.plots import sweep_png

        sweep_png(result, png)
    if as_json:
        _print_json(result.to_dict())
    else:
        views.sweep(result)


def _deciders(rule_set, entrants, stack):
    from hogbench.pairs import player_of
    from hogbench.simulate import decider

    return [decider(rule_set, player_of(e, rule_set), stack) for e in entrants]


@app.command()
def watch(
    a: Annotated[str, typer.Argument(help="Player 0 (moves first).")],
    b: Annotated[str, typer.Argument(help="Player 1 (default: the baseline).")] = "",
    rules: FileRulesOpt = None,
    option: OptionOpt = None,
    goal: GoalOpt = None,
    seed: SeedOpt = None,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """One game turn by turn: dice, the rules that fired, scores and commentary."""
    door = _door(require_sandbox, no_sandbox, allow_import)
    from contextlib import ExitStack

    from hogbench.loading import load_for_one_game
    from hogbench.watch import Transcript, play_game

    rule_set, term = _file_rules(_first_file(a, b), rules, goal, option, door, not as_json)
    entrants = [
        load_for_one_game(a, rule_set, request=door),
        load_for_one_game(b or rule_set.baseline, rule_set, request=door),
    ]
    names = [e.name for e in entrants]
    if names[0] == names[1]:
        names = [f"{n} (player {i})" for i, n in enumerate(names)]
    seed = random.randrange(2**32) if seed is None else seed
    with ExitStack() as stack:
        turns = list(play_game(rule_set, _deciders(rule_set, entrants, stack), seed))
    game = Transcript(rule_set.key, seed, names, turns)
    if as_json:
        _print_json(_with_term(game.to_dict(), term))
    else:
        views.transcript(game, rule_set)


@app.command()
def play(
    opponent: Annotated[str, typer.Argument(help="The strategy to play against.")] = "",
    rules: FileRulesOpt = None,
    option: OptionOpt = None,
    goal: GoalOpt = None,
    seed: SeedOpt = None,
    first: Annotated[
        Literal["me", "them"] | None,
        typer.Option(
            "--first",
            case_sensitive=False,
            help="Who moves first (default: as the rules say, else ask).",
        ),
    ] = None,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
) -> None:
    """Play a game against a strategy in the terminal (Ctrl-D to stop)."""
    door = _door(require_sandbox, no_sandbox, allow_import)
    from contextlib import ExitStack

    from hogbench.errors import IllegalChoice, UsageError
    from hogbench.loading import load_for_one_game
    from hogbench.watch import play_game

    rule_set, _ = _file_rules(_first_file(opponent), rules, goal, option, door, True)
    bot = load_for_one_game(opponent or rule_set.baseline, rule_set, request=door)
    seed = random.randrange(2**32) if seed is None else seed
    try:
        if first is None and rule_set.person_moves_first:
            first = "me"
            out.print(
                f"You go first, as the rules of {rule_set.name} say (--first them to go second).",
                highlight=False,
            )
        while first is None:
            answer = _ask("Do you want to go first? [y/n] ").strip().lower()
            if answer in ("y", "yes", "n", "no"):
                first = "me" if answer.startswith("y") else "them"
            else:
                out.print("please answer y or n", highlight=False)
        if first not in ("me", "them"):
            raise UsageError(f"--first takes me or them, got {first!r}")

        def person(state: int) -> int:
            score, theirs = rule_set.scores(state)
            out.print(f"[dim]{rule_set.describe_state(state)}[/]", highlight=False)
            while True:
                try:
                    choice = rule_set.parse_choice(_ask(f"Your move ({rule_set.choice_help}): "))
                except IllegalChoice as exc:
                    problem = str(exc).replace("returned ", "", 1)  # said of strategies
                    out.print(f"[red]{escape(problem)}[/] — try again", highlight=False)
                    continue
                refused = rule_set.refusal(state, choice)
                if refused is None:
                    return choice
                out.print(f"[red]{escape(refused)}[/] — try again", highlight=False)

        with ExitStack() as stack:
            (bot_decide,) = _deciders(rule_set, [bot], stack)
            deciders = (person, bot_decide) if first == "me" else (bot_decide, person)
            names = ["You", bot.name] if first == "me" else [bot.name, "You"]
            for turn in play_game(rule_set, deciders, seed):
                views.turn(turn, names, rule_set)
    except (EOFError, KeyboardInterrupt):
        out.print("\nbye")


def _ask(prompt: str) -> str:
    out.print(prompt, end="", highlight=False, markup=False)
    return input()


@app.command()
def tournament(
    source: Annotated[
        list[str],
        typer.Argument(help="A tournament .toml, a folder of submissions, or strategies/globs."),
    ],
    rules: Annotated[
        RuleName | None, typer.Option("--rules", "-r", case_sensitive=False, help="Rule set.")
    ] = None,
    option: OptionOpt = None,
    goal: GoalOpt = None,
    mode: Annotated[
        Literal["exact", "mc"] | None,
        typer.Option(*_SETTING["mode"].flags, case_sensitive=False, help=_SETTING["mode"].cli_help),
    ] = None,
    games: Annotated[
        int | None, typer.Option(*_SETTING["games"].flags, help=_SETTING["games"].cli_help)
    ] = None,
    seed: Annotated[
        int | None, typer.Option(*_SETTING["seed"].flags, help=_SETTING["seed"].cli_help)
    ] = None,
    threshold: Annotated[
        float | None,
        typer.Option(*_SETTING["threshold"].flags, help=_SETTING["threshold"].cli_help),
    ] = None,
    store: Annotated[
        str | None, typer.Option(*_SETTING["store"].flags, help=_SETTING["store"].cli_help)
    ] = None,
    out_dir: Annotated[
        str | None, typer.Option(*_SETTING["out"].flags, help=_SETTING["out"].cli_help)
    ] = None,
    name: Annotated[
        str | None, typer.Option(*_SETTING["name"].flags, help=_SETTING["name"].cli_help)
    ] = None,
    jobs: JobsOpt = None,
    backend: Annotated[
        Literal["local", "dask"],
        typer.Option("--backend", case_sensitive=False, help="Where pairs run."),
    ] = "local",
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Cluster address, e.g. tcp://host:8786.")
    ] = None,
    batch_size: Annotated[
        int | None, typer.Option("--batch-size", help="Pairs per task (default: automatic).")
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(*_SETTING["time_limit"].flags, help=_SETTING["time_limit"].cli_help),
    ] = None,
    pair_seconds: Annotated[
        float | None,
        typer.Option(*_SETTING["pair_seconds"].flags, help=_SETTING["pair_seconds"].cli_help),
    ] = None,
    live_budget: Annotated[
        float | None,
        typer.Option(*_SETTING["live_budget"].flags, help=_SETTING["live_budget"].cli_help),
    ] = None,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
    allow_live: AllowLiveOpt = False,
    sprt: Annotated[
        str | None, typer.Option(*_SETTING["sprt"].flags, help=_SETTING["sprt"].cli_help)
    ] = None,
    roster: Annotated[
        str | None, typer.Option(*_SETTING["roster"].flags, help=_SETTING["roster"].cli_help)
    ] = None,
    matrix: Annotated[
        Literal["rate", "wlt"],
        typer.Option(
            "--matrix", case_sensitive=False, help="The matrix as win rates, or wins/losses/ties."
        ),
    ] = "rate",
    as_json: JsonOpt = False,
) -> None:
    """Round robin: every pair in both seatings, standings, matrix; resumable."""
    door = _door(require_sandbox, no_sandbox, allow_import)
    from pathlib import Path

    from hogbench import results
    from hogbench import tournament as tm
    from hogbench.report import files, terminal
    from hogbench.rules import parse_options

    t = tm.load_source(
        source,
        rules=rules,
        goal=goal,
        options=parse_options(option) if option else None,
        mode=mode,
        games=games,
        seed=seed,
        threshold=threshold,
        store=Path(store) if store else None,
        out=Path(out_dir) if out_dir else None,
        name=name,
        time_limit=time_limit,
        allow_imports=list(door.allow_imports) or None,
        allow_live=allow_live or None,
        pair_seconds=pair_seconds,
        live_budget=live_budget,
        no_sandbox=no_sandbox or None,
        require_sandbox=require_sandbox or None,
        sprt=sprt,
        roster=Path(roster) if roster else None,
    )
    progress = views.PairProgress(err)
    students = None
    if t.roster is not None:  # a bad roster is said before any work
        from hogbench import roster as rs

        students = rs.read(t.roster)
        rs.check(students, t.entrants)
    # The run's one sandbox request: the command line's options merged with the tournament
    # file's sandbox settings (the two contradicting each other is refused), passed down whole.
    request = type(door).of(_door(t.require_sandbox, t.no_sandbox), **tm.sandbox_settings(t))
    with _resumable(t):  # Ctrl-C: one line saying the store keeps what was done
        # Regret (a best response per table) is in the JSON and the files, not the terminal's
        # tables: solved only for a view that shows it (Fall 2019's take seconds each), in the
        # workers that played the pairs.
        shown = as_json or t.out is not None
        budget = results.BEST_RESPONSE_SECONDS if shown else 0.0
        result = tm.run(
            t,
            _jobs(jobs),
            backend,
            scheduler,
            batch_size,
            progress,
            request=request,
            best_response_seconds=budget,
        )
        model = results.build(result, budget, progress=progress)
        if students is not None:
            model = rs.apply(model, students, result)
        if as_json:  # the document results.json holds
            _print_json(model.to_dict())
        else:
            terminal.print_report(out, terminal.console_report(model, t.out, out.width, matrix))
        pairs = "pair" if result.computed == 1 else "pairs"
        err.print(
            f"{result.computed} {pairs} computed in {result.seconds:.1f} s,"
            f" {result.stored} from the store ({escape(str(t.store or tm.default_store(t)))})",
            highlight=False,
            soft_wrap=True,
        )
        if t.out is not None:
            paths = files.write_reports(model, t.out)
            shown = escape(", ".join(map(str, paths)))
            err.print(f"reports: {shown}", highlight=False, soft_wrap=True)


@app.command()
def gauntlet(
    strategy: Annotated[str, typer.Argument(help="The strategy to test.")],
    opponents: Annotated[
        list[str] | None, typer.Argument(help="More opponents (an unquoted glob lands here).")
    ] = None,
    against: Annotated[
        list[str] | None, typer.Option("--against", "-a", help="Opponents: files, globs, specs.")
    ] = None,
    rules: FileRulesOpt = None,
    option: OptionOpt = None,
    goal: GoalOpt = None,
    games: Annotated[
        int, typer.Option("-n", "--games", help="Monte Carlo games for live pairs.")
    ] = 10_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed for Monte Carlo pairs.")] = 0,
    threshold: Annotated[
        float, typer.Option("--threshold", help="Win rate that counts as beating.")
    ] = DEFAULT_THRESHOLD,
    jobs: JobsOpt = None,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
    allow_live: AllowLiveOpt = False,
    sprt: Annotated[
        str | None,
        typer.Option(
            "--sprt", metavar="P0,P1", help="Live pairs stop by an SPRT of win rate P0 against P1."
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """One strategy against a field: win rate against each, and whether it beats it."""
    door = _door(require_sandbox, no_sandbox, allow_import)
    from hogbench import tournament as tm
    from hogbench.errors import UsageError
    from hogbench.report import files, terminal

    field = [*(against or []), *(opponents or [])]
    if not field:
        raise UsageError("give opponents with --against (files, globs or built-in specs)")
    if games < 1:
        raise UsageError(f"-n must be at least 1, got {games}")
    rule_set, term = _file_rules(_first_file(strategy), rules, goal, option, door, not as_json)
    progress = None if as_json else views.PairProgress(err)
    test = None
    if sprt is not None:
        try:
            test = tm.parse_sprt(sprt)
        except UsageError as exc:
            raise UsageError(f"--sprt: {exc}") from None
    me, rows = tm.gauntlet(
        rule_set, strategy, field, threshold, games, seed, _jobs(jobs), progress, allow_live,
        test, request=door,
    )  # fmt: skip
    if as_json:
        _print_json(_with_term(files.gauntlet_data(me, rows, threshold), term))
        return
    terminal.print_report(out, terminal.gauntlet_report(me, rows, threshold))


@app.command()
def new(
    file: Annotated[str, typer.Argument(help="The file to write, e.g. my_hog.py.")],
    rules: RulesOpt = DEFAULT_RULES,
    force: Annotated[bool, typer.Option("--force", help="Replace the file if it exists.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Write a starter strategy file for a rule set (the contest's blank template for
    hog-contest, TEAM_NAME included)."""
    from hogbench.starter import write_starter

    rule_set = _rules(rules, None, None)
    path = write_starter(rule_set, file, overwrite=force)
    function = rule_set.strategy_names[0]
    if as_json:
        _print_json({"file": str(path), "rules": rule_set.name, "function": function})
        return
    out.print(
        f"wrote {escape(str(path))}: {function}({', '.join(rule_set.strategy_args)}) for"
        f" {rule_set.name}; try `hogbench check --rules {rule_set.name} {escape(str(path))}`",
        highlight=False,
        soft_wrap=True,
    )


@app.command()
def solve(
    rules: RulesOpt = DEFAULT_RULES,
    option: OptionOpt = None,
    goal: GoalOpt = None,
    against: Annotated[
        str | None, typer.Option("--against", "-a", help="Best response to this strategy.")
    ] = None,
    export: Annotated[
        str | None, typer.Option("--export", help="Write the strategy to this .py file.")
    ] = None,
    team: Annotated[str | None, typer.Option("--team", help="TEAM_NAME in the file.")] = None,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Optimal play (both players optimal), or the best response to a strategy, exactly."""
    from hogbench import solve as sv
    from hogbench.loading import load_entrant

    door = _door(require_sandbox, no_sandbox, allow_import)
    _output_file(export, "--export")
    rule_set = _rules(rules, goal, option)
    opponent = load_entrant(against, rule_set, request=door) if against else None
    with err.status(f"solving {rule_set.key} exactly…"):
        result = sv.solve_rules(rule_set, opponent)
    path = str(sv.export(result, export, team)) if export else None
    if as_json:
        _print_json(result.to_dict(path))
    else:
        views.solved(result, path)


@app.command()
def analyze(
    strategy: Annotated[str, typer.Argument(help="The strategy to analyse.")],
    against: Annotated[
        str | None, typer.Option("--against", "-a", help="Opponent (default: optimal play).")
    ] = None,
    rules: FileRulesOpt = None,
    option: OptionOpt = None,
    goal: GoalOpt = None,
    top: Annotated[int, typer.Option("--top", help="How many states to list.")] = 15,
    by: Annotated[
        Literal["expected", "loss"],
        typer.Option("--by", case_sensitive=False, help="How to rank states."),
    ] = "expected",
    png: HeatmapOpt = None,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Where a strategy gives up win probability, against the best choice at each state."""
    door = _door(require_sandbox, no_sandbox, allow_import)
    from hogbench import plots
    from hogbench import solve as sv
    from hogbench.errors import UsageError

    if top < 0:
        raise UsageError(f"--top must be at least 0, got {top}")
    if png:
        plots.require()
        _output_file(png, "--png")
    rule_set, term = _file_rules(_first_file(strategy), rules, goal, option, door, not as_json)
    from hogbench.loading import load_entrant

    mine = load_entrant(strategy, rule_set, request=door)
    theirs = load_entrant(against, rule_set, request=door) if against else None
    with err.status("solving and comparing, state by state…"):
        result = sv.analyze(rule_set, mine, theirs)
    worst = sv.worst_states(result, top, by)
    if png:
        expected, largest = sv.loss_by_observation(result)
        plots.loss_png(
            rule_set, expected, largest, png,
            f"{result.a.name} vs {result.b_name}: win probability given up ({rule_set.key})",
        )  # fmt: skip
    if as_json:
        _print_json(_with_term(result.to_dict(worst, png), term))
    else:
        views.analysis(result, worst, by, png)


@app.command()
def show(
    strategy: Annotated[str, typer.Argument(help="The strategy to draw.")],
    rules: RulesOpt = DEFAULT_RULES,
    option: OptionOpt = None,
    goal: GoalOpt = None,
    step: Annotated[
        int | None,
        typer.Option("--step", min=1, help="Show every STEP-th score (default: to fit)."),
    ] = None,
    slice_index: Annotated[
        int, typer.Option("--slice", help="Value of a third flag argument (Greed's last).")
    ] = 0,
    png: HeatmapOpt = None,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A strategy's decision table as a coloured grid: own score down, opponent score across."""
    door = _door(require_sandbox, no_sandbox, allow_import)
    from hogbench import plots
    from hogbench.errors import UsageError
    from hogbench.loading import load_entrant

    if png:
        plots.require()
        _output_file(png, "--png")
    rule_set = _rules(rules, goal, option)
    entrant = load_entrant(strategy, rule_set, request=door)
    if entrant.table is None:
        raise UsageError(f"{entrant.name} is not a decision table: {entrant.live_reason}")
    if len(rule_set.obs_shape) < 3 and slice_index:
        raise UsageError(f"--slice: {rule_set.name} strategies take no third argument")
    if len(rule_set.obs_shape) >= 3 and not 0 <= slice_index < rule_set.obs_shape[2]:
        top = rule_set.obs_shape[2] - 1
        raise UsageError(f"--slice must be 0 to {top} for {rule_set.name}, got {slice_index}")
    view = plots.table_view(rule_set, entrant.table.choices, slice_index)
    if png:
        plots.decision_png(rule_set, view, png, f"{entrant.name} · {rule_set.key}: {view.title}")
    if as_json:
        _print_json({"rules": rule_set.key, "strategy": entrant.name, **view.to_dict(), "png": png})
    else:
        views.table_view(entrant.name, rule_set, view, step, png)


@app.command()
def gui(
    strategies: Annotated[
        list[str] | None, typer.Argument(help="Strategy files the pages may play and explore.")
    ] = None,
    rules: RulesOpt = DEFAULT_RULES,
    option: OptionOpt = None,
    goal: GoalOpt = None,
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="Port (default: a free one).")
    ] = 0,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Print the address; do not open a browser.")
    ] = False,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
) -> None:
    """Play, watch, explore and duel in the browser: a local app on 127.0.0.1 (Ctrl-C stops)."""
    door = _door(require_sandbox, no_sandbox, allow_import)
    import sys

    from hogbench import gui as web

    web.require()
    from hogbench.gui.figures import Library
    from hogbench.loading import load_entrant
    from hogbench.rules import parse_options

    rule_set = _rules(rules, goal, option)
    files = tuple(strategies or ())
    for spec in files:  # each file through the door now: a bad one is refused before serving
        load_entrant(spec, rule_set, request=door)
    library = Library(rule_set.name, goal, files, door, parse_options(option))

    def ready(address: str) -> None:
        out.print(f"hogbench gui: {address}", highlight=False, soft_wrap=True)
        err.print("(this address holds the access token; Ctrl-C stops)", highlight=False)
        # Only where there is a screen: on a server, webbrowser would start a text browser.
        screen = sys.platform in ("darwin", "win32") or any(
            os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY")
        )
        if screen and not no_browser:
            import webbrowser

            try:
                webbrowser.open(address)
            except Exception:  # no browser here: the address is printed
                pass

    try:
        web.serve(library, web.new_token(), ready, port)
    except KeyboardInterrupt:
        pass


@cache_app.command("info")
def cache_info(as_json: JsonOpt = False) -> None:
    """Where the cache is, its size by kind, and its cap ($HOGBENCH_CACHE_MAX_MB)."""
    from hogbench import cache

    data = cache.info()
    if as_json:
        _print_json(data)
    else:
        views.cache_info(data)


@cache_app.command("clear")
def cache_clear(as_json: JsonOpt = False) -> None:
    """Remove every cached entry; later runs rebuild what they need."""
    from hogbench import cache

    freed = cache.clear()
    if as_json:
        _print_json(freed)
    else:
        views.cache_cleared(freed)


if __name__ == "__main__":
    main()
