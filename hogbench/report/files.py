"""The tournament's files, read from ``results.Report``: standings.csv, matrix.csv, pairs.csv,
results.json, index.html (``hogbench.leaderboard``) and the pictures (``hogbench.plots``).

Names are kept whole in CSV and JSON. CSV cells that a spreadsheet would run as formulas are
neutralised (``names.csv_cell``).
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

from hogbench.names import csv_cell
from hogbench.results import TIE_BREAK, Member, Report
from hogbench.tournament.field import Slot
from hogbench.tournament.gauntlets import GauntletRow
from hogbench.tournament.store import PairResult

#: The columns of standings.csv, and of pairs.csv. A pair entry's logins and students are joined
#: by "; " in their cells.
STANDINGS_COLUMNS = [
    "rank", "entrant", "points", "wins", "losses", "ties", "win_rate", "rating", "exact_pairs",
    "mc_pairs", "spec", "key", "status", "rating_error", "undecided", "regret", "regret_note",
    "login", "student", "notes",
]  # fmt: skip
PAIRS_COLUMNS = [
    "a", "b", "mode", "win_rate", "first", "second", "ci_low", "ci_high", "decision", "point",
    "pairs", "wins", "losses", "ties", "games", "cap", "elo", "elo_low", "elo_high", "los",
]  # fmt: skip


def write_csv(path: Path, rows: list[list[Any]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        for row in rows:
            w.writerow([csv_cell(_blank(v)) for v in row])


def _blank(v: Any) -> Any:
    """None and NaN as empty cells."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    return v


def standings_rows(report: Report) -> list[list[Any]]:
    rows: list[list[Any]] = [STANDINGS_COLUMNS]
    for e in report.entrants:
        rows.append(
            [e.rank, e.name, e.points, e.wins, e.losses, e.ties, e.win_rate, e.rating]
            + [e.exact_pairs, e.mc_pairs, e.spec, e.key, "live" if e.live else "ok"]
            + [e.rating_error, e.undecided, e.regret, e.regret_note, *_students(e.students)]
            + ["; ".join(e.notes)]
        )
    for d in report.disqualified:
        row: list[Any] = ["", d.name] + [""] * 8 + [d.spec, "", f"disqualified: {d.reason}"]
        rows.append(row + ["", "", "", "", *_students(d.students), ""])
    return rows


def _students(members: tuple[Member, ...]) -> list[str | None]:
    """The login and student cells: a pair entry's partners joined by "; "."""
    if not members:
        return [None, None]
    return ["; ".join(m.login for m in members), "; ".join(m.name for m in members)]


def matrix_rows(report: Report) -> list[list[Any]]:
    """matrix.csv: the row's win rate against each column (intervals and W/L/T in pairs.csv)."""
    names = report.names
    rows: list[list[Any]] = [["entrant", *names]]
    for name, line in zip(names, report.rates, strict=True):
        rows.append([name] + [None if math.isnan(x) else float(x) for x in line])
    return rows


def pairs_rows(report: Report) -> list[list[Any]]:
    """pairs.csv: each pair once, from the side of the first (ranked higher); ``games`` is the
    games played (empty when exact), ``cap`` the most a pair could play."""
    names = report.names
    rows: list[list[Any]] = [PAIRS_COLUMNS]
    for r in report.pairs:
        point = {"a": names[r.a], "b": names[r.b]}.get(r.point or "", "")
        pairs = None if r.games is None else r.games // 2
        rows.append(
            [names[r.a], names[r.b], r.mode, r.win_rate, r.first, r.second, r.ci_low, r.ci_high]
            + [r.decision, point, pairs, r.wins, r.losses, r.ties, r.games, r.cap]
            + [r.elo, r.elo_low, r.elo_high, r.los]
        )
    return rows


def write_reports(report: Report, out: Path) -> list[Path]:
    """standings.csv, matrix.csv, pairs.csv, results.json and index.html in OUT, with
    matplotlib the pictures the page shows (matrix.png, standings.png), and with a roster the
    students' files (``roster.files_rows``); returns their paths."""
    from hogbench import leaderboard, plots

    out.mkdir(parents=True, exist_ok=True)
    paths = [out / n for n in ("standings.csv", "matrix.csv", "pairs.csv", "results.json")]
    write_csv(paths[0], standings_rows(report))
    write_csv(paths[1], matrix_rows(report))
    write_csv(paths[2], pairs_rows(report))
    data = report.to_dict()
    paths[3].write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    pictures: dict[str, Any] = {}
    if plots.available():
        box = plots.matrix_png(report, out / "matrix.png", report.title)
        plots.standings_png(report, out / "standings.png", report.title)
        pictures = {"matrix": "matrix.png", "standings": "standings.png", "matrix_box": box}
        paths += [out / "matrix.png", out / "standings.png"]
    more: list[Path] = []
    students = [*report.entrants, *report.disqualified]
    if report.missing or report.unmatched or any(e.students for e in students):
        from hogbench import roster

        for name, rows in roster.files_rows(report).items():
            write_csv(out / name, rows)
            more.append(out / name)
    page = out / "index.html"
    page.write_text(
        leaderboard.html_page(report, pictures, [p.name for p in more]), encoding="utf-8"
    )
    paths.insert(3, page)
    return paths + more


# -- gauntlet ----------------------------------------------------------------------------------
def _wlt(result: PairResult | None) -> list[float] | None:
    """A gauntlet pair's wins, losses and ties: games (Monte Carlo), or chances averaged over
    both seatings (exact, where the rules have ties; None for other exact pairs, whose rate is
    their chance of winning)."""
    if result is None:
        return None
    if not result.exact:
        return list(result.totals)
    split = result.split
    return None if split is None else list(split)


def gauntlet_data(me: Slot, rows: list[GauntletRow], threshold: float) -> dict[str, Any]:
    from hogbench import stats
    from hogbench.results import elo as finite_elo

    def elo(r: GauntletRow) -> dict[str, Any] | None:
        if r.result is None:
            return None
        res = r.result
        if res.exact:
            return {"elo": finite_elo(res.win_rate), "elo_low": None, "elo_high": None}
        low, high = res.interval
        return {
            "elo": finite_elo(res.win_rate),
            "elo_low": finite_elo(low),
            "elo_high": finite_elo(high),
            "los": stats.likelihood_of_superiority(res.paired),
        }

    return {
        "strategy": me.name,
        "spec": me.spec,
        "threshold": threshold,
        "tie_break": TIE_BREAK,
        "beats": sum(r.beats for r in rows),
        "opponents": [
            {
                "name": r.opponent.name,
                "spec": r.opponent.spec,
                "mode": r.result.key.mode if r.result else None,
                "win_rate": r.result.win_rate if r.result else None,
                "first": r.result.first if r.result else None,
                "second": r.result.second if r.result else None,
                "wlt": _wlt(r.result),
                "games": 2 * r.result.paired.pairs if r.result and not r.result.exact else None,
                "ci": list(r.result.interval) if r.result and not r.result.exact else None,
                "pairs": r.result.paired.pairs if r.result and not r.result.exact else None,
                **(elo(r) or {"elo": None}),
                "decided": r.decision,
                "beats": r.beats,
                "problem": r.problem,
            }
            for r in rows
        ],
    }
