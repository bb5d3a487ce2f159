"""Text from outside is never markup: TEAM_NAMEs, file names, exception messages and specs print
exactly as written on every command, and none of them can crash the output."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from hogbench.cli import app

SLASH = 'TEAM_NAME = "[/]"\ndef final_strategy(score, opponent_score):\n    return 4\n'
STYLED = (
    'TEAM_NAME = "[bold red]Winner[/bold red] [link=http://x.y]click[/link]"\n'
    "def final_strategy(score, opponent_score):\n    return 5\n"
)
RAISER = (
    "def final_strategy(score, opponent_score):\n"
    "    if score > 50:\n"
    '        raise ValueError("[/] boom")\n'
    "    return 4\n"
)


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path / "cache"))
    for name, text in (("slash.py", SLASH), ("styled.py", STYLED), ("raiser.py", RAISER)):
        (tmp_path / name).write_text(text)
    (tmp_path / "[red]x.py").write_text(SLASH)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str, code: int = 0, stdin: str = "") -> str:
    result = CliRunner().invoke(app, list(args), input=stdin)
    assert (
        "Traceback" not in result.output
        and result.exception is None
        or isinstance(result.exception, SystemExit)
    ), result.output
    assert result.exit_code == code, result.output
    return result.output


@pytest.mark.parametrize(
    "args",
    [
        ["duel", "slash.py", "always_roll:6", "-n", "1000", "--seed", "1"],
        ["duel", "slash.py", "always_roll:6", "--exact"],
        ["watch", "slash.py", "always_roll:6", "--seed", "1"],
        ["show", "slash.py"],
        ["analyze", "slash.py"],
        ["solve", "--against", "slash.py"],
        ["experiment", "win-rate", "slash.py", "-n", "1000", "--seed", "1"],
        ["gauntlet", "slash.py", "always_roll:6", "always_roll:4"],
        ["tournament", "slash.py", "always_roll:6"],
    ],
)
def test_a_team_name_that_is_a_closing_tag_prints_as_written(files, args):
    assert "[/]" in run(*args)


def test_a_styled_team_name_is_neither_styled_nor_a_link(files):
    shown = run("duel", "styled.py", "always_roll:6", "--exact")
    assert "[bold red]Winner[/bold red] [link=" in shown


@pytest.mark.parametrize("command", ["duel", "watch"])
def test_an_exception_message_with_markup_prints_as_written(files, command):
    shown = run(command, "raiser.py", "always_roll:6", code=1)
    assert "raised ValueError: [/] boom" in shown


def test_file_names_and_specs_print_as_written(files):
    assert "no such strategy file: [/]nosuch.py" in run("check", "[/]nosuch.py", code=2)
    assert "[red]x.py" in run("check", "[red]x.py")
    assert "always_roll:x" in run("duel", "always_roll:x", "always_roll:6", code=2)


def test_hogbenchs_own_brackets_survive(files):
    shown = run("play", "--seed", "1", stdin="maybe\n")
    assert "[y/n]" in shown


def test_a_team_name_is_cleaned_and_cut_on_every_command(files):
    """As in the tournament: control characters become spaces, and at most 40 characters."""
    (files / "long.py").write_text(
        'TEAM_NAME = "Bad\\x1b[2J' + "x" * 100 + '"\n'
        "def final_strategy(score, opponent_score):\n    return 4\n"
    )
    shown = run("duel", "long.py", "always_roll:6", "--exact")
    assert "\x1b" not in shown and "[2J" in shown
    assert "x" * 32 + "…" in shown and "x" * 33 not in shown
