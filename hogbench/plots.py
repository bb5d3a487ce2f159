"""Pictures of decision tables and of where a strategy loses: terminal grids (Rich) and PNG
heatmaps (matplotlib, Agg backend, so no display is needed). matplotlib is an extra
(``pip install 'hogbench[plots]'``): the terminal grids do without it.

A decision table is shown as a 2-D grid: own score down, opponent score across, score 0 at the
top left in the terminal and in the PNG alike. Tables with a
third argument are reduced to two dimensions first: a small flag (Greed's ``last``) is shown one
value at a time, a count (Pig's turn total) as the boundary where the decision first changes,
for Pig the turn total at which the strategy holds.
"""

from __future__ import annotations

import math
import textwrap
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Group
from rich.table import Table
from rich.text import Text

from hogbench.errors import UsageError
from hogbench.names import shown, unparsed
from hogbench.rules.base import RuleSet

# Choices are coloured along one colour scale by their order (more dice: further along), with
# grey for choices below zero (Pork Chop).
_NEGATIVE = "#9a9a9a"
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: A colour bar lists at most this many choices (Greed has 51: every fifth is labelled).
MAX_BAR_LABELS = 12
#: Titles are wrapped at this many characters, so a long one is not cut at the figure's edges.
TITLE_WIDTH = 60
#: What to install for PNG output.
PLOTS_EXTRA = "pip install 'hogbench[plots]'"

# matplotlib's "turbo" colour map as Google's published polynomial fit (Anton Mikhailov, 2019),
# so that the terminal grid has the PNG's colours without matplotlib: (red, green, blue)
# coefficients of 1, x, ..., x^5.
_TURBO = (
    (0.13572138, 4.61539260, -42.66032258, 132.13108234, -152.94239396, 59.28637943),
    (0.09140261, 2.19418839, 4.84296658, -14.18503333, 4.27729857, 2.82956604),
    (0.10667330, 12.64194608, -60.58204836, 110.36276771, -89.90310912, 27.34824973),
)


@dataclass(frozen=True)
class View:
    """A decision table as a 2-D grid, with what its cells mean."""

    grid: np.ndarray  # [own score, opponent score]
    kind: str  # "choice": cells are choices; "boundary": cells are counts
    title: str
    x_label: str
    y_label: str
    legend: str = ""  # for "boundary": what the numbers are

    def to_dict(self) -> dict:
        return {
            "view": self.kind,
            "title": self.title,
            "rows": self.y_label,
            "columns": self.x_label,
            "grid": self.grid.tolist(),
        }


def table_view(rules: RuleSet, table: np.ndarray, slice_index: int = 0) -> View:
    """The 2-D view of a decision table (see the module docstring)."""
    shape = tuple(rules.obs_shape)
    args = rules.strategy_args
    cube = np.asarray(table).reshape(shape)
    if len(shape) == 2:
        return View(cube, "choice", "decisions", args[1], args[0])
    if len(shape) != 3:
        raise ValueError(f"{rules.name}: cannot draw a table of {len(shape)} dimensions")
    if shape[2] <= 2:
        index = min(max(slice_index, 0), shape[2] - 1)
        value = bool(index) if shape[2] == 2 else index
        return View(
            cube[:, :, index], "choice", f"decisions at {args[2]}={value}", args[1], args[0]
        )
    # The first value of the third argument at which the decision differs from its value at 1
    # (at 0 a Pig turn has not started: the roll is forced, so that column says nothing).
    changed = cube[:, :, 1:] != cube[:, :, 1:2]
    first = np.where(changed.any(axis=2), changed.argmax(axis=2) + 1, shape[2])
    after = cube[:, :, 1:][changed.any(axis=2)]
    switched = np.take_along_axis(cube, np.minimum(first, shape[2] - 1)[:, :, None], 2)[:, :, 0]
    switched = switched[first < shape[2]]
    to = "change"
    if len(after):
        values, counts = np.unique(switched, return_counts=True)
        to = rules.describe_choice(int(values[counts.argmax()]))
    legend = f"the smallest {args[2]} at which it chooses to {to} ({shape[2]}: never)"
    return View(
        first, "boundary", f"the {args[2]} at which it chooses to {to}", args[1], args[0], legend
    )


def _symbol(choice: int) -> str:
    if choice < 0:
        return "-"
    return _DIGITS[choice] if choice < len(_DIGITS) else "+"


def turbo(x: float) -> str:
    """The turbo colour at X in [0, 1] as #rrggbb (within about 20 of 255 levels of
    matplotlib's between 0.08 and 0.92, the range the pictures use)."""
    x = min(max(x, 0.0), 1.0)
    powers = [x**k for k in range(6)]
    levels = (
        min(max(sum(c * p for c, p in zip(cs, powers, strict=True)), 0.0), 1.0) for cs in _TURBO
    )
    return "#" + "".join(f"{round(255 * v):02x}" for v in levels)


