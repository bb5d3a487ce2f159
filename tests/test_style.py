"""ruff lint and format run with the tests, so CI checks the style too."""

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
