"""Every benchmark in bench/ still runs (with the smallest sizes): a speed claim is only as good
as the script that measures it, and these scripts use the package's inner modules."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parent.parent / "bench"

RUNS = {
    "tournament": (["--entrants", "6", "--jobs", "1", "--reference-pairs", "1"], "pair-core"),
    "tournament-greed": (["--rules", "greed", "--entrants", "4", "--jobs", "1"], "pairs per"),
    "loading": (["--entrants", "4", "--jobs", "1"], "measured"),
    "duel": (["--repeat", "1", "--course-games", "200", "--games", "2000"], "ratio"),
    "until_decided": (["--cap", "2000"], "ratio"),
    "exact": (["--repeat", "1", "--reference-repeat", "1"], "hog-contest"),
    "bacon2": (["--repeat", "1", "--reference-repeat", "1", "--quick"], "ratio"),
    "table_making": (["--repeat", "1", "--reference-repeat", "1", "--quick"], "target <= 3 s"),
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_benchmark_runs(name, tmp_path):
    args, expected = RUNS[name]
    script = BENCH / f"{name.split('-')[0]}.py"
    env = {**os.environ, "HOGBENCH_CACHE": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert expected in done.stdout, done.stdout[-2000:]
