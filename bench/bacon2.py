"""Exact hog-fa19 evaluations beside the staff contest engine's published per-call times.

The staff engine of the Fall 2019 Hog contest computes one exact win rate of two strategies
under the Fall 2019 rules (Pig Out, Free Bacon, Feral Hogs, Swine Swap). Its published times on
this kind of machine: 0.124 s per call for always_roll(4) against always_roll(6), and 0.92 s
per call for two random decision tables. The goal is at least 100 times faster.

Here, in one process on one core: hogbench's ``exact.evaluate`` for always_roll:4 vs
always_roll:6 and for two random tables (seeded), against a plain reference in the same run: a
memoised recursion over (A's score, B's score, A's previous dice, B's previous dice, who moves),
written from the course's rules, with dice distributions computed once beforehand (the style of
bench/exact.py's references). The reference computes one seating; ``exact.evaluate`` both, as
a tournament or any process after its first pair does: on memory rows built once per process
(the first pair in a process searches the reachable states instead; both calls are reported
as setup). The first-seat value of each pair is checked against the reference to 1e-12, and
always_roll:4 vs always_roll:6 against the staff engine's figures to 1e-9.

When the staff engine is installed (its extension module ``_bacon`` is importable: built from
its own sources with ``pip install .``, for the Fall 2019 rules), it runs here too, interleaved
with hogbench, and its measured time per call gives the ratio; its value for each pair is
checked against hogbench's to 1e-9. Otherwise the script says so, and the staff figures shown
are the published ones, recorded, not measured in this run.

    PYTHONPATH=. python bench/bacon2.py [--repeat 25] [--reference-repeat 5] [--seed 2019]

(from the repository root, so that this repository's hogbench is the one imported).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from functools import cache

import numpy as np
from exact import dice_table, fmt, interleaved_medians  # bench/exact.py, beside this script

from hogbench import exact
from hogbench.loading import load_entrant
from hogbench.rules import get_rules

GOAL = 100
STAFF_SECONDS = {"always_roll:4 vs always_roll:6": 0.124, "random tables": 0.92}
STAFF_FIGURES = (0.4610395535, 0.4313770522)  # always_roll(4) vs always_roll(6), each seating


def reference_fa19(table_a: list[int], table_b: list[int], dice) -> float:
    """Hog Fall 2019: Pig Out, Free Bacon, Feral Hogs (each player's previous dice in the
    state, 0 before their first turn), Swine Swap (even when the mover has reached the goal)."""

    def free_bacon(score):
        return 10 - min((score // 10) % 10, score % 10)

    def leading(score):
        while score >= 10:
            score //= 10
        return score

    def is_swap(player, opponent):
        return leading(player) * (player % 10) == leading(opponent) * (opponent % 10)

    @cache
    def a_wins(a, b, dice_a, dice_b, a_moves):
        mover, other, previous = (a, b, dice_a) if a_moves else (b, a, dice_b)
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
                total += p * a_wins(new, opp, n, dice_b, False)
            else:
                total += p * a_wins(opp, new, dice_a, n, True)
        return total

    return a_wins(0, 0, 0, 0, True)


def staff_engine():
    """The staff engine's extension module, or None when it is not installed."""
    try:
        import _bacon
    except ImportError:
        return None
    return _bacon


def staff_call(bacon, a: np.ndarray, b: np.ndarray):
    """A function that computes A's win rate moving first with the staff engine, as it is
    called once per pair in its contest (a session holding the two strategies)."""
    session = bacon.Session("")  # transient: nothing written to its store
    for name, table in (("a", a), ("b", b)):
        session.add(name, name, 0).set_array(
            np.ascontiguousarray(np.asarray(table).reshape(GOAL, GOAL), dtype=np.int8)
        )
    return lambda: session.win_rate0("a", "b")


