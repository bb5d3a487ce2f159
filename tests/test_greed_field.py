"""The bundled Greed field (strategies/greed/): ten test strategies of graded strength, and
the course's testStrat report against them with the seed's 30-second rule."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from hogbench import exact
from hogbench.cli import app
from hogbench.experiments import TEST_STRAT_SECONDS, greed_field
from hogbench.loading import load_entrant
from hogbench.rules import get_rules

runner = CliRunner()


@pytest.fixture(scope="module")
def field():
    rules = get_rules("greed")
    return rules, [load_entrant(str(path), rules) for path in greed_field()]


@pytest.mark.slow
def test_the_field_is_ten_strategies_weakest_first(field):
    """Each test strategy's average exact win rate against the others rises with its number:
    test01 is the weakest, test10 the strongest."""
    rules, entrants = field
    assert len(entrants) == 10 and all(e.table is not None for e in entrants)
    n = len(entrants)
    rates = np.full((n, n), 0.5)
    for i in range(n):
        for j in range(i + 1, n):
            values = exact.evaluate(rules, entrants[i].table.choices, entrants[j].table.choices)
            rates[i, j] = (values.first + values.second) / 2
            rates[j, i] = 1 - rates[i, j]
    strength = rates.mean(axis=1)
    assert list(strength) == sorted(strength), strength
    assert strength[0] < 0.1 and strength[-1] > 0.7


def test_test_strat_reports_each_match_and_the_30_second_rule():
    mine = str(greed_field()[5])  # test06, a middling strategy
    shown = runner.invoke(app, ["experiment", "test-strat", mine, "--json"])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    assert data["field"] == 10 and len(data["matches"]) == 10
    beaten = [m["beats"] for m in data["matches"]]
    assert data["beaten"] == sum(beaten) and 3 <= data["beaten"] <= 7
    assert beaten[0] is True and beaten[-1] is False  # beats the weakest, not the strongest
    assert data["matches"][5]["identical"] and data["matches"][5]["win_rate"] == pytest.approx(0.5)
    # a game of Greed takes each player a few decisions, not hundreds
    per_game = data["test_strat_calls"] / (10 * 10_000)
    assert 1 < per_game < 50
    assert data["limit_seconds"] == TEST_STRAT_SECONDS and data["within_time"] is True
    text = runner.invoke(app, ["experiment", "test-strat", mine]).stdout
    assert "test10_patient_judge" in text and "30-second rule" in text


def test_test_strat_plays_games_as_the_seed_does_when_asked():
    mine = str(greed_field()[0])
    data = json.loads(
        runner.invoke(
            app, ["experiment", "test-strat", mine, "-n", "200", "--seed", "1", "--json"]
        ).stdout
    )
    assert all(m["games"] == 200 for m in data["matches"])
    assert data["beaten"] == 0  # the weakest beats none, itself included


def test_test_strat_refuses_an_invalid_file_with_check_s_reason(tmp_path):
    bad = tmp_path / "greedy.py"
    bad.write_text("def myStrategy(myscore, theirscore, last):\n    return -1\n")
    shown = runner.invoke(app, ["experiment", "test-strat", str(bad)])
    assert shown.exit_code == 1 and "invalid" in shown.stdout
