"""The sandbox and `check`: every hostile file gets its specific diagnosis and changes nothing.

The corpus is tests/hostile (one attack per file, its docstring says what it does and what it
should get). Each file runs from a fresh folder with sentinels around it: its own folder,
another submission's folder, a fake HOME; the real /tmp and home folders are checked too.
"""

from __future__ import annotations

import base64
import functools
import json
import pickle
import shutil
import socket
import time
from pathlib import Path

import numpy as np
import pytest

from hogbench import sandbox, verdicts
from hogbench.check import check_file
from hogbench.errors import HogbenchError, StrategyError, UsageError
from hogbench.loading import load_entrant, parse_spec
from hogbench.rules import get_rules
from hogbench.sandbox import bwrap as bwrap_module
from hogbench.sandbox import session, worker
from hogbench.tables import CodedAnswers, call_everywhere, find_faults, table_from_answers

CORPUS = Path(__file__).parent / "hostile"
FILES = Path(__file__).parent / "files"
TIME_LIMIT = 2.0
SECRET = "SECRET-of-another-team"
# Where corpus files try to write outside their sandbox; none of these may appear.
PWNED = [Path("/tmp/hogbench-pwned.txt"), Path("/root/hogbench-pwned.txt")]
PWNED.append(Path("/home/hogbench-pwned.txt"))

VALID = "valid: "
# file -> words the check report must contain (a tuple: any one of them). Goal 10 unless GOALS.
EXPECTED: dict[str, list] = {
    "loop_at_import.py": ["invalid", "timed out while importing"],
    "loop_at_state.py": ["at (7, 3)", "timed out computing", "the 2 s limit"],
    "long_sleep.py": ["at (2, 5)", "timed out"],
    "memory_bomb.py": ["at (1, 1)", "ran out of memory (limit 256 MB)"],
    "fork_bomb.py": ["import failed", "may not start threads or processes"],
    "starts_thread.py": ["import failed", "may not start threads or processes"],
    "thread_bomb.py": ["import failed", "may not start threads or processes"],
    "reply_deep_json.py": ["broke the protocol", "nested more than 4 deep"],
    "reply_flood.py": ["at (0, 0)", "broke the protocol", "a message longer than"],
    "reply_many_items.py": ["broke the protocol", "more than 256 items"],
    "reply_not_utf8.py": ["broke the protocol", "not JSON in UTF-8"],
    "reply_bad_codes.py": ["broke the protocol", "codes that do not name one of its 1 values"],
    "reach_parent.py": [VALID],
    "os_exit.py": ["at (4, 4)", "exited the interpreter (exit code 3)"],
    "sys_exit.py": ["import failed", "tried to stop the interpreter", "SystemExit"],
    "keyboard_interrupt.py": ["at (0, 9)", "tried to stop the interpreter", "KeyboardInterrupt"],
    "segfault.py": ["at (3, 3)", "crashed: killed by signal SIGSEGV"],
    "print_flood.py": [VALID, "printed 20.", "MB (discarded)"],
    "write_own_folder.py": ["import failed", "Read-only file system", "may not write files"],
    "write_home.py": ["import failed", ("Read-only file system", "No such file or directory")],
    "write_tmp.py": ["import failed", "File too large", "may not write files"],
    "read_other.py": ["at (0, 0)", "raised FileNotFoundError"],
    "network.py": ["import failed", "Network is down", "have no network"],
    "patch_random.py": [VALID],
    "patch_builtins.py": ["illegal move at 100 of 100 states", "returned '6' (str), not an int"],
    "patch_hogbench.py": ["import failed", "No module named 'hogbench'"],
    "forge_protocol.py": ["broke the protocol with hogbench"],
    "returns_float.py": ["at (0, 0): returned 4.0 (float), not an int"],
    "returns_bool.py": ["at (0, 0): returned True (bool), not an int"],
    "returns_str.py": ["at (0, 0): returned '4' (str), not an int"],
    "returns_none.py": ["at (1, 0): returned None (NoneType), not an int"],
    "returns_eleven.py": ["illegal move at 1 of 100", "at (0, 0): returned 11, outside 0..10"],
    "returns_negative.py": ["illegal move at 1 of 100", "at (5, 6): returned -2, outside 0..10"],
    "returns_int_subclass.py": ["returned 4 (Sneaky), not an int"],
    "uses_random.py": ["not deterministic at"],
    "counts_calls.py": ["not deterministic at", "in two separate imports"],
    "random_at_import.py": ["not deterministic at", "randomness drawn at import shows"],
    "just_over_time.py": ["timed out computing", "the 2 s limit for importing and answering"],
    "sleeps.py": ["timed out sleeping or waiting", "the 2 s limit for importing and answering"],
    "deep_recursion.py": ["at (6, 2)", "raised RecursionError"],
    "syntax_error.py": ["syntax_error.py: syntax error at line 4: expected ':'"],
    "no_function.py": ["no strategy function"],
    "ambiguous.py": ["ambiguous strategy", "(bold, careful)"],
    "import_error.py": ["import failed", "ModuleNotFoundError"],
    "raises_at_state.py": ["at (8, 0)", "raised ZeroDivisionError"],
    "remount_rw.py": [VALID],
    "io_uring.py": [VALID],
    "socketpair.py": ["import failed", "Network is down", "have no network"],
    "kill_parent.py": [VALID],
}
GOALS = {"just_over_time.py": 100, "sleeps.py": 100}  # 10000 states x 1.1 or 2 ms: over
#: Without bwrap, Landlock (where the kernel has it) refuses every change to the file system:
#: these attacks fail as "Permission denied" instead.
LANDLOCKED = {
    "write_own_folder.py": ["import failed", "Permission denied"],
    "write_home.py": ["import failed", "Permission denied"],
    "write_tmp.py": ["import failed", "Permission denied"],
    "remount_rw.py": [VALID],
}
# Without bwrap a file can write, delete and read what the user can: those attacks only run
# sandboxed. The slowest timeouts are covered once, sandboxed.
NOT_IN_FALLBACK = {
    "remount_rw.py",  # as root without bwrap it would truncate its folder and set the hostname
    "write_own_folder.py",
    "write_home.py",
    "write_tmp.py",
    "read_other.py",
    "just_over_time.py",
    "sleeps.py",
    "loop_at_import.py",
    "long_sleep.py",
}


