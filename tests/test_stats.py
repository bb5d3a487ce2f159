"""Paired Monte Carlo statistics, measured against exact win rates from a plain recursion.

Every claim of ``hogbench.stats`` is checked where the truth is known: the interval's coverage,
the paired interval's width against the unpaired one, SPRT's error rates and its cost against a
fixed-sample test of the same power. Seeds are fixed; tolerances come from the number of trials.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import pytest

from hogbench import pairs, simulate, stats
from hogbench.duel import run_duel, wilson
from hogbench.loading import load_entrant
from hogbench.rules import get_rules
from hogbench.tables import tabulate
from tests.reference import su21_win_probability

GOAL = 40


def roller(n):
    def strategy(score, opponent_score):
        return n

    return strategy


def bacon(score, opponent_score):
    return 0 if abs((opponent_score // 10) % 10 - opponent_score % 10) + 4 >= 8 else 6


#: Strategy pairs of different strength, with their exact average win rate (both seatings).
PAIRS = {
    "bacon vs 6": (bacon, roller(6)),
    "4 vs 6": (roller(4), roller(6)),
    "3 vs 5": (roller(3), roller(5)),
}


@functools.cache
def truth(name: str) -> float:
    a, b = PAIRS[name]
    first = su21_win_probability(a, b, GOAL)
    second = 1 - su21_win_probability(b, a, GOAL)
    return (first + second) / 2


def players(name: str):
    rules = get_rules("hog-su21", GOAL)
    a, b = PAIRS[name]
    return (
        rules,
        tabulate(a, rules, "a"),
        tabulate(b, rules, "b"),
    )


def test_pentanomial_counts_points_by_pair():
    joint = np.array([[5, 7, 1], [2, 3, 0], [0, 1, 4]])  # [A first, A second]: won, lost, tie
    # points: won-won 2, won-lost 1, won-tie 1.5, lost-won 1, lost-lost 0, tie-lost 0.5, ...
    assert stats.pentanomial(joint).tolist() == [3, 1, 7 + 2 + 4, 1 + 0, 5]
    estimate = stats.PairedEstimate.from_joint(joint)
    assert estimate.pairs == joint.sum()
    points = np.array([[1, 0.5, 0.75], [0.5, 0, 0.25], [0.75, 0.25, 0.5]])
    assert estimate.win_rate == pytest.approx((joint * points).sum() / joint.sum())


def test_paired_interval_covers_the_exact_value_95_percent_of_the_time():
    """1,200 matches of 1,000 pairs, over three pairs of known exact win rate."""
    covered = runs = 0
    for name in PAIRS:
        rules, a, b = players(name)
        p = truth(name)
        for seed in range(400):
            joint = simulate.simulate_pairs(rules, a, b, 2000, seed=seed)
            low, high = stats.PairedEstimate.from_joint(joint).interval()
            covered += low <= p <= high
            runs += 1
    rate = covered / runs
    assert 0.93 <= rate <= 0.97, rate


def test_paired_interval_is_narrower_when_the_seatings_are_negatively_correlated():
    rules, a, b = players("bacon vs 6")  # Piggy Points against always_roll(6): r about -0.58
    joint = simulate.simulate_pairs(rules, a, b, 200_000, seed=3)
    assert stats.seat_correlation(joint) < -0.3
    estimate = stats.PairedEstimate.from_joint(joint)
    seats = simulate.seat_counts(joint)
    games = int(seats.sum())
    low, high = wilson(seats[:, 0].sum() + seats[:, 2].sum() / 2, games)
    paired_low, paired_high = estimate.interval()
    assert paired_high - paired_low < 0.9 * (high - low)


def test_identical_tables_are_played_and_even_only_on_average():
    """The pair's two games are one game with the seats swapped: the total is exactly 50%, by
    symmetry, while each seat shows what moving first is worth."""
    rules = get_rules("hog-su21", GOAL)
    a = load_entrant("always_roll:5", rules)
    b = load_entrant("always_roll:5", rules)
    result = run_duel(rules, a, b, 10_000, seed=1)
    assert result.identical and result.total.games == 10_000
    assert result.total.win_rate == 0.5 and result.first.win_rate != 0.5
    assert "by symmetry" in result.to_dict()["note"]


def test_sequential_looks_spend_the_error_between_them():
    plan = stats.looks(1000, 100_000)
    assert plan[0] == 1000 and plan[-1] == 100_000 and plan == sorted(plan)
    z = stats.sequential_z(len(plan))
    # the chance that any of the looks errs, at most 5% (Bonferroni)
    assert 2 * (1 - stats.NormalDist().cdf(z)) * len(plan) == pytest.approx(0.05)


def test_until_decided_stops_early_on_the_right_side_and_reproduces_for_any_jobs():
    rules = get_rules("hog-su21", GOAL)
    a = load_entrant("always_roll:3", rules)
    b = load_entrant("always_roll:5", rules)
    one = run_duel(rules, a, b, 2_000_000, seed=9, jobs=1, until_decided=0.500001)
    two = run_duel(rules, a, b, 2_000_000, seed=9, jobs=2, until_decided=0.500001)
    assert (one.joint == two.joint).all()
    assert truth("3 vs 5") < 0.45 and one.decision == stats.BELOW
    assert one.total.games <= 4_000  # decided at the first or second look


def test_until_decided_says_undecided_for_a_pair_within_the_caps_resolution():
    """always_roll(4) against always_roll(6) to 40 is 49.53%: 20,000 games cannot tell."""
    rules = get_rules("hog-su21", GOAL)
    a = load_entrant("always_roll:4", rules)
    b = load_entrant("always_roll:6", rules)
    assert abs(truth("4 vs 6") - 0.5) < 0.005
    result = run_duel(rules, a, b, 20_000, seed=2, until_decided=0.500001)
    assert result.decision == stats.UNDECIDED
    assert result.total.games == 20_000


@pytest.mark.parametrize("side", ["truth is P1", "truth is P0"])
def test_sprt_errs_within_alpha_and_beta_and_beats_a_fixed_sample_test(side, monkeypatch):
    """200 SPRTs whose hypotheses sit 2.5 points apart, the exact win rate on one of them."""
    monkeypatch.setattr(pairs, "SPRT_BLOCK_PAIRS", 200)
    rules = get_rules("hog-su21", GOAL)
    a = load_entrant("always_roll:4", rules)
    b = load_entrant("always_roll:6", rules)
    p = truth("4 vs 6")
    p0, p1 = (p - 0.025, p) if side == "truth is P1" else (p, p + 0.025)
    test = stats.Sprt(p0, p1, alpha=0.05, beta=0.05)
    trials, wrong, sizes = 200, 0, []
    for seed in range(trials):
        result = run_duel(rules, a, b, 400_000, seed=seed, sprt=test)
        verdict = result.sprt["verdict"]
        wrong += verdict == ("H0" if side == "truth is P1" else "H1")
        sizes.append(result.paired.pairs)
    error = wrong / trials
    assert error <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / trials), error
    variance = result.paired.variance
    assert np.median(sizes) < test.fixed_pairs(variance), (np.median(sizes), variance)


def test_a_match_is_the_same_on_one_process_two_and_a_dask_cluster(monkeypatch):
    """Block seeds come from the parent: the counts do not depend on where blocks run."""
    distributed = pytest.importorskip("distributed")
    from joblib import parallel_config

    monkeypatch.setattr(simulate, "BLOCK_GAMES", 10_000)
    rules, a, b = players("bacon vs 6")
    one = simulate.simulate_pairs(rules, a, b, 60_000, seed=4, jobs=1)
    two = simulate.simulate_pairs(rules, a, b, 60_000, seed=4, jobs=2)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
        parallel_config(backend="dask"),
    ):
        remote = simulate.simulate_pairs(rules, a, b, 60_000, seed=4, jobs=2)
    assert (one == two).all() and (one == remote).all()


def test_a_monte_carlo_tournament_never_scores_a_pair_against_its_exact_result(tmp_path):
    """Every pair plays until decided; no decided pair contradicts the exact value, and the
    pairs too close to call at the cap come out undecided."""
    from hogbench import tournament as tm

    rules = get_rules("hog-su21", GOAL)
    specs = [f"always_roll:{n}" for n in (2, 3, 4, 5, 6, 8)]
    specs += ["piggypoints_strategy", "more_boar_strategy:cutoff=7,num_rolls=5"]

    def run(mode):
        t = tm.Tournament("until decided", rules, specs, mode=mode, games=20_000, seed=5)
        t.store = tmp_path / f"{mode}.sqlite"
        return tm.run(t)

    mc, exact = run("mc"), run("exact")
    z = pairs.decision_z(20_000)
    undecided = contradictions = 0
    for (i, j), r in mc.results.items():
        truth_ij = exact.results[i, j].win_rate
        verdict = r.decision(0.500001, z)
        if verdict == stats.UNDECIDED:
            undecided += 1
            continue
        contradictions += verdict != (stats.ABOVE if truth_ij > 0.500001 else stats.BELOW)
        # anything this close to the threshold cannot be decided with 10,000 pairs
        assert abs(truth_ij - 0.500001) > 0.002, (specs[i], specs[j], truth_ij)
    assert contradictions == 0
    assert undecided >= 2  # always_roll(4) against always_roll(6) is 49.5% to 40, for one
    hanging = sum(s.undecided for s in mc.standings)
    assert hanging == undecided  # each undecided pair hangs over both of its entrants


def test_a_gauntlet_never_plays_a_strategy_against_itself(tmp_path, files):
    from hogbench import tournament as tm

    me = tmp_path / "me.py"
    me.write_text((files / "good_su21.py").read_text())
    (tmp_path / "other.py").write_text("def final_strategy(s, o):\n    return 4\n")
    rules = get_rules("hog-su21", GOAL)
    _, rows = tm.gauntlet(rules, str(me), [str(tmp_path / "*.py")])
    assert [r.opponent.spec for r in rows] == [str(tmp_path / "other.py")]
    assert rows[0].decision in (stats.ABOVE, stats.BELOW)  # exact pairs are always decided


def test_a_pair_out_of_time_stops_undecided():
    rules, a, b = players("4 vs 6")
    played = pairs.play_pair(
        rules, a, b, "mc", 10_000_000, seed=1, until_decided=0.500001, seconds=0.0
    )
    assert played.decision == stats.UNDECIDED and played.joint.sum() == pairs.FIRST_LOOK_PAIRS


@pytest.mark.slow  # 5 s: the demo class loaded and played by Monte Carlo
def test_the_demo_class_by_monte_carlo_never_contradicts_its_exact_results(tmp_path):
    """The demo tournament's own entrants (to 40, so it is quick), every pair played until
    decided: no decided pair is on the wrong side of its exact value."""
    from hogbench import tournament as tm

    demo = str(Path(__file__).parent.parent / "tournaments" / "demo.toml")

    def run(mode):
        t = tm.load_source([demo], goal=GOAL, mode=mode, games=20_000, allow_live=False)
        t.store, t.out = tmp_path / f"{mode}.sqlite", None
        return tm.run(t)

    mc, exact = run("mc"), run("exact")
    assert [s.name for s in mc.active] == [s.name for s in exact.active]
    assert len(mc.active) >= 15
    z = pairs.decision_z(20_000)
    decided = 0
    for (i, j), r in mc.results.items():
        truth_ij = exact.results[i, j].win_rate
        verdict = r.decision(0.500001, z)
        if verdict != stats.UNDECIDED:
            decided += 1
            assert verdict == (stats.ABOVE if truth_ij > 0.500001 else stats.BELOW), (i, j)
    assert decided >= len(mc.results) * 0.8
