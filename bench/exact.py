"""Exact engine speed: hogbench against a memoised recursion of the kind the course's win-rate
calculator uses, in this process, on one core, with the same strategies.

The reference is plain Python: the rules written out as in the course, decision tables as
lists, a recursion over (A's score, B's score, hidden state, who moves) memoised with
functools.cache (an lru_cache without a bound), dice distributions computed once beforehand.
It computes one seating (A moving first). hogbench's ``exact.evaluate`` computes both seatings in the time shown. For
hog-su20 with Feral Hogs the reference carries each player's previous-turn points bucketed as
the model does (13 and above alike), which is faster than carrying them as scored; --raw-previous
times the plain version too (minutes per run).

The seatings run pinned to one CPU on Linux (--no-pin: wherever the system puts them),
reference and hogbench alike. Both are bound by memory reads, and on a virtual machine a process that moves
between CPUs can stay some 50% slower for the rest of its life (seen here: the same hog-su20
seating took 20 ms in most processes and 31 ms in some, and always 20 ms pinned).

Then the grid kernel a tournament's exact pairs go through (``exact.evaluate_grid``): 16 by 16
of bench/tournament.py's generated hog-su21 strategies, the CPU time of the whole grid per
pair (medians), against the same pairs one at a time (``exact.evaluate``), values compared to
1e-12; the target is 0.11 ms a pair-core.

Then a best response's two figures against random hog-fa19 tables (a tournament's regret):
on memory rows (``exact.best_response``) against ``exact.solve``, CPU time, medians.

Then ``solve`` for every Hog rule set: the backward induction alone, and the whole command's
work (projection to a score-only strategy where the state holds more, exact evaluations). The
induction of hog-su20 with Feral Hogs uses numba's threads (NUMBA_NUM_THREADS, by default one
per core); everything else runs on one core.

    python bench/exact.py [--repeat 25] [--reference-repeat 5] [--raw-previous] [--no-pin]
                          [--grid-tables 16] [--best-response-tables 5]
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from functools import cache
from math import factorial, prod

from hogbench import exact
from hogbench import solve as solving
from hogbench.loading import load_entrant
from hogbench.rules import get_rules

GOAL = 100


def dice_table(rule: str) -> dict[int, dict[int, float]]:
    """{n: {points: chance}} for n = 1..10 six-sided dice; any 1 scores 1 (Sow Sad, Pig Out)."""
    table = {}
    for n in range(1, 11):
        dist: dict[int, float] = {}
        for combo in itertools.combinations_with_replacement(range(1, 7), n):
            ways = factorial(n) // prod(factorial(combo.count(f)) for f in set(combo))
            points = 1 if 1 in combo else sum(combo)
            dist[points] = dist.get(points, 0.0) + ways / 6**n
        table[n] = dist
    return table


def reference_su21(table_a: list[int], table_b: list[int], dice) -> float:
    """Hog Summer 2021: Sow Sad, Piggy Points, More Boar (an extra turn)."""

    def piggy_points(score):
        return abs((score // 10) % 10 - score % 10) + 4

    def more_boar(player, opponent):
        p, o = str(player), str(opponent)  # digit characters order like digits
        return min(p) < min(o) and max(p) > max(o)

    @cache
    def a_wins(a, b, a_moves):
        mover, other = (a, b) if a_moves else (b, a)
        n = (table_a if a_moves else table_b)[mover * GOAL + other]
        outcomes = {piggy_points(other): 1.0} if n == 0 else dice[n]
        total = 0.0
        for points, p in outcomes.items():
            new = mover + points
            if new >= GOAL:
                total += p if a_moves else 0.0
                continue
            again = more_boar(new, other)
            if a_moves:
                total += p * a_wins(new, b, again)
            else:
                total += p * a_wins(a, new, not again)
        return total

    return a_wins(0, 0, True)


def reference_su20(table_a: list[int], table_b: list[int], dice, raw_previous: bool) -> float:
    """Hog Summer 2020: Pig Out, Free Bacon, Feral Hogs (previous points in the state), Swine
    Swap (even at the goal)."""

    def free_bacon(score):
        return 10 - score % 10 + (score // 10) % 10

    def is_swap(player, opponent):
        return abs(player % 10 - opponent % 10) == (opponent // 10) % 10

    def keep(points):
        return points if raw_previous else min(points, 13)

    @cache
    def a_wins(a, b, prev_a, prev_b, a_moves):
        mover, other, previous = (a, b, prev_a) if a_moves else (b, a, prev_b)
        n = (table_a if a_moves else table_b)[mover * GOAL + other]
        outcomes = {free_bacon(other): 1.0} if n == 0 else dice[n]
        bonus = 3 if abs(n - previous) == 2 else 0
        total = 0.0
        for points, p in outcomes.items():
            new, opp = mover + points + bonus, other
            if is_swap(new, opp):
                new, opp = opp, new
            if new >= GOAL:
                total += p if a_moves else 0.0
            elif opp >= GOAL:
                total += 0.0 if a_moves else p
            elif a_moves:
                total += p * a_wins(new, opp, keep(points), prev_b, False)
            else:
                total += p * a_wins(opp, new, prev_a, keep(points), True)
        return total

    return a_wins(0, 0, 0, 0, True)


def seconds(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def median_time(repeat: int, run) -> tuple[float, object]:
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def interleaved_medians(rounds: int, per_round: int, reference, ours) -> tuple[float, float]:
    """Median times of REFERENCE (ROUNDS runs) and OURS (PER_ROUND runs after each of them).

    Interleaved, so that both see the same moments of a machine whose speed drifts (a shared
    virtual machine can lose half its speed for seconds at a time)."""
    ref_times, our_times = [], []
    for _ in range(rounds):
        ref_times.append(seconds(reference))
        our_times.extend(seconds(ours) for _ in range(per_round))
    return statistics.median(ref_times), statistics.median(our_times)


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:9.2f} ms" if seconds < 1 else f"{seconds:9.2f} s "


def bench_pair(rules, name_a, name_b, reference, args) -> None:
    a = load_entrant(name_a, rules).table.choices
    b = load_entrant(name_b, rules).table.choices
    start = time.perf_counter()
    exact.evaluate(rules, a, b)  # builds the engine's view of the model, loads compiled code
    setup = time.perf_counter() - start
    values = exact.evaluate(rules, a, b)
    value = reference(list(a), list(b))
    assert abs(value - values.first) < 1e-12, (value, values.first)
    per_round = -(-args.repeat // args.reference_repeat)
    ref, ours = interleaved_medians(
        args.reference_repeat,
        per_round,
        lambda: reference(list(a), list(b)),
        lambda: exact.evaluate(rules, a, b),
    )
    print(
        f"  {name_a} vs {name_b}: reference {fmt(ref)} (one seating, median of"
        f" {args.reference_repeat}) | hogbench {fmt(ours)} (both seatings, median of"
        f" {per_round * args.reference_repeat}) | ratio {ref / ours:,.0f}x"
        f"   [A first {values.first:.12f};"
        f" first call {fmt(setup).strip()} with model setup]"
    )


def cpu_median(repeat: int, run) -> float:
    """Median CPU time of RUN in this thread: on a machine shared with other work, a kernel's
    wall time counts the time others held the core."""
    times = []
    for _ in range(repeat):
        start = time.thread_time()
        run()
        times.append(time.thread_time() - start)
    return statistics.median(times)


def bench_grid(n: int, repeat: int) -> None:
    """The grid kernel on N by N of bench/tournament.py's strategies, against pair by pair."""
    import tempfile
    from pathlib import Path

    import numpy as np
    from field import write_entrants

    from hogbench.tables import tabulate

    rules = get_rules("hog-su21")
    with tempfile.TemporaryDirectory() as tmp:
        tables = []
        for path in write_entrants(Path(tmp), n, 2021):
            scope: dict = {}
            exec(Path(path).read_text(), scope)  # our own generated file, not a submission
            tables.append(tabulate(scope["final_strategy"], rules, path).choices)
    wanted = np.ones((n, n), dtype=bool)
    grid = exact.evaluate_grid(rules, tables, tables, wanted)
    pairs = [(i, j) for i in range(n) for j in range(n)][:: max(1, n * n // 16)]
    for i, j in pairs:
        one = exact.evaluate(rules, tables[i], tables[j])
        assert np.abs(grid[i, j] - [one.first, one.second]).max() < 1e-12
    ours = cpu_median(repeat, lambda: exact.evaluate_grid(rules, tables, tables, wanted)) / n**2
    one_by_one = cpu_median(
        repeat, lambda: [exact.evaluate(rules, tables[i], tables[j]) for i, j in pairs]
    ) / len(pairs)
    print(
        f"  {n} by {n} tables: grid {ours * 1e3:.3f} ms a pair-core (CPU time, median of"
        f" {repeat}) | one pair at a time {one_by_one * 1e3:.3f} ms | ratio"
        f" {one_by_one / ours:.1f}x | target <= 0.11 ms: {'met' if ours <= 0.11e-3 else 'MISSED'}"
    )


def bench_best_response(n: int) -> None:
    """A best response's two figures against N random hog-fa19 tables (what a tournament's
    regret reads): ``exact.best_response`` on memory rows against ``exact.solve``, CPU time of
    the whole process (the solve uses numba's threads), figures compared to 1e-12."""
    import numpy as np

    rules = get_rules("hog-fa19")
    rng = np.random.default_rng(2019)
    area = int(np.prod(rules.obs_shape))
    tables = [rng.integers(0, 11, area) for _ in range(n)]
    exact.best_response(rules, tables[0])  # builds the memory rows, loads compiled code
    exact.solve(rules, tables[0])
    old, new = [], []
    for table in tables:  # side by side, table by table
        start = time.process_time()
        solved = exact.solve(rules, table)
        old.append(time.process_time() - start)
        start = time.process_time()
        values = exact.best_response(rules, table)
        new.append(time.process_time() - start)
        assert abs(values.first - solved.first) < 1e-12, (values.first, solved.first)
        assert abs(values.second - solved.second) < 1e-12, (values.second, solved.second)
    solve_cpu, rows_cpu = statistics.median(old), statistics.median(new)
    print(
        f"  {n} random tables: exact.solve {fmt(solve_cpu)} | memory rows {fmt(rows_cpu)}"
        f" (CPU time, medians; figures equal to 1e-12) | best response ratio"
        f" {solve_cpu / rows_cpu:,.1f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=25, help="runs of hogbench per figure")
    parser.add_argument("--reference-repeat", type=int, default=5, help="runs of the reference")
    parser.add_argument(
        "--no-pin", action="store_true", help="leave the seatings unpinned (see above)"
    )
    parser.add_argument(
        "--raw-previous",
        action="store_true",
        help="also time the su20 reference with previous points as scored (slow)",
    )
    parser.add_argument("--grid-tables", type=int, default=16, help="tables a side of the grid")
    parser.add_argument(
        "--best-response-tables", type=int, default=5, help="hog-fa19 tables for best responses"
    )
    args = parser.parse_args()
    print(
        f"python {sys.version.split()[0]}; times are wall clock, medians; reference and hogbench"
        " runs interleaved\n"
    )

    pin = not args.no_pin and hasattr(os, "sched_setaffinity")  # Linux only
    if pin:
        all_cpus = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(all_cpus)})
    sow_sad = dice_table("one")
    su21 = get_rules("hog-su21")
    print("hog-su21: one exact seating")
    for a, b in (("more_boar_strategy", "always_roll:6"), ("always_roll:6", "always_roll:6")):
        bench_pair(su21, a, b, lambda ta, tb: reference_su21(ta, tb, sow_sad), args)

    su20 = get_rules("hog-su20")
    print("hog-su20 with Feral Hogs state (previous points bucketed in the reference)")
    for a, b in (("swap_strategy", "always_roll:4"), ("always_roll:6", "always_roll:4")):
        bench_pair(su20, a, b, lambda ta, tb: reference_su20(ta, tb, sow_sad, False), args)
    if args.raw_previous:
        print("hog-su20 with Feral Hogs state (previous points as scored in the reference)")
        bench_pair(
            su20, "swap_strategy", "always_roll:4",
            lambda ta, tb: reference_su20(ta, tb, sow_sad, True), args,
        )  # fmt: skip

    print("hog-su21: the grid kernel of a tournament's exact pairs")
    bench_grid(args.grid_tables, max(3, args.repeat // 3))

    if pin:
        os.sched_setaffinity(0, all_cpus)  # the hog-su20 induction uses every core
    print("\nhog-fa19: a best response's two figures (a tournament's regret)")
    bench_best_response(args.best_response_tables)

    print("\nsolve (optimal play, both players): backward induction | the whole command's work")
    for name, options in (
        ("hog-su21", {}),
        ("hog-su20", {"feral_hogs": False}),
        ("hog-su20", {"feral_hogs": True}),
        ("hog-contest", {"pork_chop": False}),
        ("hog-contest", {"pork_chop": True}),
    ):
        rules = get_rules(name, **options)
        start = time.perf_counter()
        exact.engine(rules.model)
        setup = time.perf_counter() - start
        engine, solution = median_time(args.repeat, lambda rules=rules: exact.solve(rules))
        whole, _ = median_time(args.repeat, lambda rules=rules: solving.solve_rules(rules))
        print(
            f"  {rules.key:40} {fmt(engine)} | {fmt(whole)}   [first mover"
            f" {solution.first:.10f}; model setup once per process {fmt(setup).strip()}]"
        )


if __name__ == "__main__":
    main()
