"""A file's Hog term, told from what its course functions do; and a check of those functions.

A student's ``hog.py`` defines the course functions of its term: ``free_bacon`` and ``is_swap``
in Fall 2019, ``piggy_points`` and ``more_boar`` in Summer 2021, ``boar_brawl`` and
``sus_points`` since Fall 2023. Their names alone say little (``free_bacon`` is nine different
rules across eighteen terms), so hogbench calls them, in the sandboxed worker (the only door for
submitted code), on probe values, and compares what they return with what every registered Hog
term's own functions return. The term whose functions agree is the file's term.

The same results, compared at every state with the rule set used, list the file's rule functions
that disagree with it: a strategy that calls its own buggy ``more_boar`` decides on what that
returns. A disagreement is said, never held against the file.

Both are kept in the cache by the file's content, so a repeat run starts no worker.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib
import inspect
import json
import math
import random
import reprlib
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from hogbench import cache, sandbox
from hogbench.dice import make_test_dice
from hogbench.entrants import Spec, parse_spec
from hogbench.errors import StrategyError
from hogbench.names import shown
from hogbench.rules import DEFAULT_RULES, get_rules, names, rules_class
from hogbench.rules.base import RuleSet
from hogbench.submission import snapshot

#: What an argument of a course function is, by its name, and so which values it is probed on.
KIND_OF = {
    **dict.fromkeys(("score", "opponent_score", "player_score", "score0", "score1"), "score"),
    **dict.fromkeys(("n",), "number"),
    **dict.fromkeys(("turn_score", "earned_score", "previous_points"), "points"),
    **dict.fromkeys(("num_rolls", "previous_rolls"), "rolls"),
    **dict.fromkeys(("who", "player"), "player"),
    "digit": "digit",
    "outcomes": "outcomes",
    "dice": "dice",
}
#: The course's test dice a dice function is called with (``make_test_dice`` of each).
TEST_DICE = ((4, 2, 6), (1, 3), (6,), (2, 3, 4, 5, 6), (5, 1, 1, 2))
#: Lists of outcomes for a function of the outcomes rolled (Pig Out, Sow Sad).
OUTCOMES = ((1,), (2,), (6,), (1, 1), (2, 3), (4, 4), (1, 5, 6), (2, 2, 2), (3, 1, 1, 4),
            (6, 5, 4, 3, 2), (5, 5, 1, 1, 1, 2))  # fmt: skip
#: Course functions that are not rules: strategies, the game loop, the dice chooser (whose
#: answer is a function), the commentary.
NOT_RULES = frozenset(
    {"always_roll", "play", "final_strategy", "select_dice", "reroll", "silence", "say_scores",
     "both", "announce_lead_changes", "announce_highest", "make_averaged", "run"}
)  # fmt: skip
#: Argument lists a function is checked on at most (every score pair of a goal of 100), and a
#: function of dice (take_turn, roll_dice), whose every number of dice, score and test dice
#: would be tens of thousands of calls, a second of the student's first duel.
CHECK_CALLS = 10_000
DICE_CALLS = 2_000
#: Of those, the argument lists each term's functions are compared on to recognise the term.
SAMPLE_CALLS = 250
#: The rule a course function carries out, where its name is not the rule's (for the
#: disagreement's wording: "Fall 2019's Swine Swap says True (...)").
RULE_OF = {
    "is_swap": "Swine Swap", "feral_bonus": "Feral Hogs", "is_perfect_piggy": "Perfect Piggy",
    "tail_points": "Pig Tail", "square_points": "Square Swine", "square_update": "Square Swine",
    "sus_points": "Sus Fuss", "sus_update": "Sus Fuss",
}  # fmt: skip
#: Class attributes a term that only renames another sets: their rules are the same.
RENAMING = frozenset(
    {"name", "title", "__module__", "__doc__", "__qualname__", "__firstlineno__",
     "__static_attributes__"}
)  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Each term's course functions, and the values they are probed on
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CourseFunction:
    """One rule function of a term: its name, what each argument passed is, the function."""

    name: str
    kinds: tuple[str, ...]
    func: Callable[..., Any]


def hog_terms() -> list[str]:
    return [name for name in names() if name.startswith("hog-")]


@functools.cache
def course_functions(term: str) -> dict[str, CourseFunction]:
    """The rule functions of TERM that can be probed: those of the term's own course module (a
    term that only renames another has the other's), whose every argument is a score, a number
    of dice, a player, a digit, outcomes or dice."""
    module = None
    for cls in rules_class(term).__mro__:
        if cls.__module__.startswith("hogbench.rules.hog_"):
            candidate = importlib.import_module(cls.__module__)
            if any(inspect.isfunction(v) for v in vars(candidate).values()):
                module = candidate
                break
    found: dict[str, CourseFunction] = {}
    for name, value in vars(module).items() if module else ():
        if (
            inspect.isfunction(value)
            and not name.startswith(("_", "make_"))
            and not name.endswith("strategy")
            and name not in NOT_RULES
            and value.__module__.startswith("hogbench.rules.")
        ):
            kinds = _kinds(value)
            if kinds is not None:
                found[name] = CourseFunction(name, kinds, value)
    return found


def _kinds(func: Callable[..., Any]) -> tuple[str, ...] | None:
    """What each argument FUNC is probed with is: its required arguments, and its dice if it
    takes any (so that it never rolls real dice); None if one of them is of no known kind."""
    kinds = []
    for param in inspect.signature(func).parameters.values():
        required = param.default is param.empty
        if param.kind not in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            if required and param.kind is param.KEYWORD_ONLY:
                return None
            continue
        kind = KIND_OF.get(param.name)
        if required and kind is None:
            return None
        if required or kind == "dice":
            kinds.append(kind)
    return tuple(kinds) if kinds else None


def _axis(kind: str, goal: int) -> tuple[Any, ...]:
    """The values an argument of KIND is probed on, for a game to GOAL."""
    return {
        "score": tuple(range(goal)),
        "number": tuple(range(1, goal)),  # is_prime, num_factors: of whole numbers from 1
        "points": tuple(range(61)),
        "rolls": tuple(range(11)),
        "player": (0, 1),
        "digit": tuple(range(10)),
        "outcomes": tuple(list(o) for o in OUTCOMES),
        "dice": tuple({"dice": list(d)} for d in TEST_DICE),
    }[kind]


@functools.cache
def grid(kinds: tuple[str, ...], goal: int) -> sandbox.Grid:
    """Every argument list of these kinds, or every k-th where there are more than
    CHECK_CALLS (DICE_CALLS for a function of dice); k shares no factor with any axis's length, so that every value of each axis
    is still met."""
    axes = tuple(_axis(kind, goal) for kind in kinds)
    total = math.prod(map(len, axes))
    stride = -(-total // (DICE_CALLS if "dice" in kinds else CHECK_CALLS))
    while stride > 1 and any(math.gcd(stride, len(axis)) > 1 for axis in axes):
        stride += 1
    return sandbox.Grid(axes, stride)


def arguments(kinds: tuple[str, ...], goal: int, index: int) -> list[Any]:
    """The INDEX-th argument list of the grid of KINDS (in the worker's order)."""
    g = grid(kinds, goal)
    place = index * g.stride
    args = []
    for axis in reversed(g.axes):
        place, i = divmod(place, len(axis))
        args.append(axis[i])
    return args[::-1]


@functools.cache
def sample(kinds: tuple[str, ...], goal: int) -> tuple[int, ...]:
    """The places in the grid of KINDS where each term's functions are compared to recognise the
    file's term: SAMPLE_CALLS of them, drawn with a fixed seed."""
    n = len(grid(kinds, goal))
    chosen = random.Random(f"{kinds}:{goal}").sample(range(n), min(n, SAMPLE_CALLS))
    return tuple(sorted(chosen))


def call(function: CourseFunction, args: list[Any]) -> Any:
    """What the term's own FUNCTION returns on ARGS, as the worker would send it back."""
    real = [make_test_dice(*a["dice"]) if isinstance(a, dict) else a for a in args]
    try:
        return plain(function.func(*real))
    except Exception as exc:  # a state where the course's function does not apply
        return {"raised": type(exc).__name__}


def plain(value: Any) -> Any:
    """A value as it crosses the pipe: None, bools, ints, floats and strings as themselves,
    anything else as its type's name and a short repr (as the worker encodes it)."""
    if value is None or type(value) in (bool, int, float, str):
        return value
    if isinstance(value, sandbox.Raised):
        return {"raised": value.kind}
    if isinstance(value, sandbox.Foreign):
        value_type = type(value).__name__
        return (
            {"callable": True}
            if value_type == "function"
            else {"type": value_type, "repr": value.text}
        )
    if callable(value):  # a function (Spring 2022's digit_fn): not compared
        return {"callable": True}
    return {"type": type(value).__name__, "repr": reprlib.repr(value)[:100]}


def same(theirs: Any, ours: Any) -> bool | None:
    """Does the file's result THEIRS agree with the term's OURS? None where the term's own
    function raises (a state where it does not apply). A bool rule is met by a truthy int."""
    if isinstance(ours, dict) and ("raised" in ours or "callable" in ours):
        return None
    if type(ours) is bool:
        return type(theirs) in (bool, int) and bool(theirs) == ours
    if type(theirs) is bool and type(ours) is not bool:
        return False
    return theirs == ours


# ---------------------------------------------------------------------------------------------
# Every term's answers at the sample places, kept in the cache
# ---------------------------------------------------------------------------------------------


@functools.cache
def _source_digest() -> str:
    """The source this module's conclusions depend on: the rule sets, the dice and this file."""
    digest = hashlib.sha256()
    package = Path(__file__).parent
    for path in [*sorted((package / "rules").glob("*.py")), package / "dice.py", Path(__file__)]:
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:32]


