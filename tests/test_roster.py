"""Pair entries on the roster: "The contest may be entered individually or in pairs. Two people
submit a single entry [...] Each person in the course can only be associated with at most one
entry" (the contest's rules). Partners are roster lines with the same submission; each of them
finds the entry on the page, and has their own line in links.csv, extra_credit.csv and the
gradebook, with the entry's numbers and its credit."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from hogbench import results
from hogbench import roster as rs
from hogbench import tournament as tm
from hogbench.cli import app
from hogbench.errors import UsageError
from hogbench.report import files

runner = CliRunner()


def _class(tmp_path: Path) -> Path:
    """A single entry (ada), a pair (bo and cy, whose lines spell the path two ways), a
    disqualified pair (eve and fay), and a roster line with no submission (gus)."""
    subs = tmp_path / "subs"
    for folder, head, body in (
        ("ada", "TEAM_NAME = 'Team Ada'\n", "return 5"),
        ("bo_cy", "TEAM_NAME = 'Bo & Cy'\n", "return 6"),
        ("eve_fay", "", "return 1 // 0"),
    ):
        (subs / folder).mkdir(parents=True)
        (subs / folder / "hog.py").write_text(f"{head}def final_strategy(s, o):\n    {body}\n")
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "login,name,path\nada,Ada Lovelace,subs/ada\nbo,Bo Diddley,subs/bo_cy\n"
        "cy,Cy Young,subs/bo_cy/hog.py\neve,Eve Online,subs/eve_fay\n"
        "fay,Fay Wray,subs/eve_fay\ngus,Gus Missing,subs/gus\n"
    )
    return roster


def test_every_partner_of_a_pair_entry_has_its_row_links_credit_and_grade(tmp_path):
    roster = _class(tmp_path)
    t = tm.load_source(
        [str(tmp_path / "subs"), "always_roll:4"], goal=30, store=tmp_path / "s.sqlite"
    )
    result = tm.run(t)
    report = rs.apply(results.build(result, budget=0), rs.read(roster), result)
    by_name = {e.name: e for e in report.entrants}
    pair = by_name["Bo & Cy"]
    assert [(m.login, m.name) for m in pair.students] == [("bo", "Bo Diddley"), ("cy", "Cy Young")]
    assert by_name["Team Ada"].logins == ["ada"] and by_name["always_roll:4"].students == ()
    (banned,) = report.disqualified
    assert banned.logins == ["eve", "fay"] and "ZeroDivisionError" in banned.reason
    assert report.unmatched == [] and [m["login"] for m in report.missing] == ["gus"]

    out = tmp_path / "site"
    files.write_reports(report, out)
    links = {r["login"]: r for r in csv.DictReader((out / "links.csv").open())}
    assert set(links) == {"ada", "bo", "cy", "eve", "fay"}
    for login in ("bo", "cy"):
        assert links[login]["team"] == "Bo & Cy" and links[login]["rank"] == str(pair.rank)
        assert links[login]["url"] == f"index.html#e-{login}"
    assert links["fay"]["rank"] == "" and links["fay"]["url"] == "index.html#e-fay"

    # Three ranked entries: all three places earn credit; the pair's is each partner's.
    credit = list(csv.DictReader((out / "extra_credit.csv").open()))
    points = (3, 2, 1)[pair.rank - 1]
    assert [(r["login"], r["extra_credit"]) for r in credit if r["team"] == "Bo & Cy"] == [
        ("bo", str(points)),
        ("cy", str(points)),
    ]
    assert sum(int(r["extra_credit"]) for r in credit) == sum(
        (3, 2, 1)[e.rank - 1] * max(len(e.students), 1) for e in report.entrants
    )

    book = {r["login"]: r for r in csv.DictReader((out / "gradebook.csv").open())}
    assert list(book) == ["ada", "bo", "cy", "eve", "fay", "gus"]  # sorted by login
    for column in ("team", "rank", "points", "wins", "losses", "ties", "win_rate"):
        assert book["bo"][column] == book["cy"][column], column
    assert book["bo"]["extra_credit"] == book["cy"]["extra_credit"] == str(points)
    assert book["eve"]["status"] == book["fay"]["status"] == f"disqualified: {banned.reason}"
    assert book["gus"]["status"] == "no submission"

    standings = {r["entrant"]: r for r in csv.DictReader((out / "standings.csv").open())}
    assert standings["Bo & Cy"]["login"] == "bo; cy"
    assert standings["Bo & Cy"]["student"] == "Bo Diddley; Cy Young"
    data = json.loads((out / "results.json").read_text())
    (row,) = [s for s in data["standings"] if s["name"] == "Bo & Cy"]
    assert row["students"] == [  # each with the link that links.csv gives them
        {"login": "bo", "name": "Bo Diddley", "link": "index.html#e-bo"},
        {"login": "cy", "name": "Cy Young", "link": "index.html#e-cy"},
    ]
    (gone,) = [d for d in data["disqualified"] if "eve" in [m["login"] for m in d["students"]]]
    assert [m["link"] for m in gone["students"]] == [
        links[m["login"]]["url"] for m in gone["students"]
    ]
    page = (out / "index.html").read_text()
    for login in ("ada", "bo", "cy", "eve", "fay"):  # each login's link has one target
        assert page.count(f'id="e-{login}"') == 1, login
    assert "logins bo (Bo Diddley), cy (Cy Young)" in page


def test_a_login_on_two_lines_with_different_paths_is_one_clear_error(tmp_path):
    roster = tmp_path / "r.csv"
    roster.write_text("login,name,path\nada,Ada,subs/a\nbo,Bo,subs/a\nada,Ada,subs/b\n")
    with pytest.raises(UsageError) as caught:
        rs.read(roster)
    message = str(caught.value)
    assert "line 4: login 'ada' is on line 2 with another path" in message
    assert "a student is in one entry at most" in message and "\n" not in message
    # Partners share a path, however it is spelt: no error.
    roster.write_text("login,name,path\nada,Ada,subs/a\nbo,Bo,./subs/a\ncy,Cy,subs/x/../a\n")
    assert {s.path for s in rs.read(roster)} == {(tmp_path / "subs" / "a").resolve()}


def test_a_roster_path_that_holds_several_submissions_is_an_error(tmp_path, monkeypatch):
    """A folder above the students' own would make its student a partner in every entry."""
    _class(tmp_path)
    roster = tmp_path / "r.csv"
    roster.write_text("login,name,path\nada,Ada,subs/ada\nzed,Zed,subs\n")
    t = tm.load_source([str(tmp_path / "subs")], goal=30, store=tmp_path / "s.sqlite")
    result = tm.run(t)
    with pytest.raises(UsageError, match=r"line 3: the path of 'zed' holds 3 submissions"):
        rs.apply(results.build(result, budget=0), rs.read(roster), result)
    with pytest.raises(UsageError, match=r"line 3: the path of 'zed' holds 3 submissions"):
        rs.check(rs.read(roster), t.entrants)  # as the command line does, before any work
    monkeypatch.chdir(tmp_path)
    got = runner.invoke(app, ["tournament", "subs", "--roster", "r.csv", "--store", "x.sqlite"])
    assert got.exit_code == 2 and "holds 3 submissions" in got.stderr
    assert not (tmp_path / "x.sqlite").exists()  # said before any pair was played


