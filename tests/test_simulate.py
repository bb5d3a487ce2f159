"""The Monte Carlo engine: agreement with an independent exact value, and seeding."""

import json
import math
import os

import numpy as np
import pytest

from hogbench import simulate
from hogbench.players import LivePlayer
from hogbench.rules import get_rules
from hogbench.tables import DecisionTable, tabulate
from tests.reference import sow_sad_distribution, su21_win_probability


def cutoff_strategy(score, opponent_score):
    return 0 if opponent_score % 10 == 0 else 3


def always5(score, opponent_score):
    return 5


@pytest.mark.parametrize("engine", ["rows", "direct"])
@pytest.mark.parametrize("goal", [25, 40])
def test_monte_carlo_agrees_with_plain_recursion(goal, engine, monkeypatch):
    if engine == "direct":  # the compiled engine that large models use
        monkeypatch.setattr(simulate, "MAX_COMPACT_STATES", 0)
    rules = get_rules("hog-su21", goal)
    a = tabulate(cutoff_strategy, rules, "a")
    b = tabulate(always5, rules, "b")
    games = 200_000
    counts = simulate.simulate(rules, a, b, games, seed=11)
    first = su21_win_probability(cutoff_strategy, always5, goal)
    second = 1 - su21_win_probability(always5, cutoff_strategy, goal)
    for seat, p in ((0, first), (1, second)):
        n = counts[seat].sum()
        observed = counts[seat, 0] / n
        se = math.sqrt(p * (1 - p) / n)
        assert abs(observed - p) < 4 * se, (seat, observed, p, se)


def test_live_path_agrees_with_plain_recursion():
    goal = 30
    rules = get_rules("hog-su21", goal)
    a = LivePlayer(lambda: cutoff_strategy)
    b = tabulate(always5, rules, "b")
    counts = simulate.simulate(rules, a, b, 20_000, seed=5)
    p = su21_win_probability(cutoff_strategy, always5, goal)
    n = counts[0].sum()
    assert abs(counts[0, 0] / n - p) < 4 * math.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize("live", [True, False], ids=["live", "tables"])
def test_progress_hears_every_game_once_and_changes_nothing(monkeypatch, live):
    """A live strategy's games are told chunk by chunk (the games played in step), tables'
    block by block. Either way the games told add up to the games played, and the counts are
    those of a run without progress."""
    monkeypatch.setattr(simulate, "BLOCK_GAMES", 400)
    monkeypatch.setattr(simulate, "LIVE_CHUNK_GAMES", 100)
    rules = get_rules("hog-su21", 30)
    a = LivePlayer(lambda: cutoff_strategy) if live else tabulate(cutoff_strategy, rules, "a")
    b = tabulate(always5, rules, "b")
    told: list[int] = []
    counts = simulate.simulate_pairs(rules, a, b, 1_000, seed=3, progress=told.append)
    assert sum(told) == 1_000
    assert told == ([100] * 10 if live else [400, 400, 200])
    assert (counts == simulate.simulate_pairs(rules, a, b, 1_000, seed=3)).all()


def test_same_seed_same_counts_for_any_jobs(monkeypatch):
    monkeypatch.setattr(simulate, "BLOCK_GAMES", 5_000)
    rules = get_rules()
    a = DecisionTable.from_choices(rules, np.full(100 * 100, 6, dtype=np.int64))
    b = tabulate(cutoff_strategy, rules, "b")
    one = simulate.simulate(rules, a, b, 23_001, seed=7, jobs=1)
    two = simulate.simulate(rules, a, b, 23_001, seed=7, jobs=2)
    assert (one == two).all()
    assert one.sum() == 23_002  # whole pairs: an odd number of games is rounded up
    other = simulate.simulate(rules, a, b, 23_001, seed=8, jobs=1)
    assert (other != one).any()


def test_games_alternate_first_player():
    rules = get_rules()
    t = DecisionTable.from_choices(rules, np.full(100 * 100, 6, dtype=np.int64))
    counts = simulate.simulate(rules, t, t, 1001, seed=1)
    assert counts[0].sum() == 501 and counts[1].sum() == 501


