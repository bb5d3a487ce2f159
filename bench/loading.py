"""Loading a class: real-looking submissions through the sandbox, cold and warm, beside the
floor of any loader that keeps the sandbox's guarantees.

Each generated file imports the course's dice and ucb as real ones do (no dice.py beside them)
and defines a cutoff strategy of its own; they sit in one flat folder, so each worker sees its
own file only. Cold: an empty cache (a fresh one every repeat), so every file is imported and
called at every state, twice, in the sandbox. Warm: the same files again, every verdict from
the cache. The targets are 60 s and 3 s for 300 files on two cores.

The floor. Every file gets a sandbox of its own (bwrap) and an interpreter of its own, and its
strategy is called at every state twice, from two imports (a table must not depend on random
draws at import): that is the isolation and the determinism check, which no design may drop.
So no loader can take less than, for each file: starting bwrap, starting Python, importing the
file twice and making 2 x 10,000 calls. The script measures exactly that, plainly, in the same
run: for each file, ``python -S -B -c`` inside the very sandbox hogbench builds
(``bwrap_args``, the same folders visible), importing the file, calling ``final_strategy`` at
every (score, opponent_score), forgetting the file's modules, importing it again with another
seed and calling it again in reverse order, the answers written to stdout as bytes, with as
many processes at a time as hogbench keeps loading (two a job). Nothing else: no protocol, no
limits, no judging, no cache. hogbench's cold load over that floor is what its own machinery
costs. The same imports and calls for every file in one process, with no sandbox and one
interpreter start, are the student's code alone: what the floor costs over that is the price of
isolation.

The floor's answers are checked against hogbench's tables, and the one-process answers against
the floor's: the three do the same work. Times are wall-clock medians over --repeat. CPU is
that of the processes started (``getrusage``), the sandboxes' included (see ``reaper``), and
is printed for the plain loads only: hogbench kills a worker as soon as it has answered, and
the CPU of a sandbox killed before its Python has exited is counted by no process.

    python bench/loading.py [--entrants 300] [--jobs 2] [--repeat 3] [--field tournament]
"""

from __future__ import annotations

import argparse
import collections
import functools
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TEMPLATE = '''"""Generated entrant {k}."""

from dice import six_sided, four_sided, make_test_dice
from ucb import main, trace, interact, log_current_line

TEAM_NAME = "Student {k:03}"


def piggy_points(score):
    return abs((score // 10) % 10 - score % 10) + 4


def final_strategy(score, opponent_score):
    if piggy_points(opponent_score) >= {cutoff}:
        return 0
    return {dice} if score < {behind} else {late}


@main
def run(*args):
    interact()
'''

#: The plain load, run as ``python -S -B -c PLAIN_LOAD EXTRA SHAPE FILE...``: for each FILE,
#: import it (its folder, then the os.pathsep-separated EXTRA folders first on the path), call
#: final_strategy at every state of SHAPE (comma-separated sizes, numpy's ndindex order), forget
#: every module imported from its folder or the course's (EXTRA's first), as hogbench's worker
#: does (an extension module such as numpy's cannot be imported twice), import it again with
#: another seed, call it at every state in reverse order, and write both passes to stdout as
#: bytes in state order. The module is made as hogbench's worker makes it (importlib.util's
#: functions of these names: importing that module costs milliseconds a process, which the
#: floor must not pay).
PLAIN_LOAD = """
import importlib, itertools, os, random, sys
extra = sys.argv[1].split(os.pathsep)
states = list(itertools.product(*(range(int(n)) for n in sys.argv[2].split(","))))
backward = states[::-1]
modules_at_start, path_at_start = set(sys.modules), list(sys.path)
out = sys.stdout.buffer

def strategy(path, seed):
    folder = os.path.dirname(path)
    ours = tuple(place.rstrip("/") + "/" for place in (folder, extra[0]))
    for name in set(sys.modules) - modules_at_start:
        if (getattr(sys.modules[name], "__file__", None) or "").startswith(ours):
            del sys.modules[name]
    sys.path[:] = [folder, *extra, *path_at_start]
    random.seed(seed)
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib._bootstrap_external.spec_from_file_location(name, path)
    module = importlib._bootstrap.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.final_strategy

for path in sys.argv[3:]:
    first = strategy(path, 0)
    answers = [first(*state) for state in states]
    second = strategy(path, 1)
    again = [second(*state) for state in backward]
    again.reverse()
    out.write(bytes(answers))
    out.write(bytes(again))
"""


def write_class(folder: Path, n: int, seed: int) -> None:
    rng = random.Random(seed)
    for k in range(n):
        text = TEMPLATE.format(
            k=k,
            cutoff=rng.randint(6, 12),
            dice=rng.randint(3, 8),
            behind=rng.randint(30, 90),
            late=rng.randint(2, 6),
        )
        (folder / f"student{k:03}.py").write_text(text)


