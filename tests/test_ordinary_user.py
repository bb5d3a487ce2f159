"""The hostile corpus as a whole class, run by an ordinary user (not root), with bubblewrap and
with the sandbox asked off: the tournament finishes, every bad entrant gets its own reason, the
good entrants are ranked, and nothing in the submissions folder or outside it changes.

The test runs hogbench in a child process under ``setpriv`` as the user ``nobody``, so it needs to
start as root (CI does); elsewhere it is skipped with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from hogbench import sandbox
from tests.test_sandbox import CORPUS, FILES, NOT_IN_FALLBACK, PWNED, snapshot

NOBODY = 65534
#: Attacks on other entrants, the host and the tournament itself (the slow time-outs are left to
#: the per-file tests).
ATTACKS = [
    "read_other.py",
    "write_own_folder.py",
    "write_home.py",
    "write_tmp.py",
    "remount_rw.py",
    "kill_parent.py",
    "fork_bomb.py",
    "network.py",
    "socketpair.py",
    "io_uring.py",
    "patch_hogbench.py",
    "forge_protocol.py",
    "segfault.py",
    "memory_bomb.py",
    "returns_eleven.py",
    "reply_deep_json.py",
    "reply_flood.py",
    "reply_many_items.py",
    "reply_not_utf8.py",
    "reply_bad_codes.py",
    "starts_thread.py",
    "thread_bomb.py",
    "reach_parent.py",
]


def as_nobody(args: list[str], home: Path, root: bool = False) -> subprocess.CompletedProcess:
    """hogbench ARGS run as the user nobody (ROOT: as root, with the same environment)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "HOGBENCH_CACHE": str(home / "cache"),
        "NUMBA_CACHE_DIR": str(home / "numba"),
        "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
    }
    command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    if root:
        command = []
    return subprocess.run(
        [*command, sys.executable, "-m", "hogbench", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        timeout=600,
    )


def names_of(file: str) -> set[str]:
    """The names a file of the class folder may be shown by in the results."""
    return {f"subs/{file}", file, Path(file).stem}


@pytest.fixture
def classroom():
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run hogbench as the ordinary user 'nobody'")
    reach = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "env"]
    if subprocess.run([*reach, sys.executable, "-c", "import hogbench"]).returncode != 0:
        pytest.skip(f"the user 'nobody' cannot run {sys.executable} with hogbench")
    root = Path(tempfile.mkdtemp(prefix="hogbench-class-"))
    root.chmod(0o755)
    home = root / "home"
    home.mkdir()
    os.chown(home, NOBODY, NOBODY)
    subs = root / "subs"
    subs.mkdir()
    yield root, home, subs
    shutil.rmtree(root)


@pytest.mark.slow  # 6-8 s CPU each, 130 s wall on a busy machine
@pytest.mark.parametrize("sandboxed", [True, False], ids=["bwrap", "no-sandbox"])
def test_a_hostile_class_run_by_an_ordinary_user(classroom, sandboxed):
    root, home, subs = classroom
    if sandboxed and sandbox.bwrap_path() is None:
        pytest.skip("bwrap (bubblewrap) is missing or cannot make namespaces here")
    attacks = ATTACKS if sandboxed else [a for a in ATTACKS if a not in NOT_IN_FALLBACK]
    for name in attacks:
        shutil.copy(CORPUS / name, subs / name)
    shutil.copy(FILES / "good_su21.py", subs / "good_a.py")
    (subs / "good_b.py").write_text("def final_strategy(score, opponent_score):\n    return 4\n")
    (root / "other").mkdir()
    (root / "other" / "secret.txt").write_text("SECRET-of-another-team")
    before = {folder: snapshot(root / folder) for folder in ("subs", "other")}
    for path in PWNED:
        assert not path.exists(), f"{path} is left over from an earlier run: remove it"

    args = ["tournament", str(subs), "--goal", "10", "--time-limit", "2", "--jobs", "1"]
    done = as_nobody([*args, "--json", *([] if sandboxed else ["--no-sandbox"])], home)
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads(done.stdout)

    ranked = {row["name"] for row in data["standings"]}
    assert ranked & names_of("good_b.py") and len(ranked) >= 2, ranked
    reasons = {d["name"]: d["reason"] for d in data["disqualified"]}
    # Attacks that fail harmlessly play on (their strategy is legal); every other has a reason.
    harmless = {"io_uring.py", "remount_rw.py", "kill_parent.py", "reach_parent.py"}
    for name in set(attacks) - harmless:
        assert any(reasons.get(shown) for shown in names_of(name)), (name, reasons)
    # No entrant changed any file, its own or another's (hogbench's own store and cache live in
    # the user's home, which the test does not compare).
    assert {folder: snapshot(root / folder) for folder in before} == before
    assert not [p for p in PWNED if p.exists()]
    assert "SECRET" not in done.stdout + done.stderr


#: Files whose verdict once depended on who ran hogbench (threads: RLIMIT_NPROC binds an
#: ordinary user only), and attacks on the parent.
SAME_VERDICT = ["starts_thread.py", "thread_bomb.py", "fork_bomb.py", "reach_parent.py"]


@pytest.mark.parametrize("sandboxed", [True, False], ids=["bwrap", "no-sandbox"])
@pytest.mark.parametrize("name", SAME_VERDICT)
def test_the_same_verdict_as_root_and_as_an_ordinary_user(classroom, name, sandboxed):
    root, home, subs = classroom
    if sandboxed and sandbox.bwrap_path() is None:
        pytest.skip("bwrap (bubblewrap) is missing or cannot make namespaces here")
    shutil.copy(CORPUS / name, subs / name)
    args = ["check", str(subs / name), "--rules", "hog-su21", "--goal", "10", "--json"]
    args += [] if sandboxed else ["--no-sandbox"]
    runs = [as_nobody(args, home, root=who) for who in (False, True)]
    for run in runs:
        assert run.stdout.startswith("{"), run.stderr[-3000:]
    reports = [json.loads(run.stdout) for run in runs]
    verdicts = [(r["valid"], r["lines"][0]) for r in reports]
    assert verdicts[0] == verdicts[1], verdicts
