"""The one report model (hogbench.results) and its views: every output of a tournament says the
same standings, records and pair results; W/L/T, tie-break, regret, Elo and LOS, SPRT pairs,
the terminal's width, undecided pairs in every view, and check's notes."""

from __future__ import annotations

import csv
import dataclasses
import html
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console
from typer.testing import CliRunner

from hogbench import exact, results, stats
from hogbench import tournament as tm
from hogbench.cli import app
from hogbench.errors import UsageError
from hogbench.loading import load_entrant
from hogbench.report import files, terminal
from hogbench.rules import get_rules

BUILTINS = ["always_roll:3", "always_roll:5", "always_roll:6", "piggypoints_strategy"]
runner = CliRunner()


def small(specs, tmp_path, **kw) -> tm.Tournament:
    kw.setdefault("store", tmp_path / "store.sqlite")
    return tm.Tournament("t", get_rules("hog-su21", 30), list(specs), **kw)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """Exact pairs among tables, Monte Carlo pairs with one live entrant, written out."""
    tmp = tmp_path_factory.mktemp("mixed")
    live = Path(__file__).parent / "files" / "randomised.py"
    t = small([*BUILTINS, "always_roll:4", str(live)], tmp, games=400, seed=2, allow_live=True)
    result = tm.run(t)
    report = results.build(result)
    out = tmp / "out"
    files.write_reports(report, out)
    return result, report, out


def _terminal_text(report: results.Report, width: int = 200, view: str = "rate") -> str:
    console = Console(record=True, width=width, color_system=None)
    terminal.print_report(console, terminal.console_report(report, None, width, view))
    return console.export_text()


def test_every_output_gives_the_same_standings_records_and_pairs(mixed):
    """The contract: terminal, standings.csv, results.json, pairs.csv, matrix.csv and the
    page, read back each its own way, agree with the model and with each other."""
    result, report, out = mixed
    names = report.names
    expect = [(e.name, e.rank, e.points, e.wins, e.losses, e.ties) for e in report.entrants]
    # The model agrees with the round robin's own standings.
    assert [(s.name, s.rank, s.points) for s in result.standings] == [x[:3] for x in expect]
    data = json.loads((out / "results.json").read_text())
    got = [
        (s["name"], s["rank"], s["points"], s["wins"], s["losses"], s["ties"])
        for s in data["standings"]
    ]
    assert got == expect
    rows = [r for r in csv.DictReader((out / "standings.csv").open()) if r["rank"]]
    got = [
        (r["entrant"], int(r["rank"]), int(r["points"]), int(r["wins"]), int(r["losses"]))
        + (int(r["ties"]),)
        for r in rows
    ]
    assert got == expect
    page = (out / "index.html").read_text()
    cells = re.findall(
        r'data-full="([^"]*)"><td class="num" data-v="\d+">(?:<span[^>]*></span>)*<a [^>]*>'
        r'(\d+)=?</a>.*?<td class="num" data-v="(\d+)">\d+.*?<td class="num" data-v="-?\d+">'
        r"(\d+)-(\d+)-(\d+)</td>",
        page,
    )
    got = [
        (html.unescape(n), int(r), int(p), int(w), int(lo), int(t)) for n, r, p, w, lo, t in cells
    ]
    assert got == expect
    text = _terminal_text(report)
    for name, rank, points, w, lo, t in expect:
        line = next(x for x in text.splitlines() if f" {name} " in x or f" {name}\u00a0" in x)
        assert re.search(rf"^\W*{rank}=?\W", line) and f" {points} " in line
        assert f"{w}-{lo}-{t}" in line
    # Pairs: the same rate everywhere (to the digits each format keeps).
    rate = {(names[r.a], names[r.b]): r.win_rate for r in report.pairs}
    in_csv = {
        (r["a"], r["b"]): float(r["win_rate"]) for r in csv.DictReader((out / "pairs.csv").open())
    }
    assert in_csv.keys() == rate.keys()
    assert all(in_csv[k] == pytest.approx(v, abs=1e-12) for k, v in rate.items())
    in_json = {}
    for kind in ("exact", "mc"):
        columns = data["pairs"][f"{kind}_columns"]
        for row in data["pairs"][kind]:
            r = dict(zip(columns, row, strict=True))
            in_json[names[r["a"]], names[r["b"]]] = r["win_rate"]
    assert in_json.keys() == rate.keys()
    assert all(in_json[k] == pytest.approx(v, abs=1e-4) for k, v in rate.items())
    matrix = list(csv.reader((out / "matrix.csv").open()))
    for row in matrix[1:]:
        for q, cell in enumerate(row[1:]):
            if cell:
                pair = (row[0], matrix[0][q + 1])
                want = rate.get(pair, None)
                want = 1 - rate[pair[::-1]] if want is None else want
                assert float(cell) == pytest.approx(want, abs=1e-12)
    shown = re.findall(r'title="([^"]*) vs ([^"]*): ([\d.]+)%', page)
    assert len(shown) == len(names) * (len(names) - 1)
    for a, b, pct in shown:
        pair = (html.unescape(a), html.unescape(b))
        want = rate[pair] if pair in rate else 1 - rate[pair[::-1]]
        assert float(pct) == pytest.approx(100 * want, abs=0.006)


