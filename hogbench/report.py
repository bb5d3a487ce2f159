"""Tournament reports: the terminal view (Rich), and files (CSV, JSON, a self-contained HTML page).

Team names come from submissions, so they are never markup: Rich gets them as Text, the page gets
them as JSON data (with "<" escaped) and puts them in the DOM with textContent.
"""

from __future__ import annotations

import csv
import json
import math
import platform
import time
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from hogbench.duel import decision_z
from hogbench.stats import UNDECIDED
from hogbench.store import PairResult
from hogbench.tournament import GauntletRow, Slot, TournamentResult, pair_seed

#: Above this many entrants the terminal gets a pointer to the files instead of the matrix.
MATRIX_LIMIT = 30
#: At most this many Monte Carlo pairs are listed with their W/L/T in the terminal.
MC_LIST_LIMIT = 30


class PairProgress:
    """A progress bar on stderr: items done, items per second, time elapsed."""

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
        )

        self.progress = Progress(
            TextColumn(label),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
        )
        self.task = self.progress.add_task(label, total=total, rate="")
        self.began = time.perf_counter()
        self.progress.start()

    def advance(self, n: int) -> None:
        self.progress.advance(self.task, n)
        done = self.progress.tasks[0].completed
        elapsed = time.perf_counter() - self.began
        if elapsed > 0:
            self.progress.update(self.task, rate=f"{done / elapsed:,.1f}/s")

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None


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


def result_data(result: TournamentResult) -> dict[str, Any]:
    """Everything about a tournament as JSON-ready data (also what the HTML page shows)."""
    t = result.tournament

    def entrant_info(slot: Slot) -> dict[str, Any]:
        e = slot.entrant
        return {
            "name": slot.name,
            "spec": slot.spec,
            "key": e.key if e is not None else None,
            "live": e is not None and not e.tableable,
            "same_table_as": slot.same_as,
        }

    standings = []
    for s in result.standings:
        exact_pairs, mc_pairs = result.modes(s.index)
        standings.append(
            {
                "rank": s.rank,
                **entrant_info(result.active[s.index]),
                "points": s.points,
                "win_rate": _num(s.win_rate),
                "rating": _num(s.rating),
                "rating_error": _num(s.rating_error),
                "undecided": s.undecided,
                "exact_pairs": exact_pairs,
                "mc_pairs": mc_pairs,
            }
        )
    pairs = []
    for i, j, r in _pairs(result):
        item: dict[str, Any] = {
            "a": result.active[i].name,
            "b": result.active[j].name,
            "mode": r.key.mode,
            "first": r.first,
            "second": r.second,
            "win_rate": r.win_rate,
        }
        if not r.exact:
            w, losses, ties = r.totals
            seats = r.seat_counts()
            low, high = r.interval
            item.update(
                games=r.key.games,
                seed=pair_seed(r.key),
                wins=w,
                losses=losses,
                ties=ties,
                counts_first=seats[0].tolist(),
                counts_second=seats[1].tolist(),
                pairs=r.paired.pairs,
                pentanomial=list(r.paired.counts),
                ci_low=low,
                ci_high=high,
                decision=_decision(result, r),
            )
        pairs.append(item)
    order = [s.index for s in result.standings]
    matrix = [[_cell(result, i, j) for j in order] for i in order]
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
        "versions": versions(),
        "standings": standings,
        "disqualified": [
            {"name": s.name, "spec": s.spec, "reason": s.disqualified} for s in result.disqualified
        ],
        "not_played": result.failures,
        "pairs": pairs,
        "matrix": matrix,
    }


def _num(x: float) -> float | None:
    return None if math.isnan(x) else x


def _cell(result: TournamentResult, i: int, j: int) -> dict[str, Any] | None:
    r = result.results.get((i, j))
    if r is None:
        return None
    cell: dict[str, Any] = {"rate": r.win_rate, "exact": r.exact}
    if not r.exact:
        low, high = r.interval
        cell.update(ci=[low, high], decision=_decision(result, r))
    return cell


