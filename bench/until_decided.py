"""What playing until decided saves: the demo class's pairs, sequential against fixed -n.

For every pair of the demo tournament's decision-table entrants, the exact win rate is known
(exact engine), so each Monte Carlo decision can be scored. The script plays each pair

* until decided (``duel --until-decided``: doubling blocks of game pairs, each look at the
  Bonferroni-corrected z, capped at --cap games), and
* at a fixed -n equal to the cap: the -n a fixed design needs to decide every pair the
  sequential design decides at the same confidence (a fixed design must be sized for the
  closest pair it is asked to decide, since it cannot know which pairs are easy),

and prints the median games per pair, the total games and wall time of each design, and how
many pairs each decided, wrongly or not at all.

    python bench/until_decided.py [--cap 200000] [--seed 1]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from hogbench import stats
from hogbench.duel import run_duel
from hogbench.loading import load_entrant
from hogbench.rules import get_rules

ROOT = Path(__file__).resolve().parent.parent
THRESHOLD = 0.500001


def demo_entrants(rules):
    """The demo's entrants that are decision tables (the randomised one plays live)."""
    specs = sorted(str(p) for p in (ROOT / "strategies/hog_su21").glob("*.py"))
    specs += ["always_roll:6", "more_boar_strategy:cutoff=8,num_rolls=6"]
    entrants = []
    for spec in specs:
        try:
            entrant = load_entrant(spec, rules, time_limit=10)
        except Exception:  # the demo's broken submissions: not part of this measurement
            continue
        if entrant.table is not None:
            entrants.append(entrant)
    return entrants


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=int, default=200_000, help="games per pair at most")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    console = Console()
    rules = get_rules("hog-su21")
    entrants = demo_entrants(rules)
    pairs = [
        (a, b)
        for a, b in itertools.combinations(entrants, 2)
        if a.table.hash != b.table.hash  # identical tables are exactly even: nothing to play
    ]
    console.print(f"{len(entrants)} table entrants, {len(pairs)} pairs, cap {args.cap:,} games")
    rows = {"until decided": [], "fixed -n = cap": []}
    for k, (a, b) in enumerate(pairs):
        truth = run_duel(rules, a, b, exact_mode=True).total.win_rate
        right = stats.ABOVE if truth > THRESHOLD else stats.BELOW
        seed = args.seed * 100_003 + k
        start = time.perf_counter()
        seq = run_duel(rules, a, b, args.cap, seed, until_decided=THRESHOLD)
        seq_time = time.perf_counter() - start
        rows["until decided"].append((seq.total.games, seq_time, seq.decision, right))
        start = time.perf_counter()
        fixed = run_duel(rules, a, b, args.cap, seed)
        fixed_time = time.perf_counter() - start
        # one look at the usual 95%: a fixed design spends its whole error rate at once
        decision = stats.decision(fixed.paired, THRESHOLD, stats.z_for(0.95))
        rows["fixed -n = cap"].append((fixed.total.games, fixed_time, decision, right))
    table = Table(title="The demo's pairs, decided by Monte Carlo (exact truth known)")
    for col in ("design", "median games", "total games", "wall time", "decided", "wrong"):
        table.add_column(col, justify="left" if col == "design" else "right")
    for name, results in rows.items():
        games = [g for g, _, _, _ in results]
        decided = sum(d != stats.UNDECIDED for _, _, d, _ in results)
        wrong = sum(d not in (stats.UNDECIDED, r) for _, _, d, r in results)
        table.add_row(
            name,
            f"{statistics.median(games):,.0f}",
            f"{sum(games):,}",
            f"{sum(t for _, t, _, _ in results):.1f} s",
            f"{decided} of {len(results)}",
            str(wrong),
        )
    console.print(table)
    seq_games = sum(g for g, _, _, _ in rows["until decided"])
    fixed_games = sum(g for g, _, _, _ in rows["fixed -n = cap"])
    console.print(f"ratio of games, fixed / until decided: {fixed_games / seq_games:.1f}x")


if __name__ == "__main__":
    main()
