"""The operator's side of a class tournament, tried as an attacker and as a careless operator
would: output, store and cache paths, the cache's seals and special files, leftovers of a
killed run, host paths in messages, Ctrl-C."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from hogbench.cli import app

ROOT = Path(__file__).parent.parent
GOOD = (ROOT / "tests" / "files" / "good_su21.py").read_text()
runner = CliRunner()


@pytest.fixture
def classroom(tmp_path, monkeypatch):
    """A class folder of two students' folders, the working directory its parent."""
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    for student in ("alice", "bob"):
        (tmp_path / "subs" / student).mkdir(parents=True)
        (tmp_path / "subs" / student / "hog.py").write_text(GOOD)
    return tmp_path


def one_line_error(result, *words: str) -> str:
    assert result.exit_code == 2, result.output
    assert (
        "Traceback" not in result.output
        and result.exception is None
        or isinstance(result.exception, SystemExit)
    ), result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize(
    "args, env",
    [
        (["--out", "subs/alice/out"], {}),
        (["--store", "subs/alice/store.sqlite"], {}),
        (["--out", "out"], {"HOGBENCH_CACHE": "subs/bob/.cache"}),
    ],
)
def test_paths_a_worker_would_see_are_refused_before_any_work(classroom, monkeypatch, args, env):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = runner.invoke(app, ["tournament", "subs", *args])
    one_line_error(result, "inside the submission folder", "outside the submissions")
    assert not list((classroom / "subs").rglob("*.sqlite"))  # nothing was played or stored
    assert not (classroom / "subs" / "alice" / "out").exists()


def test_an_impossible_output_folder_is_one_line(classroom):
    one_line_error(runner.invoke(app, ["tournament", "subs", "--out", "/sys/kernel/x"]), "--out")
    one_line_error(runner.invoke(app, ["tournament", "subs", "--out", "/proc/nope/x"]), "--out")


def test_an_impossible_store_in_a_tournament_file_is_one_line(classroom):
    (classroom / "t.toml").write_text(
        'name = "t"\nrules = "hog-su21"\nentrants = ["subs"]\nstore = "/proc/nope/x.sqlite"\n'
    )
    one_line_error(runner.invoke(app, ["tournament", "t.toml"]), "/proc/nope")


# -- the cache: every entry sealed, special files never block ----------------------------------
@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_tampered_built_in_table_is_rebuilt_not_trusted(cache_dir):
    from hogbench import cache
    from hogbench.loading import load_entrant
    from hogbench.rules import get_rules

    rules = get_rules("hog-su21", 30)
    honest = load_entrant("always_roll:4", rules).table.choices.copy()
    (path,) = (cache_dir / "builtin-tables").glob("*.npz")
    # An attacker writes a well-formed entry of its own: always roll 10.
    forged = cache_dir / "forged.npz"
    cache.save_arrays(forged, choices=np.full_like(honest, 10))
    data = forged.read_bytes()
    path.write_bytes(data[: -cache.SEAL_BYTES])  # unsealed
    assert (load_entrant("always_roll:4", rules).table.choices == honest).all()
    path.write_bytes(data)  # sealed, but for another entry's name
    assert (load_entrant("always_roll:4", rules).table.choices == honest).all()
    assert (cache.load_arrays(path)["choices"] == honest).all()  # and made again


