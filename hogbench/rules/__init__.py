"""The rule sets. Each module in this package that defines ``RULES`` is one rule set.

A new semester's rules are one new module here; nothing else needs to change.
"""

from __future__ import annotations

import collections
import functools
import importlib
import inspect
import pkgutil
from collections.abc import Iterable
from pathlib import Path
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


#: Course functions students of many terms define, whatever their term's rules: no sign of one.
COMMON_COURSE_NAMES = frozenset(
    {
        "final_strategy", "always_roll", "silence", "next_prime", "is_prime", "other", "play",
        "roll_dice", "take_turn", "next_player",
    }
)  # fmt: skip
#: A course function defined in at most this many term modules tells a term apart.
TELLING_MODULES = 3


@functools.cache
def _term_functions() -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """Each Hog rule set's course functions, and the names among them that tell terms apart
    (see _find_term_functions). Finding them imports every rule set (0.4 s), so they are kept
    in the disk cache, keyed by the rule modules' source."""
    import hashlib
    import json

    from hogbench import cache

    digest = hashlib.sha256()
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + source.read_bytes())
    path = cache.cache_root() / "term-functions" / f"{digest.hexdigest()[:32]}.json"
    try:
        kept = json.loads(path.read_bytes())
        functions = {name: frozenset(found) for name, found in kept["functions"].items()}
        return functions, frozenset(kept["telling"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # not kept yet, or unreadable
    functions, telling = _find_term_functions()
    kept = {"functions": {n: sorted(f) for n, f in functions.items()}, "telling": sorted(telling)}
    cache.write_entry(path, lambda f: f.write(json.dumps(kept).encode()))
    return functions, telling


def _find_term_functions() -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """Each Hog rule set's course functions (those of the term modules it is built from), and
    the names among them that tell terms apart (see TELLING_MODULES)."""
    functions: dict[str, frozenset[str]] = {}
    modules_defining: dict[str, set[str]] = collections.defaultdict(set)
    for name in names():
        if not name.startswith("hog-"):
            continue
        found: set[str] = set()
        for cls in rules_class(name).__mro__:
            if cls.__module__.startswith(f"{__name__}.hog_"):
                for attr, value in vars(importlib.import_module(cls.__module__)).items():
                    if inspect.isfunction(value) and value.__module__.startswith(
                        f"{__name__}.hog_"
                    ):
                        found.add(attr)
                        modules_defining[attr].add(value.__module__)
        functions[name] = frozenset(found)
    telling = {
        attr
        for attr, modules in modules_defining.items()
        if len(modules) <= TELLING_MODULES and not attr.startswith("_")
    }
    return functions, frozenset(telling - COMMON_COURSE_NAMES)


def other_terms(rules_name: str, defined: Iterable[str]) -> tuple[list[str], list[str]]:
    """The Hog rule sets a file that DEFINED these functions was more likely written for than
    RULES_NAME, and the names that say so; two empty lists unless the file defines at least two
    names that tell terms apart, none of them RULES_NAME's (so a file of that term, which
    defines its rule functions, is never sent elsewhere)."""
    functions, telling = _term_functions()
    if rules_name not in functions:
        return [], []
    mine = functions[rules_name]
    foreign = (set(defined) & telling) - mine
    if len(foreign) < 2 or set(defined) & telling & mine:
        return [], []
    matches = {name: len(found & foreign) for name, found in functions.items()}
    best = max(matches.values())
    return [name for name, n in matches.items() if n == best], sorted(foreign)


#: The course's commentary functions (see ``hogbench.commentary``), which a student's hog.py of
#: any term since they came in may define: silence, say_scores and both take two scores.
COMMENTARY_FUNCTIONS = frozenset(
    {"silence", "say_scores", "announce_lead_changes", "announce_highest", "both"}
)


def course_functions_not_strategies(rules_name: str) -> frozenset[str]:
    """The course functions of a Hog rule set that are not strategies (its rule functions,
    ``take_turn``, ``play``, the commentary functions...): a file without ``final_strategy``
    whose one function of two scores is, say, ``more_boar`` or ``say_scores`` has no strategy.
    Empty for other rule sets."""
    functions, _ = _term_functions()
    if rules_name not in functions:
        return frozenset()
    named = functions[rules_name] | COMMENTARY_FUNCTIONS
    return frozenset(n for n in named if not n.endswith("strategy"))
