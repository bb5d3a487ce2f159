"""The tournament's views: ``terminal`` (Rich) and ``files`` (CSV, JSON; the page is
``hogbench.leaderboard``'s, the pictures ``hogbench.plots``'), each reading one
``results.Report``. The names below are read from their modules when first asked for."""

from __future__ import annotations

from hogbench.lazy import lazy_names

__all__, __getattr__ = lazy_names(
    __name__,
    {
        "terminal": (
            "MATRIX_VIEWS", "console_report", "gauntlet_report", "matrix_table", "pct",
            "print_report", "short", "standings_table",
        ),
        "files": ("gauntlet_data", "write_reports"),
    },
)  # fmt: skip