def test_pairs_share_a_dice_stream():
    """With identical strategies, the two games of a pair are the same game with seats swapped."""
    rules = get_rules()
    t = DecisionTable.from_choices(rules, np.full(100 * 100, 5, dtype=np.int64))
    counts = simulate.simulate(rules, t, t, 2000, seed=3)
    assert counts[0, 0] == counts[1, 1] and counts[0, 1] == counts[1, 0]
    joint = simulate.simulate_pairs(rules, t, t, 2000, seed=3)
    assert joint.trace() == 0  # every pair: one win and one loss for A
    assert joint[0, 1] + joint[1, 0] == 1000


def test_rows_hold_each_states_outcome_distribution():
    """Alias rows give every outcome the probability the course's rules give it."""
    goal = 30
    rules = get_rules("hog-su21", goal)
    table = tabulate(cutoff_strategy, rules, "a").choices
    rows = simulate.table_rows(rules, table)
    dists = {n: sow_sad_distribution(n) for n in (3,)}
    for score in range(goal):
        for opponent in range(goal):
            x = score * goal + opponent
            lo, hi = rows.ptr[x], rows.ptr[x + 1]
            got: dict[int, float] = {}
            for s in range(lo, hi):
                own = int(rows.keep[s]) / 2**53 / (hi - lo)
                for code, p in ((rows.codes[s, 0], own), (rows.codes[s, 1], 1 / (hi - lo) - own)):
                    got[int(code)] = got.get(int(code), 0.0) + p
            want: dict[int, float] = {}
            n = cutoff_strategy(score, opponent)
            piggy = abs((opponent // 10) % 10 - opponent % 10) + 4
            for points, p in ({piggy: 1.0} if n == 0 else dists[n]).items():
                new = score + points
                if new >= goal:
                    code = 2  # the mover won
                elif _more_boar(new, opponent):
                    code = (new * goal + opponent) * 8 + 1  # the mover again
                else:
                    code = (opponent * goal + new) * 8  # the opponent's turn
                want[code] = want.get(code, 0.0) + p
            assert got.keys() >= want.keys()
            for code in got:
                assert got[code] == pytest.approx(want.get(code, 0.0), abs=1e-12), (x, code)


def _more_boar(player, opponent):
    p, o = [int(d) for d in str(player)], [int(d) for d in str(opponent)]
    return min(p) < min(o) and max(p) > max(o)


@pytest.mark.parametrize(
    "how", [["-n", "2000", "--seed", "3"], ["--exact"]], ids=["monte-carlo", "exact"]
)
def test_a_duel_loads_numba_only_to_build_exact_rows(tmp_path, how):
    """numba's start-up and compiling cost more than a duel: a Monte Carlo duel builds its rows
    with numpy and never loads it, and an exact duel loads it once, to build the rows it
    caches."""
    import subprocess
    import sys

    env = {**os.environ, "HOGBENCH_CACHE": str(tmp_path)}
    duel = ["duel", "always_roll:5", "more_boar_strategy", *how, "--json"]
    script = (
        "import sys\n"
        "from hogbench.cli import main\n"
        f"sys.argv = ['hogbench', *{duel!r}]\n"
        "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
        "print('numba loaded' if 'numba' in sys.modules else 'no numba')\n"
    )
    runs = [
        subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
        for _ in range(2)
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr
    cold = "numba loaded" if "--exact" in how else "no numba"
    assert runs[0].stdout.strip().endswith(cold)
    assert runs[1].stdout.strip().endswith("no numba")
    first, second = (json.loads(r.stdout[: r.stdout.rindex("}") + 1]) for r in runs)
    assert first["win_rate"] == second["win_rate"]
    assert first["exact"] == ("--exact" in how) and first["games"] == (
        None if first["exact"] else 2000  # games played: none in an exact duel
    )


@pytest.mark.parametrize("engine", ["rows", "direct"])
def test_a_deterministic_strategy_played_live_plays_its_tables_games(engine, monkeypatch):
    """Live play draws each turn as the table engines do (a table's rows at a state are its
    choice's rows there), so a strategy that happens to be deterministic, played live in
    lockstep, gives the very counts its table gives on the same seed."""
    if engine == "direct":  # every draw resolved on the spot, as for the largest models
        monkeypatch.setattr(simulate, "MAX_COMPACT_STATES", 0)
        monkeypatch.setattr(simulate, "MAX_CHOICE_ROWS", 0)
        monkeypatch.setattr(simulate, "table_rows", lambda rules, table: None)  # none cached
    monkeypatch.setattr(simulate, "_KEPT_DRAWER", {})
    monkeypatch.setattr(simulate, "LIVE_CHUNK_GAMES", 1_000)  # several chunks
    rules = get_rules("hog-su21", 40)
    table = tabulate(cutoff_strategy, rules, "a")
    b = tabulate(always5, rules, "b")
    by_tables = simulate.simulate_pairs(rules, table, b, 5_000, seed=9)
    live = LivePlayer(lambda: cutoff_strategy)
    assert (simulate.simulate_pairs(rules, live, b, 5_000, seed=9) == by_tables).all()
    both_live = LivePlayer(lambda: always5)
    assert (simulate.simulate_pairs(rules, live, both_live, 5_000, seed=9) == by_tables).all()


class SeededRoller:
    """A randomised strategy with its own seeded generator, made afresh wherever it is opened
    (as a sandboxed worker seeds ``random`` before the import): picklable for joblib."""

    def __init__(self, seed: int) -> None:
        self.rng = __import__("random").Random(seed)

    def __call__(self, score, opponent_score):
        return self.rng.randint(2, 7)


def test_live_games_are_the_same_whatever_jobs(monkeypatch):
    import functools

    monkeypatch.setattr(simulate, "BLOCK_GAMES", 2_000)
    rules = get_rules("hog-su21", 50)
    a = LivePlayer(functools.partial(SeededRoller, 1))
    b = LivePlayer(functools.partial(SeededRoller, 2))
    one = simulate.simulate_pairs(rules, a, b, 7_000, seed=4, jobs=1)
    two = simulate.simulate_pairs(rules, a, b, 7_000, seed=4, jobs=2)
    assert (one == two).all() and one.sum() == 3_500


def _plain_su21_game(strategies, goal: int, rng) -> int:
    """The course's play() for Summer 2021, plainly: Sow Sad, Piggy Points, More Boar, real
    dice. Returns the winner, 0 for the player who moved first."""

    def piggy(score):
        return abs((score // 10) % 10 - score % 10) + 4

    def boar(player, opponent):
        p, o = [int(d) for d in str(player)], [int(d) for d in str(opponent)]
        return min(p) < min(o) and max(p) > max(o)

    scores, who = [0, 0], 0
    while True:
        n = strategies[who](scores[who], scores[1 - who])
        if n == 0:
            points = piggy(scores[1 - who])
        else:
            rolls = [rng.randint(1, 6) for _ in range(n)]
            points = 1 if 1 in rolls else sum(rolls)
        scores[who] += points
        if scores[who] >= goal:
            return who
        if not boar(scores[who], scores[1 - who]):
            who = 1 - who


def test_a_random_strategy_played_live_matches_a_plain_loop():
    """A randomised strategy against a table, played live in lockstep, wins as often as the
    same strategy does in a plain Python loop with real dice, within standard errors."""
    import random

    goal, games = 50, 20_000
    rules = get_rules("hog-su21", goal)
    a = LivePlayer(lambda: SeededRoller(3))
    b = tabulate(always5, rules, "b")
    counts = simulate.simulate(rules, a, b, games, seed=12)
    rng, roller = random.Random(5), SeededRoller(6)
    half = games // 2
    plain_first = sum(_plain_su21_game((roller, always5), goal, rng) == 0 for _ in range(half))
    plain_second = sum(_plain_su21_game((always5, roller), goal, rng) == 1 for _ in range(half))
    for seat, plain_wins in ((0, plain_first), (1, plain_second)):
        ours = counts[seat, 0] / counts[seat].sum()
        theirs = plain_wins / half
        se = math.sqrt(ours * (1 - ours) / counts[seat].sum() + theirs * (1 - theirs) / half)
        assert abs(ours - theirs) < 4 * se, (seat, ours, theirs, se)
