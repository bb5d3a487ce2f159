"""What a tournament costs beyond its pairs: copies of a file loaded once and identical pairs
played once (a copy still meets its original in both seatings), and the best responses for
regret solved in the workers that play the pairs, once per distinct table, with the values a
plain solve in this process gives."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from hogbench import exact, sandbox
from hogbench import solve as sv
from hogbench import tournament as tm
from hogbench.rules import get_rules
from hogbench.tournament import match

CUTOFF = """
TEAM_NAME = {team!r}


def final_strategy(score, opponent_score):
    return 0 if abs((opponent_score // 10) % 10 - opponent_score % 10) + 4 >= {cutoff} else {dice}
"""


def field(tmp_path: Path) -> list[str]:
    """Two files, and byte-for-byte copies of the first (same name, another folder)."""
    a = tmp_path / "a" / "hog.py"
    b = tmp_path / "b" / "hog.py"
    copy = tmp_path / "c" / "hog.py"
    again = tmp_path / "d" / "hog.py"
    for path, text in [
        (a, CUTOFF.format(team="Ann", cutoff=8, dice=5)),
        (b, CUTOFF.format(team="Bo", cutoff=10, dice=4)),
    ]:
        path.parent.mkdir()
        path.write_text(text)
    for path in (copy, again):
        path.parent.mkdir()
        path.write_bytes(a.read_bytes())
    return [str(a), str(b), str(copy), str(again)]


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """No verdict or best response from another test."""
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(sv, "_BEST_RESPONSE_RATES", {})


def test_copies_of_a_file_load_once_and_meet_their_original_in_both_seats(
    tmp_path, monkeypatch, fresh_cache
):
    rules = get_rules("hog-su21", 40)
    specs = field(tmp_path)
    loaded = []
    real = sandbox.collect_answers

    def counted(spec, *args, **kwargs):
        loaded.append(spec.path)
        return real(spec, *args, **kwargs)

    monkeypatch.setattr(sandbox, "collect_answers", counted)
    slots = tm.load_slots(specs, rules, jobs=2)
    assert sorted(map(str, loaded)) == sorted(specs[:2])  # the copies were not run again
    a, b, copy, again = slots
    assert copy.entrant.table.hash == a.entrant.table.hash == again.entrant.table.hash
    assert [s.path for s in slots] == [Path(s) for s in specs]  # each its own file
    assert copy.entrant.spec.path == Path(specs[2]) and copy.name.startswith("Ann")
    assert sorted(a.same_as) == sorted([copy.name, again.name])

    played = []
    real_batch = match.play_batch

    def batches(rules, players, keys, *rest):
        played.extend(keys)
        return real_batch(rules, players, keys, *rest)

    monkeypatch.setattr(match, "play_batch", batches)
    t = tm.Tournament("t", rules, specs, store=tmp_path / "store.sqlite")
    result = tm.run(t, jobs=1, slots=slots)
    # Three distinct pairs: A-B, A-A (the copies), and nothing else is played.
    assert len(played) == len(set(played)) == 2 and result.computed == 2
    ta, tb = a.entrant.table.choices, b.entrant.table.choices
    same = exact.evaluate(rules, ta, ta)
    other = exact.evaluate(rules, ta, tb)
    # A copy meets its original in both seatings: the first mover's edge, not 50% a seat.
    assert abs(same.first - same.second) > 0.01
    names = [s.name for s in result.active]
    for i, j in [(0, 2), (2, 3), (0, 3)]:
        r = result.results[names.index(slots[i].name), names.index(slots[j].name)]
        assert r.first == pytest.approx(same.first, abs=1e-12)
        assert r.second == pytest.approx(same.second, abs=1e-12)
    for i in (0, 2, 3):
        r = result.results[names.index(slots[i].name), names.index(b.name)]
        assert r.first == pytest.approx(other.first, abs=1e-12)
        assert r.second == pytest.approx(other.second, abs=1e-12)


def test_a_file_that_fails_fails_for_its_copies_too_without_running_again(
    tmp_path, monkeypatch, fresh_cache
):
    rules = get_rules("hog-su21", 30)
    bad = "def final_strategy(score, opponent_score):\n    return 1 / 0\n"
    paths = []
    for name in ("x", "y"):
        path = tmp_path / name / "hog.py"
        path.parent.mkdir()
        path.write_text(bad)
        paths.append(str(path))
    runs = []
    real = sandbox.collect_answers
    monkeypatch.setattr(sandbox, "collect_answers", lambda *a, **k: runs.append(1) or real(*a, **k))
    slots = tm.load_slots([*paths, "always_roll:4"], rules)
    assert len(runs) == 1
    assert slots[0].disqualified == slots[1].disqualified
    assert "ZeroDivisionError" in slots[1].disqualified
    assert [s.path for s in slots[:2]] == [Path(p) for p in paths]


def test_best_responses_are_solved_in_the_workers_with_this_process_values(
    tmp_path, monkeypatch, fresh_cache
):
    """Solved in worker processes (forced on here), once per distinct table, with the
    values of a plain solve in this process to 1e-12; the pairs' values do not change."""
    rules = get_rules("hog-su21", 40)
    specs = ["always_roll:3", "always_roll:5", "always_roll:5", "piggypoints_strategy"]
    monkeypatch.setattr(match, "WORKER_START_SECONDS", -1.0)  # parallel from the second task
    phases = []

    class Progress:
        def start(self, label, total):
            phases.append((label, total))

        def advance(self, n):
            pass

        def note(self, text):
            pass

        def stop(self):
            pass

    t = tm.Tournament("t", rules, specs, store=tmp_path / "with.sqlite")
    result = tm.run(t, jobs=2, progress=Progress(), best_response_seconds=60)
    assert [label for label, _ in phases] == [
        "loading entrants", "pairs", "best responses (for regret)",
    ]  # fmt: skip
    assert phases[-1][1] == 3  # three distinct tables
    plain = tm.run(tm.Tournament("t", rules, specs, store=tmp_path / "without.sqlite"), jobs=1)
    assert plain.best_responses is None
    np.testing.assert_allclose(result.rates, plain.rates, rtol=0, atol=1e-12)
    for slot in result.active:
        solved = exact.solve(rules, slot.entrant.table.choices)
        expected = (solved.first + solved.second) / 2
        assert result.best_responses[slot.entrant.key] == pytest.approx(expected, abs=1e-12)
    # The report reads them: nothing is solved in this process.
    from hogbench import results

    monkeypatch.setattr(sv, "best_response_rate", lambda *a, **k: pytest.fail("solved again"))
    report = results.build(result)
    assert not np.isnan(report.best).any()
    assert "exact best response to each of 4 opponents" in report.best_note


def test_best_responses_past_their_budget_are_said_to_be_missing(
    tmp_path, monkeypatch, fresh_cache
):
    rules = get_rules("hog-su21", 30)
    specs = ["always_roll:3", "always_roll:5", "always_roll:6"]
    t = tm.Tournament("t", rules, specs, store=tmp_path / "store.sqlite")
    result = tm.run(t, jobs=1, best_response_seconds=1e-9)
    assert list(result.best_responses.values()) == [None] * 3  # none begun in time
    from hogbench import results

    report = results.build(result, budget=1e-9)  # the CLI gives both the same budget
    assert np.isnan(report.best).all()
    assert "(3 without one: past the 0 s budget)" in report.best_note


HOSTILE = Path(__file__).parent / "hostile"


@pytest.mark.parametrize(
    "name",
    [
        "counts_calls.py",  # state kept in the module: counted afresh by the second import
        "random_at_import.py",  # random draws at import: another seed, another table
        "uses_random.py",
        "patch_builtins.py",  # a builtin replaced by the first import is restored
        "patch_random.py",
        "raises_at_state.py",
        "syntax_error.py",
    ],
)
def test_two_imports_in_one_worker_give_the_verdict_of_two_workers(name):
    """A tournament imports each file twice in one worker (``Request.one_worker``), not in
    two at once: the verdict, table or failure, is the same word for word."""
    from hogbench.errors import StrategyError
    from hogbench.loading import load_entrant

    rules = get_rules("hog-su21", 10)
    verdicts = []
    for one_worker in (False, True):
        try:
            entrant = load_entrant(str(HOSTILE / name), rules, cache=False, one_worker=one_worker)
        except StrategyError as exc:
            verdicts.append(("failed", str(exc)))
        else:
            table = entrant.table.hash if entrant.table is not None else None
            verdicts.append((table, entrant.live_reason, entrant.function, entrant.name))
    assert verdicts[0] == verdicts[1]


def test_the_second_import_forgets_the_modules_of_the_first(tmp_path):
    """State a sibling module keeps from the first import is gone at the second, as in a new
    worker: a file that counts its imports in a helper module is the same table both times."""
    from hogbench.loading import load_entrant

    (tmp_path / "helper.py").write_text(
        "COUNT = 0\n\n\ndef bump():\n    global COUNT\n    COUNT += 1\n    return COUNT\n"
    )
    (tmp_path / "hog.py").write_text(
        "import helper\n\nOFFSET = helper.bump()\n\n\n"
        "def final_strategy(score, opponent_score):\n    return OFFSET\n"
    )
    rules = get_rules("hog-su21", 10)
    entrant = load_entrant(str(tmp_path / "hog.py"), rules, cache=False, one_worker=True)
    assert entrant.table is not None and set(entrant.table.choices.tolist()) == {1}


def test_a_tournament_starts_one_worker_a_file(tmp_path, monkeypatch, fresh_cache):
    from hogbench.sandbox import collect

    started = []
    real = collect.Session

    def counted(*args, **kwargs):
        started.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(collect, "Session", counted)
    specs = field(tmp_path)[:2]
    slots = tm.load_slots(specs, get_rules("hog-su21", 20), jobs=2)
    assert all(s.entrant is not None for s in slots)
    assert len(started) == 2  # one a file, under rules that demand two imports of each


@pytest.mark.parametrize(
    "body",
    [
        "T = np.full(7, 4)\n",  # numpy, and the standard library, imported by both imports
        "T = np.random.randint(0, 11, size=7)\n",  # numpy's random drawn at import
    ],
)
def test_a_file_importing_numpy_gets_the_verdict_of_two_workers(tmp_path, body):
    """An installed package stays imported for the second import (an extension module cannot be
    imported twice in one process), and a random draw from it is caught all the same."""
    from hogbench.loading import load_entrant

    (tmp_path / "hog.py").write_text(
        "import fractions\nimport numpy as np\n\n" + body + "\n\n"
        "def final_strategy(score, opponent_score):\n    return int(T[score % 7])\n"
    )
    rules = get_rules("hog-su21", 10)
    verdicts = []
    for one_worker in (False, True):
        entrant = load_entrant(str(tmp_path / "hog.py"), rules, cache=False, one_worker=one_worker)
        verdicts.append((entrant.table is None, entrant.live_reason is None))
    assert verdicts[0] == verdicts[1]
    assert verdicts[0] == ((False, True) if "full" in body else (True, False))


def test_a_file_choosing_another_function_when_imported_again_is_refused_alike(tmp_path):
    """Seeds 0 and 1 draw 0.84 and 0.13 first: the two imports define different functions."""
    from hogbench.errors import StrategyError
    from hogbench.loading import load_entrant

    (tmp_path / "hog.py").write_text(
        "import random\n\n"
        "if random.random() > 0.5:\n\n"
        "    def final_strategy(score, opponent_score):\n        return 4\n\n"
        "else:\n\n"
        "    def strategy(score, opponent_score):\n        return 4\n"
    )
    rules = get_rules("hog-su21", 10)
    messages = []
    for one_worker in (False, True):
        with pytest.raises(StrategyError) as caught:
            load_entrant(str(tmp_path / "hog.py"), rules, cache=False, one_worker=one_worker)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert "chose 'strategy' as its strategy when imported again" in messages[1]


def _peak_memory_mb(pid: int) -> dict[int, tuple[float, bytes]]:
    """PID's and each live descendant's peak resident size so far (MB) and command line, from
    /proc (Linux)."""
    peaks: dict[int, tuple[float, bytes]] = {}
    try:
        kids = [int(k) for k in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        status = Path(f"/proc/{pid}/status").read_text()
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return peaks
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            peaks[pid] = (int(line.split()[1]) / 1024, command)
    for kid in kids:
        peaks.update(_peak_memory_mb(kid))
    return peaks


@pytest.mark.slow  # a Big Pig round robin of seven built-ins: about 20 s
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_big_pig_workers_playing_pairs_stay_small(tmp_path):
    """A worker playing Big Pig's pairs holds the model and a tile's tables (2 MB each): at its
    peak, even with a pair a task, it takes at most 50 MB more than this interpreter holding
    the model alone. That is the engines' 300 MB on Python 3.11 (the model alone 250 MB; the
    workers measured 257-275), and 342 MB on 3.13, whose numpy and numba take 60 MB more
    before a pair is played (the workers 309). A process is read once it runs its own program:
    between fork and exec it is a copy of hogbench (800 MB here while the built-in "computer"
    solves the game for its table, with a cold cache)."""
    holding = "import hogbench.exact.evaluation, hogbench.tournament.match;"  # as a worker does
    holding += "from hogbench.rules import get_rules; get_rules('big-pig').model;"
    holding += "print(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])"
    model_alone = int(subprocess.check_output([sys.executable, "-c", holding])) / 1024
    specs = ["hold_at:10", "hold_at:15", "hold_at:20", "hold_at:25", "hold_at:30", "computer"]
    command = [sys.executable, "-m", "hogbench", "tournament", *specs, "computer:25"]
    command += ["--rules", "big-pig", "-j", "2", "--batch-size", "1"]
    command += ["--store", str(tmp_path / "s.sqlite")]
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    peaks: dict[int, float] = {}
    while run.poll() is None:
        seen = _peak_memory_mb(run.pid)
        ours = seen.get(run.pid, (0.0, b""))[1]
        for pid, (mb, program) in seen.items():
            if pid != run.pid and program != ours:
                peaks[pid] = max(mb, peaks.get(pid, 0.0))
        time.sleep(0.05)
    assert run.returncode == 0
    assert "computer:25" in run.stdout.read()
    workers = [mb for mb in peaks.values() if mb > 100]  # not joblib's small trackers
    assert len(workers) == 2, peaks
    assert max(workers) <= model_alone + 50, (model_alone, peaks)
