"""Every command met with odd input answers in one line with exit code 1 or 2: never a
traceback. (Names with markup, paths that are folders or missing, negative and huge numbers,
choices that do not exist.)"""

from __future__ import annotations

import json
import shlex

import pytest
from typer.testing import CliRunner

from hogbench.cli import app

runner = CliRunner()

ODD = """
duel ok.py always_roll:6 -n 0
duel ok.py always_roll:6 --goal 0
duel ok.py always_roll:6 --goal abc
duel ok.py always_roll:99
duel ok.py always_roll:6 --option feral_hogs=maybe --rules hog-su20
duel ok.py always_roll:6 --option nonsense
duel ok.py always_roll:6 --rules hog-fa99
duel ok.py always_roll:6 --sprt 0.6,0.4
duel ok.py always_roll:6 --sprt a,b
duel ok.py always_roll:6 --jobs -3
duel folder.py always_roll:6
duel ok.py:nosuch always_roll:6
duel ok.py sus_strategy:threshold=x --rules hog-fa23
watch ok.py always_roll:6 --seed 99999999999999999999999
watch hold_at:-3 --rules pig
show ok.py --step 0
show ok.py --png missing/x.png
analyze ok.py --top -1
analyze ok.py --by nonsense
solve --rules hog-fa21 --export missing/x.py
solve --rules hog-fa21 --export folder.py
solve --rules hog-fa21 --against nosuch.py
check ok.py --time-limit -1
check ok.py --goal 5000
experiment max-scoring-num-rolls -n 0
experiment max-scoring-num-rolls --rules pig
experiment win-rate ok.py -n -1
experiment sweep sus_strategy --param nosuch --rules hog-fa23
experiment sweep sus_strategy --param threshold --from 5 --to 1 --rules hog-fa23
experiment sweep ok.py --param threshold
tournament nosuch.toml
tournament folder.py
tournament . --out ok.py
tournament . --batch-size 0
tournament . --threshold 2
gauntlet ok.py nosuchdir
play always_roll:6 --rules hog-fa21 --goal 0
""".strip().splitlines()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("odd")
    (root / "ok.py").write_text('TEAM_NAME = "[/]x"\ndef final_strategy(s, o):\n    return 4\n')
    (root / "folder.py").mkdir()
    return root


@pytest.mark.parametrize("command", ODD)
def test_odd_input_gets_one_line(command, folder, monkeypatch):
    monkeypatch.chdir(folder)
    result = runner.invoke(app, shlex.split(command))
    assert result.exit_code in (1, 2), result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", ODD)
def test_with_json_an_error_is_a_json_object_on_stdout_too(command, folder, monkeypatch):
    """A script that reads stdout learns what went wrong, and the person still sees a line."""
    monkeypatch.chdir(folder)
    result = runner.invoke(app, [*shlex.split(command), "--json"])
    assert result.exit_code in (1, 2), result.output
    document = json.loads(result.stdout)
    assert set(document) == {"error", "exit"}, document
    assert document["exit"] == result.exit_code and document["error"].strip()
    assert document["error"] in result.stderr and result.stderr.startswith("error: ")


@pytest.mark.parametrize(
    "args", [["--bogus", "rules", "--json"], ["nosuch", "--json"], ["cache", "nosuch", "--json"]]
)
def test_with_json_click_s_own_usage_errors_are_json_too(args):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert json.loads(result.stdout)["exit"] == 2


def test_without_json_an_error_prints_nothing_on_stdout(folder, monkeypatch):
    monkeypatch.chdir(folder)
    result = runner.invoke(app, ["duel", "folder.py", "always_roll:6"])
    assert result.exit_code == 2 and result.stdout == ""


#: Odd input -> what its message must name: the real problem, not a symptom of it.
NAMED = {
    "duel adir always_roll:6": "adir is a folder",
    "duel student always_roll:6": "give its strategy file, student/hog.py",
    "check adir": "adir is a folder",
    "duel /etc/passwd always_roll:6": "not a Python file",
    "check /etc/passwd": "not a Python file",
    "duel /dev/zero always_roll:6": "not a regular file",
    "check /dev/zero": "not a regular file",
    "duel ok.py always_roll:6 --sprt 0.6,0.5": "0 <= P0 < P1 <= 1",
    "duel ok.py always_roll:6 --sprt 0.5,0.52 --alpha 0": "--alpha is an error rate",
    "duel ok.py always_roll:6 --sprt 0.5,0.52 --beta 0.7": "--beta is an error rate",
    "duel ok.py always_roll:6 --sprt 0.5": "two win rates",
}


