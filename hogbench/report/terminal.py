"""The tournament and the gauntlet in the terminal (Rich), read from ``results.Report``.

Team names come from submissions, so they are never markup: Rich gets them as Text. Names are
shortened to NAME_COLUMN characters here; the files keep them whole.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from hogbench.results import TIE_BREAK, DisqualifiedRecord, EntrantRecord, PairRecord, Report
from hogbench.stats import UNDECIDED
from hogbench.tournament.field import Slot
from hogbench.tournament.gauntlets import GauntletRow

#: At most this many Monte Carlo pairs are listed with their W/L/T in the terminal.
MC_LIST_LIMIT = 30
#: Names in the terminal's tables are cut to this many characters (the files keep them whole).
NAME_COLUMN = 28
#: The matrix's views: win rates, or wins / losses / ties.
MATRIX_VIEWS = ("rate", "wlt")


def pct(p: float | None, digits: int = 2) -> str:
    return "—" if p is None or math.isnan(p) else f"{100 * p:.{digits}f}%"


def short(name: str, width: int = NAME_COLUMN) -> str:
    """NAME cut to WIDTH characters, with an ellipsis when cut."""
    return name if len(name) <= width else name[: width - 1] + "…"


def _rating(r: float | None) -> str:
    return "—" if r is None or math.isnan(r) else f"{r:.0f}"


def rank_text(report: Report, p: int) -> str:
    """The rank, with "=" when it is shared (the tie-break only orders the lines)."""
    e = report.entrants[p]
    shared = any(
        o.rank == e.rank for o in report.entrants[max(0, p - 1) : p + 2] if o.position != p
    )
    return f"{e.rank}=" if shared else str(e.rank)


def record_text(wins: int, losses: int, ties: int) -> str:
    return f"{wins}-{losses}-{ties}"


def _cell_style(rate: float, threshold: float) -> str:
    """Green when the row entrant takes the match point, red when the column one does."""
    if math.isnan(rate):
        return "dim"
    if rate > threshold:
        return "bold green" if rate >= 0.6 else "green"
    if rate < 1 - threshold:
        return "bold red" if rate <= 0.4 else "red"
    return "yellow"


def _logins(entry: EntrantRecord | DisqualifiedRecord) -> str:
    """The roster's logins after an entrant's name, " (bo, cy)"."""
    shown = entry.logins_beside_name
    return f" ({', '.join(shown)})" if shown else ""


#: Below this many columns the standings leave out each entrant's count of pairs (kept in
#: standings.csv) and draw no lines between columns.
WIDE_STANDINGS = 100


def standings_table(report: Report, width: int = 120) -> Table:
    """The standings, a line an entrant, WIDTH columns wide at most: the other columns keep
    their figures whole, and a name is cut to the room they leave (never under 12 characters)."""
    hanging = any(e.undecided for e in report.entrants)
    noisy = any(e.rating_error for e in report.entrants)
    noted = any(e.notes for e in report.entrants)
    wide = width >= WIDE_STANDINGS
    columns = [("rank", "right"), ("entrant", "left"), ("points", "right"), ("W-L-T", "right")]
    if hanging:
        columns.append(("undecided", "right"))
    columns += [("win rate", "right"), ("rating", "right")]
    if wide:
        columns.append(("pairs", "left"))
    rows = []
    for p, e in enumerate(report.entrants):
        name = Text(short(e.name))
        name.append(_logins(e), style="dim")
        if e.live:
            name.append(" (live)", style="yellow")
        if e.notes:
            name.append(" *", style="yellow")
        rating = _rating(e.rating) + (
            f" ± {e.rating_error:.0f}" if noisy and e.rating_error else ""
        )
        row = [rank_text(report, p), name, str(e.points), record_text(e.wins, e.losses, e.ties)]
        if hanging:
            row.append(str(e.undecided) if e.undecided else "")
        row += [pct(e.win_rate), rating]
        if wide:
            kinds = ((e.exact_pairs, "exact"), (e.mc_pairs, "MC"))
            row.append(", ".join(f"{n} {kind}" for n, kind in kinds if n) or "none")
        rows.append(row)
    # Each column but the name's takes its widest cell or heading, a space each side and a
    # rule (the lines between columns, or the spaces that stand for them).
    others = sum(
        max([len(col), *(len(row[k]) for row in rows)]) + 3
        for k, (col, _) in enumerate(columns)
        if col != "entrant"
    )
    room = max(12, width - others - 4)
    table = Table() if wide else Table(box=box.SIMPLE_HEAD)
    for col, justify in columns:
        table.add_column(col, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for row in rows:
        row[1].truncate(room, overflow="ellipsis")
        table.add_row(*row)
    if noted:
        table.caption = "* notes on the file: see below"
    return table


def cell_text(report: Report, p: int, q: int, view: str = "rate") -> str:
    """The matrix cell of row P against column Q, as VIEW shows it ("" without a result)."""
    rate = report.rates[p, q]
    if math.isnan(rate):
        return ""
    mark = "?" if report.undecided[p, q] else ""
    if view == "wlt":
        w, lo, t = report.wins[p, q], report.losses[p, q], report.ties[p, q]
        if report.exact[p, q]:
            if math.isnan(w):  # a game that never ends, not split from a win: counted half
                return f"{100 * rate:.1f}½"
            tie = "<1" if 0 < t < 0.005 else f"{100 * t:.0f}"  # not 0 where a tie can happen
            return f"{100 * w:.0f}/{100 * lo:.0f}/{tie}"
        return f"{int(w)}/{int(lo)}/{int(t)}{mark}"
    if report.exact[p, q]:
        return f"{100 * rate:.1f}"
    half = (report.high[p, q] - report.low[p, q]) / 2
    return f"{100 * rate:.1f}±{100 * half:.1f}{mark}"


def matrix_fit(report: Report, width: int, view: str = "rate") -> int:
    """How many of the top entrants' rows and columns fit in WIDTH characters."""
    n = len(report.entrants)
    cells = [
        len(cell_text(report, p, q, view)) for p in range(min(n, 40)) for q in range(min(n, 40))
    ]
    cell = max([*cells, len(str(n))]) + 1
    label = 4 + min(NAME_COLUMN, max((len(e.name) for e in report.entrants), default=1))
    return max(0, min(n, (width - label - 2) // cell))


def matrix_table(report: Report, shown: int, view: str = "rate") -> Table:
    """The row entrant against each column entrant, for the top SHOWN, in standings order.

    Rates: exact cells are the rate; Monte Carlo cells the rate ± the half-width of its paired
    95% interval, and a "?" when the pair is still undecided. W/L/T: games won, lost and tied
    for Monte Carlo pairs; the win, loss and tie probabilities (%) for exact ones.
    """
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 0, 0, 1))
    table.add_column("", justify="left", no_wrap=True)
    for pos in range(1, shown + 1):
        table.add_column(str(pos), justify="right", no_wrap=True)
    for p in range(shown):
        cells: list[Text] = []
        for q in range(shown):
            text = cell_text(report, p, q, view)
            if p == q or not text:
                cells.append(Text("·", style="dim"))
                continue
            cells.append(Text(text, style=_cell_style(report.rates[p, q], report.threshold)))
        label = Text(f"{p + 1:>2} {short(report.entrants[p].name)}", no_wrap=True)
        table.add_row(label, *cells)
    return table