@pytest.fixture
def bwrap(monkeypatch):
    monkeypatch.delenv(sandbox.SANDBOX_ENV, raising=False)
    if sandbox.bwrap_path() is None:
        pytest.skip(
            "bwrap (bubblewrap) is missing or cannot make namespaces here: sandbox untested"
        )


@pytest.fixture
def fallback(monkeypatch):
    monkeypatch.setattr(bwrap_module, "turned_off", lambda request=None: True)  # --no-sandbox


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 where it has none."""
    import ctypes

    try:
        return max(ctypes.CDLL(None).syscall(444, None, 0, 1), 0)
    except (OSError, AttributeError):
        return 0


@pytest.fixture
def arena(tmp_path, monkeypatch):
    """A submission folder with a sentinel, another team's folder and a fake HOME."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "sentinel.txt").write_text("sentinel")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "secret.txt").write_text(SECRET)
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "sentinel.txt").write_text("home sentinel")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for path in PWNED:
        assert not path.exists(), f"{path} is left over from an earlier run: remove it"
    return tmp_path


def snapshot(root: Path) -> dict[str, tuple]:
    return {
        str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
    }


def run_corpus_file(name: str, arena: Path) -> str:
    """Check one corpus file from the arena; asserts that nothing outside changed."""
    target = arena / "sub" / name
    shutil.copy(CORPUS / name, target)
    with socket.socket() as listener:  # network.py tries to reach this
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        (arena / "sub" / "port.txt").write_text(str(listener.getsockname()[1]))
        before = snapshot(arena)
        rules = get_rules("hog-su21", GOALS.get(name, 10))
        report = check_file(str(target), rules, TIME_LIMIT, memory_mb=256, cache=False)
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody connected
    assert snapshot(arena) == before
    assert not [p for p in PWNED if p.exists()]
    text = "\n".join(report.lines)
    assert SECRET not in text
    assert report.valid == text.startswith(VALID), text
    assert report.to_dict()["valid"] == report.valid
    return text


