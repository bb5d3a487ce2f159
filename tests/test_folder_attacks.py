"""A submissions folder may hold entries of any kind and names of any bytes.

Each attack is one entry beside honest ones: a name that is not UTF-8, control characters in a
name, a link loop, a link out of the folder, a FIFO, a device, a link to a folder, a tree
thousands deep. Each disqualifies itself alone with its reason; ``check`` of a file beside it
still works; a tournament over the folder finishes, and the honest entrants' results equal a run
without the attackers. Every output shows the names safely. Then the same by fuzzing: random
trees (names of random bytes, links, loops, FIFOs, deep nesting) thrown at discovery.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hogbench import discovery, submission
from hogbench.cli import app
from hogbench.errors import StrategyError

ROOT = Path(__file__).parent.parent
GOOD = (ROOT / "tests" / "files" / "good_su21.py").read_text()
OTHER = "TEAM_NAME = 'Other'\n\ndef final_strategy(score, opponent_score):\n    return 4\n"
MATH = "TEAM_NAME = '$\\\\pwned{x}$'\n\ndef final_strategy(score, opponent_score):\n    return 6\n"
FORMULA = (
    "TEAM_NAME = '＝HYPERLINK(\"x\")'\n\ndef final_strategy(score, opponent_score):\n    return 3\n"
)
DEEP = 2500  # folders: a tree thousands deep


def _deep_chain(top: Path, depth: int, leaf: str | None = None) -> None:
    """DEPTH nested folders under TOP, made by descriptor (no path gets long), LEAF at the
    bottom if given."""
    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        if leaf is not None:
            out = os.open("x.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
            os.write(out, leaf.encode())
            os.close(out)
    finally:
        os.close(fd)


def _remove_tree(top: Path) -> None:
    """Remove TOP however deep it is (shutil.rmtree recurses and fails on a long chain),
    holding one descriptor at a time."""
    if not os.path.lexists(top):
        return
    if not top.is_dir() or top.is_symlink():
        top.unlink()
        return
    fd = os.open(top, os.O_RDONLY)
    below: list[str] = []
    while True:
        sub = None
        for name in os.listdir(fd):
            if _is_dir_at(fd, name):
                sub = name
                break
            os.unlink(name, dir_fd=fd)
        if sub is not None:
            inner = os.open(sub, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
            below.append(sub)
        elif below:
            up = os.open("..", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = up
            os.rmdir(below.pop(), dir_fd=fd)
        else:
            os.close(fd)
            break
    os.rmdir(top)


def _is_dir_at(fd: int, name: str) -> bool:
    return stat.S_ISDIR(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode)


#: The attacks: a name, how to make it, and what the reason says.
ATTACKS = {
    b"caf\xe9.py": ("file", "not UTF-8"),
    b"esc\x1b[2J\r\nname.py": ("file", "control characters"),
    b"loop.py": ("loop", "link loop"),
    b"shadow.py": ("outside", "outside its folder"),
    b"pipe.py": ("fifo", "not a regular file"),
    b"device.py": ("device", "not a regular file"),
    b"linked_student": ("folder-link", "link to a folder"),
    b"bad\xff_student": ("student", "not UTF-8"),
    b"fifo_student": ("fifo-student", "not a regular file"),
}


def _make_attack(folder: Path, name: bytes, kind: str) -> None:
    path = os.path.join(os.fsencode(folder), name)
    if kind == "file":
        Path(os.fsdecode(path)).write_text(GOOD)
    elif kind == "loop":
        os.symlink(name, path)
    elif kind == "outside":
        os.symlink(b"/etc/passwd", path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        if os.geteuid() == 0:
            os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero's numbers
        else:
            os.symlink(b"/dev/zero", path)  # an ordinary user cannot make one: a link to one
    elif kind == "folder-link":
        os.symlink(b".", path)
    elif kind == "student":
        os.mkdir(path)
        Path(os.fsdecode(path), "hog.py").write_text(GOOD)
    elif kind == "fifo-student":
        os.mkdir(path)
        os.mkfifo(os.path.join(path, b"hog.py"))


def _honest(folder: Path) -> None:
    (folder / "good.py").write_text(GOOD)
    (folder / "math.py").write_text(MATH)
    (folder / "formula.py").write_text(FORMULA)
    (folder / "alice").mkdir()
    (folder / "alice" / "hog.py").write_text(OTHER)


@pytest.fixture
def work(monkeypatch):
    """A folder of its own, not pytest's: pytest removes old temporary folders by recursion,
    which fails on a chain thousands deep (and would fail every later run)."""
    top = Path(tempfile.mkdtemp(prefix="hogbench-attacks-"))
    monkeypatch.setenv("HOGBENCH_CACHE", str(top / "cache"))
    monkeypatch.chdir(top)
    try:
        yield top
    finally:
        _remove_tree(top)


@pytest.fixture
def attacked(work):
    """A class folder: honest entrants, every attack, and a student's tree thousands deep."""
    folder = work / "subs"
    folder.mkdir()
    _honest(folder)
    for name, (kind, _) in ATTACKS.items():
        _make_attack(folder, name, kind)
    (folder / "deep_student").mkdir()
    (folder / "deep_student" / "hog.py").write_text(OTHER.replace("Other", "Deep"))
    _deep_chain(folder / "deep_student", DEEP, leaf="x = 1\n")
    (folder / "lost").mkdir()  # the only .py file thousands deep: not found, not an entrant
    _deep_chain(folder / "lost", DEEP, leaf=GOOD)
    return folder