@functools.cache
def catalogue(goal: int) -> dict[str, Any]:
    """Every Hog term's course functions, the argument kinds of each, and its answers at the
    sample places of its grid; and the alias groups. Building it imports every rule set (half
    a second), so it is kept in the cache, keyed by their source."""
    key = f"terms-catalogue:{_source_digest()}:{goal}"
    path = cache.cache_root() / "terms" / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.json"
    kept = cache.read_sealed(path, key)
    if kept is None:
        terms = {
            term: {
                name: {
                    "kinds": list(function.kinds),
                    "sample": [
                        call(function, arguments(function.kinds, goal, i))
                        for i in sample(function.kinds, goal)
                    ],
                }
                for name, function in course_functions(term).items()
            }
            for term in hog_terms()
        }
        kept = {"terms": terms, "aliases": _alias_groups()}
        cache.write_sealed(path, key, kept)
    for functions in kept["terms"].values():
        for entry in functions.values():
            entry["kinds"] = tuple(entry["kinds"])
    return kept


@functools.cache
def kinds_of(goal: int) -> dict[str, list[tuple[str, ...]]]:
    """Course function name -> the argument kinds it takes in some term, in a fixed order."""
    found: dict[str, set[tuple[str, ...]]] = {}
    for functions in catalogue(goal)["terms"].values():
        for name, entry in functions.items():
            found.setdefault(name, set()).add(entry["kinds"])
    return {name: sorted(variants) for name, variants in sorted(found.items())}