def assert_words(text: str, words: list) -> None:
    for word in words:
        options = word if isinstance(word, tuple) else (word,)
        assert any(option in text for option in options), f"{options} not in:\n{text}"


def test_corpus_is_complete_and_documented():
    names = {p.name for p in CORPUS.glob("*.py")}
    assert names == set(EXPECTED)
    assert len(names) >= 20
    for name in names:
        first = (CORPUS / name).read_text().splitlines()[0]
        assert first.startswith('"""') and first.endswith('"""') and "Expected:" in first, name


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_sandboxed(name, arena, bwrap):
    text = run_corpus_file(name, arena)
    assert_words(text, EXPECTED[name])
    assert "without the sandbox" not in text


@pytest.mark.parametrize("name", sorted(set(EXPECTED) - NOT_IN_FALLBACK))
def test_corpus_fallback(name, arena, fallback):
    text = run_corpus_file(name, arena)
    assert_words(text, EXPECTED[name])
    if text.startswith(VALID):
        assert "note: it ran without the sandbox" in text


@pytest.mark.parametrize("name", sorted(LANDLOCKED))
def test_corpus_fallback_under_landlock(name, arena, fallback):
    """Without bwrap, a worker in a Landlock domain changes no file, even as root."""
    if not landlock_abi():
        pytest.skip("this kernel has no Landlock: without bwrap a worker can write files")
    text = run_corpus_file(name, arena)
    assert_words(text, LANDLOCKED[name])
    if text.startswith(VALID):
        assert "note: it ran without the sandbox" in text


def test_sandbox_shows_only_a_private_copy_of_the_submission(arena, bwrap):
    """The worker sees a read-only copy of its file and the .py files beside it, at a fixed
    place: not the folder it came from, not its other files, not anyone else's."""
    repo = Path(__file__).resolve().parent.parent
    hidden = [arena / "sub", arena / "other", arena / "home", repo / "tests", Path("/etc/passwd")]
    shown = [
        *bwrap_module.WORKER_FILES,
        *map(Path, bwrap_module.python_dirs()),
        sandbox.importable(()),
    ]
    tmp = sorted({p.parts[2] for p in shown if p.parts[1] == "tmp"})
    (arena / "sub" / "helper.py").write_text("VALUE = 4\n")
    probe = arena / "sub" / "probe.py"
    probe.write_text(
        "import os\n"
        "from helper import VALUE\n"
        f"seen = [p for p in {[str(p) for p in hidden]!r} if os.path.exists(p)]\n"
        "if sorted(os.listdir('.')) != ['helper.py', 'probe.py']:\n"
        "    seen.append('its copy holds ' + repr(os.listdir('.')))\n"
        "if os.getcwd() != '/submission':\n"
        "    seen.append('it runs in ' + os.getcwd())\n"
        f"if sorted(os.listdir('/tmp')) != {tmp!r}:\n"
        "    seen.append('/tmp holds ' + repr(os.listdir('/tmp')))\n"
        "def final_strategy(score, opponent_score):\n"
        "    return ' '.join(seen) if seen else VALUE\n"
    )
    report = check_file(str(probe), get_rules("hog-su21", 10), TIME_LIMIT, cache=False)
    assert report.valid, report.lines  # else the illegal "move" lists what it could see


