"""solve, analyze and show: exported strategies load like submissions and reproduce the solver's
numbers; the loss analysis adds up; the commands print what they promise."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from hogbench import exact, plots
from hogbench import solve as sv
from hogbench.loading import load_entrant
from hogbench.rules import get_rules

TOL = 1e-12


def hogbench(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "hogbench", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
    )


# ---------------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, options, against",
    [
        ("hog-su21", {}, None),
        ("hog-su21", {}, "always_roll:6"),
        ("hog-contest", {"pork_chop": True}, None),
        ("pig", {}, None),
    ],
)
def test_exported_strategy_loads_and_reproduces_the_numbers(tmp_path, name, options, against):
    goal = 100 if name != "pig" else 30
    rules = get_rules(name, goal, **options)
    solved = sv.solve_rules(rules, against)
    path = sv.export(solved, tmp_path / "optimal.py", team_name="Team Test")
    entrant = load_entrant(str(path), rules)
    assert entrant.name == "Team Test"
    assert np.array_equal(entrant.table.choices, solved.table)
    baseline = load_entrant(rules.baseline, rules).table.choices
    values = exact.evaluate(rules, entrant.table.choices, baseline)
    assert values.first == solved.vs_baseline.first
    assert values.second == solved.vs_baseline.second
    if solved.exact_state:
        # The strategy is the optimum itself: evaluating it gives the solver's own values.
        opponent = load_entrant(against, rules).table.choices if against else entrant.table.choices
        played = exact.evaluate(rules, entrant.table.choices, opponent)
        assert played.first == pytest.approx(solved.first, abs=TOL)
        assert played.second == pytest.approx(solved.second, abs=TOL)


def test_exported_file_is_readable_python(tmp_path):
    rules = get_rules("hog-su21", 20)
    solved = sv.solve_rules(rules)
    text = sv.export(solved, tmp_path / "s.py").read_text()
    compile(text, "s.py", "exec")
    assert "def final_strategy(score, opponent_score):" in text
    assert "TEAM_NAME = " in text and "_TABLE = " in text
    namespace: dict = {}
    exec(text, namespace)
    table = solved.table.reshape(20, 20)
    for s, o in [(0, 0), (5, 17), (19, 19)]:
        assert namespace["final_strategy"](s, o) == table[s, o]


def test_pig_export_answers_roll_or_hold_as_booleans(tmp_path):
    rules = get_rules("pig", 20)
    text = sv.export(sv.solve_rules(rules), tmp_path / "pig.py").read_text()
    namespace: dict = {}
    exec(text, namespace)
    answer = namespace["final_strategy"](0, 0, 5)
    assert answer is True or answer is False


def test_export_refuses_a_name_that_is_not_python(tmp_path):
    rules = get_rules("hog-su21", 10)
    with pytest.raises(Exception, match=r"\.py"):
        sv.export(sv.solve_rules(rules), tmp_path / "out.txt")


# ---------------------------------------------------------------------------------------------
# Hidden state: the upper bound and the score-only strategy
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, options", [("hog-su20", {}), ("hog-contest", {})])
def test_score_only_strategy_for_hidden_state(name, options):
    rules = get_rules(name, 40, **options)
    solved = sv.solve_rules(rules)
    assert not solved.exact_state
    m = rules.model
    assert solved.table.shape == (40 * 40,)
    assert set(np.unique(solved.table)) <= set(m.choices)
    # The full-state optimum is an upper bound: against the same opponent (optimal full-state
    # play), no strategy that sees less does better.
    opponent = exact.state_policy(m, solved.solution.policy)
    versus = exact.evaluate_policies(rules, exact.table_policy(m, solved.table), opponent)
    assert versus.first <= solved.first + TOL
    assert versus.second <= solved.second + TOL
    # ...and the projection is a reasonable strategy: it gives up a few points at most.
    assert versus.average > 0.45


def test_visible_state_rules_solve_to_the_table_itself():
    rules = get_rules("hog-su20", 30, feral_hogs=False)
    solved = sv.solve_rules(rules)
    assert solved.exact_state
    assert np.array_equal(solved.table, solved.solution.policy)


# ---------------------------------------------------------------------------------------------
# Analysis
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, options, goal, strategy, against",
    [
        ("hog-su21", {}, 100, "always_roll:6", None),
        ("hog-su21", {}, 100, "more_boar_strategy", "always_roll:6"),
        ("hog-su20", {}, 40, "swap_strategy", "always_roll:4"),
        ("hog-contest", {}, 40, "pork_chop_strategy", None),
        ("pig", {}, 25, "hold_at:20", "hold_at:10"),
    ],
)
def test_losses_add_up_to_the_drop_from_the_best_response(name, options, goal, strategy, against):
    """Sum over states of (chance A is there) x (what its choice gives up there) is exactly the
    best response's average win rate minus A's (the performance-difference identity)."""
    rules = get_rules(name, goal, **options)
    result = sv.analyze(rules, strategy, against)
    assert result.by_identity == pytest.approx(result.total, abs=1e-10)
    assert result.total >= -TOL
    assert (result.loss >= 0).all()
    worst = sv.worst_states(result, 5)
    assert worst == sorted(worst, key=lambda w: -w.expected)
    assert all(w.reach > 0 for w in sv.worst_states(result, 5, by="loss"))


def test_the_optimal_strategy_gives_up_nothing():
    rules = get_rules("hog-su21", 50)
    solved = sv.solve_rules(rules)
    entrant = load_entrant("always_roll:6", rules)
    entrant.table = type(entrant.table)(rules.name, rules.goal, solved.table)
    result = sv.analyze(rules, entrant)
    assert result.total == pytest.approx(0.0, abs=TOL)
    assert result.loss.max() < 1e-9


# ---------------------------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------------------------


def test_views_of_two_and_three_argument_tables():
    su21 = get_rules("hog-su21")
    table = load_entrant("always_roll:6", su21).table.choices
    view = plots.table_view(su21, table)
    assert view.kind == "choice" and view.grid.shape == (100, 100)
    pig = get_rules("pig", 30)
    hold = load_entrant("hold_at:20", pig).table.choices
    view = plots.table_view(pig, hold)
    assert view.kind == "boundary" and view.grid[0, 0] == 20  # hold at a turn total of 20
    greed = get_rules("greed")
    table = load_entrant(greed.baseline, greed).table.choices
    assert plots.table_view(greed, table, 1).grid.shape == (101, 101)


# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------


def test_solve_command(tmp_path):
    out = tmp_path / "best.py"
    run = hogbench("solve", "--rules", "hog-su21", "--export", str(out), "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["sees_whole_state"] is True
    assert data["first_mover_wins"] == pytest.approx(0.5230744513, abs=1e-10)
    assert data["strategy_vs_baseline"]["name"] == "always_roll:6"
    duel = hogbench("duel", str(out), "always_roll:6", "--exact", "--json")
    assert duel.returncode == 0, duel.stderr
    seats = json.loads(duel.stdout)
    assert seats["first"]["win_rate"] == pytest.approx(
        data["strategy_vs_baseline"]["first"], abs=TOL
    )


def test_solve_command_says_what_it_computed_with_hidden_state():
    run = hogbench("solve", "--rules", "hog-su20", "--goal", "30")
    assert run.returncode == 0, run.stderr
    text = " ".join(run.stdout.split())
    assert "previous turn" in text and "upper bound" in text and "sees only its arguments" in text


def test_solve_against_an_unknown_strategy_is_one_line():
    run = hogbench("solve", "--against", "no_such_strategy")
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0 and "no_such_strategy" in run.stderr


def test_analyze_command(tmp_path):
    png = tmp_path / "loss.png"
    run = hogbench("analyze", "always_roll:6", "--png", str(png), "--json", "--top", "3")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["total_loss"] == pytest.approx(
        data["best_response_win_rate"] - data["win_rate"]["average"], abs=1e-12
    )
    assert len(data["worst_states"]) == 3
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = hogbench("analyze", "always_roll:6", "--top", "3")
    assert text.returncode == 0 and "gives up" in text.stdout


def test_show_command(tmp_path):
    png = tmp_path / "table.png"
    run = hogbench("show", "always_roll:6", "--png", str(png))
    assert run.returncode == 0, run.stderr
    assert "roll 6" in run.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(hogbench("show", "hold_at:20", "--rules", "pig", "--json").stdout)
    assert data["view"] == "boundary" and data["grid"][0][0] == 20


def test_export_to_a_missing_folder_is_one_line_before_the_work(tmp_path):
    run = hogbench("solve", "--goal", "20", "--export", str(tmp_path / "missing" / "x.py"))
    assert run.returncode == 2
    assert "does not exist" in run.stderr and run.stderr.strip().count("\n") == 0


def test_a_best_response_is_solved_once_per_distinct_table(monkeypatch, tmp_path):
    """Copies of one table share one solve, and a later report reads it from the cache; the
    figure is the solver's own."""
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path / "cache"))  # no other test's solves
    rules = get_rules("hog-su21", 30)
    entrants = [
        load_entrant(spec, rules) for spec in ("always_roll:4", "always_roll:4", "always_roll:6")
    ]
    solves = []
    real = exact.best_response

    def counted(rules, table, *args, **kwargs):
        solves.append(tuple(table[:3]))
        return real(rules, table, *args, **kwargs)

    monkeypatch.setattr(exact, "best_response", counted)
    monkeypatch.setattr(sv, "_BEST_RESPONSE_RATES", {})
    best, _ = sv.best_response_rates(rules, [*entrants, None], budget=60)
    assert len(solves) == 2 and best[0] == best[1] and np.isnan(best[3])
    solved = exact.solve(rules, entrants[2].table.choices)
    assert best[2] == pytest.approx((solved.first + solved.second) / 2, abs=1e-15)
    monkeypatch.setattr(sv, "_BEST_RESPONSE_RATES", {})  # a new process: the cache answers
    told = []

    class Progress:  # the phase is named on the progress display
        def start(self, label, total):
            told.append((label, total))

        def advance(self, n):
            told.append(n)

        def stop(self):
            told.append("stop")

    again, _ = sv.best_response_rates(rules, entrants, budget=60, progress=Progress())
    assert len(solves) == 2 and (again == best[:3]).all()
    assert told == [("best responses (for regret)", 3), 1, 1, 1, "stop"]
