"""The rule sets. Each module in this package that defines ``RULES`` is one rule set.

A new semester's rules are one new module here; nothing else needs to change.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from typing import Any

from hogbench.errors import UsageError
from hogbench.rules.base import RuleSet

DEFAULT_RULES = "hog-su21"


@functools.cache
def registry() -> dict[str, type[RuleSet]]:
    """Rule-set name -> class, discovered from the modules of this package."""
    found: dict[str, type[RuleSet]] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        rules = getattr(module, "RULES", None)
        if rules is not None:
            found[rules.name] = rules
    return dict(sorted(found.items()))


def get_rules(name: str = DEFAULT_RULES, goal: int | None = None, **options: Any) -> RuleSet:
    """The rule set called NAME, with a goal and options; UsageError if there is none."""
    rules = registry().get(name)
    if rules is None:
        raise UsageError(f"unknown rule set {name!r} (known: {', '.join(registry())})")
    return rules(goal, **options)


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """``["feral_hogs=false", ...]`` -> ``{"feral_hogs": "false"}``; the rule set checks values."""
    options: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option takes name=value, got {pair!r}")
        options[key.strip()] = value.strip()
    return options
