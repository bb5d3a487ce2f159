"""A class roster: which student each entrant is, and the files a course's staff publish from it.

The roster is a CSV file with the columns ``login``, ``name`` and ``path``: the student's login,
their name, and their submission (a file, or the student's folder), relative to the roster's
own folder. "The contest may be entered individually or in pairs. Two people submit a single
entry [...] Each person in the course can only be associated with at most one entry" (the
contest's rules): partners are two lines with the same path, and a login on two lines with
different paths is an error. ``apply`` gives each entrant of a ``results.Report`` its students
(logins and names), and lists the submissions no roster line names and the roster lines with no
submission.

``files_rows`` then gives the files written beside the page:

* ``links.csv``: login, name, rank and the address of the student's row on the page;
* ``extra_credit.csv``: the contest's extra credit for the top three, by the contest's rule,
  one line per student (each partner of a pair gets the entry's credit);
* ``gradebook.csv``: one line per roster student, submission or not, for a gradebook import.

Every partner of an entry has their own line in each.
"""

from __future__ import annotations

import csv
import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hogbench.errors import UsageError
from hogbench.names import login_anchor
from hogbench.results import Member, Report
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
    line: int = 0  # in the roster file, for messages

    @property
    def member(self) -> Member:
        return Member(self.login, self.name)


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
    seen: dict[str, tuple[Student, str]] = {}  # login -> its line, and its path as written
    for line, row in enumerate(reader, start=2):
        login = (row.get("login") or "").strip()
        where = (row.get("path") or "").strip()
        if not login and not where:
            continue  # a blank line
        if not login or not where:
            raise UsageError(f"--roster {path}, line {line}: login and path are both needed")
        resolved = Path(os.path.normpath(path.parent / where)).resolve()
        # Logins are told apart as their links are (``#e-LOGIN``): Ada and ada are one student.
        same = login_anchor(login)
        if same in seen:
            first, written = seen[same]
            also = "" if first.login == login else f" (as {first.login!r})"
            if first.path != resolved:
                raise UsageError(
                    f"--roster {path}, line {line}: login {login!r} is on line {first.line}{also}"
                    f" with another path ({where} here, {written} there); a student is in"
                    " one entry at most (the contest's rules): keep one of the lines"
                )
            raise UsageError(
                f"--roster {path}, line {line}: login {login!r} is also on line {first.line}{also}"
            )
        student = Student(login, (row.get("name") or "").strip(), resolved, line)
        seen[same] = student, where
        students.append(student)
    return students


def _owners(slot_path: Path | None, folder: Path | None, students: list[Student]) -> list[Student]:
    """The students whose roster path is the entrant's file, or its folder, or holds it: one,
    or the partners of a pair entry, in roster order."""
    if slot_path is None:
        return []
    targets = [p.resolve() for p in (slot_path, folder) if p is not None]
    return [
        student
        for student in students
        if any(target == student.path or student.path in target.parents for target in targets)
    ]


def _one_entry_each(students: list[Student], entries: dict[str, list[str]]) -> None:
    """UsageError for a roster line whose path holds more than one submission (a folder above
    the students' own): its student would be in several entries. ENTRIES: login -> names."""
    for student in students:
        held = entries.get(student.login, [])
        if len(held) > 1:
            some = ", ".join(held[:3]) + (", ..." if len(held) > 3 else "")
            raise UsageError(
                f"--roster, line {student.line}: the path of {student.login!r} holds"
                f" {len(held)} submissions ({some}); give the student's own file or folder"
            )


def check(students: list[Student], entrants: list[Any]) -> None:
    """Before any work: the roster lines whose path holds several of the tournament's
    ENTRANTS (discovery's entries, which know their file and folder; an entrant named by a
    string is matched after loading, by ``apply``)."""
    entries: dict[str, list[str]] = {}
    for entry in entrants:
        path = getattr(entry, "path", None)
        share = getattr(entry, "share", None)
        folder = share if share is not None and share != path else None
        for student in _owners(path, folder, students):
            entries.setdefault(student.login, []).append(getattr(entry, "name", str(entry)))
    _one_entry_each(students, entries)