#: Helpers of arithmetic that some terms' skeletons define (``is_prime`` of Fall 2023, Summer
#: 2022 and the contest; ``next_player``...): checked like the rules, but no sign of a term,
#: since a file of any term may define them for its own strategy.
HELPERS = frozenset(
    {"is_prime", "next_prime", "num_factors", "perfect_square", "next_perfect_square",
     "smallest_and_largest_digit", "digit_fn", "other", "next_player"}
)  # fmt: skip


#: The simulator's functions, which carry a term's rules rather than name one.
SIMULATOR = frozenset({"roll_dice", "take_turn", "simple_update", "pig_out", "sow_sad"})


@functools.cache
def telling(goal: int) -> dict[str, int]:
    """The course functions that tell terms apart, and in how many ways they answer across the
    terms (a term without one counts as a way): those with two ways at least, helpers aside.
    ``boar_brawl``, which only the Fall 2023 terms have, tells them apart; ``other``, the same
    in every term that has it, and in many, does too but weakly."""
    answers: dict[str, set[str]] = {}
    every = catalogue(goal)["terms"]
    for functions in every.values():
        for name, entry in functions.items():
            answers.setdefault(name, set()).add(json.dumps(entry, sort_keys=True))
    for name, seen in answers.items():
        if any(name not in functions for functions in every.values()):
            seen.add("absent")
    return {
        name: len(seen) for name, seen in answers.items() if len(seen) > 1 and name not in HELPERS
    }


