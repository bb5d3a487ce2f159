"""Tournament reports: the terminal view (Rich), and files (CSV, JSON; the HTML page is
``hogbench.leaderboard``'s).

Team names come from submissions, so they are never markup: Rich gets them as Text, the page
escapes them, and CSV cells that a spreadsheet would run as formulas are neutralised.
"""

from __future__ import annotations

import csv
import json
import math
import platform
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from hogbench import stats
from hogbench.names import csv_cell
from hogbench.pairs import decision_z
from hogbench.stats import UNDECIDED
from hogbench.tournament.field import Slot
from hogbench.tournament.gauntlets import GauntletRow
from hogbench.tournament.round_robin import TournamentResult
from hogbench.tournament.store import PairResult

#: Above this many entrants the terminal gets a pointer to the files instead of the matrix.
MATRIX_LIMIT = 30
#: At most this many Monte Carlo pairs are listed with their W/L/T in the terminal.
MC_LIST_LIMIT = 30


# -- terminal ----------------------------------------------------------------------------------
def pct(p: float, digits: int = 2) -> str:
    return "—" if p is None or math.isnan(p) else f"{100 * p:.{digits}f}%"


def _rating(r: float) -> str:
    return "—" if math.isnan(r) else f"{r:.0f}"


def _pairs_text(result: TournamentResult, index: int) -> str:
    exact_pairs, mc_pairs = result.modes(index)
    parts = ([f"{exact_pairs} exact"] if exact_pairs else []) + (
        [f"{mc_pairs} MC"] if mc_pairs else []
    )
    return ", ".join(parts) or "none"


def _cell_style(rate: float, threshold: float) -> str:
    """Green when the row entrant takes the match point, red when the column one does."""
    if math.isnan(rate):
        return "dim"
    if rate > threshold:
        return "bold green" if rate >= 0.6 else "green"
    if rate < 1 - threshold:
        return "bold red" if rate <= 0.4 else "red"
    return "yellow"


def standings_table(result: TournamentResult) -> Table:
    hanging = any(s.undecided for s in result.standings)
    noisy = any(s.rating_error > 0 for s in result.standings)
    table = Table()
    columns = [("rank", "right"), ("entrant", "left"), ("points", "right")]
    if hanging:
        columns.append(("undecided", "right"))
    columns += [("win rate", "right"), ("rating", "right"), ("pairs", "left")]
    for col, justify in columns:
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for s in result.standings:
        slot = result.active[s.index]
        name = Text(s.name)
        if slot.entrant is not None and not slot.entrant.tableable:
            name.append(" (live)", style="yellow")
        rating = _rating(s.rating) + (f" ± {s.rating_error:.0f}" if noisy else "")
        row = [str(s.rank), name, str(s.points)]
        if hanging:
            row.append(str(s.undecided) if s.undecided else "")
        row += [pct(s.win_rate), rating, _pairs_text(result, s.index)]
        table.add_row(*row)
    return table


def matrix_table(result: TournamentResult) -> Table:
    """Row entrant's win rate against each column entrant, in standings order.

    Exact cells are the rate; Monte Carlo cells the rate ± the half-width of its paired 95%
    interval, and a "?" when the pair is still undecided at its cap.
    """
    order = [s.index for s in result.standings]
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 0, 0, 1))
    table.add_column("", justify="left", no_wrap=True)
    for pos in range(1, len(order) + 1):
        table.add_column(str(pos), justify="right", no_wrap=True)
    for pos, i in enumerate(order, 1):
        cells: list[Text] = []
        for j in order:
            r = result.results.get((i, j))
            if i == j or r is None:
                cells.append(Text("·", style="dim"))
                continue
            cells.append(
                Text(
                    _cell_text(result, r),
                    style=_cell_style(r.win_rate, result.tournament.threshold),
                )
            )
        table.add_row(Text(f"{pos:>2} {result.active[i].name}"), *cells)
    return table


def _cell_text(result: TournamentResult, r: PairResult) -> str:
    if r.exact:
        return f"{100 * r.win_rate:.1f}"
    low, high = r.interval
    mark = "?" if _decision(result, r) == UNDECIDED else ""
    return f"{100 * r.win_rate:.1f}±{100 * (high - low) / 2:.1f}{mark}"