def test_good_file_loads_after_bad_ones_and_is_cached(arena, bwrap, monkeypatch):
    rules = get_rules("hog-su21", 10)
    for name in ("segfault.py", "memory_bomb.py", "forge_protocol.py", "os_exit.py"):
        shutil.copy(CORPUS / name, arena / "sub")
        with pytest.raises(StrategyError):
            load_entrant(str(arena / "sub" / name), rules, memory_mb=256)
    shutil.copytree(FILES / "sibling", arena / "team")  # `from hog import *` from its folder
    spec = str(arena / "team" / "contest.py")
    entrant = load_entrant(spec, rules)
    assert entrant.tableable and entrant.function == "final_strategy"
    assert entrant.table.at(rules, 3, 0) == 6 and entrant.table.at(rules, 3, 5) == 0

    def no_worker(*args, **kwargs):
        raise AssertionError("a warm load must not start a worker")

    monkeypatch.setattr(session, "Worker", no_worker)
    start = time.perf_counter()
    warm = load_entrant(spec, rules)
    # No worker started is the proof; the time is a bound that a busy machine keeps too.
    assert time.perf_counter() - start < 2.0
    assert warm.key == entrant.key
    # a changed sibling is a changed strategy: the cache must not answer for it
    (arena / "team" / "hog.py").write_text("def piggy_points(score):\n    return 0\n")
    with pytest.raises(AssertionError, match="warm load"):
        load_entrant(spec, rules)


def test_corrupted_cache_entries_are_ignored(tmp_path, bwrap, monkeypatch):
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path / "cache"))
    rules = get_rules("hog-su21", 10)
    spec = str(FILES / "good_su21.py")
    first = load_entrant(spec, rules)
    for entry in verdicts.cache_dir().glob("*.json"):
        entry.write_text('{"version": 1, "function": "final_strategy", "choices": [')
    again = load_entrant(spec, rules)
    assert again.key == first.key and again.name == "Test Team"
    for entry in verdicts.cache_dir().glob("*.json"):
        entry.write_text(entry.read_text().replace("[0", "[true"))  # a bool is no move
    assert load_entrant(spec, rules).key == first.key


def test_check_valid_file_and_json(bwrap):
    report = check_file(str(FILES / "good_su21.py"), get_rules("hog-su21", 10), TIME_LIMIT)
    assert report.valid, report.lines
    data = report.to_dict()
    assert data["function"] == "final_strategy" and data["team"] == "Test Team"
    assert data["failures"] == [] and data["seconds"] < TIME_LIMIT
    assert "answers all 100 states" in report.lines[0]
    assert not any("at every state" in line for line in report.lines)


def test_check_notes_a_strategy_that_answers_the_same_everywhere(arena, bwrap):
    """The course's skeleton returns 4 at every state: valid, and said so."""
    (arena / "sub" / "skeleton.py").write_text(
        "def final_strategy(score, opponent_score):\n    return 4  # Replace this statement\n"
    )
    report = check_file(str(arena / "sub" / "skeleton.py"), get_rules("hog-su21", 10), TIME_LIMIT)
    assert report.valid
    assert "note: it answers 4 at every state (as an unfinished skeleton does)" in report.lines


def test_not_deterministic_loads_live(arena, bwrap):
    rules = get_rules("hog-su21", 10)
    shutil.copy(CORPUS / "uses_random.py", arena / "sub")
    spec = str(arena / "sub" / "uses_random.py")
    entrant = load_entrant(spec, rules)
    assert entrant.table is None and "not deterministic" in entrant.live_reason
    with sandbox.LiveStrategy(spec, rules) as live:
        assert {live(0, 0) for _ in range(200)} == set(range(1, 11))
        copy = pickle.loads(pickle.dumps(live))  # how a joblib worker gets its own
    with copy:
        assert 1 <= copy(5, 7) <= 10


