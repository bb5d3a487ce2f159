"""What the terminal shows: each result rendered with Rich. No parsing, no computing.

Text from outside (a file, a TEAM_NAME, an exception, the user) is always escaped before it
reaches Rich, so it prints as written and never as markup.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from hogbench.entrants import clean_name

if TYPE_CHECKING:
    from hogbench.duel import DuelResult
    from hogbench.experiments import StratTest, Sweep, TurnScoreExperiment
    from hogbench.plots import View
    from hogbench.rules.base import RuleSet
    from hogbench.solve import Analysis, Solved, StateLoss
    from hogbench.watch import Transcript, Turn

# Piped output is not cut at 80 columns, mid-name; ":x:" in a spec stays ":x:", not an emoji.
out = Console(soft_wrap=True, emoji=False)
err = Console(stderr=True, soft_wrap=True, emoji=False)


def pct(p: float) -> str:
    return f"{100 * p:.4f}%"


def duration(seconds: float) -> str:
    """Milliseconds below a second, seconds above: 'exact, 21 ms', '3.4 s'."""
    return f"{1000 * seconds:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


def megabytes(n: int) -> str:
    return f"{n / 2**20:,.1f} MB"


class PairProgress:
    """A progress bar on stderr: items done, items per second, time elapsed and remaining, and
    what is slow right now (the entrant being loaded, the slowest pair so far)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.progress: Any = None
        self.began = 0.0

    def start(self, label: str, total: int) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn(label),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[note]}", markup=False),
            console=self.console,
            transient=True,
        )
        self.task = self.progress.add_task(label, total=total, rate="", note="")
        self.began = time.perf_counter()
        self.progress.start()

    def advance(self, n: int) -> None:
        self.progress.advance(self.task, n)
        done = self.progress.tasks[0].completed
        elapsed = time.perf_counter() - self.began
        if elapsed > 0:
            self.progress.update(self.task, rate=f"{done / elapsed:,.1f}/s")

    def note(self, text: str) -> None:
        if self.progress is not None:
            self.progress.update(self.task, note=text[:60])

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None


def rules_list(described: list[dict]) -> None:
    for item in described:
        default = " [dim](default)[/]" if item["default"] else ""
        head = escape(f"{item['title']}  strategy{item['strategy']}")
        out.print(f"[bold]{item['name']}[/]{default}: {head}")
        for rule, line in item["rules"].items():
            out.print(f"  • [cyan]{escape(rule)}[/]: {escape(line)}")
        for key, opt in item["options"].items():
            said = escape(f"{opt['default']}: {opt['help']}")
            out.print(f"  option [green]{key}[/]={said}")


def lines(text_lines: list[str]) -> None:
    """Lines that hold a submission's own text: no markup, no highlighting."""
    for line in text_lines:
        out.print(line, markup=False, highlight=False, soft_wrap=True)