def write_reports(result: TournamentResult, out: Path) -> list[Path]:
    """standings.csv, matrix.csv (win rates), pairs.csv (each pair: rate, interval, W/L/T),
    results.json and index.html in OUT; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    data = result_data(result)
    names = ("standings.csv", "matrix.csv", "results.json", "index.html", "pairs.csv")
    paths = [out / n for n in names]
    with paths[0].open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["rank", "entrant", "points", "win_rate", "rating", "exact_pairs", "mc_pairs"]
                   + ["spec", "key", "status", "rating_error", "undecided"])  # fmt: skip
        for s in data["standings"]:
            w.writerow(
                [s["rank"], s["name"], s["points"], s["win_rate"], s["rating"], s["exact_pairs"]]
                + [s["mc_pairs"], s["spec"], s["key"], "live" if s["live"] else "ok"]
                + [s["rating_error"], s["undecided"]]
            )
        for d in data["disqualified"]:
            w.writerow(
                ["", d["name"], "", "", "", "", "", d["spec"], "", f"disqualified: {d['reason']}"]
                + ["", ""]
            )
    with paths[1].open("w", newline="", encoding="utf-8") as f:
        # A cell is the row's win rate; intervals and wins/losses/ties are in pairs.csv.
        w = csv.writer(f)
        entrants = [s["name"] for s in data["standings"]]
        w.writerow(["entrant", *entrants])
        for name, row in zip(entrants, data["matrix"], strict=True):
            w.writerow([name] + ["" if c is None else repr(c["rate"]) for c in row])
    with paths[4].open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        columns = ["a", "b", "mode", "win_rate", "ci_low", "ci_high", "decision", "pairs"]
        columns += ["wins", "losses", "ties", "games"]
        w.writerow(columns)
        for p in data["pairs"]:
            w.writerow([p.get(c, "") for c in columns])
    paths[2].write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    paths[3].write_text(html_page(data), encoding="utf-8")
    return paths


def html_page(data: dict[str, Any]) -> str:
    """A self-contained page: inline CSS and JS, the data inline, nothing fetched."""
    # "<" escaped so that no team name can close the script element.
    payload = json.dumps(data).replace("<", "\\u003c")
    title = json.dumps(data["tournament"]).replace("<", "\\u003c")
    return _PAGE.replace("/*DATA*/", payload).replace("/*TITLE*/", title)


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tournament</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; margin-bottom: .2em; }
.meta { color: #666; margin-bottom: 1.2em; }
table { border-collapse: collapse; margin-bottom: 1.5em; }
th, td { padding: 3px 8px; border-bottom: 1px solid #eee; }
#standings th { cursor: pointer; user-select: none; background: #f4f4f4; text-align: left; }
#standings th.sorted-asc::after { content: " \\25B2"; }
#standings th.sorted-desc::after { content: " \\25BC"; }
#standings td.num { text-align: right; font-variant-numeric: tabular-nums; }
#matrix td { text-align: center; font-size: 12px; min-width: 2.6em; border: 1px solid #fff; }
#matrix th { font-size: 12px; font-weight: normal; }
#matrix th.row { text-align: left; white-space: nowrap; }
#matrix.small td { min-width: 6px; height: 6px; padding: 0; font-size: 0; }
.live { color: #a60; font-size: 12px; }
.note { color: #666; }
</style>
</head>
<body>
<h1 id="title"></h1>
<div class="meta" id="meta"></div>
<h2>Standings</h2>
<table id="standings"><thead><tr></tr></thead><tbody></tbody></table>
<p class="note">Click a column to sort. A match point is a win rate above the threshold; ties count
as losses. Rating: Bradley&ndash;Terry on Elo's scale (400 points = 10:1 odds, average 1500).</p>
<h2>Win rates</h2>
<p class="note">Row entrant's win rate against the column entrant: exact, or Monte Carlo
± the half-width of its paired 95% interval, "?" when undecided; from red (loses) to green
(wins).</p>
<table id="matrix"></table>
<div id="disqualified"></div>
<script id="data" type="application/json">/*DATA*/</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const title = /*TITLE*/;
document.title = title;
document.getElementById("title").textContent = title;
const v = data.versions;
document.getElementById("meta").textContent =
  `${data.rules_key} \\u00b7 ${data.mode} \\u00b7 seed ${data.seed} \\u00b7 threshold ` +
  `${(100 * data.threshold).toFixed(4)}% \\u00b7 hogbench ${v.hogbench}, Python ${v.python}, ` +
  `numpy ${v.numpy}, numba ${v.numba}`;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
const pct = (x) => (x === null ? "\\u2014" : (100 * x).toFixed(2) + "%");

const columns = [
  ["rank", "rank", true, (s) => s.rank],
  ["entrant", "name", false, (s) => s.name],
  ["points", "points", true, (s) => s.points],
  ["win rate", "win_rate", true, (s) => pct(s.win_rate)],
  ["rating", "rating", true, (s) => (s.rating === null ? "\\u2014" : s.rating.toFixed(0) +
    (s.rating_error ? " \\u00b1 " + s.rating_error.toFixed(0) : ""))],
  ["pairs", "exact_pairs", false,
   (s) => [s.exact_pairs ? s.exact_pairs + " exact" : "", s.mc_pairs ? s.mc_pairs + " MC" : ""]
     .filter(Boolean).join(", ")],
];
let sortKey = "rank", sortDesc = false;

function renderStandings() {
  const rows = data.standings.slice();
  rows.sort((a, b) => {
    let x = a[sortKey], y = b[sortKey];
    if (x === null) x = -Infinity;
    if (y === null) y = -Infinity;
    const c = typeof x === "string" ? x.localeCompare(y) : x - y;
    return (sortDesc ? -c : c) || a.rank - b.rank;
  });
  const head = document.querySelector("#standings thead tr");
  head.replaceChildren();
  for (const [label, key] of columns) {
    const th = el("th", label);
    if (key === sortKey) th.className = sortDesc ? "sorted-desc" : "sorted-asc";
    th.dataset.key = key;
    th.addEventListener("click", () => {
      sortDesc = key === sortKey ? !sortDesc : ["points", "win_rate", "rating"].includes(key);
      sortKey = key;
      renderStandings();
    });
    head.appendChild(th);
  }
  const body = document.querySelector("#standings tbody");
  body.replaceChildren();
  for (const s of rows) {
    const tr = el("tr");
    for (const [, key, numeric, show] of columns) {
      const td = el("td", show(s), numeric ? "num" : "");
      if (key === "name" && s.live) td.appendChild(el("span", " (live)", "live"));
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

function colour(rate) {
  // 0 -> red, 0.5 -> pale yellow, 1 -> green; saturation grows with the margin.
  const hue = 120 * rate, light = 92 - 40 * Math.min(1, 2 * Math.abs(rate - 0.5));
  return `hsl(${hue.toFixed(0)}, 70%, ${light.toFixed(0)}%)`;
}

function renderMatrix() {
  const m = document.getElementById("matrix");
  const small = data.standings.length > 30;
  if (small) m.className = "small";
  const head = el("tr");
  head.appendChild(el("th"));
  data.standings.forEach((s, k) => {
    const th = el("th", small ? "" : String(k + 1));
    th.title = s.name;
    head.appendChild(th);
  });
  m.appendChild(head);
  data.matrix.forEach((row, i) => {
    const tr = el("tr");
    tr.appendChild(el("th", `${i + 1} ${data.standings[i].name}`, "row"));
    row.forEach((cell, j) => {
      const td = el("td");
      if (cell) {
        td.style.background = colour(cell.rate);
        const half = cell.exact ? "" : "±" + (50 * (cell.ci[1] - cell.ci[0])).toFixed(1);
        const open = cell.decision === "undecided" ? "?" : "";
        if (!small) td.textContent = (100 * cell.rate).toFixed(1) + half + open;
        td.title = `${data.standings[i].name} vs ${data.standings[j].name}: ${pct(cell.rate)}` +
          (cell.exact ? " (exact)" :
            ` (Monte Carlo, 95% interval ${pct(cell.ci[0])} – ${pct(cell.ci[1])}, ${cell.decision})`);
      }
      tr.appendChild(td);
    });
    m.appendChild(tr);
  });
}

function renderDisqualified() {
  if (!data.disqualified.length) return;
  const box = document.getElementById("disqualified");
  box.appendChild(el("h2", "Disqualified"));
  const ul = el("ul");
  for (const d of data.disqualified) {
    const li = el("li");
    li.appendChild(el("b", d.name));
    li.appendChild(document.createTextNode(": " + d.reason));
    ul.appendChild(li);
  }
  box.appendChild(ul);
}

// #sort=KEY or #sort=-KEY picks the first sort (handy for links, and for tests).
const wanted = /sort=(-?)(\\w+)/.exec(location.hash);
if (wanted && columns.some((c) => c[1] === wanted[2])) {
  sortKey = wanted[2];
  sortDesc = wanted[1] === "-";
}
renderStandings();
renderMatrix();
renderDisqualified();
</script>
</body>
</html>
"""


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