def test_each_odd_entry_is_disqualified_alone_with_its_reason(attacked):
    started = time.monotonic()
    entries = discovery.discover(["subs"], attacked.parent)
    assert time.monotonic() - started < 10
    problems = {e.spec: e.problem for e in entries}
    for name, (_, reason) in ATTACKS.items():
        spec = discovery.display(Path(os.fsdecode(os.path.join(b"subs", name))))
        assert reason in (problems[spec] or ""), (spec, problems)
        spec.encode("utf-8")  # every spec can be written anywhere
        assert not re.search(r"[\x00-\x1f\x7f]", spec)
    playing = sorted(e.spec for e in entries if e.problem is None)
    assert playing == [
        "subs/alice",
        "subs/deep_student",
        "subs/formula.py",
        "subs/good.py",
        "subs/math.py",
    ]


def test_check_of_a_file_beside_the_attacks_works(attacked):
    result = CliRunner().invoke(app, ["check", "subs/good.py"])
    assert result.exit_code == 0, result.output
    assert "valid" in result.output


def test_check_of_a_link_out_of_its_folder_reads_nothing_of_its_target(tmp_path, monkeypatch):
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    secret = tmp_path / "elsewhere" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("root:SECRET-HASH:19000:0:99999:7:::\n")
    (tmp_path / "student").mkdir()
    os.symlink(secret, tmp_path / "student" / "hog.py")
    result = CliRunner().invoke(app, ["check", "student/hog.py"])
    assert result.exit_code != 0
    assert "SECRET" not in result.output
    assert "outside its folder" in result.output