def _colour(rules: RuleSet, choice: int) -> str:
    if choice < 0:
        return _NEGATIVE
    top = max(int(rules.model.choices[-1]), 1)
    return turbo(0.08 + 0.84 * choice / top)


def _text_colour(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "white"


def terminal_grid(rules: RuleSet, view: View, step: int = 1) -> Group:
    """The view as coloured cells, one character each: rows own score, columns opponent score.
    STEP > 1 shows every STEP-th row and column."""
    grid = view.grid[::step, ::step]
    rows, cols = grid.shape
    text = Text()
    every = f", every {step}" if step > 1 else ""
    text.append(
        f"{view.y_label} ↓ (row labels)  {view.x_label} → (column labels: the tens digit, 3 = 30)"
        f"{every}; 0 at the top left, as in the PNG\n"
    )
    header = "".join(
        str((j * step // 10) % 10) if (j * step) % 10 == 0 else " " for j in range(cols)
    )
    text.append(" " * 5 + header + "\n", style="dim")
    top = max(int(view.grid.max()), 1)
    for i in range(rows):
        text.append(f"{i * step:>4} ", style="dim")
        for j in range(cols):
            value = int(grid[i, j])
            if view.kind == "choice":
                colour = _colour(rules, value)
                text.append(_symbol(value), style=f"{_text_colour(colour)} on {colour}")
            else:
                shade = 232 + round(23 * min(value, top) / top)
                text.append(
                    _DIGITS[min(value // 10, 35)],
                    style=f"{'black' if shade > 243 else 'white'} on color({shade})",
                )
        text.append("\n")
    return Group(text, _legend(rules, view))


def _legend(rules: RuleSet, view: View):
    if view.kind == "boundary":
        return Text(f"cells: {view.legend}, in tens (3 = 30-39), darker = smaller")
    used = np.unique(view.grid)
    legend = Table.grid(padding=(0, 1))
    cells = []
    for choice in used:
        colour = _colour(rules, int(choice))
        cell = Text(f" {_symbol(int(choice))} ", style=f"{_text_colour(colour)} on {colour}")
        cell.append(f" {rules.describe_choice(int(choice))}", style="default")
        cells.append(cell)
    for k in range(0, len(cells), 4):
        legend.add_row(*cells[k : k + 4])
    return legend


def available() -> bool:
    """Whether matplotlib is installed (the ``plots`` extra)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def require(option: str = "--png") -> None:
    """Fail at once, in one line, when OPTION asks for a PNG and matplotlib is missing: before
    the work, not after it."""
    if not available():
        raise UsageError(f"{option} needs matplotlib, which is not installed: {PLOTS_EXTRA}")


def pyplot(option: str = "--png") -> Any:
    """matplotlib.pyplot on the Agg backend, or a one-line UsageError saying how to get it."""
    try:
        import matplotlib
    except ImportError:
        raise UsageError(
            f"{option} needs matplotlib, which is not installed: {PLOTS_EXTRA}"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # A team name in a script the font lacks (a fullwidth ＝, say) is drawn with empty boxes,
    # and its full name is in results.json and the CSVs: the warning per glyph is noise.
    warnings.filterwarnings(
        "ignore", message=r"Glyph \d+ .* missing from font", category=UserWarning
    )
    return plt


def wrapped(title: str, width: int = TITLE_WIDTH) -> str:
    """TITLE on lines of at most WIDTH characters (a long title would run off the figure)."""
    title = shown(title)
    return "\n".join(textwrap.wrap(title, width)) or title


def _bar_ticks(choices: list[int]) -> list[int]:
    """At most MAX_BAR_LABELS of CHOICES, evenly spaced, the first and the last among them."""
    if len(choices) <= MAX_BAR_LABELS:
        return choices
    step = math.ceil(len(choices) / (MAX_BAR_LABELS - 1))
    ticks = choices[::step]
    if ticks[-1] != choices[-1]:
        if choices.index(choices[-1]) - choices.index(ticks[-1]) < step / 2:
            ticks = ticks[:-1]
        ticks.append(choices[-1])
    return ticks


def _scores_axes(ax: Any, x_label: str, y_label: str) -> None:
    """Score 0 at the top left, as in the terminal grid: own score down, opponent score across
    (its labels on top, where the grid has them)."""
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xlabel(f"{x_label} →")
    ax.set_ylabel(f"← {y_label}")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(MaxNLocator(nbins=10, steps=[1, 2, 5, 10], integer=True))


def decision_png(rules: RuleSet, view: View, path: str | Path, title: str) -> Path:
    """The view as a heatmap with a colour legend (number of dice, or the boundary's values)."""
    from matplotlib.colors import BoundaryNorm, ListedColormap

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 7), dpi=120)
    if view.kind == "choice":
        choices = [int(c) for c in rules.model.choices]
        cmap = ListedColormap([_colour(rules, c) for c in choices])
        bounds = np.arange(choices[0] - 0.5, choices[-1] + 1.5)
        image = ax.imshow(
            view.grid,
            origin="upper",
            cmap=cmap,
            norm=BoundaryNorm(bounds, cmap.N),
            interpolation="nearest",
        )
        ticks = _bar_ticks(choices)
        bar = fig.colorbar(image, ax=ax, ticks=ticks, fraction=0.046, pad=0.04)
        bar.ax.set_yticklabels([rules.describe_choice(c) for c in ticks])
        bar.minorticks_off()
    else:
        image = ax.imshow(view.grid, origin="upper", cmap="viridis", interpolation="nearest")
        bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
        bar.set_label(wrapped(view.legend, 50))
    _scores_axes(ax, view.x_label, view.y_label)
    fig.suptitle(wrapped(title))
    unparsed(fig).tight_layout()  # before any layout: no text is read as math
    fig.savefig(path)
    plt.close(fig)
    return Path(path)


def loss_png(
    rules: RuleSet, expected: np.ndarray, largest: np.ndarray, path: str | Path, title: str
) -> Path:
    """Two heatmaps over (own score, opponent score): the expected loss of win probability
    (chance of getting there times the loss there), and the loss if there."""
    plt = pyplot()
    args = rules.strategy_args
    while expected.ndim > 2:  # a third argument: sum the expected loss, keep the largest loss
        expected = expected.sum(axis=2)
        largest = largest.max(axis=2)
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.5), dpi=120)
    from matplotlib.colors import PowerNorm

    for ax, grid, label in (
        (axes[0], expected, "expected loss (reach × loss), % points"),
        (axes[1], largest, "loss when there, % points"),
    ):
        grid = 100 * grid  # percentage points of win rate, as analyze's table says them
        # A power scale: a few early states carry most of the expected loss.
        norm = PowerNorm(0.4, vmin=0.0, vmax=max(float(grid.max()), 1e-10))
        image = ax.imshow(grid, origin="upper", cmap="magma_r", norm=norm, interpolation="nearest")
        fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04).set_label(label)
        _scores_axes(ax, args[1], args[0])
        ax.set_title(label, pad=28)
    fig.suptitle(wrapped(title, 100))
    unparsed(fig).tight_layout()  # before any layout: no text is read as math
    fig.savefig(path)
    plt.close(fig)
    return Path(path)


# -- tournament pictures -----------------------------------------------------------------------
#: Up to this many entrants the heatmap names them and dots the cells that scored a point;
#: beyond, its axes are ranks and a line encloses the cells that scored.
NAMED_LIMIT = 60
#: Colours reach full strength this far from the threshold (as on the page).
COLOUR_SPAN = 0.3


def matrix_png(board: Any, path: str | Path, title: str) -> tuple[float, float, float, float]:
    """The win-rate matrix of a tournament (``results.Report``) as a heatmap: row against
    column in standings order, a diverging colour map centred on the threshold (red loses,
    blue wins), the cells that scored a point marked, and undecided Monte Carlo pairs marked
    with a grey x (they would otherwise look like plain wins or losses). Returns where the cells are in the
    picture (left, top, right, bottom, as fractions of its width and height from the top
    left), so that a page can say which cell is under the pointer."""
    from matplotlib.colors import TwoSlopeNorm

    plt = pyplot()
    n = len(board.names)
    side = min(max(6.0, 0.22 * n + 2.5), 13.0)
    fig, ax = plt.subplots(figsize=(side + 1.5, side), dpi=100 if n > NAMED_LIMIT else 120)
    t = board.threshold
    low, high = max(t - COLOUR_SPAN, 0.0), min(t + COLOUR_SPAN, 1.0)
    grid = np.ma.masked_invalid(100 * board.rates)
    cmap = plt.get_cmap("RdBu").with_extremes(bad="#dddddd")
    norm100 = TwoSlopeNorm(vcenter=100 * t, vmin=100 * low, vmax=100 * high)
    # Cells centred on ranks 1..n, rank 1 at the top left.
    image = ax.imshow(
        grid,
        cmap=cmap,
        norm=norm100,
        interpolation="nearest",
        origin="upper",
        extent=(0.5, n + 0.5, n + 0.5, 0.5),
    )
    rows, cols = np.nonzero(board.scored)
    if n <= NAMED_LIMIT:
        ax.scatter(cols + 1, rows + 1, s=max(2.0, 600 / n), c="black", marker=".", linewidths=0)
        ticks = np.arange(1, n + 1)
        labels = [f"{k + 1}. {shown(name)[:24]}" for k, name in enumerate(board.names)]
        ax.set_yticks(ticks, labels, fontsize=7)
        ax.set_xticks(ticks, [str(k) for k in ticks], fontsize=7)
        ax.set_xlabel("opponent (rank)")
        mark = "dot: the row scored a point"
    else:
        at = np.arange(1, n + 1)
        ax.contour(at, at, board.scored.astype(float), levels=[0.5], colors="black", linewidths=0.4)
        ax.set_xlabel("opponent (rank)")
        ax.set_ylabel("entrant (rank)")
        mark = "black line: encloses the cells where the row scored a point"
    undecided = np.nonzero(getattr(board, "undecided", np.zeros((n, n), bool)))
    if len(undecided[0]):
        size = max(4.0, 900 / n) if n <= NAMED_LIMIT else max(1.0, 300 / n)
        ax.scatter(undecided[1] + 1, undecided[0] + 1, s=size, c="#555555", marker="x",
                   linewidths=0.6)  # fmt: skip
        mark += "; grey x: undecided"
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, extend="both")
    bar.set_label(f"row's win rate against the column (%); white at the threshold, {100 * t:g}%")
    ax.set_title(wrapped(f"{title}: win rates ({mark})", 90), fontsize=10, pad=24)
    unparsed(fig).tight_layout()  # before any layout: no text is read as math
    fig.savefig(path)
    box = ax.get_position()  # after drawing: the square the cells fill
    plt.close(fig)
    return (box.x0, 1 - box.y1, box.x1, 1 - box.y0)


