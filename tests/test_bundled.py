"""hogbench's own strategy files may run without bubblewrap where it is missing; nothing else.

Each test hides bwrap (as on macOS, or a Linux without it) and attacks the one door that lets
code run without it: what a student's folder would need to pass as ours.
"""

from __future__ import annotations

import ast
import hashlib
import shutil
from pathlib import Path

import pytest

from hogbench import bundled, sandbox
from hogbench import tournament as tm
from hogbench.errors import HogbenchError, UsageError
from hogbench.loading import load_entrant
from hogbench.rules import get_rules

ROOT = Path(__file__).resolve().parent.parent
STRATEGIES = ROOT / "strategies"
RULES = get_rules("hog-su21", 20)
FINAL = STRATEGIES / "hog_su21" / "final.py"
SIX = STRATEGIES / "hog_su21" / "always_roll_6.py"


@pytest.fixture(autouse=True)
def _no_bwrap(monkeypatch):
    monkeypatch.delenv(sandbox.SANDBOX_ENV, raising=False)
    monkeypatch.setattr(sandbox.bwrap, "bwrap_path", lambda: None)  # as on a machine without it


def test_the_manifest_is_the_strategies_folder():
    """Every file under strategies/ and nothing else; a file added or edited there must be
    recorded (with the line this prints) before it may run without the sandbox."""
    on_disk = {
        path.relative_to(STRATEGIES).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(STRATEGIES.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }
    lines = "\n".join(f'    "{name}": "{digest}",' for name, digest in on_disk.items())
    assert bundled.MANIFEST == on_disk, f"hogbench/bundled.py's MANIFEST should be:\n{lines}"


def test_the_bundled_files_import_nothing_that_needs_containing():
    """They run without bwrap: none may reach the file system, processes or the network."""
    for name in bundled.MANIFEST:
        tree = ast.parse((STRATEGIES / name).read_text())
        modules = {
            alias.name.split(".")[0]
            for n in ast.walk(tree)
            if isinstance(n, ast.Import)
            for alias in n.names
        } | {
            (n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
        }
        called = {
            n.func.id
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        assert modules <= {"random"}, (name, modules)
        assert not called & {"open", "exec", "eval", "compile", "__import__", "getattr"}, name


def _copy(source: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


def test_copies_of_bundled_files_are_bundled_wherever_they_are(tmp_path):
    """The content is what runs: a verbatim copy, under any name, runs our code."""
    _copy(FINAL, tmp_path / "subs" / "alice.py")
    _copy(SIX, tmp_path / "subs" / "bob" / "hog.py")
    t = tm.load_source([str(tmp_path / "subs")], rules="hog-su21", goal=20)
    result = tm.run(t)
    assert len(result.active) == 2 and not result.disqualified


@pytest.mark.parametrize(
    "tamper",
    [
        "one byte more",
        "a helper of its own beside it",
        "a dice.py of its own, which the course's files import",
    ],
)
def test_a_student_folder_cannot_pass_as_bundled(tmp_path, tamper):
    subs = tmp_path / "subs"
    _copy(SIX, subs / "bob.py")
    alice = _copy(FINAL, subs / "alice" / "hog.py")
    if tamper == "one byte more":
        alice.write_bytes(alice.read_bytes() + b"\n")
    elif tamper == "a helper of its own beside it":
        (alice.parent / "helper.py").write_text("import os\n")
    else:
        (alice.parent / "dice.py").write_text("import os\nos.remove('x')\n")
    t = tm.load_source([str(subs)], rules="hog-su21", goal=20)
    with pytest.raises(UsageError, match="needs? bubblewrap|install it") as caught:
        tm.run(t)
    assert "--no-sandbox" in str(caught.value)


def test_a_file_changed_after_the_check_is_refused_not_run(capsys):
    """A run let go on for its bundled files refuses any other file, rather than run it."""
    options = sandbox.SandboxOptions(bundled_only=True)
    assert sandbox.bwrap.choose(options, bundled=True) is None
    with pytest.raises(HogbenchError, match="no longer one of hogbench's own"):
        sandbox.bwrap.choose(options, bundled=False)
    assert capsys.readouterr().err == ""


def test_a_bundled_file_loads_quietly_and_require_sandbox_still_refuses(capsys):
    entrant = load_entrant(str(FINAL), RULES, cache=False)
    assert entrant.tableable and "warning" not in capsys.readouterr().err
    with pytest.raises(HogbenchError, match="refusing to run submitted code without"):
        load_entrant(str(FINAL), RULES, cache=False, require_sandbox=True)


def test_a_gauntlet_of_bundled_files_runs_and_a_students_challenger_needs_bwrap(tmp_path):
    field = [str(SIX), str(STRATEGIES / "hog_su21" / "always_roll_4.py")]
    me, rows = tm.gauntlet(RULES, str(FINAL), field)
    assert len(rows) == 2 and all(row.result is not None for row in rows)
    mine = tmp_path / "hog.py"
    mine.write_text("def final_strategy(score, opponent_score):\n    return 5\n")
    with pytest.raises(UsageError, match="--no-sandbox"):
        tm.gauntlet(RULES, str(mine), field)