@pytest.mark.parametrize("command", NAMED)
def test_odd_input_messages_name_the_real_problem(command, folder, monkeypatch):
    (folder / "adir").mkdir(exist_ok=True)
    (folder / "student").mkdir(exist_ok=True)
    (folder / "student" / "hog.py").write_text("def final_strategy(s, o):\n    return 4\n")
    monkeypatch.chdir(folder)
    result = runner.invoke(app, shlex.split(command))
    assert result.exit_code == 2, result.output
    message = result.stderr
    assert NAMED[command] in message, message
    assert message.count("got") <= 1, message  # said once, about the value given
    assert "--sprt" not in message or "--sprt" in command and "--alpha" not in command


def test_a_tournament_file_may_say_no_sandbox(tmp_path):
    """The key the code reads is one the file may hold."""
    toml = tmp_path / "t.toml"
    toml.write_text('entrants = ["always_roll:4", "always_roll:6"]\nno_sandbox = true\n')
    from hogbench.tournament import from_toml

    assert from_toml(toml).no_sandbox is True


#: --alpha and --beta without an SPRT to set: one line naming the fix, never ignored.
ALPHA = {
    "duel ok.py always_roll:6 -n 100 --alpha 0.01": "add --sprt (e.g. --sprt 0.5,0.55) or drop --alpha",
    "duel ok.py always_roll:6 -n 100 --beta 0.01": "add --sprt (e.g. --sprt 0.5,0.55) or drop --beta",
    "gauntlet ok.py always_roll:6 --sprt 0.45,0.55 --alpha 0.01": "drop --alpha",
    "gauntlet ok.py always_roll:6 --beta 0.01": "drop --beta",
    "tournament ok.py always_roll:6 --sprt 0.45,0.55 --alpha 0.01": "drop --alpha",
    "tournament ok.py always_roll:6 --beta 0.01": "drop --beta",
    "tournament alpha.toml": "key 'alpha': a tournament's sprt tests at alpha = beta = 5%",
    "tournament beta.toml": "key 'beta': a tournament's sprt tests at alpha = beta = 5%",
}  # fmt: skip


@pytest.mark.parametrize("command", ALPHA)
@pytest.mark.parametrize("as_json", [False, True])
def test_alpha_without_an_sprt_it_sets_is_a_usage_error(command, as_json, folder, monkeypatch):
    """duel's --alpha and --beta change nothing without --sprt, and gauntlet and tournament
    (options or file keys) test at 5% fixed: each says so in one line, exit 2, JSON too."""
    for key in ("alpha", "beta"):
        (folder / f"{key}.toml").write_text(
            f'entrants = ["ok.py", "always_roll:6"]\nsprt = "0.45,0.55"\n{key} = 0.01\n'
        )
    monkeypatch.chdir(folder)
    result = runner.invoke(app, [*shlex.split(command), *(["--json"] if as_json else [])])
    assert result.exit_code == 2, result.output
    line = result.stderr.strip().splitlines()[-1]
    assert ALPHA[command] in line, result.stderr
    assert "No such option" not in result.stderr and "Possible options" not in result.stderr
    if as_json:
        doc = json.loads(result.stdout)
        assert doc["exit"] == 2 and ALPHA[command] in doc["error"]
    else:
        assert result.stdout == ""


def test_alpha_with_an_sprt_sets_the_duel_s_test(folder, monkeypatch):
    monkeypatch.chdir(folder)
    command = "duel ok.py always_roll:6 -n 2000 --sprt 0.45,0.55 --alpha 0.01 --json"
    result = runner.invoke(app, shlex.split(command))
    assert result.exit_code == 0, result.output
    test = json.loads(result.stdout)["sprt"]
    assert (test["alpha"], test["beta"]) == (0.01, 0.05)
