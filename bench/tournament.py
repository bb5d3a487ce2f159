"""A class-sized exact round robin: 200 submissions, every pair, tables made from files.

The entrants are random variations of the course's cutoff strategies (for hog-su21: Piggy
Points cutoff, dice, More Boar or not, more dice when far behind; for greed (``--rules greed``):
a target score, dice by distance to it, a last-turn rule, as in the course's sample
strategies), or with ``--random-tables`` files that each play a random table (a choice drawn
at every pair of scores, seeded), written as .py files in a temporary folder and
loaded through the sandbox with an empty table cache, so making the tables is part of the time.
``--copies K`` adds K byte-identical copies of the first file, each in a folder of its own
(loaded once, played once).
The script prints the time of each phase (loading, pairs, best responses for regret, which
``--json`` and ``--out`` ask for and ``--regret`` here, and building the report) and the ratio
of the whole to the pair phase; pairs per second, and the engine's own time per pair (summed
over pairs) beside the wall time per pair, which shows what the scheduling, batching and store
cost on top of the engine; the peak memory of the whole process tree (sampled); the load
average; and, in the same run, the time of a plain memoised recursion (the course's rules
written out, from bench/exact.py and bench/bacon2.py) on a few of the same pairs, with the
ratio.

    python bench/tournament.py [--entrants 200] [--jobs 2] [--reference-pairs 3]
    python bench/tournament.py --rules hog-fa19 --random-tables --entrants 20 --regret
    python bench/tournament.py --rules greed --entrants 100
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import psutil
from field import write_entrants, write_random_tables
from rich.console import Console


class PeakMemory:
    """The largest resident size of this process and its children together, sampled."""

    def __init__(self, every: float = 0.2) -> None:
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(every,), daemon=True)
        self._thread.start()

    def _run(self, every: float) -> None:
        me = psutil.Process()
        while not self._stop.wait(every):
            total = 0
            for proc in [me, *me.children(recursive=True)]:
                try:
                    total += proc.memory_info().rss
                except psutil.Error:
                    pass
            self.peak = max(self.peak, total)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


def reference_seconds(rules: str, tables: list, pairs: int) -> float:
    """Median seconds of the plain recursion for one pair (both seatings)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from exact import dice_table, reference_su21

    if rules == "hog-fa19":
        from bacon2 import reference_fa19 as reference
    else:
        reference = reference_su21
    dice = dice_table(rules)
    times = []
    for k in range(pairs):
        a, b = tables[2 * k].tolist(), tables[2 * k + 1].tolist()
        start = time.perf_counter()
        reference(a, b, dice)
        reference(b, a, dice)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


#: Rule sets with a plain recursion in bench/ to time the engine against.
REFERENCES = ("hog-su21", "hog-fa19")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rules", default="hog-su21")
    parser.add_argument("--seed", type=int, default=2021)
    parser.add_argument("--batch-size", type=int, default=None)
    parser.add_argument("--random-tables", action="store_true", help="entrants play random tables")
    parser.add_argument("--copies", type=int, default=0, help="copies of the first file")
    parser.add_argument(
        "--regret", action="store_true", help="solve best responses, as --json and --out do"
    )
    parser.add_argument(
        "--reference-pairs", type=int, default=None, help="default: 3 (hog-fa19: 1, slow)"
    )
    args = parser.parse_args()
    reference_pairs = args.reference_pairs
    if reference_pairs is None:
        reference_pairs = 1 if args.rules == "hog-fa19" else 3
    memory = PeakMemory()
    load_before = os.getloadavg()

    with tempfile.TemporaryDirectory() as tmp:
        # An empty table cache: loading every file through the sandbox is part of the run.
        os.environ["HOGBENCH_CACHE"] = str(Path(tmp) / "cache")
        from hogbench import results as report_model
        from hogbench import tournament as tm
        from hogbench import views
        from hogbench.rules import get_rules

        rules = get_rules(args.rules)
        folder = Path(tmp) / "submissions"
        folder.mkdir()
        if args.random_tables:
            specs = write_random_tables(folder, args.entrants, args.seed, args.rules)
        else:
            specs = write_entrants(folder, args.entrants, args.seed, args.rules)
        for k in range(args.copies):  # the same name and bytes, in a folder of its own
            copy = folder / f"copy_{k:03}" / Path(specs[0]).name
            copy.parent.mkdir()
            copy.write_bytes(Path(specs[0]).read_bytes())
            specs.append(str(copy))
        progress = views.PairProgress(Console(stderr=True))
        start = time.perf_counter()
        slots = tm.load_slots(specs, rules, args.jobs, progress)
        loaded = time.perf_counter() - start
        bad = [s.disqualified for s in slots if s.disqualified]
        t = tm.Tournament("bench", rules, specs, store=Path(tmp) / "store.sqlite")
        budget = report_model.BEST_RESPONSE_SECONDS if args.regret else 0.0
        ran = time.perf_counter()
        result = tm.run(
            t,
            args.jobs,
            batch_size=args.batch_size,
            progress=progress,
            slots=slots,
            best_response_seconds=budget,
        )
        ran = time.perf_counter() - ran
        built = time.perf_counter()
        report = report_model.build(result, budget, progress)
        built = time.perf_counter() - built
        total = time.perf_counter() - start
        tables = [s.entrant.table.choices for s in slots if s.entrant is not None]
    peak = memory.stop()
    load_after = os.getloadavg()
    pairs = result.computed
    played = result.seconds
    solved = result.best_response_time
    engine = sum(r.seconds for (i, j), r in result.results.items() if i < j)
    # A result is seen from its first entrant's side: a pair is its two keys, in either order.
    unique = len({frozenset((r.key.a, r.key.b)) for r in result.results.values()})
    copies = f" + {args.copies} copies" if args.copies else ""
    print(f"entrants: {args.entrants}{copies} ({len(bad)} disqualified), rules {rules.key}")
    print(
        f"load (sandbox, tables made): {loaded:.1f} s, {loaded / len(specs) * 1000:.0f} ms/entrant"
    )
    print(f"pairs: {pairs} computed ({unique} distinct) with {args.jobs} jobs in {played:.1f} s")
    print(f"pairs per second: {pairs / played:,.0f}")
    print(
        f"per pair: engine {engine / max(unique, 1) * 1000:.2f} ms,"
        f" wall x jobs {played * args.jobs / max(pairs, 1) * 1000:.2f} ms"
    )
    if args.regret:
        best = report.best[~np.isnan(report.best)]
        print(f"best responses: {len(best)} in {solved:.1f} s ({report.best_note})")
    print(
        f"phases: load {loaded:.1f} s, pairs {played:.1f} s, best responses {solved:.1f} s,"
        f" the rest of the run {ran - played - solved:.1f} s, report {built:.1f} s"
    )
    print(f"total: {total:.1f} s; peak memory of all processes: {peak / 2**20:,.0f} MB")
    print(f"ratio total / pair phase: {total / played:.2f}x")
    print(
        "load average (1, 5, 15 min): before"
        f" {' '.join(f'{x:.2f}' for x in load_before)}, after"
        f" {' '.join(f'{x:.2f}' for x in load_after)} on {os.cpu_count()} cores"
    )
    if args.rules in REFERENCES and reference_pairs:
        ref = reference_seconds(args.rules, tables, reference_pairs)
        ours = played * args.jobs / max(pairs, 1)
        print(
            f"plain memoised recursion: {ref * 1000:.0f} ms a pair (median of"
            f" {reference_pairs}), one core; hogbench {ours * 1000:.2f} ms a pair-core:"
            f" {ref / ours:,.0f}x"
        )


if __name__ == "__main__":
    main()
