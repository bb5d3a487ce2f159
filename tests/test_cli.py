"""The command line: real runs through CliRunner, every bad input, and one real subprocess."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from hogbench.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_duel_json_has_the_promised_fields():
    result = run("duel", "always_roll:6", "always_roll:4", "-n", 2000, "--seed", 1, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in (
        "rules",
        "options",
        "a",
        "b",
        "games",
        "wins",
        "losses",
        "ties",
        "win_rate",
        "ci_low",
        "ci_high",
        "seed",
        "exact",
        "first",
        "second",
    ):
        assert key in data
    assert data["games"] == 2000 and data["exact"] is False and data["seed"] == 1
    assert data["wins"] + data["losses"] + data["ties"] == 2000
    assert data["first"]["games"] == data["second"]["games"] == 1000
    assert data["ci_low"] < data["win_rate"] < data["ci_high"]


def test_duel_table_shows_seats_and_seed(files):
    result = run("duel", files / "good_su21.py", "always_roll:6", "-n", 1000, "--seed", 42)
    assert result.exit_code == 0, result.output
    assert "Test Team" in result.stdout
    assert "A first" in result.stdout and "A second" in result.stdout and "seed 42" in result.stdout


def test_duel_exact_matches_plain_recursion():
    from tests.reference import su21_win_probability

    result = run("duel", "always_roll:5", "always_roll:3", "--goal", 30, "--exact", "--json")
    data = json.loads(result.stdout)
    first = su21_win_probability(lambda s, o: 5, lambda s, o: 3, 30)
    second = 1 - su21_win_probability(lambda s, o: 3, lambda s, o: 5, 30)
    assert data["exact"] is True
    assert data["first"]["win_rate"] == pytest.approx(first, abs=1e-12)
    assert data["second"]["win_rate"] == pytest.approx(second, abs=1e-12)
    assert data["win_rate"] == pytest.approx((first + second) / 2, abs=1e-12)


def test_randomised_strategy_plays_live_and_is_refused_exactly(files):
    result = run("duel", files / "randomised.py", "always_roll:6", "-n", 400, "--seed", 2)
    assert result.exit_code == 0, result.output
    assert "played live" in result.stdout
    result = run("duel", files / "randomised.py", "always_roll:6", "--exact")
    assert result.exit_code == 1
    assert "not a decision table" in result.stderr


def test_sibling_import_loads(files):
    result = run("duel", files / "sibling" / "contest.py", "always_roll:6", "--exact")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["duel", "always_roll:6", "--rules", "hog-nope"], 2, "'hog-nope' is not one of 'big-pig'"),
        (["duel", "always_roll:6", "--option", "colour=red"], 2, "unknown option 'colour'"),
        (
            ["duel", "always_roll:6", "--option", "feral_hogs", "--rules", "hog-su20"],
            2,
            "name=value",
        ),
        (["duel", "missing.py"], 2, "no such strategy file: missing.py"),
        # typer words a value out of range differently from version to version ("0 is not in
        # the range 1<=x<=...", "greater than or equal to 1"): the option is what is checked.
        (["duel", "always_roll:6", "-n", "0"], 2, "Invalid value for '-n' / '--games'"),
        (["duel", "always_roll:6", "-n", "-5"], 2, "Invalid value for '-n' / '--games'"),
        (["duel", "always_roll:6", "--seed", "-1"], 2, "Invalid value for '--seed'"),
        (["duel", "always_roll:6", "-n", "10000000000"], 2, "Invalid value for '-n' / '--games'"),
        (["duel", "always_roll:11"], 2, "always_roll takes 0 to 10 dice"),
        (["duel", "no_such_builtin"], 2, "unknown strategy 'no_such_builtin'"),
        (["duel", "always_roll:6", "--jobs", "0"], 2, "--jobs must be at least 1"),
        (["experiment", "max-scoring-num-rolls", "--dice", "seven"], 2, "not one of 'six', 'four'"),
        (["tournament", "always_roll:6", "always_roll:4", "--mode", "x"], 2, "'exact', 'mc'"),
        (["tournament", "always_roll:6", "always_roll:4", "--batch-size", "-3"], 2, "at least 1"),
        (["tournament", "nosuch_dir"], 2, "nosuch_dir: no such tournament file or folder"),
        (["check", "strategies/hog_su21/final.py", "--goal", "20000"], 2, "at most 1000"),
        (["duel", "hold_at:20", "--rules", "pig", "--goal", "151"], 2, "at most 150 for pig"),
        (["show", "always_roll:4", "--slice", "1"], 2, "take no third argument"),
        (["show", "sample1", "--rules", "greed", "--slice", "5"], 2, "--slice must be 0 to 1"),
        (["experiment", "sweep", "piggypoints_strategy", "--param", "cutof"], 2, "it takes cutoff"),
        (["duel", "always_roll:6", "-o", "x=1"], 2, "No such option: -o"),
        (["show", "always_roll:4", "--png", "/nonexist/x.png"], 2, "folder /nonexist does not"),
        (["analyze", "always_roll:4", "--png", "/nonexist/a.png"], 2, "folder /nonexist does not"),
        (["solve", "--export", "/nonexist/x.py"], 2, "folder /nonexist does not exist"),
        (["show", "always_roll:4", "--png", "tests"], 2, "--png tests is a folder"),
    ],
)
def test_usage_errors(args, code, words):
    result = run(*args)
    assert result.exit_code == code, result.output
    assert words in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("syntax_error.py", "syntax error at line 1"),
        ("no_strategy.py", "no strategy function"),
        ("ambiguous.py", "ambiguous strategy"),
        ("illegal_value.py", "(42, 7)"),
    ],
)
def test_bad_strategy_files(files, name, words):
    result = run("duel", files / name, "always_roll:6", "-n", 100)
    assert result.exit_code == 1, result.output
    assert words in result.stderr
    assert name in result.stderr
    assert "Traceback" not in result.output


def test_illegal_value_names_state_and_value(files):
    result = run("duel", files / "illegal_value.py", "-n", 100)
    assert "11" in result.stderr and "(42, 7)" in result.stderr


def test_rules_lists_every_rule_set_with_options():
    result = run("rules", "--json")
    data = {r["name"]: r for r in json.loads(result.stdout)}
    assert data["hog-su21"]["default"] is True
    assert "Sow Sad" in data["hog-su21"]["rules"]


def test_experiment_max_scoring_num_rolls_json():
    result = run("experiment", "max-scoring-num-rolls", "-n", 300, "--seed", 1, "--json")
    data = json.loads(result.stdout)
    assert 1 <= data["max_scoring_num_rolls"] <= 10
    exact = {r["num_rolls"]: r["exact"] for r in data["rows"]}
    assert exact[1] == pytest.approx(3.5)
    # two dice: 1 with prob 11/36, else the sum of two dice from 2..6: mean 6 over 25 outcomes
    assert exact[2] == pytest.approx(11 / 36 + 25 / 36 * 8)


def test_experiment_win_rate_exact():
    result = run(
        "experiment",
        "win-rate",
        "always_roll:6",
        "--baseline",
        "always_roll:6",
        "--exact",
        "--json",
    )
    assert json.loads(result.stdout)["average_win_rate"] == pytest.approx(0.5, abs=1e-12)


def test_help_in_a_real_subprocess():
    proc = subprocess.run(
        [sys.executable, "-m", "hogbench", "--help"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0
    assert "duel" in proc.stdout and "experiment" in proc.stdout


def test_experiment_sweep_matches_plain_recursion(tmp_path):
    from hogbench.rules.hog_su21 import more_boar_strategy
    from tests.reference import su21_win_probability

    png = tmp_path / "sweep.png"
    result = run(
        "experiment",
        "sweep",
        "more_boar_strategy:num_rolls=5",
        "--from",
        7,
        "--to",
        8,
        "--goal",
        40,
        "--png",
        png,
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert png.stat().st_size > 1000
    for point in data["points"]:

        def strategy(s, o, cutoff=point["value"]):
            return more_boar_strategy(s, o, cutoff, 5)

        first = su21_win_probability(strategy, lambda s, o: 6, 40)
        second = 1 - su21_win_probability(lambda s, o: 6, strategy, 40)
        assert point["win_rate"] == pytest.approx((first + second) / 2, abs=1e-12)


def test_version_and_shell_completion():
    from importlib.metadata import version

    shown = run("--version")
    assert shown.exit_code == 0 and shown.stdout.strip() == f"hogbench {version('hogbench')}"
    script = run("--show-completion", "bash")
    assert script.exit_code == 0 and "complete" in script.stdout


def test_progress_says_time_left_and_what_is_slow():
    import io

    from rich.console import Console

    from hogbench.views import PairProgress

    buffer = io.StringIO()
    progress = PairProgress(Console(file=buffer, force_terminal=True, width=200))
    progress.start("pairs", 10)
    progress.advance(4)
    progress.note("slowest pair: [/] vs Bob, 3.1 s")
    progress.progress.refresh()
    progress.stop()
    text = buffer.getvalue()
    assert "left" in text and "4/10" in text and "slowest pair: [/] vs Bob, 3.1 s" in text


def test_best_responses_are_solved_only_for_a_view_that_shows_regret(tmp_path, monkeypatch):
    """The terminal's tables have no regret: a tournament shown there solves no best response;
    its JSON does, and says the regret."""
    from hogbench import solve

    solved = []
    real = solve.best_response_rate

    def counted(*args, **kwargs):
        solved.append(kwargs.get("solve", True))
        return real(*args, **kwargs)

    monkeypatch.setattr(solve, "best_response_rate", counted)
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path / "cache"))  # no other run's solves
    monkeypatch.setattr(solve, "_BEST_RESPONSE_RATES", {})
    specs = ["always_roll:6", "always_roll:4", "always_roll:5"]
    common = ["--goal", 30, "--store", tmp_path / "t.sqlite"]
    shown = run("tournament", *specs, *common)
    assert shown.exit_code == 0, shown.output
    assert solved == []
    (tmp_path / "t.sqlite").unlink()
    as_json = run("tournament", *specs, *common, "--json", "--jobs", 1)  # solved here, seen
    assert as_json.exit_code == 0, as_json.output
    assert solved.count(True) == 3  # each table solved once, after the cache was asked
    data = json.loads(as_json.stdout)
    assert "exact best response" in json.dumps(data)