#: Terms whose rules differ from another's only by an option's default, and that term: their
#: course functions are the same, so a file fits both alike. hog-sp17 is the contest's rules
#: with Pork Chop off (Spring 2017's project); ``choose_within`` tells them apart.
OPTION_ALIASES = {"hog-sp17": "hog-contest"}


def _alias_groups() -> list[list[str]]:
    """Terms whose rules are the same (one only renames the other, or differs only by an
    option's default: OPTION_ALIASES), each group led by the term the others rename."""
    groups: dict[str, list[str]] = {}
    for term in hog_terms():
        root = rules_class(term)
        while set(vars(root)) <= RENAMING and root.__bases__[0].__module__.startswith(
            "hogbench.rules.hog_"
        ):
            root = root.__bases__[0]
        groups.setdefault(OPTION_ALIASES.get(root.name, root.name), []).append(term)
    return [sorted(group, key=lambda t: (t != lead, t)) for lead, group in groups.items()]


def alias_group(term: str, goal: int = 100) -> list[str]:
    """The terms with TERM's rules (TERM alone if none), the one the others rename first."""
    return next((g for g in catalogue(goal)["aliases"] if term in g), [term])


def season(rules: RuleSet | type[RuleSet]) -> str:
    """'Summer 2021' for Hog, CS 61A Summer 2021; the rule set's title otherwise."""
    title = rules.title
    return title.split("CS 61A ", 1)[1].split(" (")[0] if "CS 61A " in title else title


# ---------------------------------------------------------------------------------------------
# Recognising a file's term, and checking its functions
# ---------------------------------------------------------------------------------------------


@dataclass
class Disagreement:
    """One state where the file's course function answers otherwise than the rule set's."""

    function: str
    arguments: str
    returned: str
    expected: str
    disagreeing: int  # states where it disagrees
    compared: int  # states compared
    text: str


@dataclass
class TermReport:
    """What the file's course functions say about its term, and how they fare under RULES."""

    file: str
    rules: str  # the rule set used
    how: str  # "recognised", "given" or "default"
    line: str  # one line for the terminal saying which rules are used and why
    recognised: str | None = None  # the term (or first of its alias group) they agree with
    candidates: list[str] = field(default_factory=list)  # the terms that fit best
    agreeing: list[str] = field(default_factory=list)  # the functions that say so
    functions: list[str] = field(default_factory=list)  # course functions the file defines
    warning: str | None = None  # with --rules: the file's functions disagree with them
    checked: list[str] = field(default_factory=list)  # functions compared with the rules'
    disagreements: list[Disagreement] = field(default_factory=list)
    problem: str | None = None  # why the file could not be probed

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def lines(self) -> list[str]:
        """What the terminal shows: the rules line, any warning, and the function check."""
        shown = [self.line]
        if self.warning:
            shown.append(f"warning: {self.warning}")
        shown += [f"note: {d.text}" for d in self.disagreements]
        wrong = {d.function for d in self.disagreements}
        agreeing = [name for name in self.checked if name not in wrong]
        if agreeing:
            shown.append(
                f"note: the file's {_names(agreeing)} agree with"
                f" {self.rules.split(':')[0]}'s at every state tried"
            )
        return shown