def _decision(result: TournamentResult, r: PairResult) -> str:
    return r.decision(result.tournament.threshold, decision_z(r.key.games))


def mc_report(result: TournamentResult, limit: int = MC_LIST_LIMIT) -> list[RenderableType]:
    """The Monte Carlo pairs: wins, losses and ties (of the first-named entrant), the paired
    interval and whether the pair is decided."""
    mc = [(i, j, r) for i, j, r in _pairs(result) if not r.exact]
    if not mc:
        return []
    table = Table()
    for col in ("pair", "W/L/T", "win rate", "95% interval", "decided"):
        table.add_column(col, justify="left" if col in ("pair", "decided") else "right")
    for i, j, r in mc[:limit]:
        w, losses, ties = r.totals
        low, high = r.interval
        table.add_row(
            Text(f"{result.active[i].name} vs {result.active[j].name}"),
            f"{w}/{losses}/{ties}",
            pct(r.win_rate),
            f"{pct(low)} – {pct(high)}",
            _decision(result, r),
        )
    note = (
        f"W/L/T of the first named; each pair played until decided, at most"
        f" {mc[0][2].key.games:,} games"
    )
    if len(mc) > limit:
        note += f"; {len(mc) - limit} more in matrix.csv and results.json (--out DIR)"
    return [Text("Monte Carlo pairs", style="bold"), table, Text(note, style="dim")]


def _pairs(result: TournamentResult) -> list[tuple[int, int, PairResult]]:
    """Each played pair once, in standings order (i ranked above j)."""
    order = [s.index for s in result.standings]
    return [
        (i, j, result.results[i, j])
        for a, i in enumerate(order)
        for j in order[a + 1 :]
        if (i, j) in result.results
    ]


def console_report(result: TournamentResult, out: Path | None = None) -> list[RenderableType]:
    """What the tournament command prints: standings, matrix, Monte Carlo pairs, problems."""
    t = result.tournament
    # Titles are lines of their own: a table's title wraps at the table's width.
    parts: list[RenderableType] = [
        Text(f"{t.name} · {t.rules.key} · {t.mode}", style="bold"),
        standings_table(result),
    ]
    n = len(result.active)
    if 2 <= n <= MATRIX_LIMIT:
        parts.append(
            Text(
                "win rate of the row against the column (%; ± Monte Carlo, with its 95%"
                " interval; ? undecided)",
                "bold",
            )
        )
        parts.append(matrix_table(result))
    elif n > MATRIX_LIMIT:
        where = f"{out / 'matrix.csv'} and {out / 'index.html'}" if out else "--out DIR"
        parts.append(Text(f"{n}×{n} matrix: too large to show here, see {where}"))
    parts += mc_report(result)
    copies = _copies(result)
    if copies:
        parts.append(Text("identical decision tables (copies, or the same idea)", style="bold"))
        parts += [Text(" = ".join(group)) for group in copies]
    if result.disqualified:
        parts.append(Text("disqualified", style="bold red"))
        table = Table()
        table.add_column("entrant", no_wrap=True)
        table.add_column("reason")
        for slot in result.disqualified:
            table.add_row(Text(slot.name), Text(slot.disqualified or ""))
        parts.append(table)
    for line in result.failures:
        parts.append(Text(f"not played: {line}", style="yellow"))
    parts.append(
        Text(
            f"match point: win rate above {pct(t.threshold, 4)}, ties count as losses;"
            f" rating: Bradley–Terry on Elo's scale (400 = 10:1 odds, average 1500)"
            + (", ± its standard error from Monte Carlo noise" if _noisy(result) else ""),
            style="dim",
        )
    )
    hanging = sum(s.undecided for s in result.standings) // 2
    if hanging:
        scored = "score by their estimate" if t.score_undecided else "score for nobody"
        parts.append(
            Text(
                f"{hanging} Monte Carlo pairs are undecided at their cap of {t.games:,} games:"
                f" they {scored} (score_undecided in the tournament file)",
                style="yellow",
            )
        )
    return parts


