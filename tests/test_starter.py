"""`hogbench new`: a starter file for every rule set that passes `check` under that rule set."""

from __future__ import annotations

import ast
import json

import pytest
from typer.testing import CliRunner

from hogbench.cli import app
from hogbench.rules import get_rules, names

runner = CliRunner()


@pytest.mark.parametrize("name", names())
def test_the_starter_file_of_every_rule_set_checks_valid(name, tmp_path):
    path = tmp_path / "my_strategy.py"
    made = runner.invoke(app, ["new", "--rules", name, str(path), "--json"])
    assert made.exit_code == 0, made.output
    rules = get_rules(name)
    assert json.loads(made.stdout)["function"] == rules.strategy_names[0]
    tree = ast.parse(path.read_text())
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert [f.name for f in functions] == [rules.strategy_names[0]]
    assert tuple(a.arg for a in functions[0].args.args) == rules.strategy_args
    checked = runner.invoke(app, ["check", str(path), "--rules", name, "--goal", "30", "--json"])
    assert checked.exit_code == 0, checked.output
    assert json.loads(checked.stdout)["valid"] is True


def test_the_contest_starter_is_the_blank_template_with_a_team_name(tmp_path):
    path = tmp_path / "hog_contest.py"
    assert runner.invoke(app, ["new", "--rules", "hog-contest", str(path)]).exit_code == 0
    source = path.read_text()
    assert 'TEAM_NAME = "Team Name Here"  # Change this line!' in source
    assert "def final_strategy(score, opponent_score):" in source


def test_new_never_overwrites_without_force(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text("# my work\n")
    refused = runner.invoke(app, ["new", str(path)])
    assert refused.exit_code == 2 and "exists" in refused.output
    assert path.read_text() == "# my work\n"
    assert runner.invoke(app, ["new", str(path), "--force"]).exit_code == 0
    assert "def final_strategy" in path.read_text()
    not_python = runner.invoke(app, ["new", str(tmp_path / "notes.txt")])
    assert not_python.exit_code == 2 and "ends in .py" in not_python.output
