"""The tournament's views: ``terminal`` (Rich) and ``files`` (CSV, JSON; the page is
``hogbench.leaderboard``'s, the pictures ``hogbench.plots``'), each reading one
``results.Report``. The names below are read from their modules when first asked for."""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "terminal": (
        "MATRIX_VIEWS", "console_report", "gauntlet_report", "matrix_table", "pct",
        "print_report", "short", "standings_table",
    ),
    "files": ("gauntlet_data", "write_reports"),
}  # fmt: skip
_MODULE = {name: module for module, names in _WHERE.items() for name in names}
__all__ = sorted(_MODULE)


def __getattr__(name: str) -> Any:
    module = _MODULE.get(name)
    if module is None:
        raise AttributeError(f"module 'hogbench.report' has no attribute {name!r}")
    return getattr(importlib.import_module(f"hogbench.report.{module}"), name)
