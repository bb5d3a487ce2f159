"""Memory rows (``exact.memory``): pairs of decision tables in the Feral Hogs terms, whose hidden
state is each player's memory of their last turn, against an independent plain recursion, the
reachable-states search and the staff engine's figures; and best responses on memory rows,
against a plain maximising recursion and ``exact.solve``."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from hogbench import exact
from hogbench.exact import kept as exact_rows
from hogbench.exact import plan
from hogbench.exact.evaluation import Policy, evaluate_policies
from hogbench.exact.memory import LINE, best_response, evaluate_tables, layout
from hogbench.exact.rows import engine
from hogbench.loading import load_entrant
from hogbench.rules import get_rules
from hogbench.solve import best_response_rate
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


@pytest.mark.parametrize(
    # 3 to 4 s of CPU each: the quick run checks hog-fa19, the full run every term
    "name",
    [MEMORY_TERMS[0], *(pytest.param(n, marks=pytest.mark.slow) for n in MEMORY_TERMS[1:])],
)
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


@pytest.mark.parametrize(
    ("area", "memories"),
    [(10_000, 11), (40_000, 14), (32_761, 11), (16_384 - 88, 11), (16_384, 3), (1, 1)],
)
def test_the_layout_of_memories_keeps_every_place_apart(area, memories):
    """Every place m' * S + x' is its own and below to_bits, and the memories' planes start an
    odd number of cache lines apart (never a power of two)."""
    stride, to_bits = layout(area, memories)
    m, x = np.meshgrid(np.arange(memories), np.arange(area), indexing="ij")
    place = m * stride + x
    assert len(np.unique(place)) == place.size and place.max() < 1 << to_bits
    assert stride >= area and stride % LINE == 0 and (stride // LINE) % 2 == 1


@pytest.mark.parametrize("name", MEMORY_TERMS)
def test_the_numpy_pass_over_kept_memory_rows_agrees(name, tmp_path, monkeypatch):
    """exact_rows evaluates a pair on memory rows kept in the disk cache, in numpy: as built,
    and read back."""
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path))
    rules = get_rules(name)
    for a, b in table_pairs(100, seed=5)[::5]:
        kernel = on_memory_rows(rules, a, b)
        for _ in range(2):
            assert exact_rows.evaluate(rules, a, b) == pytest.approx(kernel, abs=1e-13)


def test_unreadable_memory_rows_are_built_again(tmp_path, monkeypatch):
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path))
    rules = get_rules("hog-fa19")
    path = exact_rows._memory_entry(rules)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not an npz file")
    a, b = np.full(10_000, 4), np.full(10_000, 6)
    assert exact_rows.evaluate(rules, a, b) == pytest.approx(on_memory_rows(rules, a, b))
    assert exact_rows._load_memory_rows(rules) is not None


def test_a_later_exact_duel_needs_neither_numba_nor_the_model(tmp_path):
    """Once a first exact duel kept hog-su20's memory rows, a duel of two other tables loads
    neither numba nor the model (what makes it take half a second)."""
    env = {"HOGBENCH_CACHE": str(tmp_path)}
    command = ["duel", "always_roll:4", "always_roll:6", "--exact", "--rules", "hog-su20"]
    later = ["duel", "always_roll:3", "always_roll:5", "--exact", "--rules", "hog-su20", "--json"]
    script = (  # counts the models built, and says whether numba was imported
        "import json, sys\n"
        "from typer.testing import CliRunner\n"
        "from hogbench.cli import app\n"
        "from hogbench.rules import rules_class\n"
        "built, cls = [], rules_class('hog-su20')\n"
        "build = cls.build_model\n"
        "cls.build_model = lambda self: built.append(1) or build(self)\n"
        "result = CliRunner().invoke(app, sys.argv[1:])\n"
        "assert result.exit_code == 0, result.output\n"
        "numba = 'numba' in sys.modules\n"
        "print(json.dumps({'numba': numba, 'models': len(built), 'output': result.output}))\n"
    )
    runs = []
    for args in (command, later):
        done = subprocess.run(
            [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=300,
            env={**os.environ, **env},
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        runs.append(json.loads(done.stdout.splitlines()[-1]))
    assert runs[0]["numba"] and runs[0]["models"] == 1
    assert not runs[1]["numba"] and runs[1]["models"] == 0
    rules = get_rules("hog-su20")
    expected = exact.evaluate(rules, np.full(10_000, 3), np.full(10_000, 5))
    win_rate = json.loads(runs[1]["output"])["win_rate"]
    assert win_rate == pytest.approx(expected.average, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Best responses on memory rows
# ---------------------------------------------------------------------------------------------


def best_response_by_recursion(name: str, goal: int, table: np.ndarray) -> tuple[float, float]:
    """The best response to TABLE, moving first and second, by a plain maximising recursion
    over the reference turn: the solver sees both scores and both players' memories, raw."""
    turn = reference_turn(name)
    choices = [int(c) for c in get_rules(name, goal=goal).model.choices]

    def outcomes(state, n):
        for key, p in turn(state, n).items():
            new, opponent, mine, *rest = key
            theirs, again = (state[3], *rest) if len(rest) == 1 else rest
            yield new, opponent, mine, theirs, again, p

    def chance(state, n, mover, other):
        """The mover's chance to win rolling N at STATE, MOVER and OTHER giving each player's
        chance to win with it to move."""
        total = 0.0
        for new, opponent, mine, theirs, again, p in outcomes(state, n):
            if new >= goal:
                total += p
            elif opponent >= goal:
                continue
            elif again:
                total += p * mover((new, opponent, mine, theirs))
            else:
                total += p * (1.0 - other((opponent, new, theirs, mine)))
        return total

    @functools.cache
    def best(state):
        """The solver's chance to win, to move at STATE (scores and memories, mover's first)."""
        return max(chance(state, n, best, table_player) for n in choices)

    @functools.cache
    def table_player(state):
        """The table's chance to win, to move at STATE."""
        return chance(state, int(table[state[0] * goal + state[1]]), table_player, best)

    return best((0, 0, 0, 0)), 1.0 - table_player((0, 0, 0, 0))