def mc_report(report: Report, limit: int = MC_LIST_LIMIT, width: int = 120) -> list[RenderableType]:
    """The Monte Carlo pairs: wins, losses and ties (of the first-named entrant), the games
    played, the paired interval, the Elo difference and likelihood of superiority, and whether
    it is decided. Below WIDTH 120 the games and the interval are left to pairs.csv."""
    mc = [r for r in report.pairs if not r.exact]
    if not mc:
        return []
    wide = width >= 120
    columns = ["pair", "W/L/T", "games", "win rate", "95% interval", "Elo", "LOS", "decided"]
    if not wide:
        columns = [c for c in columns if c not in ("games", "95% interval")]
    table = Table()
    for col in columns:
        table.add_column(col, justify="left" if col in ("pair", "decided") else "right")
    side = 16 if wide else max(8, (width - 62) // 2 - 2)
    for r in mc[:limit]:
        cells = {
            "pair": Text(f"{short(report.names[r.a], side)} vs {short(report.names[r.b], side)}"),
            "W/L/T": f"{r.wins}/{r.losses}/{r.ties}",
            "games": f"{r.games:,}",
            "win rate": pct(r.win_rate, 1),
            "95% interval": f"{100 * r.ci_low:.1f}–{pct(r.ci_high, 1)}",
            "Elo": elo_text(r),
            "LOS": pct(r.los, 1),
            "decided": r.decision,
        }
        table.add_row(*(cells[c] for c in columns))
    how = (
        f"by an SPRT of {pct(report.sprt[0], 1)} against {pct(report.sprt[1], 1)}"
        if report.sprt
        else "until decided"
    )
    note = (
        f"W/L/T in games of the first named; each pair played {how}, at most"
        f" {mc[0].cap:,} games; Elo difference with its 95% interval; LOS: likelihood of"
        " superiority"
    )
    if not wide:
        note += "; games played and intervals in pairs.csv"
    if len(mc) > limit:
        note += f"; {len(mc) - limit} more in pairs.csv and results.json (--out DIR)"
    return [Text("Monte Carlo pairs", style="bold"), table, Text(note, style="dim")]


def elo_text(r: PairRecord) -> str:
    if r.elo_low is None or r.elo_high is None:
        return f"{r.elo:+.0f}"
    return f"{r.elo:+.0f} ({r.elo_low:+.0f},{r.elo_high:+.0f})"


def console_report(
    report: Report,
    out: Path | None = None,
    width: int = 120,
    view: str = "rate",
) -> list[RenderableType]:
    """What the tournament command prints, WIDTH columns wide: standings, the matrix (as much of
    it as fits, in VIEW), Monte Carlo pairs, notes and problems."""
    # Titles are lines of their own: a table's title wraps at the table's width.
    parts: list[RenderableType] = [
        Text(f"{report.title} · {report.rules_key} · {report.mode}", style="bold"),
        standings_table(report, width),
        Text(
            f"W-L-T: pairs won, lost and tied against the field (a pair is won by its match"
            f" point); entrants level on points are ordered by {TIE_BREAK} (the tie-break),"
            " and share their rank (=)"
            + ("" if width >= WIDE_STANDINGS else "; each entrant's pairs in standings.csv"),
            style="dim",
        ),
    ]
    n = len(report.entrants)
    if n >= 2:
        shown = matrix_fit(report, width, view)
        if view == "wlt":
            unsplit = report.exact & np.isnan(report.wins) & ~np.isnan(report.rates)
            what = (
                "wins/losses/ties of the row against the column (Monte Carlo: games;"
                " exact: probabilities, %"
                + ("; ½: a game that never ends counts half, not split" if unsplit.any() else "")
                + ")"
            )
        else:
            what = (
                "win rate of the row against the column (%; ± Monte Carlo, with its 95% interval"
                + ("; a tie counts half, --matrix wlt shows it apart" if report.can_tie else "")
                + ")"
            )
        if report.undecided.any():
            what += "; ? undecided"
        parts.append(Text(what, "bold"))
        if shown >= 2:
            parts.append(matrix_table(report, shown, view))
        where = f"{out / 'matrix.csv'} and {out / 'index.html'}" if out else "--out DIR"
        if shown < n:
            parts.append(
                Text(
                    f"{n}×{n} matrix: the top {shown} fit in {width} columns; the rest in {where}",
                    style="yellow",
                )
            )
    parts += mc_report(report, MC_LIST_LIMIT, width)
    noted = [e for e in report.entrants if e.notes]
    if noted:
        parts.append(Text("notes on the files (as hogbench check says them)", style="bold"))
        parts += [Text(f"{short(e.name)}: {'; '.join(e.notes)}") for e in noted]
    copies = _copies(report)
    if copies:
        parts.append(Text("identical decision tables (copies, or the same idea)", style="bold"))
        parts += [Text(" = ".join(group)) for group in copies]
    if report.disqualified:
        parts.append(Text("disqualified", style="bold red"))
        table = Table()
        table.add_column("entrant", no_wrap=True)
        table.add_column("reason")
        for d in report.disqualified:
            name = Text(short(d.name))
            name.append(_logins(d), style="dim")
            table.add_row(name, Text(d.reason))
        parts.append(table)
    for line in report.not_played:
        parts.append(Text(f"not played: {line}", style="yellow"))
    if report.unmatched:
        parts.append(Text(f"not on the roster: {', '.join(report.unmatched)}", style="yellow"))
    if report.missing:
        logins = ", ".join(m["login"] for m in report.missing)
        parts.append(Text(f"on the roster with no submission: {logins}", style="yellow"))
    noisy = any(e.rating_error for e in report.entrants)
    parts.append(
        Text(
            f"match point: win rate above {pct(report.threshold, 4)}, ties count as losses;"
            f" rating: Bradley–Terry on Elo's scale (400 = 10:1 odds, average 1500)"
            + (", ± its standard error from Monte Carlo noise" if noisy else ""),
            style="dim",
        )
    )
    hanging = sum(e.undecided for e in report.entrants) // 2
    if hanging:
        scored = "score by their estimate" if report.score_undecided else "score for nobody"
        parts.append(
            Text(
                f"{hanging} Monte Carlo pairs are undecided at their cap of {report.games:,}"
                f" games: they {scored} (score_undecided in the tournament file)",
                style="yellow",
            )
        )
    return parts


def _copies(report: Report) -> list[list[str]]:
    """Groups of entrants that share one decision table, each group once."""
    seen: set[str] = set()
    groups = []
    for e in report.entrants:
        if e.same_table_as and e.name not in seen:
            group = [e.name, *e.same_table_as]
            seen.update(group)
            groups.append(group)
    return groups


def print_report(console: Console, parts: list[RenderableType]) -> None:
    """Print the parts at the console's width (the matrix already fits it)."""
    console.print(Group(*parts), highlight=False)


# -- gauntlet ----------------------------------------------------------------------------------
def gauntlet_report(me: Slot, rows: list[GauntletRow], threshold: float) -> list[RenderableType]:
    """The gauntlet as the terminal shows it: one line per opponent, then what went wrong. Where
    an exact pair can tie (Greed, Big Pig), a column gives the chance of a tied end."""
    tied = any(r.result is not None and r.result.split is not None for r in rows)
    columns = ["opponent", "mode", "first", "second", "win rate"] + (["ties"] if tied else [])
    table = Table()
    for col in columns + ["95% interval", "beats"]:
        table.add_column(col, justify="left" if col in ("opponent", "mode") else "right")
    problems: list[RenderableType] = []
    for r in rows:
        if r.result is None:
            table.add_row(
                Text(short(r.opponent.name)), "—", *[""] * (len(columns) - 1),
                Text("not played", "red"),
            )  # fmt: skip
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
        split = res.split
        ties = [pct(split[2]) if split is not None else ""] if tied else []
        table.add_row(
            Text(short(r.opponent.name)),
            mode,
            pct(res.first),
            pct(res.second),
            pct(res.win_rate),
            *ties,
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
    notes = [Text(summary, style="bold")]
    if tied:
        notes.append(
            Text(
                "ties: the chance of a tied end over both seatings; a win rate counts it half",
                style="dim",
            )
        )
    return [title, table, *notes, *problems]