def test_cli_names_both_partners(tmp_path, monkeypatch):
    _class(tmp_path)
    monkeypatch.chdir(tmp_path)
    got = runner.invoke(
        app, ["tournament", "subs", "--goal", "30", "--roster", "roster.csv", "--out", "site"]
    )
    assert got.exit_code == 0, got.output
    assert "(bo, cy)" in got.stdout and "on the roster with no submission: gus" in got.output
    assert "eve_fay (eve, fay)" in got.stdout  # a disqualified pair is named by its logins too
    assert (tmp_path / "site" / "gradebook.csv").is_file()


def test_extra_credit_goes_to_each_partner_of_a_shared_place():
    """A pair level with a single entry on second place: three students get 2 points."""

    def entrant(position, rank, *logins):
        members = tuple(results.Member(x, x.title()) for x in logins)
        return results.EntrantRecord(
            position, rank, f"e{position}", "s", None, False, [], 0, 0, 0, 0, None, None, None,
            0, 0, 0, None, None, None, None, "", [], members,
        )  # fmt: skip

    report = results.Report(
        "t", "hog-su21", "k", 100, {}, "exact", 0, 1, 0.5, True, None, False, {}, "", [
            entrant(0, 1, "a"), entrant(1, 2, "b", "c"), entrant(2, 2, "d"),
            entrant(3, 4, "e", "f"),
        ], [], [], [], *([np.zeros((0, 0))] * 9), np.zeros(0),
    )  # fmt: skip
    extra = rs.files_rows(report)["extra_credit.csv"]
    assert extra[0] == ["place", "login", "name", "team", "points", "extra_credit"]
    assert [(row[0], row[1], row[5]) for row in extra[1:]] == [
        (1, "a", 3), (2, "b", 2), (2, "c", 2), (2, "d", 2),
    ]  # fmt: skip