def bench_pair(rules, label, a, b, reference, args) -> exact.SeatValues:
    start = time.perf_counter()
    exact.evaluate(rules, a, b)  # builds the model, loads compiled code, searches
    first_pair = time.perf_counter() - start
    start = time.perf_counter()
    values = exact.evaluate(rules, a, b)  # the second pair in a process builds memory rows
    second_pair = time.perf_counter() - start
    found = []  # the reference's values, each timed run's (a random pair takes half a minute)
    per_round = -(-args.repeat // args.reference_repeat)
    ref, ours = interleaved_medians(
        args.reference_repeat,
        per_round,
        lambda: found.append(reference(list(a), list(b))),
        lambda: exact.evaluate(rules, a, b),
    )
    assert abs(found[0] - values.first) < 1e-12, (found[0], values.first)
    staff, how = STAFF_SECONDS[label], "published, recorded: not measured here"
    bacon = staff_engine()
    if bacon is not None:
        call = staff_call(bacon, a, b)
        theirs = call()
        if abs(theirs - values.first) > 1e-9:
            print(f"    staff engine: {theirs!r}, not {values.first!r}: built for other rules?")
        else:
            staff, _ = interleaved_medians(args.reference_repeat, 1, call, lambda: None)
            how = f"measured here, median of {args.reference_repeat}"
    print(
        f"  {label}: reference {fmt(ref)} (one seating, median of {args.reference_repeat}) |"
        f" hogbench {fmt(ours)} (both seatings, median of {per_round * args.reference_repeat})"
        f" | ratio {ref / ours:,.0f}x\n"
        f"    staff engine {fmt(staff)} per call ({how}) | ratio {staff / ours:,.0f}x"
        f" (goal 100x)   [A first {values.first:.10f}, A second {values.second:.10f};"
        f" first call {fmt(first_pair).strip()} with model setup,"
        f" second {fmt(second_pair).strip()} with memory rows]"
    )
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=25, help="runs of hogbench per figure")
    parser.add_argument("--reference-repeat", type=int, default=5, help="runs of the reference")
    parser.add_argument("--seed", type=int, default=2019, help="seed of the random tables")
    parser.add_argument("--no-pin", action="store_true", help="leave the run unpinned")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="the always_roll pair only (the random tables' reference takes most of a minute)",
    )
    args = parser.parse_args()
    print(
        f"python {sys.version.split()[0]}; times are wall clock, medians; reference and hogbench"
        " runs interleaved"
    )
    if staff_engine() is None:
        print(
            "the staff engine (bacon2) is not installed (no module _bacon): its figures below"
            " are the published ones, recorded, not measured in this run\n"
        )
    else:
        print("the staff engine (bacon2, module _bacon) runs here, interleaved with hogbench\n")
    if not args.no_pin and hasattr(os, "sched_setaffinity"):  # Linux only
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    pig_out = dice_table("one")
    rules = get_rules("hog-fa19")
    a = load_entrant("always_roll:4", rules).table.choices
    b = load_entrant("always_roll:6", rules).table.choices
    print("hog-fa19 with Feral Hogs state (each player's previous dice)")
    values = bench_pair(
        rules, "always_roll:4 vs always_roll:6", a, b,
        lambda ta, tb: reference_fa19(ta, tb, pig_out), args,
    )  # fmt: skip
    first, second = values.first, values.second
    assert abs(first - STAFF_FIGURES[0]) < 1e-9 and abs(second - STAFF_FIGURES[1]) < 1e-9
    print(f"    averaged over both seatings {(first + second) / 2:.10f} (staff 0.4462083029)")
    if args.quick:
        return
    rng = np.random.default_rng(args.seed)
    ta = rng.integers(0, 11, size=a.shape).astype(a.dtype)
    tb = rng.integers(0, 11, size=b.shape).astype(b.dtype)
    bench_pair(rules, "random tables", ta, tb, lambda x, y: reference_fa19(x, y, pig_out), args)


if __name__ == "__main__":
    main()
