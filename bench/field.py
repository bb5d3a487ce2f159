"""Generated fields of strategy files for the benchmarks: class-sized variations of the
course's cutoff strategies (hog-su21, Greed) and files that each play a random table. The
tournament and grid benchmarks both write their entrants with it."""

from __future__ import annotations

import random
from pathlib import Path

TEMPLATE = '''"""Generated entrant {k}: {style} cutoff strategy."""

TEAM_NAME = "Bench {k:03}"


def piggy_points(score):
    return abs((score // 10) % 10 - score % 10) + 4


def more_boar(score, opponent_score):
    mine, theirs = [int(d) for d in str(score)], [int(d) for d in str(opponent_score)]
    return min(mine) < min(theirs) and max(mine) > max(theirs)


def final_strategy(score, opponent_score):
    bacon = piggy_points(opponent_score)
    if {boar} and more_boar(score + bacon, opponent_score):
        return 0
    if bacon >= {cutoff}:
        return 0
    return {num_rolls} + (1 if opponent_score - score > {behind} else 0)
'''


GREED_TEMPLATE = '''"""Generated Greed entrant {k}: aim at {target}, {per} points a die."""


def myStrategy(myscore, theirscore, last):
    if last:
        if myscore > theirscore:
            return 0
        return max(1, (theirscore - myscore) // {per} + 1)
    if myscore >= {target} and myscore > theirscore + {lead}:
        return 0
    return max(1, min({most}, (100 - myscore) // {per}))
'''


def write_random_tables(folder: Path, n: int, seed: int, rules: str) -> list[str]:
    """N files in FOLDER, each playing a random table under RULES; returns their paths."""
    import numpy as np

    from hogbench.rules import get_rules
    from hogbench.solve import strategy_source

    rule_set = get_rules(rules)
    choices = rule_set.model.choices
    rng = np.random.default_rng(seed)
    paths = []
    for k in range(n):
        table = rng.choice(choices, size=int(np.prod(rule_set.obs_shape)))
        path = folder / f"entrant_{k:03}.py"
        path.write_text(strategy_source(rule_set, table, f"Random {k:03}", [f"Random table {k}."]))
        paths.append(str(path))
    return paths


def write_entrants(folder: Path, n: int, seed: int, rules: str = "hog-su21") -> list[str]:
    """N distinct generated strategy files in FOLDER; returns their paths."""
    rng = random.Random(seed)
    seen: set[tuple] = set()
    paths = []
    while len(paths) < n:
        if rules == "greed":
            params = (
                rng.randint(70, 98),
                rng.randint(3, 6),
                rng.randint(0, 15),
                rng.randint(4, 30),
            )
        else:
            params = (rng.random() < 0.5, rng.randint(5, 12), rng.randint(3, 8), rng.randint(5, 60))
        if params in seen:
            continue
        seen.add(params)
        path = folder / f"entrant_{len(paths):03}.py"
        if rules == "greed":
            target, per, lead, most = params
            text = GREED_TEMPLATE.format(k=len(paths), target=target, per=per, lead=lead, most=most)
        else:
            boar, cutoff, num_rolls, behind = params
            style = "More Boar" if boar else "Piggy Points"
            text = TEMPLATE.format(
                k=len(paths),
                style=style,
                boar=boar,
                cutoff=cutoff,
                num_rolls=num_rolls,
                behind=behind,
            )
        path.write_text(text)
        paths.append(str(path))
    return paths
