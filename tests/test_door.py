"""The door for a class: course-export layouts, entrants sealed off from each other, and odd
folder entries that disqualify only themselves.

Every tournament here runs real submissions through the real sandbox (bwrap where it works),
as root when the tests run as root.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from hogbench import sandbox
from hogbench import tournament as tm
from hogbench.discovery import discover
from hogbench.errors import UsageError
from hogbench.rules import get_rules
from hogbench.sandbox import bwrap as bwrap_module

GOAL = 20
RULES = get_rules("hog-su21", GOAL)

#: The course's hog.py as one student hands it in (flat folders hold one file per student).
COURSE_HOG = """
from dice import six_sided
from ucb import main, trace, interact

def piggy_points(score):
    return abs((score // 10) % 10 - score % 10) + 4

def final_strategy(score, opponent_score):
    return 0
"""
#: A classmate who leans on hog.py's functions, as students do with `from hog import *`.
LEANS_ON_HOG = """
from hog import *

def final_strategy(score, opponent_score):
    return 0 if piggy_points(opponent_score) >= 8 else 5
"""
COPYCAT = """
from alice import final_strategy
"""
ALICE = """
TEAM_NAME = "Alice"

def final_strategy(score, opponent_score):
    return 4 if score < 10 else 6
"""
FIVE = "def final_strategy(score, opponent_score):\n    return 5\n"


@pytest.fixture(autouse=True)
def _sandboxed(monkeypatch):
    monkeypatch.delenv(sandbox.SANDBOX_ENV, raising=False)
    if sandbox.bwrap_path() is None:
        pytest.skip("bwrap (bubblewrap) does not work here: the sealed door is untested")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def run(folder: Path, tmp_path: Path, **kw) -> tm.TournamentResult:
    t = tm.load_source([str(folder)], rules="hog-su21", goal=GOAL, **kw)
    t.store = tmp_path / "store.sqlite"
    return tm.run(t)


def by_spec(result: tm.TournamentResult) -> dict[str, tm.Slot]:
    return {Path(s.spec).name: s for s in result.slots}


def test_a_hog_py_in_a_flat_folder_takes_over_nobody(tmp_path):
    subs = tmp_path / "subs"
    write(subs / "hog.py", COURSE_HOG)
    write(subs / "bob.py", LEANS_ON_HOG)
    write(subs / "alice.py", ALICE)
    write(subs / "carol.py", FIVE)
    slots = by_spec(run(subs, tmp_path))
    # bob's file needs a hog.py that is not his: he does not get hog.py's 0s, he is told why
    assert slots["bob.py"].entrant is None
    assert "No module named 'hog'" in slots["bob.py"].disqualified
    assert slots["hog.py"].entrant is not None  # a submission like any other
    assert set(slots["hog.py"].entrant.table.choices.tolist()) == {0}
    assert set(slots["carol.py"].entrant.table.choices.tolist()) == {5}


def test_an_entrant_cannot_copy_a_classmates_strategy(tmp_path):
    subs = tmp_path / "subs"
    write(subs / "alice.py", ALICE)
    write(subs / "copycat.py", COPYCAT)
    write(subs / "carol.py", FIVE)
    slots = by_spec(run(subs, tmp_path))
    assert slots["copycat.py"].entrant is None
    assert "No module named 'alice'" in slots["copycat.py"].disqualified
    assert slots["alice.py"].name == "Alice"


def test_entrants_named_one_by_one_in_the_python_api_are_sealed_off_too(tmp_path):
    """A Tournament built from file paths (not a folder) must not hand each file its
    neighbours: they are classmates, not the student's own helpers."""
    subs = tmp_path / "subs"
    files = [write(subs / "alice.py", ALICE), write(subs / "copycat.py", COPYCAT)]
    slots = {Path(s.spec).name: s for s in tm.load_slots([str(f) for f in files], RULES)}
    assert slots["copycat.py"].entrant is None
    assert "No module named 'alice'" in slots["copycat.py"].disqualified
    assert slots["alice.py"].entrant is not None


def test_per_student_folders_are_entrants_named_after_the_student(tmp_path):
    subs = tmp_path / "export"
    write(subs / "alice" / "hog.py", "from helper import CHOICE\n" + FIVE.replace("5", "CHOICE"))
    write(subs / "alice" / "helper.py", "CHOICE = 3\n")
    write(subs / "bob" / "submission" / "hog.py", "from helper import CHOICE\n" + FIVE)
    write(subs / "carol" / "hog.py", FIVE.replace("5", "6"))
    write(subs / "carol" / "notes.txt", "not code")
    write(subs / "dice.py", "raise SystemExit('the course helper is never an entrant')\n")
    (subs / "images").mkdir()
    result = run(subs, tmp_path)
    names = {s.spec.split("/")[-1]: s for s in result.slots}
    assert set(names) == {"alice", "bob", "carol"}
    assert names["alice"].name == "alice" and names["alice"].entrant is not None
    assert set(names["alice"].entrant.table.choices.tolist()) == {3}  # its own helper
    # bob cannot reach alice's helper: his folder is all his worker sees
    assert "No module named 'helper'" in names["bob"].disqualified
    assert set(names["carol"].entrant.table.choices.tolist()) == {6}


def test_a_glob_and_identical_tables_flagged(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "subs" / "a.py", FIVE)
    write(tmp_path / "subs" / "b.py", "TEAM_NAME = 'B'\n" + FIVE)
    write(tmp_path / "subs" / "c.py", ALICE)
    t = tm.load_source(["subs/*.py", "always_roll:5"], rules="hog-su21", goal=GOAL)
    assert [e if isinstance(e, str) else e.spec for e in t.entrants] == [
        "subs/a.py",
        "subs/b.py",
        "subs/c.py",
        "always_roll:5",
    ]
    t.store = tmp_path / "store.sqlite"
    result = tm.run(t)
    slots = {s.spec: s for s in result.slots}
    assert sorted(slots["subs/a.py"].same_as) == ["B", "always_roll:5"]
    assert slots["subs/c.py"].same_as == []


def test_odd_folder_entries_disqualify_only_themselves(tmp_path):
    subs = tmp_path / "subs"
    write(subs / "good.py", ALICE)
    write(subs / "also_good.py", FIVE)
    write(subs / "a:b.py", FIVE.replace("5", "4"))  # a legal file name, if an odd one
    (subs / "folder.py").mkdir()
    os.mkfifo(subs / "fifo.py")
    (subs / "zero.py").symlink_to("/dev/zero")
    write(tmp_path / "secret" / "hog.py", FIVE)
    (subs / "outside.py").symlink_to(tmp_path / "secret" / "hog.py")
    write(subs / "huge.py", "# " + "x" * (2 << 20) + "\n" + FIVE)
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(subs / "socket.py"))
        result = run(subs, tmp_path)
    slots = by_spec(result)
    reasons = {name: slot.disqualified for name, slot in slots.items()}
    assert reasons["folder.py"] == "is a folder, not a file"
    assert "not a regular file" in reasons["fifo.py"]
    assert "not a regular file" in reasons["socket.py"]
    assert "outside its folder" in reasons["zero.py"]
    assert "outside its folder" in reasons["outside.py"]
    assert "larger than 1 MB" in reasons["huge.py"]
    assert {s.spec.split("/")[-1] for s in result.active} == {"good.py", "also_good.py", "a:b.py"}
    assert len(result.results) == 3 * 2


def test_without_a_working_sandbox_a_tournament_refuses_unless_told(tmp_path, monkeypatch):
    write(tmp_path / "subs" / "a.py", FIVE)
    write(tmp_path / "subs" / "b.py", ALICE)
    monkeypatch.setattr(sandbox.bwrap, "bwrap_path", lambda: None)
    with pytest.raises(UsageError, match="--no-sandbox") as caught:
        run(tmp_path / "subs", tmp_path)
    assert "change or delete your files" in str(caught.value)
    result = run(tmp_path / "subs", tmp_path, no_sandbox=True)
    assert len(result.active) == 2


def test_discovery_never_opens_what_it_finds(tmp_path):
    os.mkfifo(tmp_path / "fifo.py")  # opening it for reading would block forever
    (entry,) = discover([str(tmp_path)], tmp_path)
    assert entry.problem is not None and "not a regular file" in entry.problem


@pytest.mark.parametrize(
    "command",
    [
        ["check", "{f}"],
        ["duel", "{f}", "always_roll:6", "-n", "100"],
        ["watch", "{f}", "always_roll:6"],
        ["play", "{f}"],
        ["solve", "--against", "{f}"],
        ["analyze", "{f}"],
        ["show", "{f}"],
        ["experiment", "win-rate", "{f}", "-n", "100"],
        ["tournament", "{f}", "always_roll:6"],
        ["gauntlet", "{f}", "always_roll:6"],
    ],
)
def test_every_command_that_loads_a_file_takes_require_sandbox(command, tmp_path, monkeypatch):
    """--require-sandbox refuses to run a file without bwrap, on every command that loads one."""
    from typer.testing import CliRunner

    from hogbench.cli import app

    path = write(tmp_path / "mine.py", FIVE)
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path / "cache"))  # a cold cache: the file runs
    monkeypatch.setattr(bwrap_module, "turned_off", lambda request=None: True)  # --no-sandbox
    args = [part.format(f=path) for part in command]
    result = CliRunner().invoke(app, [*args, "--require-sandbox"], input="y\n")
    assert result.exit_code != 0, result.output
    assert "without the sandbox" in result.output or "bwrap" in result.output, result.output
    assert "Traceback" not in result.output
