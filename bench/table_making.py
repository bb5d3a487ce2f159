"""Table-making for Pig and Big Pig strategy files, cold: the target is 3 s per file.

Each file is imported by a sandboxed worker and called at every state twice (Big Pig has
2.3 million states, Pig 1 million), and its answers are judged into a table, with an empty cache
every time. The reference does the same plainly, in this process and without a sandbox: import
the file, call it at every state twice in a loop, judge each answer with the rule set's
``choice``. Prints the medians and their ratio per file.

    python bench/table_making.py [--repeat 3] [--reference-repeat 3] [--quick]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

#: (rule set, file name, source): the answers students give, light and heavier strategies.
FILES = [
    (
        "big-pig",
        "hold_at_25.py",
        '''def final_strategy(score, opponent_score, turn_total):
    """Hold at 25, or when the turn would win."""
    if score + turn_total >= 100:
        return "hold"
    return "hold" if turn_total >= 25 else "roll"
''',
    ),
    (
        "big-pig",
        "keep_pace.py",
        '''GOAL = 100


def final_strategy(score, opponent_score, turn_total):
    """Roll while behind by more than the turn total; then hold at a bar that falls late."""
    if score + turn_total >= GOAL:
        return False
    behind = opponent_score - (score + turn_total)
    bar = 21 + round(behind / 8) if opponent_score < 71 else 0
    return behind > 0 or turn_total < bar
''',
    ),
    (
        "pig",
        "hold_at_20.py",
        """def final_strategy(score, opponent_score, turn_total):
    return "roll" if turn_total < 20 and score + turn_total < 100 else "hold"
""",
    ),
]


def reference_table(path: Path, rules) -> list[int]:
    """The plain way: the file imported here, every state called twice, each answer judged."""
    import numpy as np

    namespace: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    strategy = namespace["final_strategy"]
    states = list(np.ndindex(*rules.obs_shape))
    first = [rules.choice(strategy(*state)) for state in states]
    second = [rules.choice(strategy(*state)) for state in reversed(states)]
    if first != second[::-1]:
        raise SystemExit(f"{path.name}: not deterministic")
    return first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reference-repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="Pig only (1 million states)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        os.environ["HOGBENCH_CACHE"] = str(cache)
        from hogbench.loading import load_entrant
        from hogbench.rules import get_rules

        for rules_name, name, source in FILES:
            if args.quick and rules_name != "pig":
                continue
            rules = get_rules(rules_name)
            path = Path(tmp) / name
            path.write_text(source)
            times = []
            for _ in range(args.repeat):
                shutil.rmtree(cache, ignore_errors=True)
                start = time.perf_counter()
                table = load_entrant(str(path), rules).table
                times.append(time.perf_counter() - start)
            reference_times = []
            for _ in range(args.reference_repeat):
                start = time.perf_counter()
                expected = reference_table(path, rules)
                reference_times.append(time.perf_counter() - start)
            if table is None or table.choices.tolist() != expected:
                raise SystemExit(f"{name}: hogbench's table differs from the reference's")
            ours, theirs = statistics.median(times), statistics.median(reference_times)
            print(
                f"{rules_name} {name}: {len(expected):,} states; hogbench (sandboxed, cold)"
                f" median {ours:.2f} s ({min(times):.2f}-{max(times):.2f}),"
                f" plain in-process reference median {theirs:.2f} s,"
                f" ratio {theirs / ours:.2f}x; target <= 3 s: {'met' if ours <= 3 else 'MISSED'}"
            )


if __name__ == "__main__":
    main()
