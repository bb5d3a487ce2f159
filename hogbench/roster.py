"""A class roster: which student each entrant is, and the files a course's staff publish from it.

The roster is a CSV file with the columns ``login``, ``name`` and ``path``: the student's login,
their name, and their submission (a file, or the student's folder), relative to the roster's
own folder. ``apply`` gives each entrant of a ``results.Report`` its login and name, and lists
the submissions no roster line names and the roster lines with no submission.

``files_rows`` then gives the files written beside the page:

* ``links.csv``: login, name, rank and the address of the student's row on the page;
* ``extra_credit.csv``: the contest's extra credit for the top three, by the contest's rule;
* ``gradebook.csv``: one line per roster student, submission or not, for a gradebook import.
"""

from __future__ import annotations

import csv
import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hogbench.errors import UsageError
from hogbench.results import Report
from hogbench.tournament.round_robin import TournamentResult

COLUMNS = ("login", "name", "path")
#: The contest's extra credit by place: "The top 3 submissions will receive 3, 2, and 1
#: points of extra credit, respectively" (Hog contest text, the course's rules).
EXTRA_CREDIT = (3, 2, 1)
#: Files the roster adds to a tournament's reports.
ROSTER_FILES = ("links.csv", "extra_credit.csv", "gradebook.csv")


@dataclass(frozen=True)
class Student:
    login: str
    name: str
    path: Path  # resolved: the submission's file or folder


def read(path: Path) -> list[Student]:
    """The roster's students; UsageError naming the line for anything wrong in it."""
    if not path.is_file():
        raise UsageError(f"--roster {path}: no such file")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"--roster {path}: cannot be read as UTF-8 text ({exc})") from None
    reader = csv.DictReader(text.splitlines())
    header = [h.strip().lower() for h in reader.fieldnames or []]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise UsageError(
            f"--roster {path}: needs the columns login, name and path; missing {', '.join(missing)}"
        )
    reader.fieldnames = header
    students: list[Student] = []
    seen: dict[str, int] = {}
    for line, row in enumerate(reader, start=2):
        login = (row.get("login") or "").strip()
        where = (row.get("path") or "").strip()
        if not login and not where:
            continue  # a blank line
        if not login or not where:
            raise UsageError(f"--roster {path}, line {line}: login and path are both needed")
        if login in seen:
            raise UsageError(
                f"--roster {path}, line {line}: login {login!r} is also on line {seen[login]}"
            )
        seen[login] = line
        resolved = Path(os.path.normpath(path.parent / where)).resolve()
        students.append(Student(login, (row.get("name") or "").strip(), resolved))
    return students


def _owner(slot_path: Path | None, folder: Path | None, students: list[Student]) -> Student | None:
    """The student whose roster path is the entrant's file, or its folder, or holds it."""
    if slot_path is None:
        return None
    targets = [p.resolve() for p in (slot_path, folder) if p is not None]
    for student in students:
        for target in targets:
            if target == student.path or student.path in target.parents:
                return student
    return None


def apply(report: Report, students: list[Student], result: TournamentResult) -> Report:
    """REPORT with each entrant's login and name from the roster, and the two lists: entrants
    no roster line names (``unmatched``), and roster lines with no submission (``missing``)."""
    by_spec = {slot.spec: slot for slot in result.slots}
    claimed: set[str] = set()
    entrants = []
    unmatched: list[str] = []
    for e in report.entrants:
        slot = by_spec.get(e.spec)
        student = _owner(slot.path, slot.folder, students) if slot else None
        if student is None:
            if slot is not None and slot.path is not None:
                unmatched.append(e.name)
            entrants.append(e)
            continue
        claimed.add(student.login)
        entrants.append(dataclasses.replace(e, login=student.login, student=student.name))
    disqualified = []
    for d in report.disqualified:
        slot = by_spec.get(d.spec)
        student = _owner(slot.path, slot.folder, students) if slot else None
        if student is None:
            unmatched.append(d.name)
            disqualified.append(d)
            continue
        claimed.add(student.login)
        disqualified.append(dataclasses.replace(d, login=student.login, student=student.name))
    missing = [
        {"login": s.login, "name": s.name, "path": str(s.path)}
        for s in students
        if s.login not in claimed
    ]
    return dataclasses.replace(
        report,
        entrants=entrants,
        disqualified=disqualified,
        unmatched=unmatched,
        missing=missing,
    )


def row_link(page_url: str, login: str) -> str:
    """The address of a student's row on the page: PAGE_URL and ``#e-LOGIN``."""
    from hogbench.leaderboard import login_anchor

    return f"{page_url}#{login_anchor(login)}"


def extra_credit(report: Report) -> list[tuple[int, Any, int]]:
    """(place, entrant record, points) for the students who earn the contest's extra credit.

    The contest text: "We will rank submissions based on the number of matches they won. Ties
    count as losses." and "The top three submissions will earn the following: First place gets
    3 points of extra credit, Second place gets 2 points, Third place gets 1 point". It says no
    more about submissions level on match points, so they share their place, as the standings
    count ranks ("1, 2, 2, 4"): each earns the credit of the place they share, and a place
    taken by a tie is not given again (two second places leave no third). The tie-break of the
    standings (average win rate) orders the lines, not the credit.
    """
    awarded = []
    for e in report.entrants:
        if e.rank <= len(EXTRA_CREDIT):
            awarded.append((e.rank, e, EXTRA_CREDIT[e.rank - 1]))
    return awarded


def files_rows(report: Report, page_url: str = "index.html") -> dict[str, list[list[Any]]]:
    """The rows of links.csv, extra_credit.csv and gradebook.csv (see the module's text), by
    file name; PAGE_URL is the page's address, to which the links add the row's anchor."""
    links: list[list[Any]] = [["login", "name", "team", "rank", "url"]]
    gradebook: list[list[Any]] = [
        ["login", "name", "team", "rank", "points", "wins", "losses", "ties", "win_rate"]
        + ["extra_credit", "status"]
    ]
    credit = {e.position: points for _, e, points in extra_credit(report)}
    placed = {}
    for e in report.entrants:
        if e.login:
            links.append([e.login, e.student, e.name, e.rank, row_link(page_url, e.login)])
            placed[e.login] = e
    for d in report.disqualified:
        if d.login:
            links.append([d.login, d.student, d.name, "", row_link(page_url, d.login)])
    by_login = {d.login: d for d in report.disqualified if d.login}
    logins = [e.login for e in report.entrants if e.login] + list(by_login)
    logins += [m["login"] for m in report.missing]
    names = {m["login"]: m["name"] for m in report.missing}
    for login in sorted(logins):
        if login in placed:
            e = placed[login]
            gradebook.append(
                [login, e.student, e.name, e.rank, e.points, e.wins, e.losses, e.ties]
                + [e.win_rate, credit.get(e.position, 0), "ranked"]
            )
        elif login in by_login:
            d = by_login[login]
            gradebook.append(
                [login, d.student, d.name, "", "", "", "", "", "", 0]
                + [f"disqualified: {d.reason}"]
            )
        else:
            gradebook.append([login, names[login], "", "", "", "", "", "", "", 0, "no submission"])
    extra: list[list[Any]] = [["place", "login", "name", "team", "points", "extra_credit"]]
    for place, e, points in extra_credit(report):
        extra.append([place, e.login, e.student, e.name, e.points, points])
    return dict(zip(ROSTER_FILES, (links, extra, gradebook), strict=True))