def _copies(result: TournamentResult) -> list[list[str]]:
    """Groups of entrants that share one decision table, each group once."""
    seen: set[str] = set()
    groups = []
    for slot in result.active:
        if slot.same_as and slot.name not in seen:
            group = [slot.name, *slot.same_as]
            seen.update(group)
            groups.append(group)
    return groups


def _noisy(result: TournamentResult) -> bool:
    return any(s.rating_error > 0 for s in result.standings)


def print_report(console: Console, parts: list[RenderableType]) -> None:
    """Print at full width, so a wide matrix is not squeezed into wrapped cells."""
    width = console.width
    console.width = max(width, *(_measure(console, p) for p in parts))
    try:
        console.print(Group(*parts), highlight=False)
    finally:
        console.width = width


def _measure(console: Console, renderable: RenderableType) -> int:
    from rich.measure import Measurement

    return Measurement.get(console, console.options.update(width=10_000), renderable).maximum


# -- files -------------------------------------------------------------------------------------
#: Seconds spent at most on best responses (one exact solve per opponent table) for the regret
#: shown on the page; opponents past it go without, and the page says so.
BEST_RESPONSE_SECONDS = 60.0
#: Digits kept in results.json: exact rates to 1e-9, Monte Carlo ones to 1e-4 (well below their
#: standard error, which is at least 1e-3 at the games cap of a class tournament).
EXACT_DIGITS = 9
MC_DIGITS = 4
#: The columns of results.json's pair rows. a and b are positions in "standings" (0 = first).
EXACT_COLUMNS = ["a", "b", "first", "second", "win_rate"]
MC_COLUMNS = ["a", "b", "win_rate", "ci_low", "ci_high", "decision", "joint"]


def versions() -> dict[str, str]:
    import numba
    import numpy

    import hogbench

    return {
        "hogbench": hogbench.__version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
    }


