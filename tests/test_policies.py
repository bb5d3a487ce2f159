"""The engine's conversions into its one policy type (``exact.policies``): a table read by
observation and the same choices spelled out per state give the same values bit for bit, a
table as kept is not copied, an answer the model has no outcomes for is refused, and tables
fitted together share a model grown to all their answers."""

from __future__ import annotations

import numpy as np
import pytest

from hogbench import exact
from hogbench.errors import UsageError
from hogbench.exact.policies import (
    constant_policy,
    kept_table_policy,
    state_policy,
    table_policies,
    table_policy,
)
from hogbench.rules import get_rules
from hogbench.tables import DecisionTable


def random_table(rules, seed: int) -> np.ndarray:
    m = rules.model
    rng = np.random.default_rng(seed)
    return rng.choice(m.choices, size=int(m.observation.max()) + 1)


@pytest.mark.parametrize("name, goal", [("hog-su21", 31), ("hog-fa19", 21)])
def test_a_table_and_its_choices_per_state_give_the_same_values(name, goal):
    """hog-fa19's state holds the Feral Hogs memory, which a table does not see: its
    observation map is not the identity, so the two conversions index differently."""
    rules = get_rules(name, goal)
    m = rules.model
    a, b = random_table(rules, 1), random_table(rules, 2)
    by_table = exact.evaluate_policies(rules, *table_policies(rules, a, b))
    per_state = (state_policy(m, t[m.observation]) for t in (a, b))
    by_state = exact.evaluate_policies(rules, *per_state)
    assert (by_table.first, by_table.second) == (by_state.first, by_state.second)
    assert 0 < by_table.first < 1


def test_constant_policy_is_a_table_of_one_choice():
    rules = get_rules("hog-su21", 31)
    m = rules.model
    four = exact.evaluate_policies(rules, constant_policy(m, 4), constant_policy(m, 6))
    tables = (np.full(int(m.observation.max()) + 1, c) for c in (4, 6))
    assert four.first == exact.evaluate(rules, *tables).first


def test_a_table_as_kept_is_read_in_place_and_an_engine_table_is_int64():
    rules = get_rules("pig", 20)
    m = rules.model
    kept = DecisionTable.from_choices(rules, random_table(rules, 3)).choices
    assert kept.dtype == np.int8
    assert np.shares_memory(kept_table_policy(m, kept).table, kept)
    engine = table_policy(m, kept)
    assert engine.table.dtype == np.int64 and (engine.table == kept).all()


def test_an_answer_outside_the_model_is_refused():
    rules = get_rules("hog-su21", 31)
    table = random_table(rules, 4)
    table[5] = int(rules.model.choices[-1]) + 1
    with pytest.raises(UsageError, match="has no outcomes for"):
        table_policy(rules.model, table)


def test_tables_fitted_together_share_a_model_grown_to_their_answers():
    """Greed's model grows to the largest count of dice a table answers."""
    rules = get_rules("greed", 30)
    small = np.zeros(int(rules.model.observation.max()) + 1, dtype=np.int64)
    big = small.copy()
    big[0] = int(rules.model.choices[-1]) + 1
    first, second = table_policies(rules, small, big)
    assert rules.model.choices[-1] >= big[0]
    assert first.index is second.index is rules.model.observation
