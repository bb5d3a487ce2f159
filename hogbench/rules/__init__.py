"""The rule sets. Each module in this package that defines ``RULES`` is one rule set.

A new semester's rules are one new module here; nothing else needs to change.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from typing import TYPE_CHECKING, Any

from hogbench.errors import UsageError

if TYPE_CHECKING:  # names() is asked for at every start of the CLI: it imports no rule set
    from hogbench.rules.base import RuleSet

DEFAULT_RULES = "hog-su21"
#: The contest's scoring: a match point for an expected win rate above 50.0001%.
DEFAULT_THRESHOLD = 0.500001


def names() -> list[str]:
    """Rule-set names: module hog_su21 is rule set hog-su21 (importing none of them). Shared
    modules (``base``, and any whose name starts with ``_``) are not rule sets."""
    return sorted(
        info.name.replace("_", "-")
        for info in pkgutil.iter_modules(__path__)
        if info.name != "base" and not info.name.startswith("_")
    )


@functools.cache
def rules_class(name: str) -> type[RuleSet]:
    """The class of the rule set called NAME; UsageError if there is none."""
    if name not in names():
        raise UsageError(f"unknown rule set {name!r} (known: {', '.join(names())})")
    module = importlib.import_module(f"{__name__}.{name.replace('-', '_')}")
    return module.RULES


def registry() -> dict[str, type[RuleSet]]:
    """Rule-set name -> class, for every rule set (this imports them all)."""
    return {name: rules_class(name) for name in names()}


def get_rules(name: str = DEFAULT_RULES, goal: int | None = None, **options: Any) -> RuleSet:
    """The rule set called NAME, with a goal and options; UsageError if there is none."""
    return rules_class(name)(goal, **options)


#: The rule sets this process holds, by key: see ``resident``.
_RESIDENT: dict[str, RuleSet] = {}


def resident(rules: RuleSet) -> RuleSet:
    """This process's one instance of RULES, whose model (and the engines' rows, kept with the
    model) is built once however many pairs or blocks of games the process plays. Rule sets
    reach worker processes pickled, without their model; each would otherwise build it again."""
    return _RESIDENT.setdefault(rules.key, rules)


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """``["feral_hogs=false", ...]`` -> ``{"feral_hogs": "false"}``; the rule set checks values."""
    options: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option takes name=value, got {pair!r}")
        options[key.strip()] = value.strip()
    return options


#: The course's commentary functions (see ``hogbench.commentary``), which a student's hog.py of
#: any term since they came in may define: silence, say_scores and both take two scores.
COMMENTARY_FUNCTIONS = frozenset(
    {"silence", "say_scores", "announce_lead_changes", "announce_highest", "both"}
)


@functools.cache  # asked once per file loaded, and 0.4 ms to work out
def course_functions_not_strategies(rules_name: str) -> frozenset[str]:
    """The course functions of a Hog rule set that are not strategies (its rule functions,
    ``take_turn``, ``play``, the commentary functions...): a file without ``final_strategy``
    whose one function of two scores is, say, ``more_boar`` or ``say_scores`` has no strategy.
    Empty for other rule sets."""
    if not rules_name.startswith("hog-"):
        return frozenset()
    named = set(rules_class(rules_name).course_functions()) | COMMENTARY_FUNCTIONS
    return frozenset(n for n in named if not n.endswith("strategy"))