def test_live_validates_and_times_out(arena, bwrap):
    rules = get_rules("hog-su21", 10)
    for name in ("returns_eleven.py", "loop_at_state.py", "os_exit.py"):
        shutil.copy(CORPUS / name, arena / "sub")
    with sandbox.LiveStrategy(str(arena / "sub" / "returns_eleven.py"), rules) as live:
        assert live(3, 4) == 4
        with pytest.raises(StrategyError, match=r"at \(0, 0\): illegal move: returned 11"):
            live(0, 0)
        with pytest.raises(StrategyError):  # it does not play on after an illegal move
            live(3, 4)
    options = {"decision_time_limit": 0.5}
    with sandbox.LiveStrategy(str(arena / "sub" / "loop_at_state.py"), rules, **options) as live:
        with pytest.raises(StrategyError, match=r"at \(7, 3\): timed out: no answer within 0.5 s"):
            live(7, 3)
    with sandbox.LiveStrategy(str(arena / "sub" / "os_exit.py"), rules) as live:
        with pytest.raises(StrategyError, match=r"at \(4, 4\): exited the interpreter"):
            live(4, 4)


def test_fallback_warns_once_on_stderr(fallback, monkeypatch, capsys):
    monkeypatch.setattr(bwrap_module, "_warned", False)
    rules = get_rules("hog-su21", 10)
    for _ in range(2):
        entrant = load_entrant(str(FILES / "good_su21.py"), rules, cache=False)
        assert (
            entrant.tableable
            and "it ran without the sandbox (resource limits only)" in entrant.notes
        )
    warning = capsys.readouterr().err.strip()
    assert len(warning.splitlines()) == 1
    assert "the sandbox is turned off" in warning and "read every file you can" in warning


def test_require_sandbox_refuses_without_bwrap(monkeypatch):
    monkeypatch.delenv(sandbox.SANDBOX_ENV, raising=False)
    monkeypatch.setattr(bwrap_module, "bwrap_path", lambda: None)  # as on a machine without it
    rules = get_rules("hog-su21", 10)
    with pytest.raises(HogbenchError, match="refusing to run submitted code without the sandbox"):
        load_entrant(str(FILES / "good_su21.py"), rules, require_sandbox=True, cache=False)
    with pytest.raises(HogbenchError, match="refusing"):
        check_file(str(FILES / "good_su21.py"), rules, require_sandbox=True)
    monkeypatch.setattr(bwrap_module, "turned_off", lambda request=None: True)  # --no-sandbox
    with pytest.raises(HogbenchError, match="the sandbox is turned off"):
        sandbox.LiveStrategy(str(FILES / "good_su21.py"), rules, require_sandbox=True)


def test_unknown_options_are_rejected():
    with pytest.raises(UsageError, match="time_limt"):
        load_entrant(str(FILES / "good_su21.py"), get_rules("hog-su21", 10), time_limt=3)


def test_worker_answers_in_call_everywhere_order(bwrap):
    """The worker's passes are tables.call_everywhere's, call for call; under contest rules
    the second pass comes from a second import, which counts its calls afresh."""
    rules = get_rules("hog-su21", 10)
    answers = sandbox.collect_answers(parse_spec(str(CORPUS / "counts_calls.py")), rules)
    assert answers.across_imports
    namespace: dict = {}
    exec((CORPUS / "counts_calls.py").read_text(), namespace)  # harmless: it only counts
    first, _ = call_everywhere(namespace["final_strategy"], rules)
    n = len(first)
    assert list(answers.first) == first
    assert list(answers.second) == [(n - i) % 11 for i in range(n)]  # reversed, from 1 again


def test_an_import_that_draws_random_numbers_is_caught(bwrap):
    """The Spring 2015 kind: a Monte Carlo experiment at import picks the number of dice. With
    both passes in one import (seeded alike) it looked deterministic."""
    spec = parse_spec(str(CORPUS / "random_at_import.py"))
    rules = get_rules("hog-su21", 10)
    answers = sandbox.collect_answers(spec, rules)
    assert set(answers.first) != set(answers.second)
    entrant = load_entrant(spec, rules, cache=False)
    assert entrant.table is None and "randomness drawn at import" in entrant.live_reason


