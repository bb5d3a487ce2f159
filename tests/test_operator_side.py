"""The operator's side of a class tournament, tried as an attacker and as a careless operator
would: output, store and cache paths, the cache's seals and special files, leftovers of a
killed run, host paths in messages, Ctrl-C."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hogbench.cli import app

ROOT = Path(__file__).parent.parent
GOOD = (ROOT / "tests" / "files" / "good_su21.py").read_text()
runner = CliRunner()


@pytest.fixture
def classroom(tmp_path, monkeypatch):
    """A class folder of two students' folders, the working directory its parent."""
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    for student in ("alice", "bob"):
        (tmp_path / "subs" / student).mkdir(parents=True)
        (tmp_path / "subs" / student / "hog.py").write_text(GOOD)
    return tmp_path


def one_line_error(result, *words: str) -> str:
    assert result.exit_code == 2, result.output
    assert (
        "Traceback" not in result.output
        and result.exception is None
        or isinstance(result.exception, SystemExit)
    ), result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize(
    "args, env",
    [
        (["--out", "subs/alice/out"], {}),
        (["--store", "subs/alice/store.sqlite"], {}),
        (["--out", "out"], {"HOGBENCH_CACHE": "subs/bob/.cache"}),
    ],
)
def test_paths_a_worker_would_see_are_refused_before_any_work(classroom, monkeypatch, args, env):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = runner.invoke(app, ["tournament", "subs", *args])
    one_line_error(result, "inside the submission folder", "outside the submissions")
    assert not list((classroom / "subs").rglob("*.sqlite"))  # nothing was played or stored
    assert not (classroom / "subs" / "alice" / "out").exists()


def test_an_impossible_output_folder_is_one_line(classroom):
    one_line_error(runner.invoke(app, ["tournament", "subs", "--out", "/sys/kernel/x"]), "--out")
    one_line_error(runner.invoke(app, ["tournament", "subs", "--out", "/proc/nope/x"]), "--out")


def test_an_impossible_store_in_a_tournament_file_is_one_line(classroom):
    (classroom / "t.toml").write_text(
        'name = "t"\nrules = "hog-su21"\nentrants = ["subs"]\nstore = "/proc/nope/x.sqlite"\n'
    )
    one_line_error(runner.invoke(app, ["tournament", "t.toml"]), "/proc/nope")
