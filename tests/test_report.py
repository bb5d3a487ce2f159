"""Tournament reports: the files, their contents, and the HTML page as a browser shows it."""

from __future__ import annotations

import csv
import html
import json
import re
import shutil
import subprocess
import warnings
from html.parser import HTMLParser
from pathlib import Path

import pytest
from rich.console import Console

from hogbench import results
from hogbench import tournament as tm
from hogbench.report import files, terminal
from hogbench.rules import get_rules

# A team name that tries to be markup in every output: HTML, a script, Rich, a terminal escape.
NASTY = "</script><b>Bold</b>[red]Red[/red]\x1b[2J"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    nasty = tmp / "nasty.py"
    nasty.write_text(f"TEAM_NAME = {NASTY!r}\ndef final_strategy(s, o):\n    return 4\n")
    crash = tmp / "crash.py"
    crash.write_text("def final_strategy(s, o):\n    return 1 // (o - 5)\n")
    specs = ["always_roll:3", "always_roll:6", "piggypoints_strategy", str(nasty), str(crash)]
    specs.append(str(Path(__file__).parent / "files" / "randomised.py"))
    t = tm.Tournament(
        "Report test", get_rules("hog-su21", 30), specs, games=100, seed=4, allow_live=True
    )
    t.store = tmp / "store.sqlite"
    return tm.run(t)