def test_the_worker_picks_the_strategy_as_the_rules_say():
    """final_strategy, else strategy, else the one public function of the rule set's arity; a
    name given wins; anything else is refused with the candidates named."""
    rules = get_rules("hog-su21", 10)

    def two(a, b):
        return 1

    def other(a, b):
        return 2

    def three(a, b, c):
        return 3

    def pick(namespace, name=None, not_strategies=()):
        try:
            return worker.pick_strategy(
                namespace, rules.strategy_names, len(rules.strategy_args), name, "", "x.py",
                not_strategies,
            )[0]  # fmt: skip
        except worker.Refused as exc:
            return str(exc)

    assert pick({"final_strategy": two, "strategy": other}) == "final_strategy"
    assert pick({"strategy": other, "helper": three}) == "strategy"
    assert pick({"mine": two}) == "mine"
    assert pick({"mine": two, "yours": other}) == (
        "ambiguous strategy: no final_strategy or strategy, and 2 candidates (mine, yours);"
        " name one as x.py:NAME"
    )
    assert pick({"mine": three}).startswith("no strategy function: define final_strategy")
    assert pick({"_private": two}).startswith("no strategy function")
    assert pick({"mine": two, "yours": other}, "yours") == "yours"
    # The course's own functions of two scores are not strategies (hog-su21's more_boar):
    course = ("more_boar", "take_turn", "play")
    assert pick({"more_boar": two, "mine": other}, not_strategies=course) == "mine"
    assert pick({"more_boar": two}, not_strategies=course) == (
        "no strategy function: define final_strategy or strategy, or one function of 2"
        " arguments (more_boar: the course's, not strategies)"
    )
    assert pick({"mine": two}, "absent") == "no function named 'absent'"

    # Arity counts the arguments a call must give: defaults are optional, and a decorated
    # function has the arity of what it wraps (the course's @trace).
    def with_default(a, b, c=3):
        return 4

    @functools.wraps(three)
    def wrapper(*args):
        return three(*args)

    assert pick({"mine": with_default, "yours": wrapper}) == "mine"
    assert pick({"mine": functools.wraps(two)(lambda *args: 1)}) == "mine"
    # Every Hog term's list holds the commentary functions, defined by a term or not.
    from hogbench.rules import course_functions_not_strategies

    for term in ("hog-su21", "hog-fa13", "hog-fa23"):
        listed = course_functions_not_strategies(term)
        assert pick({"say_scores": two, "both": other, "mine": two}, not_strategies=listed) == (
            "mine"
        )
    assert course_functions_not_strategies("pig") == frozenset()


def test_check_command(arena, bwrap):
    from typer.testing import CliRunner

    from hogbench.cli import app

    runner = CliRunner()
    good = runner.invoke(app, ["check", str(FILES / "good_su21.py"), "--goal", "10", "--json"])
    assert good.exit_code == 0, good.output
    assert json.loads(good.stdout)["valid"] is True
    shutil.copy(CORPUS / "returns_eleven.py", arena / "sub")
    args = ["check", str(arena / "sub" / "returns_eleven.py"), "--goal", "10", "--time-limit", "2"]
    bad = runner.invoke(app, [*args, "--require-sandbox"])
    assert bad.exit_code == 1
    assert "at (0, 0): returned 11, outside 0..10" in bad.stdout
    missing = runner.invoke(app, ["check", str(arena / "nope.py")])
    assert missing.exit_code == 2


def test_the_default_time_limit_grows_with_the_number_of_states():
    """10 s for Hog's 10,000 states; Pig (a million) and Big Pig (2,265,000) get 20 µs a state,
    so that a plain strategy, a few µs a state, is not disqualified as a hang. A limit given
    explicitly is kept."""
    limit = {n: sandbox.default_time_limit(get_rules(n)) for n in ("hog-su21", "pig", "big-pig")}
    assert limit == pytest.approx({"hog-su21": 10.0, "pig": 20.0, "big-pig": 45.3})
    options = sandbox.Request.for_rules(get_rules("pig"), time_limit=3)
    assert options.time_limit == 3


