"""The tournament's page, index.html: a leaderboard that a class of 300 can read.

It is rendered here, on the server side, so it reads without JavaScript; its small script only
adds sorting (click a column) and a search box. Every student has a link (``#e-name``) and a
row that opens (``<details>``) on their results: whom they beat, their closest pairs and their
regret against the best response. The win-rate matrix is a table up to MATRIX_TABLE_LIMIT
entrants and a heatmap picture beyond (``plots.matrix_png``, beside the page).

Everything from entrants (team names, file names, error messages) goes through ``html.escape``;
the page fetches nothing and runs no script but its own.
"""

from __future__ import annotations

import html
import math
import re
from typing import Any

import numpy as np

from hogbench.names import login_anchor
from hogbench.results import TIE_BREAK, DisqualifiedRecord, EntrantRecord, Report

#: Names longer than this are cut on the page, with the full name on hover.
NAME_WIDTH = 40
#: Up to this many entrants the matrix is an HTML table with numbers; beyond, a heatmap picture.
MATRIX_TABLE_LIMIT = 30
#: A student's closest pairs: the opponents whose win rate is nearest the threshold.
CLOSEST = 3
#: Beyond this many opponents beaten, the list is told relative to the ranking ("everyone
#: ranked below except ..."), which stays short at 300 entrants.
LIST_LIMIT = 12
#: Colours reach full strength this far from the threshold (so 40% and 60% differ clearly).
COLOUR_SPAN = 0.3
_RED, _WHITE, _BLUE = (178, 24, 43), (247, 247, 247), (33, 102, 172)


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def pct(x: float | None, digits: int = 1) -> str:
    return "—" if x is None or math.isnan(x) else f"{100 * x:.{digits}f}%"


def anchors(names: list[str], reserved: dict[str, int] | None = None) -> list[str]:
    """A link target for each name: ``e-`` and the name's letters, numbered when repeated.

    RESERVED maps the targets of students' logins (``login_anchor``) to the position of their
    entry (-1 for none on the standings): a name never takes another entry's login target,
    so ``#e-LOGIN`` always reaches that student's row."""
    reserved = reserved or {}
    count: dict[str, int] = {}
    used: set[str] = set()
    out = []
    for p, name in enumerate(names):
        slug = re.sub(r"[^\w]+", "-", name.lower()).strip("-")[:40] or "entrant"
        k = count.get(slug, 0) + 1
        anchor = f"e-{slug}" if k == 1 else f"e-{slug}-{k}"
        while anchor in used or reserved.get(anchor, p) != p:
            k += 1
            anchor = f"e-{slug}-{k}"
        count[slug] = k
        used.add(anchor)
        out.append(anchor)
    return out


def colour(rate: float, threshold: float) -> str:
    """A diverging colour centred on THRESHOLD: red below (loses), blue above (wins)."""
    strength = min(1.0, abs(rate - threshold) / COLOUR_SPAN) ** 0.8
    end = _BLUE if rate > threshold else _RED
    mixed = (round(w + (e - w) * strength) for w, e in zip(_WHITE, end, strict=True))
    return "#" + "".join(f"{c:02x}" for c in mixed)


def _who(report: Report, p: int, mask: np.ndarray, ids: list[str]) -> str:
    """The entrants marked in MASK (row p's opponents), told briefly: by name when few,
    else relative to the ranking."""
    names = report.names
    picked = [q for q in np.flatnonzero(mask) if q != p]
    played = [q for q in range(len(names)) if q != p and not math.isnan(report.rates[p, q])]

    def listed(qs: list[int]) -> str:
        return ", ".join(f'<a href="#{ids[q]}">{_name(names[q])}</a>' for q in qs) or "nobody"

    if len(picked) <= LIST_LIMIT:
        return listed(picked)
    chosen = set(picked)
    below = [q for q in played if q > p]
    missing_below = [q for q in below if q not in chosen]
    taken_above = [q for q in played if q < p and q in chosen]
    text = f"all {len(below)} ranked below" if below else ""
    if missing_below:
        text += f" except {listed(missing_below)}"
    if taken_above:
        text += ("; and above: " if text else "above: ") + listed(taken_above)
    return text or "nobody"