def test_sealed_arrays_and_mapped_arrays_refuse_any_change(cache_dir):
    from hogbench import cache

    rows = cache_dir / "rows" / "a.npz"
    cache.save_arrays(rows, codes=np.arange(1000))
    data = bytearray(rows.read_bytes())
    data[len(data) // 2] ^= 1
    rows.write_bytes(bytes(data))
    with pytest.raises(ValueError):
        cache.load_arrays(rows)
    mapped = cache_dir / "memory" / "m.npy"
    cache.save_mapped(mapped, ptr=np.arange(10_000, dtype=np.int64))
    assert cache.load_mapped(mapped)["ptr"][-1] == 9_999  # checked, then stamped
    assert cache.load_mapped(mapped)["ptr"][-1] == 9_999  # the stamp holds: not read again
    before = mapped.stat()
    with open(mapped, "r+b") as f:  # one byte of the array changed in place, times set back
        f.seek(before.st_size // 2)
        byte = f.read(1)
        f.seek(before.st_size // 2)
        f.write(bytes([byte[0] ^ 1]))
    os.utime(mapped, ns=(before.st_atime_ns, before.st_mtime_ns))
    with pytest.raises(ValueError):
        cache.load_mapped(mapped)


def test_fifos_in_the_cache_never_block(cache_dir):
    """Every entry of a warm cache, and the key, replaced by a FIFO: the next run finishes."""
    env = {**os.environ, "HOGBENCH_CACHE": str(cache_dir)}
    args = [sys.executable, "-m", "hogbench", "duel", "always_roll:4", "always_roll:5"]
    args += ["--rules", "hog-su21", "--goal", "40", "--exact", "--json"]
    first = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    files = [p for p in cache_dir.rglob("*") if p.is_file()]
    assert files
    for path in files:
        path.unlink()
        os.mkfifo(path)
    again = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["win_rate"] == json.loads(first.stdout)["win_rate"]
    assert "Traceback" not in again.stderr


@pytest.mark.parametrize("kind", ["folder", "unreadable"])
def test_an_unusable_key_file_is_one_line_not_a_traceback(kind):
    top = Path(tempfile.mkdtemp(prefix="hogbench-key-"))  # one an ordinary user can reach
    top.chmod(0o755)
    cache_dir = top / "cache"
    cache_dir.mkdir()
    try:
        _unusable_key(cache_dir, kind)
    finally:
        shutil.rmtree(top, ignore_errors=True)


def _unusable_key(cache_dir: Path, kind: str) -> None:
    key = cache_dir / "secret"
    if kind == "folder":
        key.mkdir()
    else:
        key.write_bytes(b"x" * 32)
        key.chmod(0)
    env = {**os.environ, "HOGBENCH_CACHE": str(cache_dir)}
    args = [sys.executable, "-m", "hogbench", "duel", "always_roll:4", "always_roll:5"]
    args += ["--rules", "hog-su21", "--goal", "40", "--exact"]
    if kind == "unreadable" and os.geteuid() == 0:
        args = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *args]
        cache_dir.chmod(0o777)
        env["HOME"] = "/tmp"
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    warnings = [line for line in done.stderr.splitlines() if "cache's key" in line]
    assert len(warnings) == 1, done.stderr


def test_the_sandbox_variable_alone_turns_nothing_off(classroom, monkeypatch):
    """HOGBENCH_SANDBOX=off left in a profile must not run a class unsandboxed: without
    --no-sandbox it is ignored, and one line says so."""
    from hogbench.sandbox import bwrap

    monkeypatch.setenv("HOGBENCH_SANDBOX", "off")
    monkeypatch.setattr(bwrap, "_env_noted", False)
    monkeypatch.setattr(bwrap, "bwrap_path", lambda: None)  # a machine without bubblewrap
    result = runner.invoke(app, ["tournament", "subs"])
    assert result.exit_code == 2, result.output
    assert "bwrap (bubblewrap) is not installed" in result.output
    assert "--no-sandbox to run them anyway" in result.output
    assert "HOGBENCH_SANDBOX is ignored" in result.output
    assert not list(classroom.rglob("*.sqlite"))


# -- a run killed with kill -9 -----------------------------------------------------------------
def test_private_copies_left_by_a_killed_run_are_removed_at_the_next_start(tmp_path):
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), "HOGBENCH_CACHE": str(tmp_path / "cache")}
    slow = tmp_path / "slow.py"
    slow.write_text(
        "import time\ntime.sleep(60)\n\ndef final_strategy(score, opponent_score):\n    return 4\n"
    )
    run = subprocess.Popen(
        [sys.executable, "-m", "hogbench", "check", str(slow)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not list(temp.glob(f"hogbench-entrant-{run.pid}-*")):
        assert time.monotonic() < deadline and run.poll() is None, "no private copy was made"
        time.sleep(0.1)
    run.kill()  # kill -9: no clean-up runs
    run.wait()
    left = list(temp.glob("hogbench-*"))
    assert left  # what kill -9 leaves
    other = temp / "hogbench-entrant-1-keep"  # pid 1 is alive: a running process's folder
    other.mkdir()
    again = subprocess.run(
        [sys.executable, "-m", "hogbench", "cache", "info"], env=env, capture_output=True
    )
    assert again.returncode == 0, again.stderr
    assert not any(path.exists() for path in left)
    assert other.exists()


# -- messages ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "source",
    [
        "from json import nothing\n",  # the ImportError quotes json's file
        "from numpy import nothing\n",  # ... numpy's, through the folder of importable links
        "import os, sys\nraise RuntimeError(os.__file__ + str(sys.path))\n",
        "def final_strategy(score, opponent_score):\n    import json\n    json.loads('{')\n",
    ],
)
def test_messages_show_no_host_path(tmp_path, monkeypatch, source):
    import sysconfig
    import tempfile as temp

    import hogbench

    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.py").write_text(
        source + "\ndef final_strategy(score, opponent_score):\n    return 4\n"
        if "final_strategy" not in source
        else source
    )
    result = runner.invoke(app, ["check", "mine.py"])
    assert result.exit_code == 1, result.output
    host = {sys.prefix, sys.base_prefix, sysconfig.get_paths()["stdlib"], temp.gettempdir()}
    host |= {sysconfig.get_paths()["purelib"], str(Path(hogbench.__file__).parent)}
    text = result.output.replace("\n", "")
    for path in host:
        assert path not in text, (path, result.output)


