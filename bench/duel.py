"""Monte Carlo throughput: hogbench against two plain references.

* the course's own play + make_averaged loop, as students write it (the faithful reference);
* the course's loop stripped down: play's turn loop calling the course's take_turn and
  more_boar, without make_averaged, winner or commentary (the stricter reference);
* the bare minimum in Python: strategies and rules read from tables, dice drawn inline, no
  call per turn (stricter still: what a careful Python programmer gets).

All run here, in this process, on one core, with the same two strategies, taking turns (so
both see the same moments of a machine whose speed drifts); the script prints the median of
several repetitions of each and the ratio. It then times the whole command
`hogbench duel <file> always_roll:6 -n 100000` as a user runs it (warm caches).

Live play: a randomised strategy file (strategies/hog_su21/random_roller.py, whose own call
costs about a microsecond) played live through its sandboxed worker, against a table and
against a second live copy of itself, beside the course's loop running the same strategy in
this process, taking turns as above; then `hogbench duel random_roller.py always_roll:6 -n
100000` as a user runs it.

    python bench/duel.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import course_hog  # the reference, beside this script

from hogbench import sandbox
from hogbench.players import LivePlayer
from hogbench.rules import get_rules
from hogbench.simulate import simulate
from hogbench.tables import tabulate

ROOT = Path(__file__).resolve().parent.parent


def strategy(score, opponent_score):
    """The course's more_boar_strategy with cutoff 8 and 6 dice, in plain Python."""
    if course_hog.more_boar(score + course_hog.piggy_points(opponent_score), opponent_score):
        return 0
    return 0 if course_hog.piggy_points(opponent_score) >= 8 else 6


def baseline(score, opponent_score):
    return 6


RANDOM_ROLLER = ROOT / "strategies/hog_su21/random_roller.py"


def random_roller(score, opponent_score):
    """strategies/hog_su21/random_roller.py's final_strategy, here for the course's loop."""
    return random.randint(3, 7)


def course_loop_of(strategy_a, strategy_b, games: int) -> float:
    """The course's loop with these strategies: games per second."""
    start = time.perf_counter()
    course_hog.average_win_rate(strategy_a, strategy_b, games // 2)
    return games / (time.perf_counter() - start)


def course_loop(games: int) -> float:
    """The course's way: average_win_rate over play() with real dice; games per second."""
    start = time.perf_counter()
    course_hog.average_win_rate(strategy, baseline, games // 2)
    return games / (time.perf_counter() - start)


def stripped_loop(games: int) -> float:
    """The stricter reference: games per second."""
    start = time.perf_counter()
    course_hog.stripped_average_win_rate(strategy, baseline, games)
    return games / (time.perf_counter() - start)


def table_loop(tables, games: int) -> float:
    """The bare-minimum reference: games per second."""
    start = time.perf_counter()
    course_hog.table_average_win_rate(*tables, games)
    return games / (time.perf_counter() - start)


def hogbench_engine(rules, a, b, games: int, seed: int) -> float:
    start = time.perf_counter()
    simulate(rules, a, b, games, seed, jobs=1)
    return games / (time.perf_counter() - start)


def median_of(repeat: int, run) -> float:
    return statistics.median(run() for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--course-games", type=int, default=4000)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--live-games", type=int, default=100_000)
    parser.add_argument("--live-course-games", type=int, default=4000)
    args = parser.parse_args()

    rules = get_rules("hog-su21")
    start = time.perf_counter()
    a = tabulate(strategy, rules, "more_boar_strategy")
    b = tabulate(baseline, rules, "always_roll(6)")
    table_seconds = time.perf_counter() - start
    hogbench_engine(rules, a, b, 1000, 0)  # load compiled kernels and the model once

    goal = rules.goal
    tables = [
        [[int(t.choices[s * goal + o]) for o in range(goal)] for s in range(goal)] for t in (a, b)
    ]
    course_rates, stripped_rates, table_rates, our_rates = [], [], [], []
    for _ in range(args.repeat):
        course_rates.append(course_loop(args.course_games))
        stripped_rates.append(stripped_loop(args.course_games))
        table_rates.append(table_loop(tables, args.course_games))
        our_rates.append(hogbench_engine(rules, a, b, args.games, 1))
    course = statistics.median(course_rates)
    stripped = statistics.median(stripped_rates)
    bare = statistics.median(table_rates)
    ours = statistics.median(our_rates)
    n = args.repeat
    print(f"course average_win_rate loop:{course:12,.0f} games/s (median of {n})")
    print(f"stripped-down course loop:   {stripped:12,.0f} games/s (median of {n})")
    print(f"bare table-driven loop:      {bare:12,.0f} games/s (median of {n})")
    print(f"hogbench Monte Carlo engine: {ours:12,.0f} games/s (median of {n})")
    print(f"ratio against the course loop:     {ours / course:,.0f}x")
    print(f"ratio against the stripped loop:   {ours / stripped:,.0f}x")
    print(f"ratio against the bare table loop: {ours / bare:,.0f}x")
    print(f"(making both tables took {table_seconds:.3f} s)")

    live_part(rules, b, args)

    command = [
        sys.executable,
        "-m",
        "hogbench",
        "duel",
        str(ROOT / "tests/files/good_su21.py"),
        "always_roll:6",
        "-n",
        "100000",
        "--seed",
        "1",
    ]
    subprocess.run(command, check=True, capture_output=True)  # warm the caches

    def wall() -> float:
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        return time.perf_counter() - start

    print(
        f"`hogbench duel FILE always_roll:6 -n 100000`, warm: {median_of(3, wall):.2f} s wall"
        " (median of 3)"
    )


def live_part(rules, table, args) -> None:
    """A live file against a table and against a live copy, beside the course's loop."""
    live = LivePlayer(functools.partial(sandbox.LiveStrategy, str(RANDOM_ROLLER), rules))
    hogbench_engine(rules, live, table, 200, 0)  # rows of every choice made and cached once
    one, two, course_one, course_two = [], [], [], []
    for _ in range(args.repeat):
        course_one.append(course_loop_of(random_roller, baseline, args.live_course_games))
        one.append(hogbench_engine(rules, live, table, args.live_games, 1))
        course_two.append(course_loop_of(random_roller, random_roller, args.live_course_games))
        two.append(hogbench_engine(rules, live, live, args.live_games, 1))
    n = args.repeat
    for what, ours, course in (
        ("a live file against a table", one, course_one),
        ("two live files", two, course_two),
    ):
        ours, course = statistics.median(ours), statistics.median(course)
        print(
            f"{what}: hogbench {ours:,.0f} games/s, the course loop {course:,.0f} (median of {n})"
        )
        print(f"live ratio against the course loop, {what}: {ours / course:.2f}x")

    command = [sys.executable, "-m", "hogbench", "duel", str(RANDOM_ROLLER), "always_roll:6"]
    command += ["-n", str(args.live_games), "--seed", "1"]

    def wall() -> float:
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        return time.perf_counter() - start

    print(
        f"`hogbench duel random_roller.py always_roll:6 -n {args.live_games}`, warm:"
        f" {median_of(3, wall):.2f} s wall (median of 3)"
    )


if __name__ == "__main__":
    main()