def _probes(goal: int) -> dict[str, list[sandbox.Grid]]:
    return {
        name: [grid(kinds, goal) for kinds in variants] for name, variants in kinds_of(goal).items()
    }


def _results_for(
    probed: dict[str, list[Any]], name: str, kinds: tuple[str, ...], goal: int
) -> list[Any]:
    """The file's results for NAME on the grid of KINDS (one of NAME's grids, in order)."""
    start = 0
    for variant in kinds_of(goal)[name]:
        n = len(grid(variant, goal))
        if variant == kinds:
            return probed[name][start : start + n]
        start += n
    return []


def _agreement(probed: dict[str, list[Any]], term: str, goal: int) -> tuple[list[str], list[str]]:
    """The file's functions that agree with TERM's at the sample places, and those that do not."""
    agree, disagree = [], []
    for name, entry in catalogue(goal)["terms"][term].items():
        if name not in probed:
            continue
        results = _results_for(probed, name, entry["kinds"], goal)
        verdicts = [
            same(plain(results[i]), ours)
            for i, ours in zip(sample(entry["kinds"], goal), entry["sample"], strict=True)
        ]
        compared = [v for v in verdicts if v is not None]
        if compared and all(compared):
            agree.append(name)
        elif compared:
            disagree.append(name)
    return agree, disagree


def recognise(probed: dict[str, list[Any]], goal: int) -> tuple[list[str], list[str]]:
    """The terms whose course functions the file's agree with best (one alias group when the
    term is known), and the functions that say so: most telling functions agreeing, then
    fewest disagreeing. A file of Fall 2019 with a buggy is_swap still fits the terms whose
    free_bacon it has (Fall 2019 and Summer 2019, alike)."""
    tells = telling(goal)
    scores: dict[str, tuple[tuple[int, int], list[str]]] = {}
    for term in catalogue(goal)["terms"]:
        agree, disagree = _agreement(probed, term, goal)
        agree = [n for n in agree if n in tells]
        scores[term] = ((len(agree), -len([n for n in disagree if n in tells])), agree)
    best = max((s for s, _ in scores.values()), default=(0, 0))
    if best[0] == 0:
        return [], []
    winners = [term for term, (s, _) in scores.items() if s == best]
    # The term's own rules first (free_bacon, is_swap), then the simulator's functions that
    # carry them (take_turn, roll_dice); the most telling first within each.
    return winners, sorted(
        scores[winners[0]][1], key=lambda name: (name in SIMULATOR, -tells[name], name)
    )


def check_functions(
    probed: dict[str, list[Any]], rules: RuleSet
) -> tuple[list[str], list[Disagreement]]:
    """Compare each of the file's course functions that RULES has with RULES' own at every
    argument list of its grid: the functions compared, and the first disagreement of each."""
    checked, found = [], []
    rule_text = {name.lower(): (name, text) for name, text in rules.rule_lines}
    functions = course_functions(rules.name)
    # The rules first (more_boar), then the simulator (take_turn), then helpers (is_prime).
    for name in sorted(functions, key=lambda n: (n in HELPERS, n in SIMULATOR, n)):
        function = functions[name]
        if name not in probed:
            continue
        results = _results_for(probed, name, function.kinds, rules.goal)
        first, disagreeing, compared = None, 0, 0
        for index, theirs in enumerate(results):
            args = arguments(function.kinds, rules.goal, index)
            ours = call(function, args)
            verdict = same(plain(theirs), ours)
            if verdict is None:
                continue
            compared += 1
            if not verdict:
                disagreeing += 1
                if first is None:
                    first = (args, theirs, ours)
        if not compared:
            continue
        checked.append(name)
        if first is None:
            continue
        args, theirs, ours = first
        shown_args = ", ".join(_shown(a) for a in args)
        rule_name = RULE_OF.get(name, name.replace("_", " ")).lower()
        rule, explained = rule_text.get(rule_name, (name, None))
        returned = (
            f"raises {theirs.kind}"
            if isinstance(theirs, sandbox.Raised)
            else f"returns {_shown(theirs)}"
        )
        text = (
            f"your {name}({shown_args}) {returned}; {season(rules)}'s {rule} says {_shown(ours)}"
            + (f" ({explained})" if explained else "")
            + f"; it disagrees at {disagreeing:,} of {compared:,} states tried"
        )
        found.append(
            Disagreement(name, shown_args, returned, _shown(ours), disagreeing, compared, text)
        )
    return checked, found


