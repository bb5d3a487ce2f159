"""The command line: parse, call, render. No game logic lives here."""

from __future__ import annotations

import json
import os
import random
from typing import Annotated, Any, Literal

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from typer.core import TyperGroup

from hogbench.errors import HogbenchError
from hogbench.rules import names as rule_names


class _Commands(TyperGroup):
    """Report hogbench errors as one line on stderr with their exit code (2 usage, 1 failure)."""

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except HogbenchError as exc:
            if _state["debug"]:
                raise
            err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
            raise typer.Exit(exc.exit_code) from None


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

# Piped output is not cut at 80 columns, mid-name; ":x:" in a spec stays ":x:", not an emoji.
# Text from outside (a file, a TEAM_NAME, an exception, the user) is always escaped before it
# reaches Rich, so it prints as written and never as markup.
out = Console(soft_wrap=True, emoji=False)
err = Console(stderr=True, soft_wrap=True, emoji=False)
_state = {"debug": False}


# -- shared options ----------------------------------------------------------------------------
# Enumerated options are Literal types: --help shows the choices, any case is accepted, and a
# wrong answer is refused with the list.
RuleName = Literal[tuple(rule_names())]  # type: ignore[valid-type]
RulesOpt = Annotated[
    RuleName,
    typer.Option("--rules", "-r", case_sensitive=False, help="Rule set (see `hogbench rules`)."),
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
#: Contest scoring: a match point for an expected win rate above 50.0001%.
DEFAULT_THRESHOLD = 0.500001


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


def main() -> None:
    """The console script's entry point."""
    app()


def _rules(name: str, goal: int | None, options: list[str] | None):
    from hogbench.rules import get_rules, parse_options

    return get_rules(name, goal, **parse_options(options))


def _door(
    require_sandbox: bool = False, no_sandbox: bool = False, allow_import: list[str] | None = None
) -> dict[str, Any]:
    """The sandbox options of a command that loads submitted files."""
    from hogbench.errors import UsageError

    if require_sandbox and no_sandbox:
        raise UsageError("--require-sandbox and --no-sandbox contradict each other")
    return {
        "require_sandbox": require_sandbox,
        "no_sandbox": no_sandbox,
        "allow_imports": tuple(allow_import or ()),
    }


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
    print(json.dumps(data, indent=2, default=str))


def _pct(p: float) -> str:
    return f"{100 * p:.4f}%"


def _progress(total: int, label: str):
    """A progress bar on stderr; returns (advance, close)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    progress = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    )
    task = progress.add_task(label, total=total)
    progress.start()
    return (lambda n: progress.advance(task, n)), progress.stop


# -- commands ----------------------------------------------------------------------------------
@app.command()
def duel(
    a: Annotated[str, typer.Argument(help="Strategy A: file.py, file.py:name or a built-in.")],
    b: Annotated[str, typer.Argument(help="Strategy B (default: the rule set's baseline).")] = "",
    games: GamesOpt = 100_000,
    rules: RulesOpt = "hog-su21",
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
        float, typer.Option("--alpha", help="SPRT: chance of accepting P1 wrongly.")
    ] = 0.05,
    beta: Annotated[
        float, typer.Option("--beta", help="SPRT: chance of accepting P0 wrongly.")
    ] = 0.05,
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

    rule_set = _rules(rules, goal, option)
    if not exact and games < 1:
        raise UsageError(f"-n must be at least 1, got {games}")
    test = _sprt(sprt, alpha, beta) if sprt else None
    if exact and (test or until_decided):
        raise UsageError("--exact needs no --until-decided or --sprt: exact values are decided")
    if test and until_decided:
        raise UsageError("choose one of --until-decided and --sprt")
    if not 0 < threshold < 1:
        raise UsageError(f"--threshold is a win rate between 0 and 1, got {threshold}")
    entrant_a = load_entrant(a, rule_set, **door)
    entrant_b = load_entrant(b or rule_set.baseline, rule_set, **door)
    seed = None if exact else (DEFAULT_SEED if seed is None else seed)
    advance, close = (None, None)
    if not exact and not as_json and games > 200_000:
        advance, close = _progress(games, "games")
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
        )
    finally:
        if close:
            close()
    if as_json:
        _print_json(result.to_dict())
        return
    _render_duel(result)


def _sprt(text: str, alpha: float, beta: float):
    from hogbench.errors import UsageError
    from hogbench.stats import Sprt

    try:
        p0, p1 = (float(x) for x in text.split(","))
        return Sprt(p0, p1, alpha, beta)
    except ValueError as exc:
        detail = str(exc) if "SPRT" in str(exc) or "alpha" in str(exc) else "two win rates"
        raise UsageError(f"--sprt takes P0,P1 such as 0.5,0.55 ({detail}), got {text!r}") from None


#: Below this many games a duel runs in one process: starting workers costs more than it saves.
PARALLEL_FROM_GAMES = 4_000_000


def _duel_jobs(jobs: int | None, games: int) -> int:
    """--jobs, or by default one worker for a duel that one process plays faster alone."""
    if jobs is None and games < PARALLEL_FROM_GAMES:
        return 1
    return _jobs(jobs)


def _render_duel(result) -> None:
    r = result
    title = escape(f"{r.a.name} vs {r.b.name} · {r.rules.key}")
    table = Table(title=title, title_style="bold")
    if r.identical:
        out.print(table.title)
        out.print("identical decision tables: exactly even (50%), nothing to play")
        return
    if r.exact:
        table.add_column("seating")
        table.add_column(escape(f"{r.a.name} wins"), justify="right")
        for label, seat in (("A first", r.first), ("A second", r.second), ("average", r.total)):
            table.add_row(label, _pct(seat.win_rate))
        out.print(table)
        out.print(f"exact, {_duration(r.seconds)}")
        return
    for col in ("seating", "games", "wins", "losses", "ties", "win rate", "95% interval"):
        table.add_column(col, justify="left" if col == "seating" else "right")
    from hogbench.duel import wilson

    for label, seat in (("A first", r.first), ("A second", r.second), ("total", r.total)):
        if label == "total":
            low, high = r.interval  # paired: the pair is the unit of sampling
        else:
            low, high = wilson(seat.wins + seat.ties / 2, seat.games)
        table.add_row(
            label,
            f"{seat.games:,}",
            f"{seat.wins:,}",
            f"{seat.losses:,}",
            f"{seat.ties:,}",
            _pct(seat.win_rate),
            f"{_pct(low)} – {_pct(high)}",
            style="bold" if label == "total" else None,
        )
    out.print(table)
    paired = r.paired
    counts = " / ".join(f"{c:,}" for c in paired.counts)
    out.print(
        f"{paired.pairs:,} game pairs; A scored 0 / ½ / 1 / 1½ / 2 points in {counts} of them"
        " (the total's interval is over pairs)",
        highlight=False,
    )
    if r.decision is not None:
        verdict = {
            "above": "decided: above",
            "below": "decided: below",
            "undecided": "undecided at the cap, around",
        }[r.decision]
        out.print(f"{verdict} {_pct(r.threshold)}", highlight=False)
    if r.sprt is not None:
        s = r.sprt
        said = {"H1": f"accepts P1 = {s['p1']:g}", "H0": f"accepts P0 = {s['p0']:g}"}
        out.print(
            f"SPRT {said.get(s['verdict'], s['verdict'])}: LLR {s['llr']:+.3f}"
            f" (bounds {s['lower']:+.3f}, {s['upper']:+.3f})",
            highlight=False,
        )
    out.print(
        f"seed {r.seed} · {r.games_per_second:,.0f} games/s · {_duration(r.seconds)}",
        highlight=False,
    )
    for e in (r.a, r.b):
        if e.live_reason:
            out.print(
                f"[yellow]{escape(f'{e.name} played live (not a table): {e.live_reason}')}[/]"
            )


def _duration(seconds: float) -> str:
    """Milliseconds below a second, seconds above: 'exact, 21 ms', '3.4 s'."""
    return f"{1000 * seconds:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


@app.command("rules")
def list_rules(as_json: JsonOpt = False) -> None:
    """The rule sets, their options and one line on each rule."""
    from hogbench.rules import DEFAULT_RULES, registry

    data = [
        {
            "name": cls.name,
            "title": cls.title,
            "default": cls.name == DEFAULT_RULES,
            "strategy": f"({', '.join(cls.strategy_args)})",
            "options": {k: {"default": d, "help": h} for k, (d, h) in cls.options_help.items()},
            "rules": dict(cls.rule_lines),
        }
        for cls in registry().values()
    ]
    if as_json:
        _print_json(data)
        return
    for item in data:
        default = " [dim](default)[/]" if item["default"] else ""
        head = escape(f"{item['title']}  strategy{item['strategy']}")
        out.print(f"[bold]{item['name']}[/]{default}: {head}")
        for rule, line in item["rules"].items():
            out.print(f"  • [cyan]{escape(rule)}[/]: {escape(line)}")
        for key, opt in item["options"].items():
            said = escape(f"{opt['default']}: {opt['help']}")
            out.print(f"  option [green]{key}[/]={said}")


@app.command()
def check(
    file: Annotated[str, typer.Argument(help="The strategy file, or file.py:name.")],
    rules: RulesOpt = "hog-su21",
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

    rule_set = _rules(rules, goal, option)
    report = check_file(file, rule_set, time_limit, **door)
    if as_json:
        _print_json(report.to_dict())
    else:
        for line in report.lines:  # the submission's own text: no markup
            out.print(line, markup=False, highlight=False, soft_wrap=True)
    if not report.valid:
        raise typer.Exit(1)


@experiment_app.command("max-scoring-num-rolls")
def max_scoring_num_rolls(
    rules: RulesOpt = "hog-su21",
    dice: Annotated[
        Literal["six", "four"], typer.Option("--dice", case_sensitive=False, help="The dice.")
    ] = "six",
    games: Annotated[int, typer.Option("-n", "--trials", help="Trials per number of dice.")] = 1000,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Average turn score for 1 to 10 dice, beside the exact expectation."""
    from hogbench.errors import UsageError
    from hogbench.experiments import best_num_rolls, turn_scores

    sides = {"six": 6, "four": 4, "6": 6, "4": 4}.get(dice)
    if sides is None:
        raise UsageError(f"--dice takes six or four, got {dice!r}")
    if games < 1:
        raise UsageError(f"-n must be at least 1, got {games}")
    rule_set = _rules(rules, None, None)
    seed = DEFAULT_SEED if seed is None else seed
    rows = turn_scores(rule_set, sides, games, seed)
    best = best_num_rolls(rows)
    if as_json:
        _print_json(
            {
                "rules": rule_set.name,
                "dice": sides,
                "trials": games,
                "seed": seed,
                "max_scoring_num_rolls": best,
                "rows": [r.__dict__ for r in rows],
            }
        )
        return
    table = Table(title=f"Average turn score · {rule_set.name} · {sides}-sided dice")
    for col in ("dice", "average", "95% interval", "exact"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            str(r.num_rolls),
            f"{r.mean:.3f}",
            f"{r.ci_low:.3f} – {r.ci_high:.3f}",
            f"{r.exact:.4f}",
            style="bold green" if r.num_rolls == best else None,
        )
    out.print(table)
    out.print(f"max_scoring_num_rolls: [bold]{best}[/] (seed {seed}, {games} trials each)")


@experiment_app.command("win-rate")
def win_rate(
    strategy: Annotated[str, typer.Argument(help="The strategy to measure.")],
    baseline: Annotated[str, typer.Option("--baseline", help="Opponent.")] = "",
    games: Annotated[
        int, typer.Option("-n", "--games", help="Games in all, half in each seating.")
    ] = 2000,
    rules: RulesOpt = "hog-su21",
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
    a = load_entrant(strategy, rule_set, **door)
    b = load_entrant(baseline or rule_set.baseline, rule_set, **door)
    seed = None if exact else (DEFAULT_SEED if seed is None else seed)
    result = run_duel(rule_set, a, b, games, seed, 1, exact)
    if as_json:
        _print_json({"average_win_rate": result.total.win_rate, **result.to_dict()})
        return
    if result.interval is None:
        how = "identical tables" if result.identical else "exact"
    else:
        low, high = result.interval
        how = (
            f"95% interval {low:.6f} – {high:.6f} over {result.paired.pairs:,} game pairs,"
            f" seed {seed}"
        )
    out.print(
        f"average_win_rate({escape(a.name)}, baseline={escape(b.name)}) ="
        f" [bold]{result.total.win_rate:.6f}[/] ({how})",
        highlight=False,
    )


@experiment_app.command("sweep")
def sweep(
    strategy: Annotated[str, typer.Argument(help="A built-in, e.g. bacon_strategy:num_rolls=6.")],
    param: Annotated[str, typer.Option("--param", help="The parameter to vary.")] = "cutoff",
    low: Annotated[int, typer.Option("--from", help="First value.")] = 0,
    high: Annotated[int, typer.Option("--to", help="Last value.")] = 12,
    baseline: Annotated[str, typer.Option("--baseline", help="Opponent.")] = "",
    games: Annotated[
        int | None,
        typer.Option("-n", "--games", help="Monte Carlo games per value (default: exact)."),
    ] = None,
    rules: RulesOpt = "hog-su21",
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
    points = run_sweep(
        rule_set,
        strategy,
        param,
        list(range(low, high + 1)),
        baseline or rule_set.baseline,
        games,
        seed,
    )
    best = max(points, key=lambda p: p.win_rate)
    if png:
        _plot_sweep(points, strategy, param, png)
    if as_json:
        _print_json(
            {
                "rules": rule_set.key,
                "strategy": strategy,
                "param": param,
                "exact": games is None,
                "seed": None if games is None else seed,
                "best": best.value,
                "points": [p.__dict__ for p in points],
            }
        )
        return
    table = Table(
        title=escape(f"{strategy} by {param} vs {baseline or rule_set.baseline} · {rule_set.key}")
    )
    columns = [param, "A first", "A second", "average win rate"]
    if games is not None:
        columns.append("95% interval (pairs)")
    for col in columns:
        table.add_column(col, justify="right")
    for p in points:
        interval = [] if games is None else [f"{_pct(p.ci_low)} – {_pct(p.ci_high)}"]
        table.add_row(
            str(p.value),
            _pct(p.first),
            _pct(p.second),
            _pct(p.win_rate),
            *interval,
            style="bold green" if p is best else None,
        )
    out.print(table)
    said = f"best {escape(param)}: [bold]{best.value}[/]"
    if games is not None:
        close = [str(p.value) for p in points if p is not best and p.ci_high >= best.ci_low]
        if close:
            said += f"; not told apart from {escape(param)} {', '.join(close)} at this -n"
        said += f" (seed {seed})"
    out.print(said, highlight=False)


def _plot_sweep(points, strategy: str, param: str, path: str) -> None:
    from hogbench.plots import pyplot

    plt = pyplot()
    import matplotlib.ticker

    fig, ax = plt.subplots(figsize=(6, 4))
    values = [p.value for p in points]
    rates = [100 * p.win_rate for p in points]
    if points[0].ci_low is None:
        ax.plot(values, rates, marker="o")
    else:  # Monte Carlo: each point with its paired 95% interval
        below = [r - 100 * p.ci_low for r, p in zip(rates, points, strict=True)]
        above = [100 * p.ci_high - r for r, p in zip(rates, points, strict=True)]
        ax.errorbar(values, rates, yerr=[below, above], marker="o", capsize=3)
    ax.axhline(50, color="grey", linewidth=0.8)
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set(xlabel=param, ylabel="average win rate (%)", title=strategy)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _deciders(rule_set, entrants, stack):
    from hogbench.duel import player
    from hogbench.simulate import decider

    return [decider(rule_set, player(e, rule_set), stack) for e in entrants]


def _render_turn(turn, names: list[str], rule_set) -> None:
    """One line a turn: who, what they chose, the dice, what the rules did, the scores."""
    step = turn.step
    dice = f": {' '.join(map(str, step.dice))}" if step.dice else ""
    what = escape("; ".join(step.events))
    action = escape(rule_set.describe_choice(turn.choice))
    out.print(
        f"[bold]{escape(names[turn.player])}[/] {action}{dice} → {what}   "
        f"[dim]{escape(names[0])} {turn.scores[0]} – {turn.scores[1]} {escape(names[1])}[/]",
        highlight=False,
    )
    for line in turn.commentary:
        out.print(f"   [italic cyan]{escape(line)}[/]", highlight=False)
    if turn.over:
        winner = None if turn.winner is None else names[turn.winner]
        verdict = (
            "tie"
            if winner is None
            else ("You win" if winner == "You" else f"{escape(winner)} wins")
        )
        out.print(f"[bold green]{verdict}[/] {turn.scores[0]} – {turn.scores[1]}")


@app.command()
def watch(
    a: Annotated[str, typer.Argument(help="Player 0 (moves first).")],
    b: Annotated[str, typer.Argument(help="Player 1 (default: the baseline).")] = "",
    rules: RulesOpt = "hog-su21",
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

    from hogbench.loading import load_entrant
    from hogbench.watch import play_game

    rule_set = _rules(rules, goal, option)
    entrants = [
        load_entrant(a, rule_set, **door),
        load_entrant(b or rule_set.baseline, rule_set, **door),
    ]
    names = [e.name for e in entrants]
    if names[0] == names[1]:
        names = [f"{n} (player {i})" for i, n in enumerate(names)]
    seed = random.randrange(2**32) if seed is None else seed
    with ExitStack() as stack:
        turns = list(play_game(rule_set, _deciders(rule_set, entrants, stack), seed))
    if as_json:
        _print_json(
            {
                "rules": rule_set.key,
                "seed": seed,
                "players": names,
                "winner": turns[-1].winner,
                "scores": turns[-1].scores,
                "turns": [
                    {
                        "player": t.player,
                        "choice": t.choice,
                        "dice": t.step.dice,
                        "events": t.step.events,
                        "scores": t.scores,
                        "commentary": t.commentary,
                    }
                    for t in turns
                ],
            }
        )
        return
    out.print(
        f"[bold]{escape(names[0])}[/] vs [bold]{escape(names[1])}[/] · {rule_set.key} · seed {seed}"
    )
    for turn in turns:
        _render_turn(turn, names, rule_set)


@app.command()
def play(
    opponent: Annotated[str, typer.Argument(help="The strategy to play against.")] = "",
    rules: RulesOpt = "hog-su21",
    option: OptionOpt = None,
    goal: GoalOpt = None,
    seed: SeedOpt = None,
    first: Annotated[
        Literal["me", "them"] | None,
        typer.Option("--first", case_sensitive=False, help="Who moves first (default: ask)."),
    ] = None,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
) -> None:
    """Play a game against a strategy in the terminal (Ctrl-D to stop)."""
    door = _door(require_sandbox, no_sandbox, allow_import)
    from contextlib import ExitStack

    from hogbench.errors import IllegalChoice, UsageError
    from hogbench.loading import load_entrant
    from hogbench.watch import play_game

    rule_set = _rules(rules, goal, option)
    bot = load_entrant(opponent or rule_set.baseline, rule_set, **door)
    seed = random.randrange(2**32) if seed is None else seed
    try:
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
                    return rule_set.parse_choice(_ask(f"Your move ({rule_set.choice_help}): "))
                except IllegalChoice as exc:
                    problem = str(exc).replace("returned ", "", 1)  # said of strategies
                    out.print(f"[red]{escape(problem)}[/] — try again", highlight=False)

        with ExitStack() as stack:
            (bot_decide,) = _deciders(rule_set, [bot], stack)
            deciders = (person, bot_decide) if first == "me" else (bot_decide, person)
            names = ["You", bot.name] if first == "me" else [bot.name, "You"]
            for turn in play_game(rule_set, deciders, seed):
                _render_turn(turn, names, rule_set)
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
        typer.Option("--mode", case_sensitive=False, help="Default: exact."),
    ] = None,
    games: Annotated[
        int | None, typer.Option("-n", "--games", help="Monte Carlo games per pair.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed (default 0).")] = None,
    threshold: Annotated[
        float | None, typer.Option("--threshold", help="Win rate for a match point.")
    ] = None,
    store: Annotated[str | None, typer.Option("--store", help="SQLite results file.")] = None,
    out_dir: Annotated[
        str | None, typer.Option("--out", help="Write standings, matrix, JSON and HTML here.")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="Title.")] = None,
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
        typer.Option("--time-limit", help="Seconds a submission may take to answer all states."),
    ] = None,
    pair_seconds: Annotated[
        float | None,
        typer.Option(
            "--pair-seconds", help="Seconds a Monte Carlo pair may play; then it is undecided."
        ),
    ] = None,
    live_budget: Annotated[
        float | None,
        typer.Option(
            "--live-budget",
            help="Seconds a pair with a live strategy may take (default 120); then it is"
            " disqualified.",
        ),
    ] = None,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
    allow_live: AllowLiveOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Round robin: every pair in both seatings, standings, matrix; resumable."""
    door = _door(require_sandbox, no_sandbox, allow_import)
    from pathlib import Path

    from hogbench import report
    from hogbench import tournament as tm
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
        allow_imports=list(door["allow_imports"]) or None,
        allow_live=allow_live or None,
        pair_seconds=pair_seconds,
        live_budget=live_budget,
        no_sandbox=no_sandbox or None,
        require_sandbox=require_sandbox or None,
    )
    progress = report.PairProgress(err)
    result = tm.run(t, _jobs(jobs), backend, scheduler, batch_size, progress)
    if as_json:  # the document results.json holds
        _print_json(report.result_data(result))
    else:
        report.print_report(out, report.console_report(result, t.out))
    pairs = "pair" if result.computed == 1 else "pairs"
    err.print(
        f"{result.computed} {pairs} computed in {result.seconds:.1f} s,"
        f" {result.stored} from the store ({escape(str(t.store or tm.default_store(t)))})",
        highlight=False,
        soft_wrap=True,
    )
    if t.out is not None:
        paths = report.write_reports(result, t.out)
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
    rules: RulesOpt = "hog-su21",
    option: OptionOpt = None,
    goal: GoalOpt = None,
    games: Annotated[
        int, typer.Option("-n", "--games", help="Monte Carlo games for live pairs.")
    ] = 10_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed for Monte Carlo pairs.")] = 0,
    threshold: Annotated[
        float, typer.Option("--threshold", help="Win rate that counts as beating.")
    ] = 0.500001,
    jobs: JobsOpt = None,
    require_sandbox: RequireSandboxOpt = False,
    no_sandbox: NoSandboxOpt = False,
    allow_import: AllowImportOpt = None,
    allow_live: AllowLiveOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """One strategy against a field: win rate against each, and whether it beats it."""
    door = _door(require_sandbox, no_sandbox, allow_import)
    from hogbench import report
    from hogbench import tournament as tm
    from hogbench.errors import UsageError

    field = [*(against or []), *(opponents or [])]
    if not field:
        raise UsageError("give opponents with --against (files, globs or built-in specs)")
    if games < 1:
        raise UsageError(f"-n must be at least 1, got {games}")
    rule_set = _rules(rules, goal, option)
    progress = None if as_json else report.PairProgress(err)
    me, rows = tm.gauntlet(
        rule_set, strategy, field, threshold, games, seed, _jobs(jobs), progress, allow_live, **door
    )
    if as_json:
        _print_json(report.gauntlet_data(me, rows, threshold))
        return
    report.print_report(out, report.gauntlet_report(me, rows, threshold))


@app.command()
def solve(
    rules: RulesOpt = "hog-su21",
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
    opponent = load_entrant(against, rule_set, **door) if against else None
    with err.status(f"solving {rule_set.key} exactly…"):
        result = sv.solve_rules(rule_set, opponent)
    path = sv.export(result, export, team) if export else None
    versus = result.against.name if result.against else "itself"
    data = {
        "rules": rule_set.key,
        "against": result.against.name if result.against else None,
        "sees_whole_state": result.exact_state,
        "first_mover_wins": result.first,
        "second_mover_wins": result.second,
        "strategy_vs": {"name": versus, **_seats(result.vs_self_or_against)},
        "strategy_vs_baseline": {"name": result.baseline.name, **_seats(result.vs_baseline)},
        "seconds": result.seconds,
        "export": str(path) if path else None,
    }
    if as_json:
        _print_json(data)
        return
    what = f"best response to {escape(versus)}" if result.against else "optimal play, both players"
    out.print(f"[bold]{rule_set.key}[/]: {what} · solved in {result.seconds:.2f} s")
    mover = "it" if result.against else "the first mover"
    wins = f"{mover} wins {_pct(result.first)} moving first, {_pct(result.second)} second"
    if result.exact_state:
        out.print(f"  {wins}")
    else:
        hidden = sv.hidden_state_text(rule_set)
        played = "best-response" if result.against else "optimal"
        out.print(
            f"  [yellow]The state holds {hidden}, which a strategy does not see.[/]\n"
            f"  • upper bound, for a player who sees it too: {wins}\n"
            "  • a strategy that sees only its arguments: at each of them the choice best\n"
            "    on average over what it cannot see, weighted by how often"
            f" {played} play gets there:",
            soft_wrap=True,
        )
    table = Table(box=None, padding=(0, 2))
    for col in ("strategy against", "moving first", "moving second", "average"):
        table.add_column(col, justify="left" if col == "strategy against" else "right")
    for name, seats in (
        (versus, result.vs_self_or_against),
        (result.baseline.name, result.vs_baseline),
    ):
        table.add_row(escape(name), _pct(seats.first), _pct(seats.second), _pct(seats.average))
    out.print(table)
    if path:
        out.print(f"strategy written to {escape(str(path))}")


def _seats(values) -> dict:
    return {"first": values.first, "second": values.second, "average": values.average}


@app.command()
def analyze(
    strategy: Annotated[str, typer.Argument(help="The strategy to analyse.")],
    against: Annotated[
        str | None, typer.Option("--against", "-a", help="Opponent (default: optimal play).")
    ] = None,
    rules: RulesOpt = "hog-su21",
    option: OptionOpt = None,
    goal: GoalOpt = None,
    top: Annotated[int, typer.Option("--top", help="How many states to list.")] = 15,
    by: Annotated[
        Literal["expected", "loss"],
        typer.Option("--by", case_sensitive=False, help="How to rank states."),
    ] = "expected",
    png: Annotated[str | None, typer.Option("--png", help="Also a heatmap PNG.")] = None,
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
    rule_set = _rules(rules, goal, option)
    from hogbench.loading import load_entrant

    mine = load_entrant(strategy, rule_set, **door)
    theirs = load_entrant(against, rule_set, **door) if against else None
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
        _print_json(
            {
                "rules": rule_set.key,
                "strategy": result.a.name,
                "against": result.b_name,
                "win_rate": _seats(result.a_values),
                "best_response_win_rate": result.best_average,
                "total_loss": result.total,
                "worst_states": [
                    {**w.__dict__, "expected": w.expected, "choice": w.choice, "best": w.best}
                    for w in worst
                ],
                "png": png,
                "seconds": result.seconds,
            }
        )
        return
    out.print(
        f"[bold]{escape(result.a.name)}[/] against {escape(result.b_name)} · {rule_set.key}:"
        f" average win rate {_pct(result.a_values.average)}; the best response reaches"
        f" {_pct(result.best_average)}, so {escape(result.a.name)} gives up"
        f" [bold]{_pct(result.total)}[/] ({result.seconds:.2f} s)"
    )
    table = Table(title=f"where it gives up most (by {by})", title_style="bold")
    for col in ("state", "chose", "best", "loss there", "reached", "expected loss"):
        table.add_column(col, justify="left" if col in ("state", "chose", "best") else "right")
    for w in worst:
        table.add_row(
            w.where,
            rule_set.describe_choice(w.choice),
            rule_set.describe_choice(w.best),
            _pct(w.loss),
            _pct(w.reach),
            _pct(w.expected),
        )
    out.print(table)
    if png:
        out.print(f"heatmap written to {escape(str(png))}")


@app.command()
def show(
    strategy: Annotated[str, typer.Argument(help="The strategy to draw.")],
    rules: RulesOpt = "hog-su21",
    option: OptionOpt = None,
    goal: GoalOpt = None,
    step: Annotated[
        int | None, typer.Option("--step", help="Show every STEP-th score (default: to fit).")
    ] = None,
    slice_index: Annotated[
        int, typer.Option("--slice", help="Value of a third flag argument (Greed's last).")
    ] = 0,
    png: Annotated[str | None, typer.Option("--png", help="Also a heatmap PNG.")] = None,
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
    entrant = load_entrant(strategy, rule_set, **door)
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
        _print_json(
            {
                "rules": rule_set.key,
                "strategy": entrant.name,
                "view": view.kind,
                "title": view.title,
                "rows": view.y_label,
                "columns": view.x_label,
                "grid": view.grid.tolist(),
                "png": png,
            }
        )
        return
    if step is None:
        step = max(1, -(-view.grid.shape[1] // max(out.width - 6, 10)))
    if step < 1:
        raise UsageError(f"--step must be at least 1, got {step}")
    out.print(f"[bold]{escape(entrant.name)}[/] · {rule_set.key}: {escape(view.title)}")
    out.print(plots.terminal_grid(rule_set, view, step))
    if png:
        out.print(f"heatmap written to {escape(str(png))}")


if __name__ == "__main__":
    main()


@cache_app.command("info")
def cache_info(as_json: JsonOpt = False) -> None:
    """Where the cache is, its size by kind, and its cap ($HOGBENCH_CACHE_MAX_MB)."""
    from hogbench import cache

    data = cache.info()
    if as_json:
        _print_json(data)
        return
    out.print(f"cache: {escape(str(data['path']))}", highlight=False)
    for kind, entry in sorted(data["kinds"].items()):
        out.print(f"  {kind}: {entry['entries']:,} entries, {_megabytes(entry['bytes'])}")
    out.print(
        f"total {_megabytes(data['bytes'])} of {_megabytes(data['cap_bytes'])}"
        " (least recently used entries go first past the cap)",
        highlight=False,
    )


@cache_app.command("clear")
def cache_clear(as_json: JsonOpt = False) -> None:
    """Remove every cached entry; later runs rebuild what they need."""
    from hogbench import cache

    freed = cache.clear()
    if as_json:
        _print_json(freed)
        return
    out.print(f"removed {freed['entries']:,} entries, {_megabytes(freed['bytes'])}")


def _megabytes(n: int) -> str:
    return f"{n / 2**20:,.1f} MB"
