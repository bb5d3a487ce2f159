"""Memory rows (``exact.memory``): pairs of decision tables in the Feral Hogs terms, whose hidden
state is each player's memory of their last turn, against an independent plain recursion, the
reachable-states search and the staff engine's figures."""

from __future__ import annotations

import numpy as np
import pytest

from hogbench import exact
from hogbench.exact.evaluation import Policy, evaluate_policies
from hogbench.exact.memory import evaluate_tables
from hogbench.exact.rows import engine
from hogbench.rules import get_rules
from tests.course.course_cases import load
from tests.course.turns import reference_turn
from tests.reference import win_chance

MEMORY_TERMS = ["hog-fa19", "hog-sp20", "hog-su20"]


def table_pairs(goal: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Constant tables (whose memories skip class 1 where the memory is the dice), random ones
    (every memory held), and mixtures of 4 and 6 dice (2 apart: Feral Hogs fires often)."""
    rng = np.random.default_rng(seed)
    area = goal * goal
    constant = [np.full(area, n) for n in (0, 2, 4, 6, 10)]
    random = [rng.integers(0, 11, area) for _ in range(3)]
    mixed = [np.where(rng.random(area) < 0.5, 4, 6) for _ in range(2)]
    tables = constant + random + mixed
    return [(a, b) for i, a in enumerate(tables) for b in tables[i % 3 :: 3]]


def on_memory_rows(rules, a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    m = rules.model
    e = engine(m)
    return evaluate_tables(m, e.memory_rows, a, b, e.memory_values)


def by_search(rules, a: np.ndarray, b: np.ndarray) -> exact.SeatValues:
    """The reachable-states search: policies given per state (period n_states) take it."""
    m = rules.model
    observation = m.observation

    def policy(table):
        return Policy(table[observation], np.arange(m.n_states), m.n_states)

    return evaluate_policies(rules, policy(a), policy(b))


@pytest.mark.parametrize("name", MEMORY_TERMS)
def test_memory_rows_agree_with_a_plain_recursion(name):
    """Goal 12 keeps the recursion quick; random tables hold every memory."""
    goal = 12
    rules = get_rules(name, goal=goal)
    turn = reference_turn(name)
    for a, b in table_pairs(goal, seed=12)[::4]:

        def strategy(table):
            return lambda score, opponent: int(table[score * goal + opponent])

        first, second = on_memory_rows(rules, a, b)
        assert first == pytest.approx(win_chance(turn, strategy(a), strategy(b), goal), abs=1e-12)
        expected = 1 - win_chance(turn, strategy(b), strategy(a), goal)
        assert second == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("name", MEMORY_TERMS)
def test_memory_rows_agree_with_the_reachable_search(name):
    rules = get_rules(name)
    for a, b in table_pairs(100, seed=100):
        first, second = on_memory_rows(rules, a, b)
        searched = by_search(rules, a, b)
        assert first == pytest.approx(searched.first, abs=1e-12)
        assert second == pytest.approx(searched.second, abs=1e-12)


def test_the_staff_figures_on_memory_rows():
    staff = load("hog-fa19")["staff_figures"]
    rules = get_rules("hog-fa19")
    first, second = on_memory_rows(rules, np.full(10_000, 4), np.full(10_000, 6))
    assert first == pytest.approx(staff["first_seat"], abs=1e-9)
    assert second == pytest.approx(staff["second_seat"], abs=1e-9)


def test_a_duel_searches_and_later_pairs_take_memory_rows():
    """The first pair in a process is searched (building the rows would cost more); from the
    second on, the rows are built and used; both give the same values."""
    rules = get_rules("hog-fa19")
    a, b = np.full(10_000, 4), np.full(10_000, 6)
    e = engine(rules.model)
    first = exact.evaluate(rules, a, b)
    assert "memory_rows" not in e.__dict__
    second = exact.evaluate(rules, a, b)
    assert "memory_rows" in e.__dict__
    assert (first.first, first.second) == pytest.approx((second.first, second.second), abs=1e-14)


def test_memory_rows_are_declared_only_with_feral_hogs():
    assert get_rules("hog-fa19").model.memories == 11
    assert get_rules("hog-su20").model.memories == 14
    assert get_rules("hog-fa19", feral_hogs=False).model.memories == 0