def _shown(value: Any) -> str:
    if isinstance(value, dict) and "dice" in value:
        return f"make_test_dice({', '.join(map(str, value['dice']))})"
    if isinstance(value, dict) and "repr" in value:
        return str(value["repr"])
    if isinstance(value, dict) and "raised" in value:
        return f"an error ({value['raised']})"
    return repr(value)


def review(
    spec: str | Spec,
    rules: RuleSet | None,
    goal: int | None = None,
    options: dict[str, Any] | None = None,
    **sandbox_options: Any,
) -> tuple[RuleSet, TermReport]:
    """The rule set to judge a file by, and what its course functions say.

    RULES given (``--rules``): those, with a warning when the file's functions agree with
    another term instead. RULES None: the term the functions are recognised as, else the
    default. Either way, the file's functions are checked against the rules used. Kept in the
    cache by the file's content."""
    spec = parse_spec(spec) if isinstance(spec, str) else spec
    options = options or {}
    asked = rules.key if rules is not None else f"auto:{goal}:{sorted(options.items())}"
    if not spec.is_file or (rules is not None and not rules.name.startswith("hog-")):
        chosen = rules or get_rules(DEFAULT_RULES, goal, **options)
        return chosen, TermReport(str(spec.text), chosen.key, "given", f"rules: {_label(chosen)}")
    request = sandbox.Request.of(**sandbox_options)  # given whole, or as its fields
    imports = request.allow_imports
    try:
        digest = snapshot(spec.path, spec.share).digest
    except StrategyError:
        digest = None
    limit = request.time_limit
    key = f"term-report:{_source_digest()}:{digest}:{asked}:{imports}:{limit}:{spec.function}"
    path = cache.cache_root() / "terms" / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.json"
    kept = cache.read_sealed(path, key) if digest else None
    if kept is not None:
        report = TermReport(
            **{**kept, "disagreements": [Disagreement(**d) for d in kept["disagreements"]]}
        )
        return (rules or get_rules(report.rules.split(":")[0], goal, **options)), report
    chosen, report = _review(spec, rules, goal, options, {"request": request})
    if digest:  # a file whose functions hang is not run again each time either
        cache.write_sealed(path, key, report.to_dict())
    return chosen, report