def apply(report: Report, students: list[Student], result: TournamentResult) -> Report:
    """REPORT with each entrant's students (logins and names) from the roster, and the two
    lists: entrants no roster line names (``unmatched``), and roster lines with no submission
    (``missing``). UsageError for a roster line whose path holds more than one submission
    (a folder above the students' own): the student would be in several entries."""
    by_spec = {slot.spec: slot for slot in result.slots}
    entries: dict[str, list[str]] = {}  # login -> the entrants it was given to
    unmatched: list[str] = []

    def members(name: str, spec: str, disqualified: bool) -> tuple[Member, ...]:
        slot = by_spec.get(spec)
        owners = _owners(slot.path, slot.folder, students) if slot else []
        # A built-in strategy is nobody's; a disqualified entrant is a submission, if odd.
        if not owners and (disqualified or (slot is not None and slot.path is not None)):
            unmatched.append(name)
        for student in owners:
            entries.setdefault(student.login, []).append(name)
        return tuple(student.member for student in owners)

    entrants = [
        dataclasses.replace(e, students=members(e.name, e.spec, False)) for e in report.entrants
    ]
    disqualified = [
        dataclasses.replace(d, students=members(d.name, d.spec, True)) for d in report.disqualified
    ]
    _one_entry_each(students, entries)
    missing = [
        {"login": s.login, "name": s.name, "path": str(s.path)}
        for s in students
        if s.login not in entries
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
    return f"{page_url}#{login_anchor(login)}"


def extra_credit(report: Report) -> list[tuple[int, Any, int]]:
    """(place, entrant record, points) for the entries that earn the contest's extra credit.

    The contest text: "We will rank submissions based on the number of matches they won. Ties
    count as losses." and "The top three submissions will earn the following: First place gets
    3 points of extra credit, Second place gets 2 points, Third place gets 1 point". It says no
    more about submissions level on match points, so they share their place, as the standings
    count ranks ("1, 2, 2, 4"): each earns the credit of the place they share, and a place
    taken by a tie is not given again (two second places leave no third). The tie-break of the
    standings (average win rate) orders the lines, not the credit. The credit is an entry's,
    and "Two people submit a single entry": each partner of a pair earns it (``files_rows``).
    """
    awarded = []
    for e in report.entrants:
        if e.rank <= len(EXTRA_CREDIT):
            awarded.append((e.rank, e, EXTRA_CREDIT[e.rank - 1]))
    return awarded


def files_rows(report: Report, page_url: str = "index.html") -> dict[str, list[list[Any]]]:
    """The rows of links.csv, extra_credit.csv and gradebook.csv (see the module's text), by
    file name; PAGE_URL is the page's address, to which the links add the row's anchor. Each
    partner of an entry has their own line, with the entry's numbers."""
    links: list[list[Any]] = [["login", "name", "team", "rank", "url"]]
    gradebook: list[list[Any]] = [
        ["login", "name", "team", "rank", "points", "wins", "losses", "ties", "win_rate"]
        + ["extra_credit", "status"]
    ]
    credit = {e.position: points for _, e, points in extra_credit(report)}
    book: dict[str, list[Any]] = {}
    for e in report.entrants:
        for m in e.students:
            links.append([m.login, m.name, e.name, e.rank, row_link(page_url, m.login)])
            book[m.login] = [m.login, m.name, e.name, e.rank, e.points, e.wins, e.losses]
            book[m.login] += [e.ties, e.win_rate, credit.get(e.position, 0), "ranked"]
    for d in report.disqualified:
        for m in d.students:
            links.append([m.login, m.name, d.name, "", row_link(page_url, m.login)])
            book[m.login] = [m.login, m.name, d.name, "", "", "", "", "", "", 0]
            book[m.login] += [f"disqualified: {d.reason}"]
    for m in report.missing:
        book[m["login"]] = [m["login"], m["name"], "", "", "", "", "", "", "", 0, "no submission"]
    gradebook += [book[login] for login in sorted(book)]
    extra: list[list[Any]] = [["place", "login", "name", "team", "points", "extra_credit"]]
    for place, e, points in extra_credit(report):
        for m in e.students or (Member("", ""),):  # an entry no roster line names: one line
            extra.append([place, m.login, m.name, e.name, e.points, points])
    return dict(zip(ROSTER_FILES, (links, extra, gradebook), strict=True))