def _name(name: str, width: int = NAME_WIDTH) -> str:
    """A team name as the page shows it: escaped, cut to WIDTH with the full name on hover."""
    if len(name) <= width:
        return esc(name)
    return f'<span title="{esc(name)}">{esc(name[: width - 1])}…</span>'


def _details(report: Report, p: int, ids: list[str]) -> str:
    e = report.entrants[p]
    rates = report.rates[p]
    played = [q for q in range(len(rates)) if q != p and not math.isnan(rates[q])]
    lines = [
        f"<p><b>Record against the field:</b> won {e.wins}, lost {e.losses}, tied {e.ties}"
        " (pairs, by match point)</p>",
        f"<p><b>Beat {e.wins} of {len(played)}:</b> {_who(report, p, report.scored[p], ids)}</p>",
    ]
    if played:
        closest = sorted(played, key=lambda q: (abs(rates[q] - report.threshold), q))[:CLOSEST]
        said = []
        for q in closest:
            mark = " ✔" if report.scored[p, q] else ""
            open_ = " (undecided)" if report.undecided[p, q] else ""
            # Two decimals, or as many as it takes to tell the rate from the threshold.
            digits = 2 if abs(rates[q] - report.threshold) >= 5e-5 else 6
            said.append(
                f'<a href="#{ids[q]}">{_name(report.names[q])}</a> {pct(rates[q], digits)}'
                f"{mark}{open_}"
            )
        lines.append(f"<p><b>Closest:</b> {', '.join(said)}</p>")
    hanging = int(report.undecided[p].sum())
    if hanging:
        lines.append(f"<p><b>Undecided:</b> {hanging} Monte Carlo pairs (marked ?)</p>")
    if e.regret is not None and e.regret_max_against is not None:
        worst = e.regret_max_against
        lines.append(
            f"<p><b>Regret against the best response:</b> {pct(e.regret, 2)} of win rate"
            f" on average over all {len(played)} opponents, at most {pct(e.regret_max, 2)}"
            f' (against <a href="#{ids[worst]}">{_name(report.names[worst])}</a>)</p>'
        )
    else:
        lines.append(f"<p><b>Regret against the best response:</b> {esc(e.regret_note)}</p>")
    if e.best_response_win_rate is not None:
        lines.append(
            f"<p>The best response to {_name(e.name)} wins"
            f" {pct(e.best_response_win_rate, 2)} against it.</p>"
        )
    if e.notes:
        lines.append(f"<p><b>Notes on the file:</b> {esc('; '.join(e.notes))}</p>")
    extra = [f"spec {esc(e.spec)}"]
    if e.students:
        who = ", ".join(esc(m.login) + (f" ({esc(m.name)})" if m.name else "") for m in e.students)
        extra.insert(0, ("logins " if len(e.students) > 1 else "login ") + who)
    if e.same_table_as:
        extra.append("same decision table as " + ", ".join(map(esc, e.same_table_as)))
    if e.live:
        extra.append("live (played by Monte Carlo)")
    lines.append(f'<p class="note">{"; ".join(extra)}</p>')
    return "".join(lines)


def rank_label(report: Report, p: int) -> str:
    """The rank, with "=" when it is shared: the tie-break only orders the lines."""
    e = report.entrants[p]
    near = report.entrants[max(0, p - 1) : p + 2]
    return f"{e.rank}=" if any(o.rank == e.rank and o.position != p for o in near) else str(e.rank)