def test_records_add_up_and_match_the_points(mixed):
    _, report, _ = mixed
    n = len(report.entrants)
    for e in report.entrants:
        assert e.wins + e.losses + e.ties == n - 1
        assert e.wins == e.points  # a pair won is a match point taken
    assert sum(e.wins for e in report.entrants) == sum(e.losses for e in report.entrants)


def test_wlt_of_pairs_exact_and_monte_carlo(mixed):
    """Monte Carlo: games won, lost and tied, summing to the games played (twice the game
    pairs), which is what pairs.csv calls games. Exact Hog cannot tie: win and loss
    probabilities are the rate and its complement."""
    _, report, out = mixed
    assert not report.can_tie
    mc = [r for r in report.pairs if not r.exact]
    assert mc
    for r in mc:
        assert r.wins + r.losses + r.ties == r.games == 2 * sum(r.joint) <= r.cap
        assert r.win_rate == pytest.approx((r.wins + r.ties / 2) / r.games)
    rows = {(r["a"], r["b"]): r for r in csv.DictReader((out / "pairs.csv").open())}
    for r in mc:
        row = rows[report.names[r.a], report.names[r.b]]
        assert int(row["games"]) == r.games and int(row["cap"]) == 400
        assert int(row["games"]) == 2 * int(row["pairs"])
    for r in (r for r in report.pairs if r.exact):
        assert (r.wins, r.losses, r.ties) == (r.win_rate, 1 - r.win_rate, 0.0)


def test_a_rule_set_with_ties_does_not_fold_them_into_wins(tmp_path):
    """Greed can tie: an exact pair's W/L/T splits the tie from the win (tests/test_exact_ties.py
    checks the chances), and the W/L/T view shows the three, with no half-counted cell."""
    t = tm.Tournament("g", get_rules("greed"), ["sample1", "sample2"], store=tmp_path / "s.sqlite")
    report = results.build(tm.run(t), budget=0)
    assert report.can_tie
    for r in report.pairs:
        assert r.ties > 0 and r.win_rate == pytest.approx(r.wins + r.ties / 2, abs=1e-12)
    text = _terminal_text(report, view="wlt")
    assert "not split" not in text and "½" not in text


def test_elo_and_likelihood_of_superiority_against_hand_figures():
    # 75% is 3:1 odds: 400 log10(3) Elo.
    assert stats.elo_difference(0.75) == pytest.approx(400 * math.log10(3))
    assert stats.elo_difference(0.5) == 0
    assert stats.elo_difference(0.25) == pytest.approx(-400 * math.log10(3))
    # 100 pairs scoring 1 point (both won), 100 scoring 0: mean 0.5, LOS exactly a half.
    even = stats.PairedEstimate((100, 0, 0, 0, 100))
    assert stats.likelihood_of_superiority(even) == pytest.approx(0.5)
    # Pair scores 1 (x60) and 0.5 (x40): mean 0.8 per game; variance by hand.
    est = stats.PairedEstimate((0, 0, 40, 0, 60))
    mean = (40 * 0.5 + 60 * 1.0) / 100
    var = (40 * 0.25 + 60 * 1.0) / 100 - mean**2
    z = (mean - 0.5) / math.sqrt(var / 100)
    assert stats.likelihood_of_superiority(est) == pytest.approx(0.5 * (1 + math.erf(z / 2**0.5)))


