"""A package's public names, each read from the module that defines it when first asked for
(a module ``__getattr__``, PEP 562), so that importing the package stays cheap: the command line
imports ``hogbench``, ``hogbench.tournament`` and ``hogbench.report`` at every start, and
``hogbench --help`` loads no engine."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_names(
    package: str, where: dict[str, tuple[str, ...]]
) -> tuple[list[str], Callable[[str], Any]]:
    """``__all__`` and ``__getattr__`` for PACKAGE, whose names are defined in its modules:
    WHERE maps a module's name below PACKAGE to the names it defines."""
    module_of = {name: module for module, names in where.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return sorted(module_of), __getattr__