def _standings(report: Report, ids: list[str]) -> str:
    noisy = any(e.rating_error for e in report.entrants)
    n = len(report.entrants)
    head = (
        '<thead><tr><th data-key="num">rank</th><th data-key="text">entrant</th>'
        '<th data-key="num">points</th>'
        '<th data-key="num" title="pairs won, lost and tied against the field">W-L-T</th>'
        '<th data-key="num" title="average win rate: the tie-break after points">win rate'
        " (tie-break)</th>"
        '<th data-key="num">rating</th><th data-key="num" title="win rate given up against'
        ' the best response, on average over every opponent">regret</th>'
        '<th data-key="text">pairs</th></tr></thead>'
    )
    rows = []
    for p, e in enumerate(report.entrants):
        rating = "—" if e.rating is None else f"{e.rating:.0f}"
        if noisy and e.rating_error is not None:
            rating += f" ± {e.rating_error:.0f}"
        pairs = ", ".join(
            x
            for x in (
                f"{e.exact_pairs} exact" if e.exact_pairs else "",
                f"{e.mc_pairs} MC" if e.mc_pairs else "",
            )
            if x
        )
        share = 100 * e.points / max(n - 1, 1)
        hanging = f' <span class="note">({e.undecided} undecided)</span>' if e.undecided else ""
        live = ' <span class="live">(live)</span>' if e.live else ""
        login = _logins(e)
        noted = ' <span class="live" title="notes on the file">*</span>' if e.notes else ""
        win = -1 if e.win_rate is None else e.win_rate
        found = " ".join([e.name, *(x for m in e.students for x in (m.login, m.name) if x)])
        found = found.lower()
        alias = "".join(f'<span id="{a}"></span>' for a in _aliases(e, ids[p]))
        regret = (
            f'<td class="num" data-v="{e.regret}">{pct(e.regret, 2)}</td>'
            if e.regret is not None
            else '<td class="num" data-v="-1" title="not computed: the row says why">—</td>'
        )
        rows.append(
            f'<tr id="{ids[p]}" data-pos="{p}" data-name="{esc(found)}"'
            f' data-full="{esc(e.name)}">'
            f'<td class="num" data-v="{p}">{alias}<a href="#{ids[p]}" title="link to this'
            f' row">{rank_label(report, p)}</a></td>'
            f'<td class="name"><details><summary>{_name(e.name)}{login}{live}{noted}</summary>'
            f"{_details(report, p, ids)}</details></td>"
            f'<td class="num" data-v="{e.points}">{e.points}{hanging}'
            f'<span class="bar"><i style="width:{share:.0f}%"></i></span></td>'
            f'<td class="num" data-v="{e.wins - e.losses}">{e.wins}-{e.losses}-{e.ties}</td>'
            f'<td class="num" data-v="{win}">{pct(e.win_rate, 2)}</td>'
            f'<td class="num" data-v="{e.rating if e.rating is not None else -1}">{rating}</td>'
            f"{regret}"
            f'<td class="pairs">{pairs or "none"}</td></tr>'
        )
    return f'<table id="standings">{head}<tbody>{"".join(rows)}</tbody></table>'


def _aliases(e: EntrantRecord, row_id: str) -> list[str]:
    """Extra link targets of a row: each of its students' logins (both partners of a pair),
    where it is not the row's own id."""
    return [a for a in dict.fromkeys(map(login_anchor, e.logins)) if a != row_id]


def _logins(entry: EntrantRecord | DisqualifiedRecord) -> str:
    """The logins shown after an entry's name (the search and the links know them all)."""
    shown = entry.logins_beside_name
    return f' <span class="login">{esc(", ".join(shown))}</span>' if shown else ""


def _disqualified(d: DisqualifiedRecord) -> str:
    """A disqualified entry's line, which its students' ``#e-LOGIN`` links reach."""
    targets = "".join(f'<span id="{esc(login_anchor(x))}"></span>' for x in d.logins)
    return (
        f'<li>{targets}<b>{esc(d.name)}</b>{_logins(d)} <span class="note">({esc(d.spec)})</span>:'
        f" {esc(d.reason)}</li>"
    )