def best_response_tables(rules, seed: int) -> list[np.ndarray]:
    """Two random tables (every memory held) and the course's swap_strategy."""
    rng = np.random.default_rng(seed)
    area = int(np.prod(rules.obs_shape))
    course = load_entrant("swap_strategy", rules).table.choices
    return [rng.integers(0, 11, area), rng.integers(0, 11, area), course]


def on_memory_rows_best(rules, table: np.ndarray) -> tuple[float, float]:
    m = rules.model
    e = engine(m)
    return best_response(m, e.memory_rows, np.asarray(table, np.int64), e.memory_best_values)


@pytest.mark.parametrize("name", MEMORY_TERMS)
def test_best_response_on_memory_rows_agrees_with_a_maximising_recursion(name):
    """Goal 10 keeps the recursion quick (some 0.5 s of CPU a table); random tables, so the
    table's player holds every memory."""
    goal = 10
    rules = get_rules(name, goal=goal)
    for table in best_response_tables(rules, seed=10)[:2]:
        expected = best_response_by_recursion(name, goal, table)
        assert on_memory_rows_best(rules, table) == pytest.approx(expected, abs=1e-12)


def test_best_response_on_memory_rows_equals_solve_at_a_small_goal():
    """The quick run's case of the one below: hog-fa19 to 31."""
    rules = get_rules("hog-fa19", goal=31)
    for table in best_response_tables(rules, seed=31):
        solved = exact.solve(rules, table)
        first, second = on_memory_rows_best(rules, table)
        assert first == pytest.approx(solved.first, abs=1e-12)
        assert second == pytest.approx(solved.second, abs=1e-12)


@pytest.mark.slow  # 2 to 6 s of CPU a term: exact.solve of the whole model, three times
@pytest.mark.parametrize("name", MEMORY_TERMS)
def test_best_response_on_memory_rows_equals_solve(name):
    rules = get_rules(name)
    for table in best_response_tables(rules, seed=100):
        solved = exact.solve(rules, table)
        values = exact.best_response(rules, table)
        assert values.first == pytest.approx(solved.first, abs=1e-12)
        assert values.second == pytest.approx(solved.second, abs=1e-12)


def test_a_best_response_takes_memory_rows_only_where_the_model_has_memories():
    assert plan.choose_best_response(engine(get_rules("hog-fa19").model)) is (
        plan.BestResponse.MEMORY_ROWS
    )
    for name in ("hog-su21", "pig"):
        assert plan.choose_best_response(engine(get_rules(name).model)) is plan.BestResponse.SOLVE
    rules = get_rules("hog-su21", goal=31)
    table = np.random.default_rng(1).integers(0, 11, 31 * 31)
    solved = exact.solve(rules, table)
    values = exact.best_response(rules, table)
    assert (values.first, values.second) == (solved.first, solved.second)


def test_the_regret_figure_is_the_best_response_on_memory_rows(tmp_path, monkeypatch):
    """solve.best_response_rate (a tournament's regret) reads the memory rows' figure, which is
    exact.solve's average, and keeps it in the disk cache."""
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path))
    rules = get_rules("hog-fa19", goal=31)
    table = np.random.default_rng(7).integers(0, 11, 31 * 31)
    solved = exact.solve(rules, table)
    rate = best_response_rate(rules, table)
    assert rate == pytest.approx((solved.first + solved.second) / 2, abs=1e-12)
    assert rate == np.mean(on_memory_rows_best(rules, table))