def duel(r: DuelResult) -> None:
    # Views shorten a TEAM_NAME (the JSON keeps it whole).
    title = escape(f"{clean_name(r.a.name)} vs {clean_name(r.b.name)} · {r.rules.key}")
    table = Table(title=title, title_style="bold")
    seatings = (("A first", r.first), ("A second", r.second), ("total", r.total))
    ties = r.has_ties
    if r.exact:
        table.add_column("seating")
        for col in ("A wins", "A loses", *(["tie"] if ties else []), "win rate"):
            table.add_column(col, justify="right")
        for label, seat in seatings:
            row = [pct(seat.win), pct(seat.loss), *([pct(seat.tie)] if ties else [])]
            table.add_row(
                "average" if label == "total" else label,
                *row,
                pct(seat.win_rate),
                style="bold" if label == "total" else None,
            )
        out.print(table)
        said = ["win rate counts a tie as half a win"] if ties else []
        if r.never_ends is not None:
            endless = " / ".join(pct(x) for x in r.never_ends)
            said.append(f"a game that never ends is a tie (A first / second: {endless})")
        kept = " (kept from an earlier run of this pair)" if r.remembered else ""
        out.print(f"exact, {duration(r.seconds)}{kept}" + "".join(f"; {x}" for x in said))
        _duel_footer(r)
        return
    for col in ("seating", "games", "wins", "losses", *(["ties"] if ties else [])):
        table.add_column(col, justify="left" if col == "seating" else "right")
    for col in ("win rate", "95% interval"):
        table.add_column(col, justify="right")
    from hogbench.duel import wilson

    for label, seat in seatings:
        if label == "total":
            low, high = r.interval  # paired: the pair is the unit of sampling
        else:
            low, high = wilson(seat.wins + seat.ties / 2, seat.games)
        table.add_row(
            label,
            f"{seat.games:,}",
            f"{seat.wins:,}",
            f"{seat.losses:,}",
            *([f"{seat.ties:,}"] if ties else []),
            pct(seat.win_rate),
            f"{pct(low)} – {pct(high)}",
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
        out.print(f"{verdict} {pct(r.threshold)}", highlight=False)
    if r.sprt is not None:
        s = r.sprt
        said = {"H1": f"accepts P1 = {s['p1']:g}", "H0": f"accepts P0 = {s['p0']:g}"}
        out.print(
            f"SPRT {said.get(s['verdict'], s['verdict'])}: LLR {s['llr']:+.3f}"
            f" (bounds {s['lower']:+.3f}, {s['upper']:+.3f})",
            highlight=False,
        )
    out.print(
        f"seed {r.seed} · {r.games_per_second:,.0f} games/s · {duration(r.seconds)}",
        highlight=False,
    )
    _duel_footer(r)
    for e in (r.a, r.b):
        if e.live_reason:
            out.print(
                f"[yellow]{escape(f'{e.name} played live (not a table): {e.live_reason}')}[/]"
            )


def _duel_footer(r: DuelResult) -> None:
    """Elo, likelihood of superiority, and the symmetry of a strategy against itself."""
    elo = r.elo_interval
    if r.exact:
        how = "exact"
    elif elo is not None:
        how = f"95% interval {_elo(elo[0])} – {_elo(elo[1])}"
    out.print(
        f"Elo difference {_elo(r.elo)} ({how}) · likelihood of superiority"
        f" {pct(r.likelihood_of_superiority)}",
        highlight=False,
    )
    if r.symmetry_note:
        out.print(r.symmetry_note, highlight=False)


def _elo(x: float) -> str:
    if abs(x) == float("inf"):
        return "+∞" if x > 0 else "−∞"
    return "0.0" if abs(x) < 0.05 else f"{x:+.1f}"


def turn_scores(experiment: TurnScoreExperiment) -> None:
    e, best = experiment, experiment.best
    table = Table(title=f"Average turn score · {e.rules} · {e.dice}-sided dice")
    for col in ("dice", "average", "95% interval", "exact"):
        table.add_column(col, justify="right")
    for r in e.rows:
        table.add_row(
            str(r.num_rolls),
            f"{r.mean:.3f}",
            f"{r.ci_low:.3f} – {r.ci_high:.3f}",
            f"{r.exact:.4f}",
            style="bold green" if r.num_rolls == best else None,
        )
    out.print(table)
    out.print(f"max_scoring_num_rolls: [bold]{best}[/] (seed {e.seed}, {e.trials} trials each)")


def win_rate(result: DuelResult) -> None:
    if result.interval is None:
        how = "exact"
    else:
        low, high = result.interval
        how = (
            f"95% interval {low:.6f} – {high:.6f} over {result.paired.pairs:,} game pairs,"
            f" seed {result.seed}"
        )
    out.print(
        f"average_win_rate({escape(result.a.name)}, baseline={escape(result.b.name)}) ="
        f" [bold]{result.total.win_rate:.6f}[/] ({how})",
        highlight=False,
    )


def test_strat(t: StratTest) -> None:
    """One row per test strategy, as the course's testStrat prints a match each."""
    from hogbench.experiments import TEST_STRAT_SECONDS, beats

    first = t.matches[0]
    how = "exact" if first.exact else f"{first.total.games:,} games each, seed {first.seed}"
    table = Table(title=escape(f"{t.strategy} against the Greed test strategies · {how}"))
    for col in ("test strategy", "wins", "losses", "ties", "win rate", "beats it"):
        table.add_column(col, justify="left" if col == "test strategy" else "right")
    for m in t.matches:
        said = {True: "yes", False: "no", None: "? (undecided)"}[beats(m)]
        total = m.total
        if m.exact:
            counts = [pct(total.win), pct(total.loss), pct(total.tie)]
        else:
            counts = [f"{total.wins:,}", f"{total.losses:,}", f"{total.ties:,}"]
        name = m.b.spec.path.stem if m.b.spec.path is not None else m.b.name
        table.add_row(escape(name), *counts, pct(total.win_rate), said)
    out.print(table)
    out.print(f"beats {t.beaten} of {len(t.matches)} test strategies", highlight=False)
    estimate = t.estimated_seconds
    if estimate is not None:
        verdict = "within" if t.within_time else "[bold red]over[/]"
        out.print(
            f"time: the course's testStrat(myStrategy, 10000) calls it about {t.calls:,.0f}"
            f" times, about {estimate:.1f} s at the {t.seconds_per_call * 1e6:.1f} µs a call it"
            f" took here: {verdict} the seed's {TEST_STRAT_SECONDS:g}-second rule",
            highlight=False,
        )


def sweep(s: Sweep) -> None:
    best = s.best
    table = Table(title=escape(f"{s.strategy} by {s.param} vs {s.baseline} · {s.rules}"))
    columns = [s.param, "A first", "A second", "average win rate"]
    if not s.exact:
        columns.append("95% interval (pairs)")
    for col in columns:
        table.add_column(col, justify="right")
    for p in s.points:
        interval = [] if s.exact else [f"{pct(p.ci_low)} – {pct(p.ci_high)}"]
        table.add_row(
            str(p.value),
            pct(p.first),
            pct(p.second),
            pct(p.win_rate),
            *interval,
            style="bold green" if p is best else None,
        )
    out.print(table)
    said = f"best {escape(s.param)}: [bold]{best.value}[/]"
    if not s.exact:
        close = [str(p.value) for p in s.points if p is not best and p.ci_high >= best.ci_low]
        if close:
            said += f"; not told apart from {escape(s.param)} {', '.join(close)} at this -n"
        said += f" (seed {s.seed})"
    out.print(said, highlight=False)


def turn(t: Turn, names: list[str], rules: RuleSet) -> None:
    """One line a turn: who, what they chose, the dice, what the rules did, the scores."""
    step = t.step
    dice = f": {' '.join(map(str, step.dice))}" if step.dice else ""
    what = escape("; ".join(step.events))
    action = escape(rules.describe_choice(t.choice))
    out.print(
        f"[bold]{escape(names[t.player])}[/] {action}{dice} → {what}   "
        f"[dim]{escape(names[0])} {t.scores[0]} – {t.scores[1]} {escape(names[1])}[/]",
        highlight=False,
    )
    for line in t.commentary:
        out.print(f"   [italic cyan]{escape(line)}[/]", highlight=False)
    if t.over:
        winner = None if t.winner is None else names[t.winner]
        verdict = (
            "tie"
            if winner is None
            else ("You win" if winner == "You" else f"{escape(winner)} wins")
        )
        out.print(f"[bold green]{verdict}[/] {t.scores[0]} – {t.scores[1]}")


def transcript(game: Transcript, rules: RuleSet) -> None:
    names = game.players
    out.print(
        f"[bold]{escape(names[0])}[/] vs [bold]{escape(names[1])}[/] · {game.rules} · seed {game.seed}"
    )
    for t in game.turns:
        turn(t, names, rules)


def solved(result: Solved, export: str | None) -> None:
    rules, versus = result.rules, result.against_name
    what = f"best response to {escape(versus)}" if result.against else "optimal play, both players"
    out.print(f"[bold]{rules.key}[/]: {what} · solved in {result.seconds:.2f} s")
    mover = "it" if result.against else "the first mover"
    wins = f"{mover} wins {pct(result.first)} moving first, {pct(result.second)} second"
    if result.exact_state:
        out.print(f"  {wins}")
        if rules.turn_cap() is not None:
            out.print("  a game that never ends counts as a tie, half a win", highlight=False)
    else:
        played = "best-response" if result.against else "optimal"
        out.print(
            f"  [yellow]The state holds {rules.hidden_state}, which a strategy does not"
            f" see.[/]\n"
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
        table.add_row(escape(name), pct(seats.first), pct(seats.second), pct(seats.average))
    out.print(table)
    if export:
        out.print(f"strategy written to {escape(export)}")


def analysis(result: Analysis, worst: list[StateLoss], by: str, png: str | None) -> None:
    rules = result.rules
    out.print(
        f"[bold]{escape(result.a.name)}[/] against {escape(result.b_name)} · {rules.key}:"
        f" average win rate {pct(result.a_values.average)}; the best response reaches"
        f" {pct(result.best_average)}, so {escape(result.a.name)} gives up"
        f" [bold]{pct(result.total)}[/] ({result.seconds:.2f} s)"
    )
    table = Table(title=f"where it gives up most (by {by})", title_style="bold")
    for col in ("state", "chose", "best", "loss there", "reached", "expected loss"):
        table.add_column(col, justify="left" if col in ("state", "chose", "best") else "right")
    for w in worst:
        table.add_row(
            w.where,
            rules.describe_choice(w.choice),
            rules.describe_choice(w.best),
            pct(w.loss),
            pct(w.reach),
            pct(w.expected),
        )
    out.print(table)
    if png:
        out.print(f"heatmap written to {escape(str(png))}")


def table_view(name: str, rules: RuleSet, view: View, step: int | None, png: str | None) -> None:
    """A decision table as a coloured grid, every STEP-th score (None: to fit the terminal)."""
    from hogbench.errors import UsageError
    from hogbench.plots import terminal_grid

    if step is None:
        step = max(1, -(-view.grid.shape[1] // max(out.width - 6, 10)))
    if step < 1:
        raise UsageError(f"--step must be at least 1, got {step}")
    out.print(f"[bold]{escape(name)}[/] · {rules.key}: {escape(view.title)}")
    out.print(terminal_grid(rules, view, step))
    if png:
        out.print(f"heatmap written to {escape(str(png))}")


def cache_info(data: dict) -> None:
    out.print(f"cache: {escape(str(data['path']))}", highlight=False)
    for kind, entry in sorted(data["kinds"].items()):
        out.print(f"  {kind}: {entry['entries']:,} entries, {megabytes(entry['bytes'])}")
    out.print(
        f"total {megabytes(data['bytes'])} of {megabytes(data['cap_bytes'])}"
        " (least recently used entries go first past the cap)",
        highlight=False,
    )


def cache_cleared(freed: dict) -> None:
    out.print(f"removed {freed['entries']:,} entries, {megabytes(freed['bytes'])}")