def _reserved(report: Report) -> dict[str, int]:
    """The link targets of every login on the page, with the position of its entry (-1 for a
    disqualified one): see ``anchors``."""
    reserved = {login_anchor(x): p for p, e in enumerate(report.entrants) for x in e.logins}
    for d in report.disqualified:
        reserved.update({login_anchor(x): -1 for x in d.logins})
    return reserved


def _matrix_table(report: Report, ids: list[str]) -> str:
    """The matrix as a table of numbers: row's win rate against column, in standings order."""
    names = report.names
    head = "".join(
        f'<th class="col" title="{esc(name)}"><a href="#{ids[q]}"><span>{esc(name)}</span></a></th>'
        for q, name in enumerate(names)
    )
    rows = [f"<thead><tr><th></th>{head}</tr></thead><tbody>"]
    for p, name in enumerate(names):
        cells = []
        for q in range(len(names)):
            rate = report.rates[p, q]
            if p == q or math.isnan(rate):
                cells.append('<td class="none">·</td>')
                continue
            cls = ' class="pt"' if report.scored[p, q] else ""
            text = f"{100 * rate:.1f}" + ("?" if report.undecided[p, q] else "")
            dark = abs(rate - report.threshold) > 0.6 * COLOUR_SPAN
            style = f"background:{colour(rate, report.threshold)}" + (";color:#fff" if dark else "")
            tip = f"{names[p]} vs {names[q]}: {pct(rate, 2)}" + (
                ", exact" if report.exact[p, q] else ", Monte Carlo"
            )
            if not math.isnan(report.wins[p, q]):
                w, lo, t = report.wins[p, q], report.losses[p, q], report.ties[p, q]
                if report.exact[p, q]:
                    tip += f"; W/L/T {pct(w, 2)} / {pct(lo, 2)} / {pct(t, 2)}"
                else:
                    tip += f"; W/L/T {int(w)} / {int(lo)} / {int(t)} games"
            if report.undecided[p, q]:
                tip += "; undecided"
            cells.append(f'<td{cls} style="{style}" title="{esc(tip)}">{text}</td>')
        rows.append(
            f'<tr><th class="row" title="{esc(name)}">{p + 1}. {esc(name)}</th>'
            f"{''.join(cells)}</tr>"
        )
    rows.append("</tbody>")
    return f'<div class="scroll"><table id="matrix">{"".join(rows)}</table></div>'


#: Cell codes for the heatmap's hover: two characters per cell, 4 * per mille + 2 * undecided
#: + point.
_CODE = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"


