"""The bundled Greed field (strategies/greed/): ten test strategies of graded strength, and
the course's testStrat report against them with the seed's 30-second rule."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from hogbench import exact
from hogbench.cli import app
from hogbench.experiments import greed_field
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


def test_test_strat_refuses_an_invalid_file_with_check_s_reason(tmp_path):
    bad = tmp_path / "greedy.py"
    bad.write_text("def myStrategy(myscore, theirscore, last):\n    return -1\n")
    shown = runner.invoke(app, ["experiment", "test-strat", str(bad)])
    assert shown.exit_code == 1 and "invalid" in shown.stdout
