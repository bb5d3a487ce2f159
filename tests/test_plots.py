"""Pictures read at once, and the install without them: orientation, labels, the plots extra,
and imports that only Linux has."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hogbench import plots
from hogbench.loading import load_entrant
from hogbench.rules import get_rules

ROOT = Path(__file__).resolve().parent.parent


def run_without(modules: list[str], code: str) -> subprocess.CompletedProcess:
    """CODE in a fresh Python in which MODULES cannot be imported (as on a system without)."""
    block = f"import sys\nfor m in {modules!r}:\n    sys.modules[m] = None\n"
    return subprocess.run(
        [sys.executable, "-c", block + code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def test_turbo_without_matplotlib_is_matplotlibs_turbo():
    """The terminal's colours need no matplotlib; over the range the pictures use they are its
    turbo map within a tenth of a level's range (the PNG uses these very colours)."""
    matplotlib = pytest.importorskip("matplotlib")
    for x in np.linspace(0.08, 0.92, 43):
        ours = plots.turbo(float(x))
        r, g, b = (int(ours[k : k + 2], 16) for k in (1, 3, 5))
        theirs = [round(255 * c) for c in matplotlib.colormaps["turbo"](float(x))[:3]]
        assert max(abs(u - v) for u, v in zip((r, g, b), theirs, strict=True)) <= 24, x


def test_greed_colour_bar_lists_few_labels():
    choices = list(range(0, 51))  # Greed: pass, then 1 to 50 dice
    ticks = plots._bar_ticks(choices)
    assert len(ticks) <= plots.MAX_BAR_LABELS and ticks[0] == 0 and ticks[-1] == 50
    assert ticks == sorted(set(ticks))
    assert plots._bar_ticks([1, 2, 3]) == [1, 2, 3]


def test_long_titles_are_wrapped():
    title = "keep_pace_end_race · pig:goal=100:piglet=False: the turn_total at which it holds"
    lines = plots.wrapped(title).split("\n")
    assert len(lines) > 1 and all(len(line) <= plots.TITLE_WIDTH for line in lines)
    assert " ".join(lines) == title


def test_score_zero_is_at_the_top_left_in_the_png_as_in_the_grid(tmp_path):
    """A table that rolls 10 at own score 0 and 1 elsewhere: the row of 10s is the first line
    of the terminal grid and the top of the PNG's heatmap."""
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    rules = get_rules("hog-su21")
    table = load_entrant("always_roll:1", rules).table.choices.copy()
    grid = table.reshape(rules.obs_shape)
    grid[0, :] = 10
    view = plots.table_view(rules, grid.ravel())
    from rich.console import Console

    console = Console(record=True, width=200, color_system=None)
    console.print(plots.terminal_grid(rules, view))
    lines = console.export_text().splitlines()
    rows = [line for line in lines if line[:4].strip().isdigit()]
    assert rows[0].startswith("   0 ") and rows[0][5:15] == "A" * 10  # 10 dice: "A"
    assert "tens digit" in lines[0]  # the column labels are explained
    path = plots.decision_png(rules, view, tmp_path / "t.png", "orientation")
    image = plt.imread(path)[:, : int(0.7 * plt.imread(path).shape[1]), :3]
    ten = np.array([int(plots._colour(rules, 10)[k : k + 2], 16) / 255 for k in (1, 3, 5)])
    one = np.array([int(plots._colour(rules, 1)[k : k + 2], 16) / 255 for k in (1, 3, 5)])
    y_ten = np.nonzero(np.abs(image - ten).max(axis=2) < 0.02)[0]
    y_one = np.nonzero(np.abs(image - one).max(axis=2) < 0.02)[0]
    assert len(y_ten) and len(y_one) and y_ten.mean() < y_one.min()


def test_png_without_matplotlib_is_one_line_before_the_work(tmp_path):
    png = tmp_path / "x.png"
    for args in (["show", "always_roll:4"], ["analyze", "always_roll:6"]):
        done = run_without(
            ["matplotlib"],
            "from hogbench.cli import main\n"
            f"sys.argv = ['hogbench', *{args!r}, '--png', {str(png)!r}]\nmain()",
        )
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and done.stderr.strip().count("\n") == 0
        assert "matplotlib" in done.stderr and "pip install" in done.stderr
        assert not png.exists()
    # The message names the extra (the command line prints it once its markup is escaped).
    said = run_without(
        ["matplotlib"],
        "from hogbench import plots\ntry:\n    plots.require()\nexcept Exception as e:\n    print(e)",
    )
    assert said.stdout.strip().endswith("pip install 'hogbench[plots]'"), said.stdout


def test_commands_without_matplotlib_still_work():
    done = run_without(
        ["matplotlib"],
        "from hogbench.cli import main\nsys.argv = ['hogbench', 'show', 'always_roll:4']\nmain()",
    )
    assert done.returncode == 0, done.stderr
    assert "roll 4" in done.stdout


def test_hogbench_imports_where_linux_only_modules_are_missing():
    """macOS has no prctl and Windows no resource or fcntl: importing must not need them."""
    done = run_without(
        ["resource", "fcntl", "termios"],
        "import hogbench, hogbench.cli, hogbench.sandbox.worker, hogbench.report\n"
        "import hogbench.tournament, hogbench.processes\n"
        "hogbench.sandbox.worker._set_limits(1 << 30, 5)\nprint('ok')",
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_the_plots_extra_holds_matplotlib_and_the_test_extra_pulls_it():
    tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not any(d.startswith("matplotlib") for d in project["dependencies"])
    extras = project["optional-dependencies"]
    assert any(d.startswith("matplotlib") for d in extras["plots"])
    assert any(d.startswith("matplotlib") for d in extras["test"])