# -- Ctrl-C --------------------------------------------------------------------------------------
def test_ctrl_c_on_a_tournament_says_it_resumes_and_nothing_else(tmp_path):
    """Ctrl-C reaches the whole foreground group, joblib's workers too: one line, exit 130."""
    slow = (  # random, so played live; past the calls of loading, a millisecond each
        "import random, time\n\ncalls = [0]\n\ndef final_strategy(score, opponent_score):\n"
        "    calls[0] += 1\n"
        "    if calls[0] > 30_000:\n"
        "        time.sleep(0.001)\n"
        "    return random.randint(3, 6)\n"
    )
    for name in ("a", "b"):
        (tmp_path / "subs" / f"{name}.py").parent.mkdir(exist_ok=True)
        (tmp_path / "subs" / f"{name}.py").write_text(slow)
    env = {**os.environ, "HOGBENCH_CACHE": str(tmp_path / "cache")}
    args = [sys.executable, "-m", "hogbench", "tournament", "subs", "always_roll:5"]
    args += ["--allow-live", "--mode", "mc", "-n", "200000", "-j", "2", "--out", "out"]
    run = subprocess.Popen(
        args, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not (tmp_path / "out" / "store.sqlite").exists():  # loaded: pairs are being played
        assert time.monotonic() < deadline and run.poll() is None, run.communicate()
        time.sleep(0.2)
    time.sleep(3)
    os.killpg(run.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    try:
        _, err = run.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        run.communicate()
        raise AssertionError("an interrupted tournament did not end within 60 s") from None
    assert run.returncode == 130, err
    assert "run the same command again to resume" in err
    assert "disqualified" not in err  # nobody pays for the interruption
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    # One line: no pool worker (born deaf to Ctrl-C) printed anything of its own.
    assert len([line for line in err.splitlines() if line.strip()]) == 1, err


def _has_worker(pid: int) -> bool:
    """Whether process PID has started a sandboxed worker (bwrap, or the worker itself)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            line = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and (b"bwrap" in line or b"worker.py" in line):
            return True
    return False


def test_ctrl_c_while_the_command_line_imports_ends_without_a_traceback():
    """Ctrl-C in the moment the command line is still importing (Typer, Rich) ends with exit
    code 130 and nothing on stderr, as later. The interrupt is made to land there for sure: an
    import hook raises it when Typer is asked for."""
    code = (
        "import sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'typer':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "sys.argv = ['hogbench', '--version']\n"
        "from hogbench.__main__ import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 130
    assert done.stderr == "" and done.stdout == ""


@pytest.mark.slow  # 16 s of waiting for loads to begin: the other Ctrl-C tests stay quick
def test_ctrl_c_while_loading_ends_at_once_and_judges_nobody(tmp_path):
    """The loads under way when Ctrl-C comes are stopped, not waited for (each took up to its
    time limit, longer on a busy machine), and none of them becomes a verdict: the rerun
    loads every file."""
    slow_import = "import time\ntime.sleep(6)\n\ndef final_strategy(score, opponent_score):\n"
    for name, dice in (("a", 4), ("b", 5)):
        (tmp_path / "subs").mkdir(exist_ok=True)
        (tmp_path / "subs" / f"{name}.py").write_text(f"{slow_import}    return {dice}\n")
    env = {**os.environ, "HOGBENCH_CACHE": str(tmp_path / "cache")}
    args = [sys.executable, "-m", "hogbench", "tournament", "subs", "-j", "2", "--out", "out"]
    run = subprocess.Popen(
        args, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not _has_worker(run.pid):  # loading: a file is importing in its worker
        assert time.monotonic() < deadline and run.poll() is None, run.communicate()
        time.sleep(0.1)
    time.sleep(0.5)
    os.killpg(run.pid, signal.SIGINT)
    interrupted = time.monotonic()
    try:
        _, err = run.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        raise AssertionError("an interrupted tournament did not end within 60 s") from None
    assert time.monotonic() - interrupted < 4, "it waited for the loads under way"
    assert run.returncode == 130 and "run the same command again to resume" in err, err
    assert "Traceback" not in err, err
    again = subprocess.run(args + ["--json"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert "disqualified" not in again.stderr and "killed" not in again.stdout


# -- one sandbox request, made at the command line ---------------------------------------------
def test_the_tournament_file_and_the_options_make_one_request_at_the_command_line(
    classroom, monkeypatch
):
    """The tournament file's sandbox settings and the command line's options become one frozen
    Request in the command, and that very object reaches loading and play: nothing below
    rebuilds it from loose options."""
    from hogbench import sandbox
    from hogbench.tournament import round_robin

    (classroom / "t.toml").write_text(
        'name = "t"\nrules = "hog-su21"\nentrants = ["subs", "always_roll:5"]\ngoal = 20\n'
        'allow_imports = ["rich"]\ntime_limit = 7.5\nrequire_sandbox = true\n'
    )
    given, loaded, played = [], [], []
    real_run, real_load, real_play = round_robin.run, round_robin.load_slots, round_robin.play_pairs

    def run(*args, request=None, **kw):
        given.append(request)
        return real_run(*args, request=request, **kw)

    def load_slots(*args, request=None, **options):
        loaded.append(request)
        return real_load(*args, request=request, **options)

    def play_pairs(rules, entrants, wanted, settings, *rest):
        played.append(settings.request)
        return real_play(rules, entrants, wanted, settings, *rest)

    def rebuilt(*args, **kw):
        raise AssertionError("the tournament made a sandbox request of its own")

    monkeypatch.setattr(round_robin, "run", run)
    monkeypatch.setattr(round_robin, "load_slots", load_slots)
    monkeypatch.setattr(round_robin, "play_pairs", play_pairs)
    monkeypatch.setattr(round_robin, "sandbox_settings", rebuilt)
    result = runner.invoke(app, ["tournament", "t.toml", "--allow-import", "numpy"])
    assert result.exit_code == 0, result.output
    (request,) = given
    assert isinstance(request, sandbox.Request)
    assert request.allow_imports == ("numpy",)  # the command line's list wins over the file's
    assert request.time_limit == 7.5 and request.require_sandbox  # the file's, in the same one
    assert loaded[0] is request and played[0] is request  # passed down whole


def _ignores_ctrl_c(_: object = None) -> bool:
    """In a pool worker: whether SIGINT is ignored there (as the kernel says)."""
    status = Path("/proc/self/status").read_text()
    mask = int(
        next(line for line in status.splitlines() if line.startswith("SigIgn")).split()[1], 16
    )
    return bool(mask & (1 << (signal.SIGINT - 1)))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_pool_workers_are_born_deaf_to_ctrl_c_and_the_main_process_is_not():
    """Ctrl-C reaches the whole foreground group: a pool worker still starting printed its own
    KeyboardInterrupt traceback. Workers started after the change ignore it from birth."""
    from joblib.externals.loky import get_reusable_executor

    from hogbench.processes import pool_workers_deaf_to_ctrl_c

    pool_workers_deaf_to_ctrl_c()
    pool = get_reusable_executor(max_workers=2, reuse=False)
    try:
        assert all(pool.map(_ignores_ctrl_c, range(4)))
    finally:
        pool.shutdown(kill_workers=True)
    assert not _ignores_ctrl_c()  # the main process still takes Ctrl-C