def cell_codes(report: Report) -> str:
    """The matrix as two characters per cell, row by row: the win rate in tenths of a percent
    times 4, plus 2 when the pair is undecided, plus 1 when the row scored a point, in base 64
    (_CODE); "__" where no result. For 300 entrants that is 180 kB, which lets the page's
    script name any cell on hover."""
    out = []
    for p, line in enumerate(report.rates):
        for q, rate in enumerate(line):
            if math.isnan(rate):
                out.append("__")
                continue
            value = 4 * round(1000 * rate) + 2 * int(report.undecided[p, q])
            value += int(report.scored[p, q])
            out.append(_CODE[value // 64] + _CODE[value % 64])
    return "".join(out)


def _legend(threshold: float) -> str:
    stops = [0.0, 0.2, 0.4, threshold, 0.6, 0.8, 1.0]
    cells = "".join(
        f'<span style="background:{colour(x, threshold)};'
        f'{"color:#fff" if abs(x - threshold) > 0.6 * COLOUR_SPAN else ""}">{100 * x:.0f}%</span>'
        for x in stops
    )
    return f'<p class="legend">{cells}</p>'


def html_page(report: Report, pictures: dict[str, Any] | None = None, files: list[str] = ()) -> str:
    """The page of REPORT; PICTURES names the PNG files written beside it ("matrix",
    "standings"), if any, and where the heatmap's cells are in its picture ("matrix_box", for
    the details shown on hover); FILES lists more files beside it to link."""
    pictures = pictures or {}
    ids = anchors(report.names, _reserved(report))
    n = len(report.entrants)
    v = report.versions
    meta = (
        f"{report.rules_key} · {report.mode} · seed {report.seed} · {n} entrants · threshold"
        f" {100 * report.threshold:.4f}% · hogbench {v['hogbench']}, Python {v['python']},"
        f" numpy {v['numpy']}, numba {v['numba']}"
    )
    listed = ["standings.csv", "matrix.csv", "pairs.csv", "results.json", *files]
    parts = [
        f"<h1>{esc(report.title)}</h1>",
        f'<p class="meta">{esc(meta)}</p>',
        '<nav><a href="#standings-h">Standings</a> · <a href="#matrix-h">Win rates</a>'
        + (' · <a href="#disqualified-h">Disqualified</a>' if report.disqualified else "")
        + " · files: "
        + ", ".join(f'<a href="{esc(f)}">{esc(f)}</a>' for f in listed)
        + "</nav>",
        '<h2 id="standings-h">Standings</h2>',
        '<p id="tools" hidden><label>Find a student: <input type="search" id="q"'
        ' placeholder="login or team name" autocomplete="off"></label>'
        ' <span id="count" class="note"></span></p>',
        '<p class="note">Find your row by your login or team name: this page\'s address'
        " followed by <code>#e-</code> and your login (or team name) jumps to it; with"
        " JavaScript, <code>#q=</code> and either searches.</p>",
        _standings(report, ids),
        '<p class="note">A name opens on its results; the rank is a link to the row. A match'
        " point (✔) is a win rate above the threshold; ties count as losses. W-L-T: pairs"
        " won, lost and tied against the field by match point. Entrants level on points"
        f" share their rank (=) and are listed by {TIE_BREAK}, the tie-break. Rating:"
        " Bradley–Terry on Elo's scale (400 points = 10:1 odds, average 1500). Regret: the"
        " win rate given up compared with the best response to each opponent, on average"
        f" over every opponent, shown only where all of them are exact pairs"
        f" ({esc(report.best_note)}). With JavaScript, a click on a column sorts by it.</p>",
    ]
    if "standings" in pictures:
        parts.append(
            f'<p><img src="{esc(pictures["standings"])}" alt="win rates and ratings of the'
            ' standings (standings.png beside this page)"></p>'
        )
    parts.append('<h2 id="matrix-h">Win rates</h2>')
    parts.append(
        '<p class="note">The row entrant\'s win rate against the column entrant, in standings'
        " order: red loses, blue wins, white at the threshold; cells that scored a point are"
        " outlined"
        + (
            "; ? (in the heatmap: a grey x) marks an undecided Monte Carlo pair"
            if report.undecided.any()
            else ""
        )
        + (
            ". A win rate counts a tie half; a cell's wins, losses and ties, apart, show on"
            " hover and are in pairs.csv"
            if report.can_tie
            else ""
        )
        + ".</p>"
    )
    parts.append(_legend(report.threshold))
    if n <= MATRIX_TABLE_LIMIT:
        parts.append(_matrix_table(report, ids))
    elif "matrix" in pictures:
        box = ",".join(f"{x:.5f}" for x in pictures.get("matrix_box", ()))
        parts.append(
            f'<p class="hover"><img class="heatmap" src="{esc(pictures["matrix"])}" alt="heatmap'
            f' of the {n}×{n} win rates (matrix.png beside this page)" data-box="{box}"'
            f' data-cells="{cell_codes(report)}"><span id="tip" hidden></span></p>'
            '<p class="note">Each student\'s own numbers are in their row above; all of them'
            " in matrix.csv.</p>"
        )
    else:
        parts.append(
            f'<p class="note">{n} entrants: the matrix is too large for a table here. Its'
            " heatmap needs matplotlib (pip install 'hogbench[plots]'); the numbers are in"
            " matrix.csv, and each student's in their row above.</p>"
        )
    if report.disqualified:
        items = "".join(_disqualified(d) for d in report.disqualified)
        parts.append(f'<h2 id="disqualified-h">Disqualified</h2><ul>{items}</ul>')
    if report.not_played:
        items = "".join(f"<li>{esc(line)}</li>" for line in report.not_played)
        parts.append(f"<h2>Not played</h2><ul>{items}</ul>")
    if report.unmatched or report.missing:
        items = "".join(f"<li>not on the roster: {esc(x)}</li>" for x in report.unmatched)
        items += "".join(
            f"<li>no submission: {esc(m['login'])} ({esc(m.get('name', ''))})</li>"
            for m in report.missing
        )
        parts.append(f'<h2 id="roster-h">Roster</h2><ul>{items}</ul>')
    body = "\n".join(parts)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(report.title)}</title>\n<style>{_STYLE}</style>\n</head>\n"
        f"<body>\n{body}\n<script>{_SCRIPT}</script>\n</body>\n</html>\n"
    )


