"""Every benchmark in bench/ still runs (with the smallest sizes), and still shows hogbench ahead
of its reference by a floor: a speed claim is only as good as the script that measures it, and
these scripts use the package's inner modules.

Each run's figures are read from the lines the script prints, and each checked against a floor
far below what it measures on a quiet machine (the test runs beside the rest of the suite, and
its sizes are the smallest): a floor catches an engine that fell back to a slow path, not a
drift of a few percent. The full-size figures are the scripts' own business.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parent.parent / "bench"

NUMBER = r"([\d,]+(?:\.\d+)?)"

#: name: (arguments, [(pattern of a figure the script prints, least, most, what it is), ...]).
#: Every match of a pattern must lie within its bounds (None: open), and each pattern must
#: match at least once.
RUNS = {
    "tournament": (
        ["--entrants", "6", "--jobs", "1", "--reference-pairs", "1", "--copies", "1", "--regret"],
        [
            (rf"a pair-core: {NUMBER}x", 2, None, "pair-core against the plain recursion"),
            # a copy is loaded and played once (15 pairs and the copy against its original),
            # and every table, the copy's too, has its best response
            (rf"pairs: {NUMBER} computed \(16 distinct\)", 16, 16, "pairs computed"),
            (rf"best responses: {NUMBER} in", 7, 7, "best responses"),
            (rf"ratio total / pair phase: {NUMBER}x", 1, None, "the whole against its pairs"),
        ],
    ),
    "tournament-greed": (
        ["--rules", "greed", "--entrants", "4", "--jobs", "1"],
        # No reference engine for Greed: every pair played, no entrant disqualified.
        [
            (rf"pairs: {NUMBER} computed \(6 distinct\)", 6, 6, "pairs computed"),
            (rf"entrants: 4 \({NUMBER} disqualified\)", 0, 0, "entrants disqualified"),
        ],
    ),
    "loading": (
        ["--entrants", "4", "--jobs", "1", "--repeat", "1"],
        [
            (rf"measured {NUMBER} s and", None, 60, "cold load, seconds (target 60)"),
            (rf"measured [\d.]+ s and {NUMBER} s", None, 3, "warm load, seconds (target 3)"),
            # about 2 at 4 files on a quiet machine, where the first load's setup weighs; the
            # ceiling catches a load that costs several times what a sandbox and its calls do
            (rf"ratio hogbench cold / floor: {NUMBER}x", None, 5, "cold load against its floor"),
        ],
    ),
    "loading-tournament": (
        # the tournament benchmark's files, whose strategies cost more a call
        ["--entrants", "4", "--jobs", "1", "--repeat", "1", "--field", "tournament"],
        [(rf"ratio hogbench cold / floor: {NUMBER}x", None, 5, "cold load against its floor")],
    ),
    "duel": (
        # Medians of 3: a single run of 200 course games lasts a few hundredths of a second,
        # and was once measured at 6 times the speed of the same loop stripped down.
        ["--repeat", "3", "--course-games", "200", "--games", "2000"]
        + ["--live-games", "20000", "--live-course-games", "1000"],
        [
            (rf"ratio against the course loop:\s+{NUMBER}x", 2, None, "against the course loop"),
            (rf"ratio against the bare table loop:\s+{NUMBER}x", 1.5, None, "against a bare loop"),
            # the targets: a live file at least the course loop, two at least half
            (rf"loop, a live file against a table: {NUMBER}x", 1, None, "live against a table"),
            (rf"loop, two live files: {NUMBER}x", 0.5, None, "two live files"),
        ],
    ),
    "until_decided": (
        ["--cap", "8000"],  # the first look is at 2,000 games: a cap above it saves some
        [(rf"ratio of games, fixed / until decided: {NUMBER}x", 1.5, None, "games saved")],
    ),
    "exact": (
        ["--repeat", "1", "--reference-repeat", "1", "--grid-tables", "8"]
        + ["--best-response-tables", "2"],
        [
            (rf"median of \d+\) \| ratio {NUMBER}x", 20, None, "a pair against the recursion"),
            (rf"one pair at a time [\d.]+ ms \| ratio {NUMBER}x", 1.5, None, "grid against pairs"),
            # about 20 on a quiet machine: the floor catches a fall back to exact.solve
            (rf"best response ratio {NUMBER}x", 4, None, "memory rows against exact.solve"),
        ],
    ),
    "ties": (
        ["--repeat", "1"],
        [
            # the target is about 2; the floor catches ties fallen back to a slow path
            (rf"values and ties [\d.]+ s \| ratio {NUMBER}x", None, 4, "ties on top of values"),
            # Big Pig's pair: resolving every roll of every turn on each sweep (Greed's pair
            # costs the same either way: few outcomes, few sweeps)
            (rf"computer:25\): .* \| ratio {NUMBER}x", 5, None, "turn rows against on the spot"),
        ],
    ),
    "bacon2": (
        ["--repeat", "1", "--reference-repeat", "1", "--quick"],
        [(rf"median of \d+\) \| ratio {NUMBER}x\n", 3, None, "a pair against the recursion")],
    ),
    "table_making": (
        ["--repeat", "1", "--reference-repeat", "1", "--quick"],
        [(rf"ratio {NUMBER}x; target <= 3 s", 0.5, None, "sandboxed against plain in-process")],
    ),
}


def figures(pattern: str, output: str) -> list[float]:
    return [float(found.replace(",", "")) for found in re.findall(pattern, output)]


def out_of_bounds(pattern: str, least, most, output: str) -> list[float] | None:
    """The figures PATTERN finds in OUTPUT that lie outside [LEAST, MOST]; None if it finds
    none at all."""
    found = figures(pattern, output)
    if not found:
        return None
    return [
        f for f in found if (least is not None and f < least) or (most is not None and f > most)
    ]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_benchmark_runs_and_keeps_its_lead(name, tmp_path):
    args, checks = RUNS[name]
    script = BENCH / f"{name.split('-')[0]}.py"
    env = {**os.environ, "HOGBENCH_CACHE": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    for pattern, least, most, what in checks:
        bad = out_of_bounds(pattern, least, most, done.stdout)
        assert bad is not None, f"{name} printed no {what} figure:\n{done.stdout[-2000:]}"
        assert not bad, f"{name}: {what} {bad}, bounds {least} to {most}\n{done.stdout[-2000:]}"


def test_the_figures_are_read_from_the_lines_printed():
    """The patterns find the figures in lines as the scripts print them, and a figure out of
    its bounds is seen (the checks above can fail)."""
    pattern, least, most, _ = RUNS["bacon2"][1][0]
    line = "  a vs b: hogbench 16.94 ms (both seatings, median of 1) | ratio 1,137x\n"
    assert out_of_bounds(pattern, least, most, line) == []
    assert out_of_bounds(pattern, least, most, line.replace("1,137x", "2x")) == [2.0]
    assert out_of_bounds(pattern, least, most, "ratio 1,137x") is None
    pattern, least, most, _ = RUNS["exact"][1][1]
    line = "  8 by 8 tables: grid 0.137 ms a pair-core | one pair at a time 0.574 ms | ratio 1.2x"
    assert out_of_bounds(pattern, least, most, line) == [1.2]
    assert out_of_bounds(RUNS["exact"][1][0][0], 20, None, line) is None  # not a pair's line
    pattern, least, most, _ = RUNS["loading"][1][1]
    line = "targets: cold <= 60 s, warm <= 3 s; measured 2.1 s and 3.52 s"
    assert out_of_bounds(pattern, least, most, line) == [3.52]
    pattern, least, most, _ = RUNS["loading"][1][2]
    line = "ratio hogbench cold / floor: 2.25x"
    assert out_of_bounds(pattern, least, most, line) == []
    assert out_of_bounds(pattern, least, most, line.replace("2.25x", "5.10x")) == [5.1]