def _write_csv(path: Path, rows: list[list[Any]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        for row in rows:
            w.writerow([csv_cell(v) for v in row])


@dataclass
class Board:
    """A tournament in standings order (position p is standings[p]), as the files show it."""

    names: list[str]
    rates: np.ndarray  # [p, q]: p's win rate against q, NaN without a result
    scored: np.ndarray  # [p, q]: p took the match point from q
    exact: np.ndarray  # [p, q]: the result is exact
    undecided: np.ndarray  # [p, q]: a Monte Carlo pair still undecided at its cap
    low: np.ndarray  # [p, q]: a Monte Carlo rate's paired 95% interval (NaN where exact)
    high: np.ndarray
    decisions: dict[tuple[int, int], str]  # (p, q): ABOVE, BELOW or UNDECIDED (Monte Carlo)
    best: np.ndarray  # [q]: the best response's win rate against q (NaN: not computed)
    best_note: str  # what the best responses are, or why some are missing
    threshold: float

    @property
    def regret(self) -> np.ndarray:
        """[p, q]: the win rate p leaves against q compared with the best response to q
        (exact pairs only, NaN elsewhere)."""
        with np.errstate(invalid="ignore"):
            gap = np.maximum(self.best[None, :] - self.rates, 0.0)
        return np.where(self.exact, gap, np.nan)


def board(result: TournamentResult, budget: float = BEST_RESPONSE_SECONDS) -> Board:
    """The BOARD of RESULT; best responses within BUDGET seconds (0: none)."""
    t = result.tournament
    order = [s.index for s in result.standings]
    n = len(order)
    rates = np.full((n, n), np.nan)
    scored = np.zeros((n, n), bool)
    exact = np.zeros((n, n), bool)
    undecided = np.zeros((n, n), bool)
    low, high = np.full((n, n), np.nan), np.full((n, n), np.nan)
    decisions: dict[tuple[int, int], str] = {}
    position = {i: p for p, i in enumerate(order)}
    for (i, j), r in result.results.items():
        p, q = position[i], position[j]
        exact[p, q] = r.exact
        if r.exact:
            rates[p, q] = r.win_rate
            scored[p, q] = r.win_rate > t.threshold
            continue
        # The paired estimate once per cell: at 300 entrants there are 89,700 of them.
        estimate = r.paired
        rates[p, q] = estimate.win_rate
        low[p, q], high[p, q] = estimate.interval()
        decided = stats.decision(estimate, t.threshold, decision_z(r.key.games))
        decisions[p, q] = decided
        undecided[p, q] = decided == UNDECIDED
        scored[p, q] = rates[p, q] > t.threshold and (decided != UNDECIDED or t.score_undecided)
    # Only opponents met in an exact pair need a best response (regret is for exact pairs).
    best, note = best_responses(result, order, budget, exact.any(axis=0))
    names = [s.name for s in result.standings]
    return Board(
        names, rates, scored, exact, undecided, low, high, decisions, best, note, t.threshold
    )


_BEST: dict[tuple[str, str], float] = {}  # (rule set key, table hash) -> best response's rate


def best_responses(
    result: TournamentResult,
    order: list[int],
    budget: float = BEST_RESPONSE_SECONDS,
    needed: np.ndarray | None = None,
) -> tuple[np.ndarray, str]:
    """The best response's average win rate against each entrant in ORDER where NEEDED (NaN
    where not computed), and a note on what these numbers are.

    The best response to a decision table is found exactly (``exact.solve``, a few milliseconds
    for Hog); live strategies have none. Where the game's state holds more than a strategy sees,
    the solver sees it all, so the figure is an upper bound on what a strategy could reach.
    """
    from hogbench import exact
    from hogbench.solve import sees_whole_state

    rules = result.tournament.rules
    best = np.full(len(order), np.nan)
    tables = [result.active[i].entrant for i in order]
    if needed is not None and not needed.any():
        return best, "not computed: no pair is exact (regret needs exact win rates)"
    wanted = [
        e is not None and e.tableable and (needed is None or bool(needed[p]))
        for p, e in enumerate(tables)
    ]
    if not any(wanted):
        return best, "not computed: no entrant here is a decision table at hand"
    began = time.perf_counter()
    late = 0
    for p, entrant in enumerate(tables):
        if not wanted[p]:
            continue
        key = (rules.key, entrant.key)  # type: ignore[union-attr]
        if key not in _BEST:
            if time.perf_counter() - began > budget:
                late += 1
                continue
            try:
                solved = exact.solve(rules, entrant.table.choices)  # type: ignore[union-attr]
            except Exception:  # a rule set the solver cannot do: that entrant goes without
                late += 1
                continue
            _BEST[key] = (solved.first + solved.second) / 2
        best[p] = _BEST[key]
    done = int(np.sum(~np.isnan(best)))
    note = f"exact best response to each of {done} opponents"
    if late or done < len(order):
        note += f" ({len(order) - done} without one: live strategies"
        note += f", or past the {budget:.0f} s budget)" if late else ")"
    if not sees_whole_state(rules):
        note += f"; it sees {rules.hidden_state}, so it is an upper bound"
    return best, note


def result_data(result: TournamentResult, the_board: Board | None = None) -> dict[str, Any]:
    """Everything about a tournament as JSON-ready data (results.json; what the page shows).

    Pairs are rows (see EXACT_COLUMNS and MC_COLUMNS) whose a and b are positions in the
    standings, so that 300 entrants fit in a few megabytes. A Monte Carlo row keeps the joint
    counts of its game pairs, ``joint[3 * r1 + r2]``: pairs in which a's game moving first ended
    r1 and its game moving second r2 (0 won, 1 lost, 2 tied); wins, losses, ties and each
    seating's rate follow from them. Its seed is ``pair_seed`` of the two entrants' keys.

    Each standing has ``regret``: the win rate it gives up against the exact best response to
    each opponent, averaged over its exact pairs (``regret_max`` the largest, against the entrant
    at position ``regret_max_against``), and ``best_response_win_rate``: how well the best
    response does against it. ``best_response`` says how they were computed, or why not.
    """
    t = result.tournament
    b = the_board if the_board is not None else board(result)
    regret = b.regret
    standings = []
    for p, s in enumerate(result.standings):
        slot = result.active[s.index]
        e = slot.entrant
        exact_pairs, mc_pairs = result.modes(s.index)
        row = regret[p]
        counted = ~np.isnan(row)
        worst = int(np.nanargmax(row)) if counted.any() else None
        standings.append(
            {
                "rank": s.rank,
                "name": slot.name,
                "spec": slot.spec,
                "key": e.key if e is not None else None,
                "live": e is not None and not e.tableable,
                "same_table_as": slot.same_as,
                "points": s.points,
                "win_rate": _num(s.win_rate),
                "rating": _num(s.rating),
                "rating_error": _num(s.rating_error),
                "undecided": s.undecided,
                "exact_pairs": exact_pairs,
                "mc_pairs": mc_pairs,
                "best_response_win_rate": _num(b.best[p]),
                "regret": _num(float(np.nanmean(row))) if worst is not None else None,
                "regret_max": _num(float(row[worst])) if worst is not None else None,
                "regret_max_against": worst,
            }
        )
    exact_rows, mc_rows = [], []
    position = {i: p for p, i in enumerate(s.index for s in result.standings)}
    for i, j, r in _pairs(result):
        a, bb = position[i], position[j]
        if r.exact:
            exact_rows.append(
                [a, bb, *(round(x, EXACT_DIGITS) for x in (r.first, r.second, r.win_rate))]
            )
        else:
            numbers = (b.rates[a, bb], b.low[a, bb], b.high[a, bb])
            mc_rows.append(
                [a, bb, *(round(float(x), MC_DIGITS) for x in numbers)]
                + [b.decisions[a, bb], list(r.counts)]
            )
    return {
        "tournament": t.name,
        "rules": t.rules.name,
        "rules_key": t.rules.key,
        "goal": t.rules.goal,
        "options": t.rules.options,
        "mode": t.mode,
        "seed": t.seed,
        "games": t.games,
        "threshold": t.threshold,
        "score_undecided": t.score_undecided,
        "versions": versions(),
        "best_response": b.best_note,
        "standings": standings,
        "disqualified": [
            {"name": s.name, "spec": s.spec, "reason": s.disqualified} for s in result.disqualified
        ],
        "not_played": result.failures,
        "pairs": {
            "exact_columns": EXACT_COLUMNS,
            "mc_columns": MC_COLUMNS,
            "exact": exact_rows,
            "mc": mc_rows,
        },
    }


def _num(x: float | None) -> float | None:
    return None if x is None or math.isnan(x) else float(x)


def write_reports(result: TournamentResult, out: Path) -> list[Path]:
    """standings.csv, matrix.csv (win rates), pairs.csv (each pair: rate, interval, W/L/T),
    results.json and index.html in OUT, and with matplotlib the pictures the page shows
    (matrix.png, standings.png); returns their paths."""
    from hogbench import leaderboard, plots

    out.mkdir(parents=True, exist_ok=True)
    the_board = board(result)
    data = result_data(result, the_board)
    paths = [out / n for n in ("standings.csv", "matrix.csv", "pairs.csv", "results.json")]
    head = ["rank", "entrant", "points", "win_rate", "rating", "exact_pairs", "mc_pairs"]
    head += ["spec", "key", "status", "rating_error", "undecided", "regret"]
    rows: list[list[Any]] = [head]
    for s in data["standings"]:
        rows.append(
            [s["rank"], s["name"], s["points"], s["win_rate"], s["rating"], s["exact_pairs"]]
            + [s["mc_pairs"], s["spec"], s["key"], "live" if s["live"] else "ok"]
            + [s["rating_error"], s["undecided"], s["regret"]]
        )
    for d in data["disqualified"]:
        rows.append(
            ["", d["name"], "", "", "", "", "", d["spec"], "", f"disqualified: {d['reason']}"]
            + ["", "", ""]
        )
    _write_csv(paths[0], rows)
    # A cell is the row's win rate; intervals and wins/losses/ties are in pairs.csv.
    names = the_board.names
    matrix: list[list[Any]] = [["entrant", *names]]
    for name, line in zip(names, the_board.rates, strict=True):
        matrix.append([name] + ["" if math.isnan(x) else float(x) for x in line])
    _write_csv(paths[1], matrix)
    columns = ["a", "b", "mode", "win_rate", "ci_low", "ci_high", "decision", "pairs"]
    columns += ["wins", "losses", "ties", "games"]
    pair_rows: list[list[Any]] = [columns]
    position = {i: p for p, i in enumerate(s.index for s in result.standings)}
    b = the_board
    for i, j, r in _pairs(result):
        p, q = position[i], position[j]
        row: list[Any] = [names[p], names[q], r.key.mode, float(b.rates[p, q])]
        if r.exact:
            row += ["", "", "above" if b.scored[p, q] else "below", "", "", "", "", ""]
        else:
            row += [float(b.low[p, q]), float(b.high[p, q]), b.decisions[p, q], sum(r.counts)]
            row += [*r.totals, r.key.games]
        pair_rows.append(row)
    _write_csv(paths[2], pair_rows)
    paths[3].write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    pictures: dict[str, Any] = {}
    if plots.available():
        box = plots.matrix_png(the_board, out / "matrix.png", result.tournament.name)
        plots.standings_png(data, out / "standings.png", result.tournament.name)
        pictures = {"matrix": "matrix.png", "standings": "standings.png", "matrix_box": box}
        paths += [out / "matrix.png", out / "standings.png"]
    page = out / "index.html"
    page.write_text(leaderboard.html_page(data, the_board, pictures), encoding="utf-8")
    paths.insert(3, page)
    return paths


# -- gauntlet ----------------------------------------------------------------------------------
def gauntlet_data(me: Slot, rows: list[GauntletRow], threshold: float) -> dict[str, Any]:
    return {
        "strategy": me.name,
        "spec": me.spec,
        "threshold": threshold,
        "beats": sum(r.beats for r in rows),
        "opponents": [
            {
                "name": r.opponent.name,
                "spec": r.opponent.spec,
                "mode": r.result.key.mode if r.result else None,
                "win_rate": r.result.win_rate if r.result else None,
                "first": r.result.first if r.result else None,
                "second": r.result.second if r.result else None,
                "wlt": list(r.result.totals) if r.result and not r.result.exact else None,
                "ci": list(r.result.interval) if r.result and not r.result.exact else None,
                "pairs": r.result.paired.pairs if r.result and not r.result.exact else None,
                "decided": r.decision,
                "beats": r.beats,
                "problem": r.problem,
            }
            for r in rows
        ],
    }


def gauntlet_report(me: Slot, rows: list[GauntletRow], threshold: float) -> list[RenderableType]:
    """The gauntlet as the terminal shows it: one line per opponent, then what went wrong."""
    table = Table()
    for col in ("opponent", "mode", "first", "second", "win rate", "95% interval", "beats"):
        table.add_column(col, justify="left" if col in ("opponent", "mode") else "right")
    problems: list[RenderableType] = []
    for r in rows:
        if r.result is None:
            table.add_row(Text(r.opponent.name), "—", "", "", "", "", Text("not played", "red"))
            problem = r.problem or ""
            if r.opponent.spec.split(":")[0] not in problem:  # errors name their file already
                problem = f"{r.opponent.name}: {problem}"
            problems.append(Text(problem, style="red"))
            continue
        res = r.result
        mode = "exact" if res.exact else "MC " + "/".join(map(str, res.totals))
        interval = "" if res.exact else "{} – {}".format(*map(pct, res.interval))
        if r.decision == UNDECIDED:
            verdict = Text("undecided", "yellow")
        else:
            verdict = Text("yes", "green") if r.beats else Text("no", "red")
        table.add_row(
            Text(r.opponent.name),
            mode,
            pct(res.first),
            pct(res.second),
            pct(res.win_rate),
            interval,
            verdict,
        )
    played = [r for r in rows if r.result is not None]
    beaten = sum(r.beats for r in rows)
    summary = f"beats {beaten} of {len(played)} (win rate above {pct(threshold, 4)})"
    undecided = sum(r.decision == UNDECIDED for r in rows)
    if undecided:
        summary += f"; {undecided} undecided at the cap (raise -n to decide them)"
    title = Text(f"{me.name} against the field", style="bold")
    return [title, table, Text(summary, style="bold"), *problems]
