"""Every command met with odd input answers in one line with exit code 1 or 2: never a
traceback. (Names with markup, paths that are folders or missing, negative and huge numbers,
choices that do not exist.)"""

from __future__ import annotations

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