@pytest.fixture(scope="module")
def out(result, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("out")
    files.write_reports(results.build(result), folder)
    return folder


def test_the_files_are_written(out, result):
    assert sorted(p.name for p in out.iterdir()) == [
        "index.html",
        "matrix.csv",
        "matrix.png",
        "pairs.csv",
        "results.json",
        "standings.csv",
        "standings.png",
    ]
    for picture in ("matrix.png", "standings.png"):
        assert (out / picture).read_bytes().startswith(b"\x89PNG")
    rows = list(csv.DictReader((out / "standings.csv").open()))
    ranked = [r for r in rows if r["rank"]]
    assert [r["entrant"] for r in ranked] == [s.name for s in result.standings]
    assert [int(r["points"]) for r in ranked] == [s.points for s in result.standings]
    banned = [r for r in rows if r["status"].startswith("disqualified")]
    assert len(banned) == 1 and "ZeroDivisionError" in banned[0]["status"]
    matrix = list(csv.reader((out / "matrix.csv").open()))
    n = len(result.standings)
    assert len(matrix) == n + 1 and all(len(row) == n + 1 for row in matrix)
    live = next(
        k for k, s in enumerate(result.standings) if result.active[s.index].entrant.live_reason
    )
    cells = [float(row[k]) for row in matrix[1:] for k in range(1, n + 1) if row[k]]
    assert len(cells) == n * (n - 1) and all(0 <= c <= 1 for c in cells)  # numbers only
    pairs = list(csv.DictReader((out / "pairs.csv").open()))
    name = result.standings[live].name
    mc = [p for p in pairs if p["mode"] == "mc"]
    assert mc and all(name in (p["a"], p["b"]) for p in mc)
    for p in mc:  # W/L/T in their own columns, the paired interval around the rate
        assert int(p["wins"]) + int(p["losses"]) + int(p["ties"]) == 2 * int(p["pairs"])
        assert float(p["ci_low"]) <= float(p["win_rate"]) <= float(p["ci_high"])
        assert p["decision"] in ("above", "below", "undecided")


def test_results_json_has_every_pair_and_the_versions(out, result):
    data = json.loads((out / "results.json").read_text())
    n = len(result.standings)
    pairs = data["pairs"]
    assert len(pairs["exact"]) + len(pairs["mc"]) == n * (n - 1) // 2
    assert (data["mode"], data["seed"], data["games"]) == ("exact", 4, 100)
    assert set(data["versions"]) == {"hogbench", "python", "numpy", "numba"}
    mc = [dict(zip(pairs["mc_columns"], row, strict=True)) for row in pairs["mc"]]
    assert len(mc) == n - 1 and all(2 * sum(p["joint"]) == 100 for p in mc)
    for p in mc:  # a and b are places in the standings; the rates are those of the run
        a, b = result.standings[p["a"]].index, result.standings[p["b"]].index
        assert p["win_rate"] == pytest.approx(result.results[a, b].win_rate, abs=1e-4)
        assert p["ci_low"] <= p["win_rate"] <= p["ci_high"]
    exact = [dict(zip(pairs["exact_columns"], row, strict=True)) for row in pairs["exact"]]
    for p in exact:
        assert p["win_rate"] == pytest.approx((p["first"] + p["second"]) / 2, abs=1e-8)
    assert data["disqualified"][0]["reason"]


def test_regret_is_measured_against_an_exact_best_response(out, result):
    """No strategy does better against an opponent than the best response to it, so every
    regret is at least 0, and the best response's rate is at least every exact pair's."""
    data = json.loads((out / "results.json").read_text())
    rows = data["standings"]
    best = [s["best_response_win_rate"] for s in rows]
    tables = [result.active[s.index].entrant.tableable for s in result.standings]
    assert all((b is not None) == t for b, t in zip(best, tables, strict=True))
    pairs = data["pairs"]
    for a, b, _first, _second, rate, *_ in pairs["exact"]:
        assert rate <= best[b] + 1e-9 and 1 - rate <= best[a] + 1e-9
    # One entrant plays live (by Monte Carlo): nobody's regret is known against every
    # opponent, so none is given, and each row says why (tests/test_results.py has regret).
    for s in rows:
        assert s["regret"] is None
        if s["live"]:
            assert s["regret_note"].startswith("none: only exact pairs have one")
        else:
            assert s["regret_note"].startswith(f"not computed: 1 of its {len(rows) - 1}")
    # always_roll:6 against always_roll:3: hand-checkable from the pair rows themselves.
    where = {s["name"]: k for k, s in enumerate(rows)}
    six, three = where["always_roll:6"], where["always_roll:3"]
    rate = next(
        r[4] if (r[0], r[1]) == (six, three) else 1 - r[4]
        for r in pairs["exact"]
        if {r[0], r[1]} == {six, three}
    )
    assert best[three] - rate >= 0


def test_the_page_is_self_contained_and_escapes_names(out, result):
    page = (out / "index.html").read_text()
    assert "http://" not in page and "https://" not in page and "<link" not in page
    # The only thing it loads is a picture beside it (the matrix is a table at this size).
    assert set(re.findall(r'src="([^"]*)"', page)) == {"standings.png"}
    assert page.count("<script") == 1  # its own
    shown = next(s.name for s in result.standings if s.name.startswith("</script>"))
    assert "</script><b>" not in page and html.escape(shown) in page  # text, not markup


def test_terminal_report_shows_names_as_text(result):
    console = Console(record=True, width=200, color_system=None)
    terminal.print_report(console, terminal.console_report(results.build(result)))
    text = console.export_text()
    # The name as text (markup shown, not applied), cut to the terminal's name column.
    assert "</script><b>Bold</b>[red]Re" in text and "\x1b[2J" not in text
    assert "disqualified" in text and "Monte Carlo pairs" in text


class _Standings(HTMLParser):
    """The rows of table#standings as lists of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.inside = dict(attrs).get("id") == "standings"
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def shown_standings(page: Path, tmp_path: Path, fragment: str = "") -> list[list[str]]:
    """Open PAGE in headless Chromium and read the standings it shows after its script ran."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        reason = "Chromium is not installed (Debian: apt-get install chromium): page not opened"
        warnings.warn(reason, stacklevel=1)
        pytest.skip(reason)
    profile = tmp_path / f"profile{len(fragment)}"
    done = subprocess.run(
        [browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom"]
        + [page.resolve().as_uri() + fragment],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    parser = _Standings()
    parser.feed(done.stdout)
    return parser.rows


def test_the_page_in_chromium_shows_the_standings(out, result, tmp_path):
    rows = shown_standings(out / "index.html", tmp_path)
    assert rows[0] == [
        "rank", "entrant", "points", "W-L-T", "win rate (tie-break)", "rating", "regret", "pairs"
    ]  # fmt: skip
    shown = rows[1:]
    assert len(shown) == len(result.standings)
    for cells, s in zip(shown, result.standings, strict=True):
        assert cells[0].rstrip("=") == str(s.rank) and cells[2].split()[0] == str(s.points)
        assert cells[1].startswith(s.name)  # the name exactly as text, "(live)" may follow
        assert cells[3].split("-")[0] == str(s.points)  # pairs won: the match points
        assert cells[4] == f"{100 * s.win_rate:.2f}%"
    # Sorting works: the fragment picks the first sort, as a click on the header would.
    by_rate = shown_standings(out / "index.html", tmp_path, "#sort=-win_rate")[1:]
    rates = [float(cells[4].rstrip("%")) for cells in by_rate]
    assert rates == sorted(rates, reverse=True)