def test_pairs_carry_elo_and_los(mixed):
    _, report, out = mixed
    for r in report.pairs:
        assert r.elo == pytest.approx(stats.elo_difference(r.win_rate))
        if r.exact:
            assert r.los == (0.5 if r.win_rate == 0.5 else float(r.win_rate > 0.5))
        else:
            assert r.elo_low <= r.elo <= r.elo_high and 0 <= r.los <= 1
    text = _terminal_text(report)
    assert "LOS" in text and "Elo" in text


def test_regret_only_against_every_opponent_and_checked_by_the_solver(tmp_path):
    """All exact: each entrant's regret is the mean, over every opponent, of the best
    response's rate (solved here independently) minus its own."""
    result = tm.run(small(BUILTINS, tmp_path))
    report = results.build(result)
    rules = result.tournament.rules
    names = report.names
    best = {}
    for e in report.entrants:
        table = load_entrant(e.spec, rules).table.choices
        solved = exact.solve(rules, table)
        best[e.name] = (solved.first + solved.second) / 2
    for p, e in enumerate(report.entrants):
        gaps = [max(best[names[q]] - report.rates[p, q], 0) for q in range(len(names)) if q != p]
        assert e.regret == pytest.approx(float(np.mean(gaps)), abs=1e-9)
        assert e.regret_max == pytest.approx(max(gaps), abs=1e-9) and e.regret_note == ""


def test_the_tie_break_is_shown_and_the_rank_stays_shared(tmp_path):
    """Entrants level on match points share their rank; the average win rate orders them."""
    specs = ["always_roll:4", "always_roll:2", "always_roll:8"]
    result = tm.run(small([*specs, "piggypoints_strategy"], tmp_path))
    report = results.build(result, budget=0)
    ranks = [e.rank for e in report.entrants]
    points = [e.points for e in report.entrants]
    for p in range(1, len(ranks)):
        assert (ranks[p] == ranks[p - 1]) == (points[p] == points[p - 1])
        if points[p] == points[p - 1]:  # the tie-break orders them
            assert report.entrants[p - 1].win_rate >= report.entrants[p].win_rate
    text = _terminal_text(report)
    assert "tie-break" in text
    shared = [terminal.rank_text(report, p) for p in range(len(ranks))]
    assert all(s.endswith("=") == (ranks.count(r) > 1) for s, r in zip(shared, ranks, strict=True))


def test_the_matrix_fits_the_terminal_or_says_where_the_rest_is(tmp_path):
    specs = [f"always_roll:{k}" for k in range(1, 11)] + ["piggypoints_strategy"]
    report = results.build(tm.run(small(specs, tmp_path)), budget=0)
    for width in (50, 60, 70):
        text = _terminal_text(report, width)
        assert max(len(line) for line in text.splitlines()) <= width
        shown = terminal.matrix_fit(report, width)
        assert 0 < shown < len(specs)
        assert f"the top {shown} fit in {width} columns" in text
    wide = _terminal_text(report, 400)
    assert "fit in" not in wide
    wlt = _terminal_text(report, 400, "wlt")
    assert "wins/losses/ties of the row" in wlt
    r = report.pairs[0]
    assert f"{100 * r.wins:.0f}/{100 * r.losses:.0f}/{100 * r.ties:.0f}" in wlt


def test_cli_matrix_wlt_and_records_in_json(tmp_path):
    got = runner.invoke(
        app,
        ["tournament", *BUILTINS, "--goal", "30", "--store", str(tmp_path / "s.sqlite"),
         "--matrix", "wlt"],
    )  # fmt: skip
    assert got.exit_code == 0, got.output
    assert "W-L-T" in got.output and "wins/losses/ties" in got.output
    got = runner.invoke(
        app,
        ["tournament", *BUILTINS, "--goal", "30", "--store", str(tmp_path / "s.sqlite"), "--json"],
    )
    data = json.loads(got.stdout)
    assert all({"wins", "losses", "ties"} <= set(s) for s in data["standings"])


