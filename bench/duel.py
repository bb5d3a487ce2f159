"""Monte Carlo throughput: hogbench against the course's own play + make_averaged loop.

Both run here, in this process, on one core, with the same two strategies, taking turns (so
both see the same moments of a machine whose speed drifts); the script prints the median of
several repetitions of each and the ratio. It then times the whole command
`hogbench duel <file> always_roll:6 -n 100000` as a user runs it (warm caches).

    python bench/duel.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import course_hog  # the reference, beside this script

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


def course_loop(games: int) -> float:
    """The course's way: average_win_rate over play() with real dice; games per second."""
    start = time.perf_counter()
    course_hog.average_win_rate(strategy, baseline, games // 2)
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
    args = parser.parse_args()

    rules = get_rules("hog-su21")
    start = time.perf_counter()
    a = ("table", tabulate(strategy, rules, "more_boar_strategy").choices)
    b = ("table", tabulate(baseline, rules, "always_roll(6)").choices)
    table_seconds = time.perf_counter() - start
    hogbench_engine(rules, a, b, 1000, 0)  # load compiled kernels and the model once

    course_rates, our_rates = [], []
    for _ in range(args.repeat):
        course_rates.append(course_loop(args.course_games))
        our_rates.append(hogbench_engine(rules, a, b, args.games, 1))
    course, ours = statistics.median(course_rates), statistics.median(our_rates)
    print(f"course average_win_rate loop:{course:12,.0f} games/s (median of {args.repeat})")
    print(f"hogbench Monte Carlo engine: {ours:12,.0f} games/s (median of {args.repeat})")
    print(f"ratio: {ours / course:,.0f}x   (making both tables took {table_seconds:.3f} s)")

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


if __name__ == "__main__":
    main()