def test_logins_that_differ_only_in_case_are_one_student(tmp_path):
    """Their links (#e-ada) would be one: the roster says so instead of losing one."""
    roster = tmp_path / "r.csv"
    roster.write_text("login,name,path\nada,Ada,subs/a\nAda,Ada,subs/b\n")
    with pytest.raises(UsageError, match=r"line 3: login 'Ada' is on line 2 \(as 'ada'\)"):
        rs.read(roster)


def test_a_team_name_never_takes_another_entry_s_login_anchor():
    """Team "bo" (no login) and the pair of bo and cy: #e-bo reaches bo's entry, and the team
    named bo gets a numbered anchor; an entry keeps its own login as its id."""
    from hogbench.leaderboard import anchors

    names = ["bo", "Bo & Cy", "cy"]
    reserved = {"e-bo": 1, "e-cy": 1, "e-dee": -1}
    assert anchors(names, reserved) == ["e-bo-2", "e-bo-cy", "e-cy-2"]
    assert anchors(["dee", "ed"], {"e-ed": 1}) == ["e-dee", "e-ed"]  # an entry's own login
    assert anchors(["dee"], reserved) == ["e-dee-2"]  # a disqualified student's
    assert anchors(["a", "a", "a-2"]) == ["e-a", "e-a-2", "e-a-2-2"]  # never twice


def test_a_login_that_is_the_name_is_not_repeated_beside_it(tmp_path, monkeypatch):
    """A student's folder named after their login, and no TEAM_NAME: the entry is called by the
    login, and no view shows it twice ("dan (dan)"); a team's logins are still shown."""
    monkeypatch.chdir(tmp_path)
    for folder, head in (("dan", ""), ("bo_cy", "TEAM_NAME = 'Bo & Cy'\n")):
        (tmp_path / "subs" / folder).mkdir(parents=True)
        (tmp_path / "subs" / folder / "hog.py").write_text(
            f"{head}def final_strategy(s, o):\n    return 5\n"
        )
    (tmp_path / "roster.csv").write_text(
        "login,name,path\ndan,Dan Brown,subs/dan\nbo,Bo Diddley,subs/bo_cy\ncy,Cy Young,subs/bo_cy\n"
    )
    got = runner.invoke(
        app, ["tournament", "subs", "--goal", "30", "--roster", "roster.csv", "--out", "site"]
    )
    assert got.exit_code == 0, got.output
    assert "dan" in got.stdout and "dan (dan)" not in got.stdout and "(bo, cy)" in got.stdout
    page = (tmp_path / "site" / "index.html").read_text()
    assert '<span class="login">dan</span>' not in page
    assert '<span class="login">bo, cy</span>' in page
    assert page.count('id="e-dan"') == 1  # the login's link still reaches the row