def _cells(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


@pytest.mark.slow  # two tournaments: 5 s CPU, the second longest wall time
def test_a_tournament_over_the_attacked_folder_equals_one_without_the_attackers(attacked, work):
    runner = CliRunner()
    run = runner.invoke(app, ["tournament", "subs", "--out", "out", "--json"])
    assert run.exit_code == 0, run.output
    clean = work / "clean"
    clean.mkdir()
    _honest(clean)
    (clean / "deep_student").mkdir()
    (clean / "deep_student" / "hog.py").write_text(OTHER.replace("Other", "Deep"))
    alone = runner.invoke(app, ["tournament", "clean", "--out", "out-clean", "--json"])
    assert alone.exit_code == 0, alone.output
    assert rates(work, "out") == rates(work, "out-clean")
    _check_outputs(work)


def rates(work: Path, folder: str) -> dict[tuple[str, str], float]:
    """Each honest pair's exact win rate in the results.json under FOLDER, by the two
    entrants' names within their class folder."""
    data = json.loads((work / folder / "results.json").read_text())
    specs = [s["spec"].split("/", 1)[1] for s in data["standings"]]
    columns = data["pairs"]["exact_columns"]
    table = {}
    for row in data["pairs"]["exact"]:
        cells = dict(zip(columns, row, strict=True))
        table[specs[cells["a"]], specs[cells["b"]]] = cells["win_rate"]
    assert len(table) == 10 and not data["pairs"]["mc"]
    return table


def _check_outputs(work: Path) -> None:
    data = json.loads((work / "out" / "results.json").read_text())
    reasons = {d["spec"]: d["reason"] for d in data["disqualified"]}
    assert len(reasons) == len(ATTACKS)
    assert any(name == "$\\pwned{x}$" for name in (s["name"] for s in data["standings"]))
    # CSV: no control character in any cell, formulas (fullwidth too) neutralised.
    for name in ("standings.csv", "matrix.csv", "pairs.csv"):
        for row in _cells(work / "out" / name):
            for cell in row:
                assert not re.search(r"[\x00-\x1f\x7f]", cell), (name, cell)
                assert not cell.startswith(("=", "+", "@", "＝", "＋", "－", "＠")), (name, cell)
    head, *rows = _cells(work / "out" / "standings.csv")
    specs = [row[head.index("spec")] for row in rows]
    assert "subs/caf\\xe9.py" in specs
    assert "subs/esc\\x1b[2J\\x0d\\x0aname.py" in specs
    # HTML: ids unique.
    page = (work / "out" / "index.html").read_text()
    ids = re.findall(r'\sid="([^"]*)"', page)
    assert len(ids) == len(set(ids))
    assert "\x1b" not in page
    # Pictures: written, though a TEAM_NAME is matplotlib math.
    from hogbench import plots

    if plots.available():
        assert (work / "out" / "standings.png").stat().st_size > 0
        assert (work / "out" / "matrix.png").stat().st_size > 0


# -- fuzzing -----------------------------------------------------------------------------------
_NAME_BYTES = st.binary(min_size=1, max_size=24).filter(
    lambda b: b"/" not in b and b"\0" not in b and b not in (b".", b"..")
)
_NAMES = st.one_of(_NAME_BYTES, _NAME_BYTES.map(lambda b: b[:20] + b".py"))
_LINK_TARGETS = st.one_of(
    _NAMES,
    st.sampled_from([b".", b"..", b"/", b"/etc/passwd", b"/dev/zero", b"../../..", b"x/y"]),
)


def _node(depth: int):
    leaf = st.one_of(
        st.tuples(st.just("file"), _NAMES, st.sampled_from([GOOD, "x = (", ""])),
        st.tuples(st.just("link"), _NAMES, _LINK_TARGETS),
        st.tuples(st.just("self-link"), _NAMES),
        st.tuples(st.just("fifo"), _NAMES),
        st.tuples(st.just("chain"), _NAMES, st.integers(1, 120)),
    )
    if depth == 0:
        return leaf
    folder = st.tuples(st.just("folder"), _NAMES, st.lists(_node(depth - 1), max_size=4))
    return st.one_of(leaf, folder)


_TREES = st.lists(_node(3), min_size=0, max_size=8)


def _build(at: bytes, nodes: list) -> None:
    for node in nodes:
        kind, name = node[0], node[1]
        path = os.path.join(at, name)
        if os.path.lexists(path):
            continue
        if kind == "file":
            with open(path, "wb") as f:
                f.write(node[2].encode())
        elif kind == "link":
            os.symlink(node[2], path)
        elif kind == "self-link":
            os.symlink(name, path)
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "chain":
            os.mkdir(path)
            _deep_chain(Path(os.fsdecode(path)), node[2], leaf=GOOD)
        else:
            os.mkdir(path)
            _build(path, node[2])


FUZZ_CASES = 150


@settings(
    max_examples=FUZZ_CASES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(tree=_TREES)
def test_discovery_of_any_tree_gives_entrants_or_reasons_never_a_traceback(tree):
    top = Path(tempfile.mkdtemp(prefix="fuzz-"))
    try:
        folder = top / "subs"
        folder.mkdir()
        (folder / "honest.py").write_text(GOOD)
        _build(os.fsencode(folder), tree)
        started = time.monotonic()
        entries = discovery.discover([str(folder)], top)
        specs = [e.spec for e in entries]
        assert len(specs) == len(set(specs))
        assert any(e.spec.endswith("subs/honest.py") and e.problem is None for e in entries)
        for entry in entries:
            entry.spec.encode("utf-8")
            (entry.name or "").encode("utf-8")
            assert not re.search(r"[\x00-\x1f\x7f]", entry.spec + (entry.name or ""))
            if entry.problem is not None:
                assert entry.problem.strip()
                continue
            assert entry.path is not None
            try:  # what the sandbox would be given: read without blocking, or refused
                snap = submission.snapshot(entry.path, entry.share)
            except StrategyError as exc:
                assert str(exc).strip()
            else:
                assert snap.main in snap.files and len(snap.digest) == 64
        assert time.monotonic() - started < 20
    finally:
        _remove_tree(top)


@pytest.mark.parametrize("name", ["caf\udce9.py", "esc\x1b[2J\r\nname.py"])
def test_a_file_named_with_any_bytes_is_checked_and_shown_escaped(work, name):
    (work / name).write_text(GOOD)
    result = CliRunner().invoke(app, ["check", name])
    assert result.exit_code == 0, result.output
    assert discovery.display(Path(name)) in result.output
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f\ud800-\udfff]", result.output)


def test_check_of_a_link_loop_says_so(work):
    os.symlink("loop.py", work / "loop.py")
    result = CliRunner().invoke(app, ["check", "loop.py"])
    assert result.exit_code == 2
    assert "loop.py is a link that leads to no file" in result.output


@pytest.mark.parametrize("command", ["show", "analyze"])
def test_a_team_name_in_matplotlib_math_is_drawn_as_text(work, command):
    from hogbench import plots

    if not plots.available():
        pytest.skip("matplotlib is not installed")
    (work / "math.py").write_text(MATH)
    result = CliRunner().invoke(
        app, [command, "math.py", "--rules", "hog-su21", "--png", "out.png"]
    )
    assert result.exit_code == 0, result.output
    assert (work / "out.png").stat().st_size > 0


@pytest.mark.slow  # 13 s CPU, the longest wall time
def test_the_attacked_folder_as_an_ordinary_user_gives_the_same_results(attacked, work):
    """The same class run by the user nobody: the same honest results, the same reasons.

    With --no-sandbox: what differs for an ordinary user here is what it may open, list and
    follow in the folder; bwrap may not run for nobody where Python lives under /root."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run hogbench as the ordinary user 'nobody'")
    assert CliRunner().invoke(app, ["tournament", "subs", "--out", "out"]).exit_code == 0
    work.chmod(0o777)  # nobody writes its reports and cache here
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(work),
        "HOGBENCH_CACHE": str(work / "cache-nobody"),
        "NUMBA_CACHE_DIR": str(work / "numba-nobody"),
        "PYTHONPATH": str(ROOT),
    }
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    hogbench = [*nobody, sys.executable, "-m", "hogbench"]
    probe = subprocess.run(
        [*hogbench, "check", "subs/good.py", "--no-sandbox"], cwd=work, env=env,
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert "Traceback" not in probe.stderr, probe.stderr
    if probe.returncode != 0:
        pytest.skip(f"the user nobody cannot run a worker here: {probe.stderr.strip()[-200:]}")
    args = ["tournament", "subs", "--out", "out-nobody", "--no-sandbox"]
    done = subprocess.run(
        [*hogbench, *args], cwd=work, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert rates(work, "out-nobody") == rates(work, "out")
    reasons = {
        folder: {d["spec"]: d["reason"] for d in json.loads(
            (work / folder / "results.json").read_text())["disqualified"]}
        for folder in ("out", "out-nobody")
    }  # fmt: skip
    assert reasons["out-nobody"] == reasons["out"]