def test_undecided_pairs_are_marked_in_every_view(tmp_path):
    """Two strategies a hair apart, played to a tiny cap: undecided. The terminal, the page's
    table, its heatmap codes, pairs.csv and results.json all say so."""
    from hogbench import leaderboard

    t = small(["always_roll:5", "always_roll:6", "always_roll:4"], tmp_path, mode="mc", games=60)
    report = results.build(tm.run(t), budget=0)
    assert report.undecided.any()
    p, q = map(int, np.argwhere(report.undecided)[0])
    assert "?" in terminal.cell_text(report, p, q)
    assert "? undecided" in _terminal_text(report)
    value = 4 * round(1000 * report.rates[p, q]) + 2 + int(report.scored[p, q])
    codes = leaderboard.cell_codes(report)
    k = 2 * (p * len(report.names) + q)
    assert codes[k : k + 2] == leaderboard._CODE[value // 64] + leaderboard._CODE[value % 64]
    out = tmp_path / "out"
    files.write_reports(report, out)
    page = (out / "index.html").read_text()
    assert "undecided" in page and "?</td>" in page
    decisions = [r["decision"] for r in csv.DictReader((out / "pairs.csv").open())]
    assert "undecided" in decisions


def test_undecided_cells_are_drawn_in_the_heatmap(tmp_path):
    """The picture differs where undecided pairs are marked (a grey x over the cell)."""
    pytest.importorskip("matplotlib")
    from hogbench import plots

    t = small(["always_roll:5", "always_roll:6", "always_roll:4"], tmp_path, mode="mc", games=60)
    report = results.build(tm.run(t), budget=0)
    assert report.undecided.any()
    plots.matrix_png(report, tmp_path / "with.png", "t")
    report.undecided[:] = False
    plots.matrix_png(report, tmp_path / "without.png", "t")
    assert (tmp_path / "with.png").read_bytes() != (tmp_path / "without.png").read_bytes()


def test_a_name_the_font_lacks_is_drawn_without_a_warning(tmp_path, recwarn):
    """A team name in a script the picture's font lacks (fullwidth ＝, as a formula-minded
    student might write) is drawn with boxes, quietly: a warning per glyph is noise in a
    course's run, and the full name is in results.json and the CSVs."""
    pytest.importorskip("matplotlib")
    from hogbench import plots

    t = small(["always_roll:5", "always_roll:6"], tmp_path)
    report = results.build(tm.run(t), budget=0)
    plots.matrix_png(report, tmp_path / "m.png", "＝SUM(1) $\\pwned{x}$")
    plots.standings_png(report, tmp_path / "s.png", "＝SUM(1)")
    assert [str(w.message) for w in recwarn if "Glyph" in str(w.message)] == []
    assert (tmp_path / "m.png").stat().st_size > 0


def test_sprt_stops_monte_carlo_pairs_and_decides_them(tmp_path):
    """A clear gap (always_roll:6 against always_roll:1 to 30) is decided by the test long
    before the cap, and the test's verdict is the pair's decision, from both sides."""
    t = small(
        ["always_roll:6", "always_roll:1"], tmp_path, mode="mc", games=20_000, sprt=(0.45, 0.55)
    )
    report = results.build(tm.run(t), budget=0)
    (pair,) = report.pairs
    assert pair.mode == "sprt:0.45,0.55"
    assert pair.games < 20_000 and pair.decision == "above"
    strong = report.names[pair.a]
    assert strong == "always_roll:6" and report.entrants[0].points == 1
    key = tm.PairKey("r", "a", "b", "sprt:0.45,0.55", 0, 100)
    flipped = tm.PairResult(key, 0, 0, (10, 0, 0, 0, 0, 0, 0, 0, 0)).flipped()
    assert flipped.key.mode == "sprt:0.45,0.55"
    key = tm.PairKey("r", "a", "b", "sprt:0.5,0.6", 0, 100)
    flipped = tm.PairResult(key, 0, 0, (10, 0, 0, 0, 0, 0, 0, 0, 0)).flipped()
    assert flipped.key.mode == "sprt:0.4,0.5" and flipped.decision(0.5, 2) == "below"


def test_sprt_in_the_tournament_file_and_the_gauntlet(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(
        'entrants = ["always_roll:6", "always_roll:1"]\nmode = "mc"\nsprt = "0.45,0.55"\n'
    )
    assert tm.load_source([str(path)]).sprt == (0.45, 0.55)
    path.write_text('entrants = ["always_roll:6", "always_roll:1"]\nsprt = "0.6,0.5"\n')
    with pytest.raises(UsageError) as info:
        tm.load_source([str(path)])
    assert "key 'sprt'" in str(info.value) and "P0 below P1" in str(info.value)
    live = str(Path(__file__).parent / "files" / "randomised.py")
    got = runner.invoke(
        app,
        ["gauntlet", "always_roll:6", "--against", live, "--goal", "30", "--allow-live",
         "--sprt", "0.45,0.55", "-n", "4000", "--json"],
    )  # fmt: skip
    assert got.exit_code == 0, got.output
    (row,) = json.loads(got.stdout)["opponents"]
    assert row["mode"] == "sprt:0.45,0.55" and row["elo"] is not None
    bad = runner.invoke(app, ["gauntlet", "always_roll:6", "-a", "always_roll:1", "--sprt", "x"])
    assert bad.exit_code == 2 and "--sprt" in bad.output


def test_checks_notes_reach_every_report(tmp_path):
    """A submission that answers 4 everywhere (the skeleton) is noted, as check notes it."""
    skeleton = tmp_path / "subs" / "lazy.py"
    skeleton.parent.mkdir()
    skeleton.write_text("def final_strategy(score, opponent_score):\n    return 4\n")
    t = small([str(skeleton), "always_roll:6", "always_roll:3"], tmp_path)
    report = results.build(tm.run(t), budget=0)
    (noted,) = [e for e in report.entrants if e.notes]
    assert noted.notes == ["it answers 4 at every state (as an unfinished skeleton does)"]
    out = tmp_path / "out"
    files.write_reports(report, out)
    note = noted.notes[0]
    assert note in _terminal_text(report)
    assert note in (out / "standings.csv").read_text()
    assert note in html.unescape((out / "index.html").read_text())
    assert any(
        note in s["notes"] for s in json.loads((out / "results.json").read_text())["standings"]
    )


def test_full_team_names_in_files_short_in_views(tmp_path):
    long = "A" * 30 + " the team with a very long name indeed, longer than forty characters"
    sub = tmp_path / "subs" / "long.py"
    sub.parent.mkdir()
    sub.write_text(f"TEAM_NAME = {long!r}\ndef final_strategy(s, o):\n    return 5\n")
    t = small([str(sub), "always_roll:6", "always_roll:3"], tmp_path)
    report = results.build(tm.run(t), budget=0)
    assert long in report.names
    out = tmp_path / "out"
    files.write_reports(report, out)
    assert long in (out / "standings.csv").read_text()
    assert long in [s["name"] for s in json.loads((out / "results.json").read_text())["standings"]]
    page = (out / "index.html").read_text()
    assert f'<span title="{html.escape(long)}">' in page  # shortened, the full name on hover
    assert long not in _terminal_text(report) and long[:20] in _terminal_text(report)


def test_one_naming_rule_for_every_way_of_listing(tmp_path):
    """Without TEAM_NAME: the student's folder, or a flat file's stem, however listed."""
    body = "def final_strategy(s, o):\n    return 5\n"
    (tmp_path / "subs" / "me_author").mkdir(parents=True)
    (tmp_path / "subs" / "me_author" / "hog.py").write_text(body)
    (tmp_path / "subs" / "flat_fred.py").write_text(body.replace("5", "6"))
    ways = [
        [str(tmp_path / "subs")],
        [str(tmp_path / "subs" / "*")],
        [str(tmp_path / "subs" / "me_author"), str(tmp_path / "subs" / "flat_fred.py")],
        [str(tmp_path / "subs" / "me_author" / "hog.py"), str(tmp_path / "subs" / "flat_fred.py")],
    ]
    for way in ways:
        slots = tm.load_slots(
            tm.load_source([*way, "always_roll:3"]).entrants, get_rules("hog-su21", 30)
        )
        assert sorted(s.name for s in slots) == ["always_roll:3", "flat_fred", "me_author"], way


# -- the roster ---------------------------------------------------------------------------------
def _class_folder(tmp_path: Path) -> Path:
    """Four students' folders and a flat file; two with TEAM_NAMEs."""
    subs = tmp_path / "subs"
    for login, team, dice in (("ada", "Team Ada", 5), ("bo", None, 6), ("cy", "Cy & co", 4)):
        folder = subs / login
        folder.mkdir(parents=True)
        head = f"TEAM_NAME = {team!r}\n" if team else ""
        (folder / "hog.py").write_text(f"{head}def final_strategy(s, o):\n    return {dice}\n")
    (subs / "stray.py").write_text("def final_strategy(s, o):\n    return 3\n")
    return subs


def _roster(tmp_path: Path) -> Path:
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "login,name,path\nada,Ada Lovelace,subs/ada\nbo,Bo Diddley,subs/bo/hog.py\n"
        "cy,Cy Young,subs/cy\ndee,Dee Missing,subs/dee\n"
    )
    return roster


def test_a_roster_maps_entrants_to_students_and_lists_the_rest(tmp_path):
    from hogbench import roster as rs

    subs, roster = _class_folder(tmp_path), _roster(tmp_path)
    t = tm.load_source([str(subs)], goal=30, store=tmp_path / "s.sqlite", roster=roster)
    assert t.roster == roster
    result = tm.run(t)
    report = rs.apply(results.build(result, budget=0), rs.read(roster), result)
    by_login = {e.logins[0]: e for e in report.entrants if e.students}
    assert all(len(e.students) <= 1 for e in report.entrants)
    assert {k: v.name for k, v in by_login.items()} == {
        "ada": "Team Ada",
        "bo": "bo",
        "cy": "Cy & co",
    }
    assert by_login["ada"].students[0].name == "Ada Lovelace"
    assert report.unmatched == ["stray"]
    assert [m["login"] for m in report.missing] == ["dee"]
    out = tmp_path / "out"
    written = files.write_reports(report, out)
    assert {p.name for p in written} >= {"links.csv", "extra_credit.csv", "gradebook.csv"}
    links = {r["login"]: r for r in csv.DictReader((out / "links.csv").open())}
    assert set(links) == {"ada", "bo", "cy"}
    assert links["ada"]["url"] == "index.html#e-ada" and links["ada"]["rank"] == str(
        by_login["ada"].rank
    )
    book = {r["login"]: r for r in csv.DictReader((out / "gradebook.csv").open())}
    assert set(book) == {"ada", "bo", "cy", "dee"} and book["dee"]["status"] == "no submission"
    assert book["cy"]["wins"] == str(by_login["cy"].wins)
    credit = list(csv.DictReader((out / "extra_credit.csv").open()))
    # The top three places get 3, 2, 1; ranks are shared as the standings share them.
    for row in credit:
        assert int(row["extra_credit"]) == (3, 2, 1)[int(row["place"]) - 1]
    assert sum(e.rank <= 3 for e in report.entrants) == len(credit)
    page = (out / "index.html").read_text()
    assert (
        'id="e-ada"' in page and "no submission: dee" in page and "not on the roster: stray" in page
    )
    data = json.loads((out / "results.json").read_text())
    assert data["roster"]["not_on_roster"] == ["stray"]
    assert sorted(m["login"] for s in data["standings"] for m in s["students"]) == [
        "ada",
        "bo",
        "cy",
    ]


def test_extra_credit_follows_shared_places():
    """Two level on points share second place and each gets 2; nobody is third."""
    from hogbench import roster as rs

    def entrant(position, rank):
        return results.EntrantRecord(
            position, rank, f"e{position}", "s", None, False, [], 0, 0, 0, 0, None, None, None,
            0, 0, 0, None, None, None, None, "", [],
        )  # fmt: skip

    report = results.Report(
        "t", "hog-su21", "k", 100, {}, "exact", 0, 1, 0.5, True, None, False, {}, "", [
            entrant(0, 1), entrant(1, 2), entrant(2, 2), entrant(3, 4)
        ], [], [], [], *([np.zeros((0, 0))] * 9), np.zeros(0),
    )  # fmt: skip
    assert [(place, e.name, points) for place, e, points in rs.extra_credit(report)] == [
        (1, "e0", 3), (2, "e1", 2), (2, "e2", 2),
    ]  # fmt: skip


def test_roster_errors_name_the_line(tmp_path):
    from hogbench import roster as rs

    bad = tmp_path / "r.csv"
    bad.write_text("login,name\nada,Ada\n")
    with pytest.raises(UsageError, match="missing path"):
        rs.read(bad)
    bad.write_text("login,name,path\nada,Ada,subs/a\nada,Ada again,subs/a\n")
    with pytest.raises(UsageError, match="line 3: login 'ada' is also on line 2"):
        rs.read(bad)
    bad.write_text("login,name,path\nada,Ada,subs/a\nada,Ada again,subs/b\n")
    with pytest.raises(
        UsageError,
        match=r"line 3: login 'ada' is on line 2 with another path"
        r" \(subs/b here, subs/a there\)",
    ):
        rs.read(bad)
    with pytest.raises(UsageError, match="no such file"):
        rs.read(tmp_path / "none.csv")


def test_cli_roster_and_tournament_file_key(tmp_path, monkeypatch):
    subs = _class_folder(tmp_path)
    _roster(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "class.toml").write_text(
        'entrants = ["subs"]\nroster = "roster.csv"\ngoal = 30\nout = "site"\n'
    )
    got = runner.invoke(app, ["tournament", "class.toml"])
    assert got.exit_code == 0, got.output
    assert "(ada)" in got.output and "on the roster with no submission: dee" in got.output
    assert (tmp_path / "site" / "links.csv").is_file()
    got = runner.invoke(app, ["tournament", str(subs), "--goal", "30", "--roster", "nope.csv"])
    assert got.exit_code == 2 and "nope.csv" in got.output


def test_every_setting_with_an_option_is_the_tournament_commands():
    """One schema: each setting's command-line option is the tournament command's, and the
    tournament file's keys are the schema's keys."""
    import inspect
    import typing

    from hogbench import cli

    helps = {}
    for parameter in inspect.signature(cli.tournament).parameters.values():
        for meta in typing.get_args(parameter.annotation)[1:]:
            first = getattr(meta, "default", None)  # typer keeps the first flag there
            flags = [first] if isinstance(first, str) and first.startswith("-") else []
            for flag in [*flags, *(getattr(meta, "param_decls", None) or ())]:
                helps[flag] = meta.help
    shown = runner.invoke(app, ["tournament", "--help"]).output
    for setting in tm.SETTINGS:
        if setting.option is None:
            continue
        for flag in setting.flags:
            assert flag in helps and flag in shown, (setting.key, flag)
        # Options every command shares keep their shared help; the rest are the schema's.
        shared = ("rules", "goal", "options", "allow_imports", "allow_live", "no_sandbox")
        if setting.key not in (*shared, "require_sandbox"):
            assert helps[setting.option] == setting.cli_help, setting.key
    assert list(tm.TOML_KEYS) == [s.key for s in tm.SETTINGS]


@pytest.mark.parametrize("width", [80, 99, 100, 120, 200])
def test_the_standings_keep_a_line_an_entrant_at_any_width(mixed, width):
    """Every entrant is one line of the standings, within the width, its figures whole and its
    name cut with an ellipsis where the room runs out; the count of pairs is shown from 100
    columns, and below that the text says where it is."""
    _, report, _ = mixed
    long = dataclasses.replace(
        report,
        entrants=[
            dataclasses.replace(e, name=f"{e.name} of the team with the longest name of all")
            for e in report.entrants
        ],
    )
    text = _terminal_text(long, width)
    table = text[: text.index("W-L-T: pairs won")].splitlines()
    assert max(len(line) for line in table) <= width
    lines = [line for line in table if "%" in line]
    assert len(lines) == len(report.entrants)
    for e, line in zip(report.entrants, lines, strict=True):
        assert f"{e.wins}-{e.losses}-{e.ties}" in line and terminal.pct(e.win_rate) in line
        assert f"{e.name[:8]}" in line and "…" in line
    wide = width >= terminal.WIDE_STANDINGS
    assert (" exact" in lines[0]) == wide
    assert ("each entrant's pairs in standings.csv" in " ".join(text.split())) != wide


def test_the_monte_carlo_table_fits_the_terminal(mixed):
    """Tables fit the width; only free text lines may be longer (the terminal wraps them)."""
    _, report, _ = mixed
    for width in (80, 100, 140):
        text = _terminal_text(report, width)
        tables = [line for line in text.splitlines() if "│" in line or "┃" in line]
        assert tables and max(len(line) for line in tables) <= width
        assert "Monte Carlo pairs" in text
    assert "games played and intervals in pairs.csv" in _terminal_text(report, 80)


def _hand_result(rng: np.random.Generator, n: int, ties: bool) -> tm.TournamentResult:
    """A finished exact round robin of N made-up entrants, each pair kept from the side of a
    random one of its two, with tie chances where TIES (as Greed's are)."""
    rules = get_rules("greed" if ties else "hog-su21")
    t = tm.Tournament("hand", rules, [])
    slots = [tm.Slot(f"s{k}", f"Entrant {k}") for k in range(n)]
    once = {}
    for i in range(n):
        for j in range(i + 1, n):
            a, b = (i, j) if rng.random() < 0.5 else (j, i)
            first, second = rng.uniform(0.05, 0.95, 2)
            tied = tuple(rng.uniform(0, 0.05, 2)) if ties else None
            key = tm.PairKey(rules.key, f"k{a}", f"k{b}", "exact", 0, 0)
            once[a, b] = tm.PairResult(key, float(first), float(second), ties=tied)
    results = tm.PairResults(once)
    rates = np.full((n, n), np.nan)
    for (i, j), r in results.items():
        rates[i, j] = r.win_rate
    from hogbench.standings import standings

    return tm.TournamentResult(
        tournament=t,
        slots=slots,
        active=slots,
        results=results,
        standings=standings([s.name for s in slots], rates, t.threshold),
        rates=rates,
        failures=[],
        computed=len(once),
        stored=0,
        seconds=0.0,
    )


@pytest.mark.parametrize("ties", [False, True])
def test_exact_pairs_are_reported_as_each_pair_says_one_at_a_time(ties):
    """The report fills its matrices and records of exact pairs all at once; each cell and
    record must be what the pair's own result says, seen from either side (PairResult's
    win_rate, split and flipped, one pair at a time), to the last bit."""
    result = _hand_result(np.random.default_rng(7), 9, ties)
    report = results.build(result, budget=0)
    order = [s.index for s in result.standings]
    assert all(r.b_win_rate == r.flipped().win_rate for _, r in result.results.once())
    records = {(r.a, r.b): r for r in report.pairs}
    assert list(records) == sorted(records) and len(records) == 9 * 8 // 2
    for p, i in enumerate(order):
        for q, j in enumerate(order):
            if p == q:
                continue
            seen = result.results[i, j]  # from i's side, flipped if kept from j's
            assert report.rates[p, q] == seen.win_rate
            assert report.scored[p, q] == (seen.win_rate > result.tournament.threshold)
            split = seen.split or (seen.win_rate, 1 - seen.win_rate, 0.0)
            cells = (report.wins[p, q], report.losses[p, q], report.ties[p, q])
            assert cells == split
            if p < q:
                record = records[p, q]
                assert (record.first, record.second, record.win_rate) == (
                    seen.first,
                    seen.second,
                    seen.win_rate,
                )
                assert (record.wins, record.losses, record.ties) == split
                assert record.decision == ("above" if seen.win_rate > 0.500001 else "below")
                assert record.elo == results.elo(seen.win_rate)


def test_a_tournament_with_every_entrant_disqualified_still_reports(tmp_path, monkeypatch):
    """No entrant left in the standings: an empty table and the disqualified, never a
    traceback."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "subs").mkdir()
    for name, body in (("a", "return 1 // 0"), ("b", "return 11")):
        (tmp_path / "subs" / f"{name}.py").write_text(f"def final_strategy(s, o):\n    {body}\n")
    got = runner.invoke(app, ["tournament", "subs", "--goal", "30", "--store", "s.sqlite"])
    assert got.exit_code == 0, got.output
    assert "ZeroDivisionError" in got.stdout and "returned 11" in got.stdout
    assert "rank" in got.stdout and "Traceback" not in got.output