def _review(
    spec: Spec,
    rules: RuleSet | None,
    goal: int | None,
    options: dict[str, Any],
    sandbox_options: dict[str, Any],
) -> tuple[RuleSet, TermReport]:
    # The options given are the recognised term's (--option feral_hogs=false for a Fall 2019
    # file): the probe runs under the plain default, whose options they need not be.
    plain_default = rules or get_rules(DEFAULT_RULES, goal)
    goal_used = plain_default.goal
    try:
        probed = sandbox.probe_functions(spec, plain_default, _probes(goal_used), **sandbox_options)
    except StrategyError as exc:
        default = rules or get_rules(DEFAULT_RULES, goal, **options)
        how = "given" if rules else "default"
        line = f"rules: {_label(default)}" + (
            "" if rules else ", the default (the file's functions could not be called)"
        )
        return default, TermReport(shown(spec.path), default.key, how, line, problem=exc.problem)
    defined = sorted(probed)
    candidates, agreeing = recognise(probed, goal_used)
    groups = {tuple(alias_group(t, goal_used)) for t in candidates}
    recognised = next(iter(groups))[0] if len(groups) == 1 else None
    within = ""
    if recognised is not None and recognised in OPTION_ALIASES.values():
        recognised, within = choose_within(spec, plain_default, sandbox_options)
    if rules is not None:
        chosen, how = rules, "given"
        line = f"rules: {_label(rules)}"
    elif recognised is not None:
        chosen = get_rules(recognised, goal, **options)
        how = "recognised"
        line = f"rules: {_label(chosen)} (recognised from the file's {_names(agreeing)}{within})"
    else:
        chosen, how = get_rules(DEFAULT_RULES, goal, **options), "default"
        if candidates:
            why = f"the file's {_names(agreeing)} fit {_names(candidates)} alike: name one with --rules"
        elif defined:
            why = f"the file's {_names(defined)} agree with no term's"
        else:
            why = "the file defines no course function of a Hog term"
        line = f"rules: {_label(chosen)}, the default ({why})"
    report = TermReport(
        shown(spec.path), chosen.key, how, line, recognised, candidates, agreeing, defined
    )
    if rules is not None and candidates and rules.name not in candidates:
        others = recognised or _names(candidates)
        report.warning = (
            f"the file's {_names(agreeing)} disagree with {rules.name}'s and agree with {others}'s"
            + (f" (--rules {recognised})" if recognised else "")
        )
    # Under the default kept because the functions fit other terms, a list of how they differ
    # from the default's would only restate that.
    if chosen.name.startswith("hog-") and not (how == "default" and candidates):
        report.checked, report.disagreements = check_functions(probed, chosen)
    return chosen, report


def sets_team_name(path: Path) -> bool:
    """Whether the file assigns TEAM_NAME at module level, read from its text (parsed, never
    run: the parent process runs no submitted code)."""
    try:
        if path.stat().st_size > MOST_SOURCE_BYTES:
            return False
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and any(
            isinstance(t, ast.Name) and t.id == "TEAM_NAME" for t in targets
        ):
            return True
    return False


#: The largest file whose text is read for TEAM_NAME (a hog.py is some 20 kB).
MOST_SOURCE_BYTES = 2_000_000


def choose_within(
    spec: Spec, probe_rules: RuleSet, sandbox_options: dict[str, Any]
) -> tuple[str, str]:
    """hog-contest or hog-sp17 for a file whose course functions fit both (the same rules but
    Pork Chop, on in the contest): the contest's when the file sets TEAM_NAME, as the contest's
    entries do, or its strategy answers -1 (Pork Chop) at some pair of scores; else Spring
    2017's project. The term, and the words the rules line gives the reason in."""
    if sets_team_name(spec.path):
        return "hog-contest", "; the contest's, as the file sets TEAM_NAME"
    goal = probe_rules.goal
    scores = tuple(range(goal))
    names_ = [spec.function] if spec.function else list(rules_class("hog-contest").strategy_names)
    probes = {name: [sandbox.Grid((scores, scores))] for name in names_}
    try:
        probed = sandbox.probe_functions(spec, probe_rules, probes, **sandbox_options)
    except StrategyError:
        probed = {}
    for name in names_:
        chops = sum(type(a) is int and a == -1 for a in probed.get(name, []))
        if chops:
            return "hog-contest", f"; the contest's, as its {name} answers -1 (Pork Chop)"
    return "hog-sp17", (
        "; Spring 2017's project, not its contest: no TEAM_NAME, and no answer of -1 (Pork Chop)"
    )


def _label(rules: RuleSet) -> str:
    """The rule set's name, and its goal and options where they are not the defaults."""
    if rules.key != type(rules)(rules.goal).key:
        return rules.key
    return rules.name + ("" if rules.goal == rules.default_goal else f" with goal {rules.goal}")


def _names(items: Iterable[str], most: int = 4) -> str:
    items = list(items)
    shown = ", ".join(items[:most])
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")
