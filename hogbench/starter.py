"""A starter strategy file for any rule set (``hogbench new``): the function the course asks
for, with the term's arguments and a legal first answer, and the term's rules in its
docstring. For the Hog contest it is the contest's blank template: final_strategy and a
TEAM_NAME to change."""

from __future__ import annotations

from pathlib import Path

from hogbench.errors import UsageError
from hogbench.rules.base import RuleSet

#: The contest's placeholder team name, which a submission should change.
PLACEHOLDER_TEAM = "Team Name Here"


def _body(rules: RuleSet) -> list[str]:
    """A first answer that is legal under RULES, said in the rule set's own terms."""
    args = rules.strategy_args
    if "turn_total" in args:
        return [
            "    # True (or 'roll') to roll, False (or 'hold') to hold",
            "    return turn_total < 20",
        ]
    if "last" in args:
        return [
            "    # the number of dice to roll; 0 passes (the opponent then has one last turn)",
            f"    if {args[0]} > {args[1]}:",
            "        return 0",
            "    return 12",
        ]
    return [f"    # {rules.choice_help}", "    return 4"]


def starter_source(rules: RuleSet) -> str:
    """The text of a starter file for RULES."""
    function = rules.strategy_names[0]
    contest = rules.name == "hog-contest"
    lines = ['"""']
    if contest:
        lines += [
            "A minimal contest submission: final_strategy and a TEAM_NAME.",
            "",
            "Only this file is submitted: copy in any helper functions from hog.py that your",
            "strategy uses.",
        ]
    else:
        lines.append(f"A strategy for {rules.title}: hogbench rule set {rules.name}.")
    lines += ["", "The rules:"]
    lines += [f"- {name}: {line}" for name, line in rules.rule_lines]
    lines += [
        "",
        f"Try it: hogbench check --rules {rules.name} THIS_FILE",
        f"        hogbench duel --rules {rules.name} THIS_FILE",
        '"""',
        "",
    ]
    if contest:
        lines += [f'TEAM_NAME = "{PLACEHOLDER_TEAM}"  # Change this line!', ""]
    lines += [
        "",
        f"def {function}({', '.join(rules.strategy_args)}):",
        f'    """Return your move, given {", ".join(rules.strategy_args)}."""',
        *_body(rules),
        "",
    ]
    return "\n".join(lines)


def write_starter(rules: RuleSet, path: str | Path, overwrite: bool = False) -> Path:
    """Write a starter file for RULES at PATH; UsageError rather than overwrite a file."""
    path = Path(path)
    if path.suffix != ".py":
        raise UsageError(f"{path}: a strategy file's name ends in .py")
    if path.exists() and not overwrite:
        raise UsageError(f"{path} exists: choose another name, or --force to replace it")
    if not path.parent.is_dir():
        raise UsageError(f"{path.parent} is not a folder")
    path.write_text(starter_source(rules).replace("THIS_FILE", path.name), encoding="utf-8")
    return path