def own_folders(files: list[Path], where: Path) -> list[Path]:
    """Each file copied into a folder of its own under WHERE, as hogbench gives each worker a
    private copy: the sandbox shows that folder, so a file sees nothing but itself."""
    copies = []
    for path in files:
        folder = where / path.stem
        folder.mkdir(parents=True)
        copies.append(Path(shutil.copy2(path, folder)))
    return copies


def reaper(on: bool) -> bool:
    """Make this process the reaper of every process it starts, however deep (ON), or no
    longer; False where the kernel cannot.

    bwrap's process inside the sandbox's PID namespace (it makes the mounts, then starts and
    waits for the command) outlives bwrap's first process, which never waits for it: reaped by
    init, its CPU and the Python's inside were in no ``getrusage`` of ours. Handed to us, they
    are, once ``reap_orphans`` has waited for them."""
    import ctypes

    PR_SET_CHILD_SUBREAPER = 36
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def reap_orphans(patience: float = 2.0) -> None:
    """Reap the processes handed to us (``reaper``): they end as soon as their bwrap has, so
    wait for them briefly, and never for a child that lives on."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        try:
            if os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG) is None:
                time.sleep(0.01)  # children left, none ended yet
        except ChildProcessError:
            return


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured(work, count_sandboxes: bool = False):
    """(WORK(), its wall seconds, the CPU seconds of the processes it started and that ended on
    their own). COUNT_SANDBOXES: this process reaps what is left of a sandbox (``reaper``), so
    that its CPU is counted too; None for the CPU where the kernel cannot."""
    counted = reaper(True) if count_sandboxes else True
    try:
        cpu_before = children_cpu()
        start = time.perf_counter()
        result = work()
        wall = time.perf_counter() - start
        if count_sandboxes:
            reap_orphans()
    finally:
        if count_sandboxes:
            reaper(False)
    return result, wall, children_cpu() - cpu_before if counted else None


class PlainLoad:
    """``PLAIN_LOAD`` for each file in a fresh sandbox (bwrap EXE, as hogbench builds it, or no
    sandbox when EXE is None) and interpreter, or for every file in one process."""

    def __init__(self, exe: str | None, visible: list[Path], extra: list[Path], shape) -> None:
        from hogbench.sandbox.bwrap import INSIDE, bwrap_args
        from hogbench.sandbox.process import worker_environment

        self.env = worker_environment("/tmp")  # the environment hogbench gives a worker
        self.exe = exe
        self.sandbox = functools.partial(bwrap_args, exe, visible=visible) if exe else None
        self.inside = INSIDE  # where the sandbox shows the file's folder
        self.extra = os.pathsep.join(map(str, extra))
        self.shape = ",".join(map(str, shape))

    def command(self, paths: list[str]) -> list[str]:
        return [sys.executable, "-S", "-B", "-c", PLAIN_LOAD, self.extra, self.shape, *paths]

    def one(self, path: Path, load: bool = True) -> tuple[bytes, float]:
        """The file's answers (both passes, as bytes), and the wall time its process took. Not
        LOAD: the same sandbox and interpreter, which start and end without loading the file."""
        start = time.perf_counter()
        if self.sandbox is None:
            argv = self.command([str(path)] if load else [])
        else:
            inside = [f"{self.inside}/{path.name}"] if load else []
            argv = [*self.sandbox(path.parent), "--", *self.command(inside)]
        done = subprocess.run(argv, capture_output=True, cwd=path.parent, env=self.env)
        if done.returncode != 0:
            raise SystemExit(f"the plain load of {path.name} failed:\n{done.stderr.decode()}")
        return done.stdout, time.perf_counter() - start

    def each_alone(
        self, paths: list[Path], width: int, load: bool = True
    ) -> list[tuple[bytes, float]]:
        """Every file in a sandbox and process of its own, WIDTH at a time (see ``one``)."""
        with ThreadPoolExecutor(max_workers=width) as pool:
            return list(pool.map(functools.partial(self.one, load=load), paths))

    def all_in_one(self, paths: list[Path]) -> bytes:
        """Every file imported and called in one process, without a sandbox."""
        argv = self.command(list(map(str, paths)))
        done = subprocess.run(argv, capture_output=True, env=self.env)
        if done.returncode != 0:
            raise SystemExit(f"the plain load in one process failed:\n{done.stderr.decode()}")
        return done.stdout


def check_answers(slots, copies: list[Path], answers: list[bytes], together: bytes, n: int) -> None:
    """The plain loads did hogbench's work: each file's two passes agree and equal hogbench's
    table of that file, and the answers in one process are the same bytes."""
    tables = {slot.path.stem: slot.entrant.table for slot in slots if slot.entrant is not None}
    for path, both in zip(copies, answers, strict=True):
        first, second = both[:n], both[n:]
        if len(both) != 2 * n or first != second:
            raise SystemExit(f"{path.name}: the plain load's two passes differ or are cut short")
        table = tables.get(path.stem)
        if table is None or table.choices.tolist() != list(first):
            raise SystemExit(f"{path.name}: hogbench's table differs from the plain load's")
    if together != b"".join(answers):
        raise SystemExit("the answers in one process differ from the sandboxed plain load's")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--field",
        choices=("class", "tournament"),
        default="class",
        help="the files: this script's class (the default), or bench/tournament.py's entrants",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HOGBENCH_CACHE"] = str(Path(tmp) / "cache")
        from hogbench import tournament as tm
        from hogbench.discovery import discover
        from hogbench.rules import get_rules
        from hogbench.sandbox.bwrap import choose
        from hogbench.sandbox.imports import COURSE_MODULES, importable, importable_paths
        from hogbench.sandbox.request import Request
        from hogbench.tournament.field import PIPELINE

        folder = Path(tmp) / "subs"
        folder.mkdir()
        if args.field == "tournament":  # its strategies cost some four times more a call
            from field import write_entrants

            write_entrants(folder, args.entrants, 2021, "hog-su21")  # its default seed
        else:
            write_class(folder, args.entrants, seed=1)
        rules = get_rules("hog-su21")
        entries = discover([str(folder)], folder)
        copies = own_folders(sorted(folder.glob("*.py")), Path(tmp) / "own")
        # What a worker sees and has on its path (``sandbox.process.Worker``, ``make_job``).
        # Found once here, as bwrap is (``choose`` tries it once): hogbench's first load then
        # does not pay it, a process's setup, not a file's.
        extra = [COURSE_MODULES, importable(())]
        visible = [*extra, *importable_paths(())]
        plain = PlainLoad(choose(Request()), visible, extra, rules.obs_shape)
        if plain.exe is None:
            print("bwrap is absent or does not work here: the floor runs without a sandbox,")
            print("as hogbench's workers then do")
        n = len(list(rules.observations()))
        files = len(copies)
        width = min(PIPELINE * args.jobs, files)  # as many files at a time as hogbench loads
        figures: dict[str, list] = collections.defaultdict(list)
        for repeat in range(args.repeat):
            # Read at each use: every repeat's cold load starts from an empty cache.
            os.environ["HOGBENCH_CACHE"] = str(Path(tmp) / f"cache{repeat}")
            for label in ("cold", "warm"):
                slots, wall, _ = measured(lambda: tm.load_slots(entries, rules, args.jobs))
                figures[label].append(wall)
                bad = [s for s in slots if s.entrant is None]
                print(f"{label}: {len(slots)} submissions loaded in {wall:.1f} s"
                      f" ({len(bad)} disqualified)")  # fmt: skip
                if label == "cold":
                    cold_slots = slots
            done, wall, cpu = measured(lambda: plain.each_alone(copies, width), True)
            figures["floor"].append(wall)
            figures["floor cpu"].append(cpu)
            figures["floor each"].append(statistics.median(seconds for _, seconds in done))
            print(f"floor: {files} files in {wall:.1f} s")
            _, wall, cpu = measured(lambda: plain.each_alone(copies, width, load=False), True)
            figures["start"].append(wall)
            figures["start cpu"].append(cpu)
            together, wall, cpu = measured(lambda: plain.all_in_one(copies))
            figures["alone"].append(wall)
            figures["alone cpu"].append(cpu)
            print(f"in one process: {files} files in {wall:.2f} s")
            check_answers(cold_slots, copies, [answers for answers, _ in done], together, n)
        report(figures, files, width, n, plain.exe is not None)


def report(figures: dict[str, list], files: int, width: int, n: int, sandboxed: bool) -> None:
    """The medians, side by side, and their ratio."""

    def median(key: str) -> float:
        return statistics.median(figures[key])

    def cpu(key: str) -> str:
        if None in figures[key]:
            return "CPU not counted here"
        return f"CPU {1000 * median(key) / files:.1f} ms a file"

    sandbox = "bwrap" if sandboxed else "no sandbox"
    print(f"medians of {len(figures['cold'])}, {files} files, {width} processes at a time:")
    print(f"  hogbench cold load: {median('cold'):.2f} s")
    print(f"  floor ({sandbox} + python + 2 imports + 2 x {n:,} calls, a process a file):"
          f" {median('floor'):.2f} s, {cpu('floor cpu')},"
          f" wall {1000 * median('floor each'):.1f} ms a file")  # fmt: skip
    print(f"    of which starting them, loading nothing: {median('start'):.2f} s,"
          f" {cpu('start cpu')}")  # fmt: skip
    print(f"  in one process (the student's code alone): {median('alone'):.2f} s,"
          f" {cpu('alone cpu')}")  # fmt: skip
    print(f"  the floor at 1000 files, at this rate: {1000 * median('floor') / files:.1f} s")
    print(f"ratio hogbench cold / floor: {median('cold') / median('floor'):.2f}x")
    print(f"targets: cold <= 60 s, warm <= 3 s; measured {median('cold'):.1f} s"
          f" and {median('warm'):.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
