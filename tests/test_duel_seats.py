"""A strategy against itself is played in both seatings, not assumed even; a duel's one JSON
schema; ties in their own column; the Elo difference and the likelihood of superiority.

The seat figures are checked against independent numbers: a plain recursion (Summer 2021), the
published optimum (Pig, Neller & Presser 2004) and a plain value iteration over the Greed
seed's own rules (tests/reference.py and below), never against the engine's earlier output.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from hogbench import exact, stats
from hogbench.cli import app
from hogbench.duel import run_duel
from hogbench.entrants import Entrant
from hogbench.loading import load_entrant, parse_spec
from hogbench.rules import get_rules, greed
from hogbench.solve import strategy_table
from hogbench.tables import DecisionTable
from tests.reference import su21_win_probability

runner = CliRunner()


def optimal_entrant(rules) -> Entrant:
    table = DecisionTable.from_choices(rules, strategy_table(rules, exact.solve(rules)))
    return Entrant(parse_spec("always_roll:4"), "optimal", table, "optimal")


@pytest.mark.slow  # 11 s CPU: a solve and many games
def test_su21_optimal_self_play_is_the_first_movers_52_31():
    rules = get_rules("hog-su21")
    optimal = optimal_entrant(rules)
    result = run_duel(rules, optimal, optimal, exact_mode=True)
    assert result.identical and result.exact
    choices = optimal.table.choices.reshape(rules.obs_shape)
    plain = su21_win_probability(
        lambda s, o: int(choices[s, o]), lambda s, o: int(choices[s, o]), 100, max_dice=10
    )
    assert result.first.win == pytest.approx(plain, abs=1e-9)
    assert round(result.first.win, 4) == 0.5231
    assert result.second.win == pytest.approx(1 - plain, abs=1e-9)
    assert result.total.win_rate == pytest.approx(0.5, abs=1e-12)


@pytest.mark.slow
def test_pig_optimal_self_play_is_the_published_53_06():
    """Neller & Presser (2004): the first player wins 0.5306 of Pig games with optimal play."""
    rules = get_rules("pig")
    optimal = optimal_entrant(rules)
    result = run_duel(rules, optimal, optimal, exact_mode=True)
    assert round(result.first.win, 4) == 0.5306
    assert round(result.second.win, 4) == 0.4694


def greed_outcomes(goal, a, b):
    """Plain value iteration of the Greed seed's rules for A moving first against B: the
    chances that A wins and that the game ties (scores equal, none over the goal)."""
    sums = {0: {0: 1.0}}  # n dice's sums, by convolution with one die (faces 0 to 5)
    for n in range(1, 51):
        sums[n] = {}
        for s, p in sums[n - 1].items():
            for face in range(6):
                sums[n][s + face] = sums[n].get(s + face, 0.0) + p / 6
    strategies = (a, b)

    def run(end):
        """end(mover's score, other's score, mover is A) -> the quantity at a finished game."""
        v: dict = {}
        states = [
            (p, m, t, last)
            for last in (True, False)
            for p in (0, 1)
            for m in range(goal, -1, -1)
            for t in range(goal + 1)
        ]
        for _ in range(200):
            delta = 0.0
            for x in states:
                p, m, t, last = x
                n = strategies[p](m, t, last)
                if n == 0:
                    new = end(m, t, p == 0) if last else v.get((1 - p, t, m, True), 0.0)
                else:
                    new = 0.0
                    for s, prob in sums[n].items():
                        if m + s > goal or last:
                            new += prob * end(m + s, t, p == 0)
                        else:
                            new += prob * v.get((1 - p, t, m + s, False), 0.0)
                delta = max(delta, abs(new - v.get(x, 0.0)))
                v[x] = new
            if delta < 1e-15:
                break
        return v[(0, 0, 0, False)]

    def a_wins(mine, theirs, mover_is_a):
        if mine > goal:
            return 0.0 if mover_is_a else 1.0
        if mine == theirs:
            return 0.0
        return float((mine > theirs) == mover_is_a)

    def tie(mine, theirs, mover_is_a):
        return float(mine == theirs and mine <= goal)

    return run(a_wins), run(tie)


def test_greed_sample1_against_itself_first_seat_wins_18_49_and_ties_apart():
    rules = get_rules("greed")
    one, again = (load_entrant("sample1", rules) for _ in range(2))
    result = run_duel(rules, one, again, exact_mode=True)
    win, tie = greed_outcomes(100, greed.sample1, greed.sample1)
    assert result.first.win == pytest.approx(win, abs=1e-9)
    assert result.first.tie == pytest.approx(tie, abs=1e-9)
    assert round(result.first.win, 4) == 0.1849 and tie > 0
    assert result.first.win + result.first.loss + result.first.tie == pytest.approx(1)
    assert result.first.win_rate == pytest.approx(win + tie / 2, abs=1e-9)


def duel_json(*args) -> dict:
    result = runner.invoke(app, ["duel", *map(str, args), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_no_output_says_a_false_per_seat_50():
    exact_data = duel_json("always_roll:5", "always_roll:5", "--exact")
    assert exact_data["identical"] and exact_data["first"]["win_rate"] > 0.52
    assert "50% by symmetry" in exact_data["note"]
    shown = runner.invoke(app, ["duel", "always_roll:5", "always_roll:5", "--exact"]).stdout
    assert "exactly even" not in shown and "53.14" in shown and "50% by symmetry" in shown
    # Monte Carlo plays the seed's sanity check, manyGames(sample1, sample1, 1000)
    mc = duel_json("sample1", "sample1", "--rules", "greed", "-n", 2000, "--seed", 3)
    assert mc["games"] == 2000 and mc["identical"] and mc["win_rate"] == 0.5
    assert mc["first"]["win"] == pytest.approx(0.1849, abs=4 * math.sqrt(0.15 / 1000))


def test_exact_and_monte_carlo_share_one_schema():
    exact_data = duel_json("always_roll:4", "always_roll:6", "--exact")
    mc = duel_json("always_roll:4", "always_roll:6", "-n", 2000, "--seed", 1)
    assert exact_data.keys() == mc.keys()
    assert exact_data["first"].keys() == mc["first"].keys()
    assert exact_data["games"] is None and exact_data["wins"] is None
    assert mc["games"] == 2000 and mc["wins"] + mc["losses"] + mc["ties"] == 2000
    assert exact_data["never_ends"] is None and exact_data["paired"] is None
    for data in (exact_data, mc):
        assert data["win"] + data["loss"] + data["tie"] == pytest.approx(1)
        assert data["elo"]["difference"] == pytest.approx(
            -400 * math.log10(1 / data["win_rate"] - 1)
        )
    assert exact_data["likelihood_of_superiority"] == float(exact_data["win_rate"] > 0.5)
    low, high = mc["elo"]["ci_low"], mc["elo"]["ci_high"]
    assert low < mc["elo"]["difference"] < high
    assert low == pytest.approx(-400 * math.log10(1 / mc["ci_low"] - 1))


def test_sp22_never_ends_is_in_the_json_even_for_a_strategy_against_itself():
    data = duel_json("always_roll:0", "always_roll:0", "--rules", "hog-sp22", "--exact")
    assert set(data["never_ends"]) == {"first", "second"}
    assert data["identical"]


def test_ties_have_their_own_column_where_games_tie():
    shown = runner.invoke(app, ["duel", "sample1", "sample2", "--rules", "greed", "--exact"])
    header = next(line for line in shown.stdout.splitlines() if "A wins" in line)
    assert "tie" in header
    mc = runner.invoke(app, ["duel", "sample1", "sample2", "--rules", "greed", "-n", 400])
    assert "ties" in mc.stdout
    hog = runner.invoke(app, ["duel", "always_roll:4", "always_roll:6", "-n", 400])
    assert "ties" not in hog.stdout  # no Hog game of Summer 2021 ties


def test_likelihood_of_superiority_is_the_normal_tail_of_the_pair_scores():
    estimate = stats.PairedEstimate((10, 0, 60, 0, 30))  # mean 0.6 per game
    se = estimate.standard_error
    expected = 0.5 * (1 + math.erf((estimate.win_rate - 0.5) / se / math.sqrt(2)))
    assert stats.likelihood_of_superiority(estimate) == pytest.approx(expected)
    assert stats.likelihood_of_superiority(stats.PairedEstimate((0, 0, 5, 0, 0))) == 0.5
    assert stats.elo_difference(0.5) == 0 and stats.elo_difference(1.0) == math.inf
    assert stats.elo_difference(0.75) == pytest.approx(190.849, abs=1e-3)  # 400 log10(3)
    assert np.isfinite(stats.elo_difference(0.01))


@pytest.mark.parametrize("mode", ["exact", "mc"])
def test_a_tournaments_copies_get_their_real_seats(mode, tmp_path):
    """Two copies of one file are computed once, exactly, in either mode: each seat is the
    first mover's real edge (always_roll(5) against itself: 53.14% first, a plain recursion
    says), never an assumed 50%."""
    from pathlib import Path

    from tests.reference import su21_win_probability

    source = Path(__file__).resolve().parent.parent / "strategies" / "hog_su21"
    for name, original in (
        ("a5", "always_roll_5"),
        ("b5", "always_roll_5"),
        ("c3", "always_roll_3"),
    ):
        (tmp_path / f"{name}.py").write_bytes((source / f"{original}.py").read_bytes())
    files = [str(tmp_path / f"{n}.py") for n in ("a5", "b5", "c3")]
    shown = runner.invoke(app, ["tournament", *files, "--mode", mode, "--json"])
    assert shown.exit_code == 0, shown.output
    pairs = json.loads(shown.stdout)["pairs"]
    copies = [row for row in pairs["exact"] if {row[0], row[1]} == {0, 1}]
    assert len(copies) == 1
    first, second = copies[0][2], copies[0][3]
    truth = su21_win_probability(lambda s, o: 5, lambda s, o: 5, 100)
    assert first == pytest.approx(truth, abs=1e-9) and second == pytest.approx(1 - truth, abs=1e-9)
    assert first > 0.53