def standings_png(report: Any, path: str | Path, title: str) -> Path:
    """The standings (``results.Report``) in two panels: each entrant's rating with its error
    bar (±1 standard error from Monte Carlo noise) by rank, and how the average win rates are
    spread."""
    plt = pyplot()
    rows = [e for e in report.entrants if e.rating is not None]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8), dpi=110)
    ranks = [k + 1 for k in range(len(rows))]
    ratings = [e.rating for e in rows]
    errors = [e.rating_error or 0.0 for e in rows]
    if any(errors):
        left.errorbar(ranks, ratings, yerr=errors, fmt="o", markersize=3, capsize=2, elinewidth=0.8)
    else:
        left.plot(ranks, ratings, "o", markersize=3)
    left.axhline(1500, color="grey", linewidth=0.8)
    left.set(xlabel="place in the standings", ylabel="rating (Elo scale, average 1500)")
    left.set_title("ratings" + (" ± standard error" if any(errors) else " (exact: no error)"))
    if len(rows) <= 30:
        left.set_xticks(
            ranks, [shown(e.name)[:16] for e in rows], rotation=60, ha="right", fontsize=7
        )
    rates = [100 * e.win_rate for e in rows if e.win_rate is not None]
    right.hist(rates, bins=min(40, max(5, len(rates) // 4)), color="#2166ac", edgecolor="white")
    right.axvline(100 * report.threshold, color="#b2182b", linewidth=1)
    right.set(xlabel="average win rate against the field (%)", ylabel="entrants")
    right.set_title("win rates (red line: the threshold)")
    fig.suptitle(wrapped(title, 100))
    unparsed(fig).tight_layout()  # before any layout: no text is read as math
    fig.savefig(path)
    plt.close(fig)
    return Path(path)


def sweep_png(result, path: str) -> None:
    """A sweep's average win rate by parameter value, with the paired 95% interval under Monte
    Carlo (RESULT: an ``experiments.Sweep``)."""
    plt = pyplot()
    import matplotlib.ticker

    points = result.points
    fig, ax = plt.subplots(figsize=(6, 4))
    values = [p.value for p in points]
    rates = [100 * p.win_rate for p in points]
    if result.exact:
        ax.plot(values, rates, marker="o")
    else:
        below = [r - 100 * p.ci_low for r, p in zip(rates, points, strict=True)]
        above = [100 * p.ci_high - r for r, p in zip(rates, points, strict=True)]
        ax.errorbar(values, rates, yerr=[below, above], marker="o", capsize=3)
    ax.axhline(50, color="grey", linewidth=0.8)
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set(xlabel=result.param, ylabel="average win rate (%)", title=result.strategy)
    unparsed(fig).tight_layout()  # before any layout: no text is read as math
    fig.savefig(path, dpi=120)
    plt.close(fig)