_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em auto; padding: 0 1em;
  max-width: 70em; color: #222; }
h1 { font-size: 1.4em; margin-bottom: .2em; overflow-wrap: anywhere; }
.meta, .note { color: #666; }
.note, td, th, li, summary { overflow-wrap: anywhere; }
table { border-collapse: collapse; margin-bottom: 1em; }
#standings { width: 100%; }
#standings th { background: #f4f4f4; text-align: left; user-select: none; white-space: nowrap; }
#standings.sortable th { cursor: pointer; }
#standings th.asc::after { content: " \\25B2"; }
#standings th.desc::after { content: " \\25BC"; }
#standings td, #standings th { padding: 3px 6px; border-bottom: 1px solid #eee;
  vertical-align: top; }
#standings td.num { text-align: right; font-variant-numeric: tabular-nums;
  white-space: nowrap; }
#standings td.name { width: 40%; }
#standings td.pairs { white-space: nowrap; }
#standings tr:target { background: #fff6d5; }
details p { margin: .3em 0; }
summary { cursor: pointer; }
.bar { display: block; height: 3px; background: #eee; margin-top: 2px; }
.bar i { display: block; height: 3px; background: #2166ac; }
.live { color: #a60; font-size: 12px; }
.scroll { overflow-x: auto; max-width: 100%; }
#matrix td { text-align: center; font-size: 11px; padding: 2px 3px; border: 1px solid #fff;
  font-variant-numeric: tabular-nums; }
#matrix td.pt { outline: 2px solid #111; outline-offset: -2px; font-weight: bold; }
#matrix th { font-size: 11px; font-weight: normal; }
#matrix th.row { text-align: left; white-space: nowrap; max-width: 14em; overflow: hidden;
  text-overflow: ellipsis; }
#matrix th.col { vertical-align: bottom; height: 9em; }
#matrix th.col span { writing-mode: vertical-rl; transform: rotate(180deg);
  white-space: nowrap; max-height: 9em; overflow: hidden; text-overflow: ellipsis;
  display: inline-block; }
.legend span { display: inline-block; padding: 1px 6px; font-size: 11px; }
img { max-width: 100%; height: auto; }
.hover { position: relative; }
#tip { position: absolute; background: #222; color: #fff; padding: 2px 6px; font-size: 12px;
  border-radius: 3px; pointer-events: none; white-space: nowrap; }
