"""What splitting exact ties costs a tournament of a rule set whose games can tie.

For Greed (the ten bundled strategies, strategies/greed/) and Big Pig (a field of its
built-ins), in the same run, alternating, median of --repeat:

- the exact pairs as a round robin plays them: values alone (``exact.evaluate_grid``) against
  values and tie chances (``pairs.play_exact_grid``, which adds ``exact.tie_grid``), and the
  ratio (the target: at most about 2);
- the whole round robin (``tournament.run``, tables warm in the cache, a fresh store each
  time) with its ties against the same rule set told it has none, and the ratio;
- the plain reference: the tie chance of one pair by the sweep that resolves every outcome on
  the spot (``analysis._tying``, what every pair cost before), against the same pair's tie
  chance on rows, and the ratio.

    python bench/ties.py [--repeat 3] [--rules greed big-pig] [--jobs 1]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hogbench import exact  # noqa: E402
from hogbench import tournament as tm  # noqa: E402
from hogbench.exact import analysis  # noqa: E402
from hogbench.exact.rows import engine  # noqa: E402
from hogbench.loading import load_entrant  # noqa: E402
from hogbench.pairs import play_exact_grid  # noqa: E402
from hogbench.rules import get_rules  # noqa: E402
from hogbench.tables import DecisionTable  # noqa: E402

FIELDS = {
    "greed": sorted(str(p) for p in (ROOT / "strategies" / "greed").glob("test*.py")),
    "big-pig": [
        "hold_at:10", "hold_at:15", "hold_at:20", "hold_at:25", "hold_at:30", "computer",
        "computer:25",
    ],
}  # fmt: skip


def _median_seconds(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


@contextlib.contextmanager
def _without_ties(rules):
    """The rule set told its games cannot tie, for a while: what a round robin cost before ties
    were split (its class's flag, as every instance in the process reads it)."""
    cls = type(rules)
    had = cls.__dict__["has_ties"]
    cls.has_ties = False
    try:
        yield
    finally:
        cls.has_ties = had


def bench(name: str, repeat: int, jobs: int) -> None:
    rules = get_rules(name)
    specs = FIELDS[name]
    tables = [load_entrant(s, rules).table.choices for s in specs]
    players = [DecisionTable.from_choices(rules, t) for t in tables]
    n = len(tables)
    wanted = np.triu(np.ones((n, n), dtype=bool), 1)  # each pair once, both seatings
    pairs = int(wanted.sum())
    exact.evaluate_grid(rules, tables, tables, wanted)  # the model, rows and kernels, warm
    play_exact_grid(rules, players, players, wanted)
    print(f"{name}: {n} entrants, {pairs} pairs (both seatings each), CPU time, median of {repeat}")
    values = _median_seconds(lambda: exact.evaluate_grid(rules, tables, tables, wanted), repeat)
    both = _median_seconds(lambda: play_exact_grid(rules, players, players, wanted), repeat)
    print(
        f"  pairs: values alone {values:.3f} s | values and ties {both:.3f} s"
        f" | ratio {both / values:.2f}x (target <= 2)"
    )

    def round_robin(r) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            t = tm.Tournament("bench", r, specs, store=Path(tmp) / "s.sqlite")
            tm.run(t, jobs=jobs)

    round_robin(rules)
    walls: dict[str, list[float]] = {"ties": [], "none": []}
    for _ in range(repeat):  # alternating, so both meet the same load
        start = time.perf_counter()
        round_robin(rules)
        walls["ties"].append(time.perf_counter() - start)
        with _without_ties(rules):
            start = time.perf_counter()
            round_robin(rules)
            walls["none"].append(time.perf_counter() - start)
    with_ties, without = (statistics.median(walls[k]) for k in ("ties", "none"))
    print(
        f"  round robin (wall, tables warm, jobs {jobs}): without ties {without:.2f} s"
        f" | with ties {with_ties:.2f} s | ratio {with_ties / without:.2f}x"
    )
    m = rules.fit(*tables)
    e = engine(m)
    a, b = (exact.table_policy(m, t) for t in tables[-2:])
    chance = np.zeros(2 * m.n_states)

    def on_the_spot() -> None:
        analysis._tying(
            e.rules, m.order, m.level_ptr, a.table, a.index, b.table, b.index, chance, 1e-14
        )

    on_the_spot()  # its compiled code loaded outside the timing
    on_rows = _median_seconds(lambda: exact.tie_chance(rules, a, b), repeat)
    reference = _median_seconds(on_the_spot, repeat)
    print(
        f"  one pair's ties ({Path(specs[-2]).stem} vs {Path(specs[-1]).stem}): resolved on the"
        f" spot {reference:.3f} s | hogbench {on_rows:.4f} s | ratio {reference / on_rows:,.0f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rules", nargs="+", default=list(FIELDS), choices=list(FIELDS))
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    for name in args.rules:
        bench(name, args.repeat, args.jobs)


if __name__ == "__main__":
    main()
