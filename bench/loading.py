"""Loading a class: 300 real-looking submissions through the sandbox, cold and warm.

Each generated file imports the course's dice and ucb as real ones do (no dice.py beside them)
and defines a cutoff strategy of its own; they sit in one flat folder, so each worker sees its
own file only. Cold: an empty cache, so every file is imported and called at every state, twice,
in the sandbox. Warm: the same files again, every verdict from the cache. The targets are 60 s
and 3 s on two cores.

    python bench/loading.py [--entrants 300] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HOGBENCH_CACHE"] = str(Path(tmp) / "cache")
        from hogbench import tournament as tm
        from hogbench.discovery import discover
        from hogbench.rules import get_rules

        folder = Path(tmp) / "subs"
        folder.mkdir()
        write_class(folder, args.entrants, seed=1)
        rules = get_rules("hog-su21")
        entries = discover([str(folder)], folder)
        times = []
        for label in ("cold", "warm"):
            start = time.perf_counter()
            slots = tm.load_slots(entries, rules, args.jobs)
            times.append(time.perf_counter() - start)
            bad = [s for s in slots if s.entrant is None]
            print(f"{label}: {len(slots)} submissions loaded in {times[-1]:.1f} s"
                  f" ({len(bad)} disqualified)")  # fmt: skip
        print(f"targets: cold <= 60 s, warm <= 3 s; measured {times[0]:.1f} s and {times[1]:.2f} s")


if __name__ == "__main__":
    main()
