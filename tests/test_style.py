"""ruff lint and format run with the tests, so CI checks the style too; and the quick run's
marker is declared."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]])
def test_ruff(command):
    ruff = shutil.which("ruff")
    assert ruff, "ruff is a test dependency: pip install '.[test]'"
    proc = subprocess.run(
        [ruff, *command, "hogbench", "tests", "bench"], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_quick_run_leaves_out_only_declared_slow_tests():
    """``pytest -m "not slow"`` is the quick run: the marker is declared and markers are strict
    (a misspelt one is an error, not a test that runs where it should not), while the README's
    test command and CI run plain ``pytest``, every test."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib

    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    options = options["ini_options"]
    assert any(m.startswith("slow:") for m in options["markers"])
    assert "--strict-markers" in options["addopts"].split()
    readme = (ROOT / "README.md").read_text()
    assert "pip install '.[test]' && pytest\n" in readme
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pytest" in ci and "slow" not in ci