.login { color: #666; font-size: 12px; }
input[type=search] { font: inherit; padding: 2px 6px; width: 16em; max-width: 60vw; }
"""

_SCRIPT = """
"use strict";
(() => {
  const table = document.getElementById("standings");
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const box = document.getElementById("q");
  const count = document.getElementById("count");
  document.getElementById("tools").hidden = false;
  table.classList.add("sortable");

  function search() {
    const wanted = box.value.trim().toLowerCase();
    let shown = 0;
    for (const row of rows) {
      const hit = !wanted || row.dataset.name.includes(wanted);
      row.hidden = !hit;
      shown += hit;
    }
    count.textContent = wanted ? `${shown} of ${rows.length}` : "";
  }
  box.addEventListener("input", search);

  const heads = Array.from(table.tHead.rows[0].cells);
  function sortBy(column, descending) {
    const numeric = heads[column].dataset.key === "num";
    const value = (row) => numeric ? Number(row.cells[column].dataset.v)
                                   : row.cells[column].textContent.toLowerCase();
    const sorted = rows.slice().sort((a, b) => {
      const x = value(a), y = value(b);
      const c = numeric ? x - y : x.localeCompare(y);
      return (descending ? -c : c) || a.dataset.pos - b.dataset.pos;
    });
    body.append(...sorted);
    heads.forEach((h, k) => { h.className = k === column ? (descending ? "desc" : "asc") : ""; });
  }
  heads.forEach((h, k) => h.addEventListener("click", () => {
    // A second click reverses; a first one puts the best first (rank up, numbers down).
    sortBy(k, h.className ? h.className === "asc" : k >= 2 && k <= 5);
  }));

  // #q=NAME (or ?q=NAME) searches; #sort=-win_rate sorts; #e-NAME opens that student's row.
  function follow() {
    const params = new URLSearchParams(location.search);
    const hash = decodeURIComponent(location.hash.slice(1));
    const q = /^q=(.*)$/.exec(hash);
    if (q || params.has("q")) { box.value = q ? q[1] : params.get("q"); search(); }
    const sort = /^sort=(-?)(\\w+)$/.exec(hash);
    const keys = ["rank", "name", "points", "record", "win_rate", "rating", "regret", "pairs"];
    if (sort && keys.includes(sort[2])) sortBy(keys.indexOf(sort[2]), sort[1] === "-");
    const found = hash && document.getElementById(hash);
    const target = found && found.closest("tr");
    if (target && target.parentElement === body) {
      target.querySelector("details").open = true;
      target.scrollIntoView();  // opening it (and showing the search box) moved the row
    }
  }
  window.addEventListener("hashchange", follow);
  follow();

  // The heatmap names the cell under the pointer; a click goes to the row's student.
  const map = document.querySelector("img.heatmap");
  const tip = document.getElementById("tip");
  if (map && map.dataset.box) {
    const [left, top, right, bottom] = map.dataset.box.split(",").map(Number);
    const code = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
    const byPos = rows.slice().sort((a, b) => a.dataset.pos - b.dataset.pos);
    const names = byPos.map((r) => r.dataset.full);
    const n = names.length, cells = map.dataset.cells;
    const at = (event) => {
      const box = map.getBoundingClientRect();
      const x = ((event.clientX - box.left) / box.width - left) / (right - left);
      const y = ((event.clientY - box.top) / box.height - top) / (bottom - top);
      const p = Math.floor(y * n), q = Math.floor(x * n);
      return p >= 0 && q >= 0 && p < n && q < n ? [p, q, box] : null;
    };
    map.addEventListener("mousemove", (event) => {
      const cell = at(event);
      if (!cell) { tip.hidden = true; return; }
      const [p, q, box] = cell;
      const k = 2 * (p * n + q), pair = cells.slice(k, k + 2);
      let text = `${names[p]} vs ${names[q]}: `;
      if (pair === "__") text += "no result";
      else {
        const v = 64 * code.indexOf(pair[0]) + code.indexOf(pair[1]);
        text += (v >> 2) / 10 + "%" + (v & 2 ? " ? undecided" : "") + (v & 1 ? " \u2714 point" : "");
      }
      tip.textContent = text;
      tip.hidden = false;
      tip.style.left = Math.min(event.clientX - box.left + 12, box.width - 200) + "px";
      tip.style.top = event.clientY - box.top + 12 + "px";
    });
    map.addEventListener("mouseleave", () => { tip.hidden = true; });
    map.addEventListener("click", (event) => {
      const cell = at(event);
      if (cell) location.hash = byPos[cell[0]].id;
    });
  }
})();
"""
