"""Every hogbench command the README shows runs, as shown, and exits as it should.

The commands run in a copy of the bundled strategies and tournaments, so the files they write
(reports, exported strategies, plots) land in a temporary folder.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
#: Commands inside the README's code blocks; comments after them are cut.
COMMANDS = [
    re.split(r"\s+#", line)[0].strip()
    for block in re.findall(r"```[a-z]*\n(.*?)```", README, flags=re.S)
    for line in block.splitlines()
    if line.startswith("hogbench ")
]
#: Exit codes a command may end with (check exits 1 for an invalid file, as documented).
EXPECTED_EXIT = {"hogbench check strategies/hog_su21/random_roller.py --rules hog-contest": 1}


def test_the_readme_shows_commands():
    assert len(COMMANDS) >= 15 and any("tournament tournaments/demo.toml" in c for c in COMMANDS)


#: Commands that read what an earlier one writes. Tests run on several workers, in any order, so
#: where the earlier one has not run in this worker's folder, it runs first.
NEEDS = {"hogbench show optimal.py --png optimal.png": "hogbench solve --export optimal.py"}


@pytest.fixture(scope="session")
def workdir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("readme")
    for name in ("strategies", "tournaments"):
        shutil.copytree(ROOT / name, folder / name)
    return folder


#: The README's first command: it must run where bubblewrap is missing (macOS, a bare Linux).
FIRST = "hogbench tournament tournaments/demo.toml"
#: The demo's planted faults, each disqualified with its reason.
PLANTED = {
    "buggy_eleven.py": "returned 11",
    "crashes.py": "ZeroDivisionError",
    "forgot_return.py": "returned None",
    "slowpoke.py": "timed out",
}


def _run(command: str, workdir: Path, hide_bwrap: bool = False) -> subprocess.CompletedProcess:
    args = shlex.split(command)[1:]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if hide_bwrap:  # a PATH with nothing on it: hogbench runs as sys.executable anyway
        empty = workdir / "empty-path"
        empty.mkdir(exist_ok=True)
        env["PATH"] = str(empty)
    return subprocess.run(
        [sys.executable, "-m", "hogbench", *args],
        cwd=workdir,
        env=env,
        input="y\n" + "4\nr\nh\n" * 60,  # for play: go first, then moves (EOF ends a game)
        capture_output=True,
        text=True,
        timeout=600,  # the demo, cold, on a busy 2-core machine: up to 3 minutes
    )


_ran: set[str] = set()  # in this worker's folder


def test_the_first_command_runs_without_bubblewrap(workdir):
    """Every planted fault is still disqualified with its reason, and one line says why the
    demo may run without the sandbox."""
    first_block = re.search(r"```[a-z]*\n(.*?)```", README, flags=re.S).group(1)
    assert first_block.strip().endswith(f"&& {FIRST}")
    done = _run(FIRST, workdir, hide_bwrap=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "hogbench's own bundled strategy files" in done.stderr
    assert "warning" not in done.stderr
    rows = {line.split("│")[1].strip(): line for line in done.stdout.splitlines() if "│" in line}
    for name, why in PLANTED.items():
        row = rows.get(f"strategies/hog_su21/{name}", "")
        assert why in row, f"{name}: {row!r}"


@pytest.mark.parametrize("command", [c for c in COMMANDS if c != FIRST])
def test_readme_command_runs(command, workdir):
    if command in NEEDS and NEEDS[command] not in _ran:
        assert _run(NEEDS[command], workdir).returncode == 0
    done = _run(command, workdir)
    _ran.add(command)
    assert done.returncode == EXPECTED_EXIT.get(command, 0), done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def test_the_readme_names_every_rule_set():
    """The table of rule sets is where a student looks for their term: none may be missing."""
    from hogbench.rules import names

    table = README.split("## Rule sets", 1)[1].split("\n## ", 1)[0]
    missing = [name for name in names() if f"`{name}`" not in table]
    assert not missing, f"rule sets missing from the README's table: {missing}"