def test_a_verdict_is_cached_even_a_failure_so_a_hang_costs_its_limit_once(arena, bwrap):
    target = arena / "sub" / "hangs.py"
    target.write_text(
        "def final_strategy(score, opponent_score):\n"
        "    while score == 3:\n        pass\n    return 4\n"
    )
    rules = get_rules("hog-su21", 10)
    start = time.monotonic()
    with pytest.raises(StrategyError, match="timed out") as first:
        load_entrant(str(target), rules, time_limit=1.0)
    assert time.monotonic() - start >= 1.0
    start = time.monotonic()
    with pytest.raises(StrategyError, match="timed out") as again:
        load_entrant(str(target), rules, time_limit=1.0)
    assert time.monotonic() - start < 1.0 and str(again.value) == str(first.value) + (
        " (kept from an earlier run; `hogbench cache clear` runs it again)"
    )
    start = time.monotonic()  # a more generous limit runs it again
    with pytest.raises(StrategyError, match="timed out"):
        load_entrant(str(target), rules, time_limit=1.5)
    assert time.monotonic() - start >= 1.5


def test_an_altered_cache_entry_is_not_trusted(arena, bwrap):
    target = arena / "sub" / "four.py"
    target.write_text("def final_strategy(score, opponent_score):\n    return 4\n")
    rules = get_rules("hog-su21", 10)
    assert set(load_entrant(str(target), rules).table.choices.tolist()) == {4}
    entry, record, table = next(
        (path, record, bytearray(base64.b64decode(record["entry"]["choices"]["bytes"])))
        for path in verdicts.cache_dir().glob("*.json")
        for record in [json.loads(path.read_text())]
        if isinstance(record["entry"].get("choices"), dict)
        and set(base64.b64decode(record["entry"]["choices"]["bytes"])) == {4}
    )  # the table's bytes, in base64
    packed = record["entry"]["choices"]
    table[0] = 0  # the first state's choice altered, the seal left as it was
    packed["bytes"] = base64.b64encode(bytes(table)).decode()
    entry.write_text(json.dumps(record))
    again = load_entrant(str(target), rules)  # rebuilt from the file, not read from the entry
    assert set(again.table.choices.tolist()) == {4}
    entry.write_text("{not json")
    assert set(load_entrant(str(target), rules).table.choices.tolist()) == {4}


def test_a_kept_table_is_its_bytes_and_nothing_else():
    """A verdict keeps a table as base64 of its integer bytes; any other type is refused."""
    choices = np.array([0, 1, -1, 10, 127], dtype=np.int8)
    packed = verdicts._packed(choices)
    assert packed["type"] == "|i1" and verdicts._unpacked(packed).tolist() == choices.tolist()
    wide = np.array([2**40, -5], dtype=np.int64)
    assert verdicts._unpacked(verdicts._packed(wide)).tolist() == wide.tolist()
    with pytest.raises(ValueError):
        verdicts._unpacked({"type": "<f8", "bytes": packed["bytes"]})


def _crossed(answers: list) -> CodedAnswers:
    """ANSWERS as the worker sends a pass (its values as JSON, its codes raw), decoded here."""
    values, codes = worker.coded(answers)
    header = json.loads(json.dumps({"values": values}))
    return sandbox.decode_pass(header, codes, len(answers))


def test_a_pass_crosses_as_its_values_and_a_code_a_state():
    """A pass crosses as its distinct values and a byte per state (two past 256 values), and
    decodes to the same answers, types kept (True is not 1); an answer that does not cross as
    itself is what ``encode`` gives: a long string cut, a huge int and an object described."""
    for answers in ([True, False, True], ["roll", "hold", "hold"], [3, -1, 3], [1, 1], [True, 1]):
        decoded = _crossed(answers)
        assert isinstance(decoded, CodedAnswers)
        assert [(type(a), a) for a in decoded] == [(type(a), a) for a in answers]
    assert len(worker.coded(list(range(300)))[1]) == 600
    assert list(_crossed(list(range(300)))) == list(range(300))
    many = list(range(300)) * 300  # two bytes a state, past the 65,536 codes packed at once
    assert list(_crossed(many)) == many
    decoded = list(_crossed([1, "x" * 150, 2**70, None, 1.5, [1]]))
    assert decoded[:2] == [1, "x" * 100] and decoded[3:5] == [None, 1.5]
    assert repr(decoded[2]) == "<an int of 71 bits>" and repr(decoded[5]) == "[1]"


def _coded(answers: list) -> CodedAnswers:
    """ANSWERS coded as a worker codes them (by type and value: True is not 1)."""
    keys = list(dict.fromkeys((type(a), a) for a in answers))
    place = {key: i for i, key in enumerate(keys)}
    codes = np.array([place[(type(a), a)] for a in answers], dtype=np.uint8)
    return CodedAnswers([value for _, value in keys], codes)


@pytest.mark.parametrize(
    ("first_changes", "second_changes", "faults"),
    [
        ({}, {}, (0, 0)),
        ({5: 11}, {5: 11}, (1, 0)),  # an illegal number of dice, the same both times
        ({}, {7: 3}, (0, 1)),  # another answer when called again
        ({9: 1}, {9: True}, (0, 1)),  # the same number, but not the same type
        ({3: True}, {3: True, 4: 12}, (1, 1)),  # a bool is no number of dice; 12 only second
        ({2: 12}, {2: 4}, (1, 0)),  # illegal first: not also counted as changed
    ],
)
def test_coded_passes_are_judged_as_their_lists(first_changes, second_changes, faults):
    """find_faults and table_from_answers give coded passes the verdicts of the same lists."""
    rules = get_rules("hog-su21", 10)
    n = int(np.prod(rules.obs_shape))
    first, second = ([i % 11 for i in range(n)] for _ in range(2))
    for answers, changes in ((first, first_changes), (second, second_changes)):
        for i, value in changes.items():
            answers[i] = value
    expected = find_faults(rules, first, second)
    for pair in ((_coded(first), _coded(second)), (_coded(first), second)):
        found = find_faults(rules, *pair)
        assert found[:2] == expected[:2]
        assert tuple(map(len, found[:2])) == faults
    if faults == (0, 0):
        table = table_from_answers(rules, _coded(first), _coded(second), "coded")
        assert table.choices.tolist() == first


@pytest.mark.parametrize(
    ("header", "codes"),
    [
        ({"values": ["roll", "hold"]}, b"\0\1\2"),  # a code naming no value
        ({"values": ["roll", "hold"]}, b"\0\1"),  # two codes for three states
        ({"values": ["roll", "roll"]}, b"\0\1\0"),  # values not distinct
        ({"values": [[1], "hold"]}, b"\0\1\0"),  # a value that is no encoded answer
        ({"values": []}, b""),
        ({"values": ["roll"], "more": 1}, b"\0\0\0"),
        ({"roll": 3}, b"\0\0\0"),
        (["roll", "hold"], b"\0\0\0"),
        ({"values": list(range(300))}, b"\0\0\0"),  # past 256 values, two bytes a code
    ],
)
def test_a_pass_that_is_not_three_answers_is_malformed(header, codes):
    """The parent checks a pass it did not code itself: three answers, or nothing."""
    assert sandbox.decode_pass({"values": ["roll", "hold"]}, b"\0\1\0", 3)[2] == "roll"
    with pytest.raises(sandbox.protocol.Malformed):
        sandbox.decode_pass(header, codes, 3)


def test_a_strategy_sleeping_2_ms_a_call_fails_the_courses_10_s_rule(bwrap):
    """hog-su21's 10,000 states at 2 ms each take 20 s: over the course's 10 s, though it
    computes almost nothing (it passed as "0.30 s of CPU time" when the limit was CPU time)."""
    rules = get_rules("hog-su21")
    report = check_file(str(CORPUS / "sleeps.py"), rules, cache=False)
    text = "\n".join(report.lines)
    assert not report.valid
    assert "timed out sleeping or waiting: the 10 s limit" in text, text
