"""A file's term from what its course functions do, and a check of those functions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hogbench import sandbox, terms
from hogbench.cli import app
from hogbench.entrants import parse_spec
from hogbench.rules import DEFAULT_RULES, get_rules


def test_the_worker_probes_named_functions_and_returns_bounded_data(tmp_path):
    """Probing calls only what was named, passes test dice, and reports what raised as data."""
    path = tmp_path / "hog.py"
    path.write_text(
        "def free_bacon(score):\n    return 10 - min(score % 10, score // 10 % 10)\n\n"
        "def roll(n, dice):\n    return sum(dice() for _ in range(n))\n\n"
        "def bad(x):\n    return 1 // x\n\n"
        "def shout(x):\n    return [x] * 10**6\n\n"
        "NOT_A_FUNCTION = 3\n"
    )
    grid = sandbox.Grid
    probes = {
        "free_bacon": [grid(((0, 47, 90),))],
        "roll": [grid(((3,), ({"dice": [2, 5]},))), grid(((4,), ({"dice": [6]},)))],
        "bad": [grid(((1, 0),))],
        "shout": [grid(((1,),))],
        "NOT_A_FUNCTION": [grid(((1,),))],
        "absent": [grid(((1,),))],
        "every_third": [grid((range(10), range(10)), stride=3)],
    }
    path.write_text(path.read_text() + "def every_third(a, b):\n    return 10 * a + b\n")
    found = sandbox.probe_functions(parse_spec(str(path)), get_rules("hog-su21"), probes)
    assert found["free_bacon"] == [10, 6, 10]
    assert found["roll"] == [2 + 5 + 2, 24]  # the test dice cycle, fresh for every call
    assert found["every_third"] == list(range(0, 100, 3))
    assert found["bad"] == [1, sandbox.Raised("ZeroDivisionError")]
    assert repr(found["shout"][0]).startswith("[1, 1")  # a short repr, not a megabyte
    assert set(found) == {"free_bacon", "roll", "bad", "shout", "every_third"}


# ---------------------------------------------------------------------------------------------
# Recognising the term
# ---------------------------------------------------------------------------------------------

FILES = Path(__file__).parent / "files"
#: Every term-style file, and the term it was written for.
TERM_FILES = {
    **{str(p): p.parent.name for p in sorted((FILES / "terms").glob("*/hog*.py"))},
    # Spring 2019's contest named the entry PLAYER_NAME; its free_bacon is that term's.
    str(FILES / "course" / "contest_player_name.py"): "hog-sp19",
    # Files of "an early term" and "a later term" whose piggy_points is Summer 2021's.
    str(FILES / "course" / "hog_fa14_style.py"): "hog-su21",
    str(FILES / "course" / "hog_fa22_style.py"): "hog-su21",
}


def _recognised(path: str) -> tuple[str, list[str]]:
    rules, report = terms.review(path, None)
    return rules.name, report.candidates


def test_every_term_style_file_is_recognised_as_its_term_or_its_alias_group():
    """The contract: each term's file is recognised as that term (or one renaming it). The
    count of recognised / ambiguous / wrong is printed with -s."""
    counts = {"recognised": 0, "ambiguous": 0, "wrong": 0}
    wrong = []
    for path, term in TERM_FILES.items():
        name, candidates = _recognised(path)
        chosen_within = term in terms.OPTION_ALIASES or term in terms.OPTION_ALIASES.values()
        if name == term or (name in terms.alias_group(term) and not chosen_within):
            counts["recognised"] += 1
        elif len(candidates) > 1 and term in candidates:
            counts["ambiguous"] += 1
        else:
            counts["wrong"] += 1
            wrong.append((path, term, name, candidates))
    print(
        f"term files: {counts['recognised']} recognised / {counts['ambiguous']} ambiguous /"
        f" {counts['wrong']} wrong"
    )
    assert not wrong, wrong
    assert counts == {"recognised": len(TERM_FILES), "ambiguous": 0, "wrong": 0}


def test_spring_2017_and_its_contest_are_one_group_told_apart_by_the_file(tmp_path):
    """Spring 2017's project and its contest share every course function (the contest only adds
    Pork Chop, a choice of -1): one alias group, and within it a file setting TEAM_NAME, or
    whose strategy answers -1, is the contest's; any other is the project's. The rules line
    says which and why."""
    for path, term, why in (
        ("hog-sp17/hog.py", "hog-sp17", "no TEAM_NAME, and no answer of -1"),
        ("hog-contest/hog_contest.py", "hog-contest", "the file sets TEAM_NAME"),
    ):
        rules, report = terms.review(str(FILES / "terms" / path), None)
        assert rules.name == term and report.how == "recognised"
        assert set(report.candidates) == {"hog-contest", "hog-sp17"}
        assert why in report.line
    project = (FILES / "terms" / "hog-sp17" / "hog.py").read_text()
    chop = tmp_path / "hog.py"  # the project's file whose strategy uses Pork Chop, no team
    chop.write_text(
        project + "\n\ndef final_strategy(score, opponent_score):\n"
        "    return -1 if score < opponent_score - 30 else 4\n"
    )
    rules, report = terms.review(str(chop), None)
    assert rules.name == "hog-contest"
    assert "answers -1 (Pork Chop)" in report.line
    assert not terms.sets_team_name(chop)


def test_alias_groups_are_the_terms_that_only_rename_another():
    groups = {tuple(g) for g in terms.catalogue(100)["aliases"] if len(g) > 1}
    assert groups == {
        ("hog-contest", "hog-sp17"),
        ("hog-fa13", "hog-sp14"),
        ("hog-fa22", "hog-sp23"),
        ("hog-fa23", "hog-fa24", "hog-fa25", "hog-sp24", "hog-sp25"),
    }


def test_a_file_without_course_functions_keeps_the_default_and_says_so():
    rules, report = terms.review(str(FILES / "course" / "uses_numpy.py"), None)
    assert rules.name == DEFAULT_RULES and report.how == "default"
    assert "the default (the file defines no course function of a Hog term)" in report.line


def test_a_file_fitting_many_terms_alike_keeps_the_default_and_names_them(tmp_path):
    """A Pig Out roll_dice alone fits every Pig Out and Sow Sad term."""
    path = tmp_path / "hog.py"
    path.write_text(
        "def roll_dice(num_rolls, dice):\n"
        "    rolls = [dice() for _ in range(num_rolls)]\n"
        "    return 1 if 1 in rolls else sum(rolls)\n\n"
        "def final_strategy(score, opponent_score):\n    return 4\n"
    )
    rules, report = terms.review(str(path), None)
    assert rules.name == DEFAULT_RULES and report.how == "default"
    assert "fit" in report.line and "alike: name one with --rules" in report.line
    assert {"hog-fa19", "hog-su21", "hog-fa23"} <= set(report.candidates)


def test_with_rules_a_file_of_another_term_is_warned_about():
    rules, report = terms.review(str(FILES / "terms/hog-fa19/hog.py"), get_rules("hog-su21"))
    assert rules.name == "hog-su21" and report.how == "given"
    assert report.warning.startswith("the file's ")
    assert "disagree with hog-su21's and agree with hog-fa19's (--rules hog-fa19)" in report.warning
    _, own = terms.review(str(FILES / "terms/hog-fa19/hog.py"), get_rules("hog-fa19"))
    assert own.warning is None


# ---------------------------------------------------------------------------------------------
# Checking the student's own rule functions
# ---------------------------------------------------------------------------------------------


def _write(tmp_path, body: str):
    path = tmp_path / "hog.py"
    path.write_text(body + "\ndef final_strategy(score, opponent_score):\n    return 4\n")
    return str(path)


def test_a_buggy_more_boar_is_named_in_the_terms_own_words(tmp_path):
    """Summer 2021's More Boar, with >= for 'strictly larger': the first state it disagrees at,
    checked by hand: 2 < 8 holds and 8 > 8 does not, so no extra turn at (28, 18)."""
    path = _write(
        tmp_path,
        "def piggy_points(score):\n    return abs((score // 10) % 10 - score % 10) + 4\n\n"
        "def more_boar(player_score, opponent_score):\n"
        "    p, o = str(player_score), str(opponent_score)\n"
        "    return min(p) < min(o) and max(p) >= max(o)\n",
    )
    rules, report = terms.review(path, get_rules("hog-su21"))
    assert report.checked == ["more_boar", "piggy_points"]
    (found,) = report.disagreements
    assert found.function == "more_boar"
    # The hand-checked reading: independent of the rule set's code.
    p, o = (int(x) for x in found.arguments.split(", "))
    digits = lambda n: [int(d) for d in str(n)]  # noqa: E731
    truth = min(digits(p)) < min(digits(o)) and max(digits(p)) > max(digits(o))
    assert found.expected == repr(truth) and found.returned == f"returns {not truth!r}"
    assert found.text.startswith(f"your more_boar({p}, {o}) returns {not truth!r};")
    assert f"Summer 2021's More Boar says {truth!r}" in found.text
    brute = sum(
        (min(digits(a)) < min(digits(b)) and max(digits(a)) > max(digits(b)))
        != (min(str(a)) < min(str(b)) and max(str(a)) >= max(str(b)))
        for a in range(100)
        for b in range(100)
    )
    assert found.disagreeing == brute and found.compared == 10_000


def test_buggy_rule_functions_of_other_terms_are_found(tmp_path):
    """Fall 2019's Free Bacon off by one, Fall 2023's Boar Brawl without its max(1, ...)."""
    fa19 = _write(
        tmp_path, "def free_bacon(score):\n    return 9 - min(score // 10 % 10, score % 10)\n"
    )
    _, report = terms.review(fa19, get_rules("hog-fa19"))
    (found,) = report.disagreements
    assert found.text.startswith("your free_bacon(0) returns 9; Fall 2019's ")
    assert found.expected == "10" and found.disagreeing == found.compared == 100
    fa23 = _write(
        tmp_path,
        "def boar_brawl(player_score, opponent_score):\n"
        "    return 3 * abs(opponent_score // 10 % 10 - player_score % 10)\n",
    )
    _, report = terms.review(fa23, get_rules("hog-fa23"))
    (found,) = report.disagreements
    # max(1, 3 * |tens of the opponent - ones of the mover|) differs exactly where they are equal
    assert found.disagreeing == sum(o // 10 % 10 == p % 10 for p in range(100) for o in range(100))
    assert found.text.startswith("your boar_brawl(0, 0) returns 0; Fall 2023's Boar Brawl says 1")


@pytest.mark.parametrize("path", sorted(TERM_FILES))
def test_a_correct_term_file_has_no_disagreement(path):
    """Each term file's functions agree with its term's at every state tried; each file's
    functions, probed under another term's rules, disagree with those somewhere."""
    rules, report = terms.review(path, get_rules(TERM_FILES[path]))
    assert report.checked and report.disagreements == [], [d.text for d in report.disagreements]
    assert report.warning is None


# ---------------------------------------------------------------------------------------------
# The commands
# ---------------------------------------------------------------------------------------------


def test_check_and_duel_use_the_recognised_term_and_say_so(tmp_path):
    runner = CliRunner()
    fa19 = str(FILES / "terms/hog-fa19/hog.py")
    checked = runner.invoke(app, ["check", fa19])
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.startswith("rules: hog-fa19 (recognised from the file's ")
    assert "valid:" in checked.stdout and "hog-fa19" in checked.stdout
    data = json.loads(runner.invoke(app, ["check", fa19, "--json"]).stdout)
    assert data["rules"].startswith("hog-fa19:") and data["term"]["how"] == "recognised"
    assert "is_swap" in data["term"]["agreeing"]
    dueled = runner.invoke(app, ["duel", fa19, "always_roll:4", "--exact", "--json"])
    assert dueled.exit_code == 0, dueled.output
    data = json.loads(dueled.stdout)
    assert data["rules"].startswith("hog-fa19") and data["term"]["recognised"] == "hog-fa19"
    told = runner.invoke(app, ["duel", fa19, "always_roll:4", "--exact", "--rules", "hog-su21"])
    assert "warning: the file's" in told.stderr and "(--rules hog-fa19)" in told.stderr


def test_check_shows_a_disagreement_without_disqualifying(tmp_path):
    path = _write(
        tmp_path, "def free_bacon(score):\n    return 9 - min(score // 10 % 10, score % 10)\n"
    )
    checked = CliRunner().invoke(app, ["check", path, "--rules", "hog-fa19", "--json"])
    assert checked.exit_code == 0, checked.output
    data = json.loads(checked.stdout)
    assert data["valid"] is True
    assert data["term"]["disagreements"][0]["function"] == "free_bacon"


def test_check_of_a_contest_entry_without_team_name_warns(tmp_path):
    path = _write(tmp_path, "")
    checked = CliRunner().invoke(app, ["check", path, "--rules", "hog-contest"])
    assert checked.exit_code == 0, checked.output
    assert "warning: no TEAM_NAME" in checked.stdout
    named = tmp_path / "named.py"
    named.write_text(
        "TEAM_NAME = 'Pigs'\ndef final_strategy(score, opponent_score):\n    return 4\n"
    )
    checked = CliRunner().invoke(app, ["check", str(named), "--rules", "hog-contest"])
    assert "no TEAM_NAME" not in checked.stdout and "team name: Pigs" in checked.stdout


NEW_TERM_FILES = ["hog-fa13", "hog-sp15", "hog-sp16", "hog-sp17", "hog-su20", "hog-su21"]


@pytest.mark.parametrize("term", [*NEW_TERM_FILES, "hog-contest"])
def test_the_term_files_written_from_the_skeletons_load_as_strategies(term):
    from hogbench.loading import load_entrant

    (path,) = (FILES / "terms" / term).glob("hog*.py")
    entrant = load_entrant(str(path), get_rules(term), cache=False)
    assert entrant.function == "final_strategy" and entrant.table is not None


def test_the_readmes_check_recognises_summer_2020():
    """The README's command, with the line it promises."""
    path = Path(__file__).parent.parent / "strategies" / "hog_su20" / "final.py"
    checked = CliRunner().invoke(app, ["check", str(path)])
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.startswith("rules: hog-su20 (recognised from the file's ")
    assert "valid:" in checked.stdout and "of hog-su20" in checked.stdout


@pytest.mark.parametrize(
    "body, problem",
    [
        ("def is_swap(a, b):\n    while True:\n        pass\n", "timed out"),
        ("import sys\n\ndef free_bacon(score):\n    sys.exit(3)\n", "exited the interpreter"),
        ("import os\n\ndef free_bacon(score):\n    os._exit(0)\n", ""),
    ],
)
def test_a_course_function_that_hangs_or_exits_costs_the_default_only(tmp_path, body, problem):
    """The probe is a door for submitted code like any other: a function that never returns
    or ends the worker leaves the default rules, says why, and is not probed again."""
    path = _write(tmp_path, body)
    rules, report = terms.review(path, None, time_limit=1)
    assert rules.name == DEFAULT_RULES and report.how == "default"
    assert (
        report.line
        == f"rules: {DEFAULT_RULES}, the default (the file's functions could not be called)"
    )
    assert problem in report.problem
    again = terms.review(path, None, time_limit=1)[1]
    assert again.to_dict() == report.to_dict()


def test_a_course_function_returning_something_huge_is_shown_short(tmp_path):
    """Each answer is made short in the worker as it comes, so a hundred such lists are never
    held at once (that ran out of memory part way, and the probe as a whole was lost)."""
    path = _write(tmp_path, "def free_bacon(score):\n    return list(range(10**6))\n")
    probes = {"free_bacon": [sandbox.Grid((tuple(range(100)),))]}
    rules = get_rules("hog-fa19")
    (answers,) = sandbox.probe_functions(parse_spec(path), rules, probes, memory_mb=256).values()
    assert [type(answer).__name__ for answer in answers] == ["list"] * 100
    _, report = terms.review(path, rules)
    (found,) = report.disagreements
    assert found.returned.startswith("returns [0, 1, 2") and len(found.text) < 400


def test_a_buggy_file_still_fits_the_terms_of_its_correct_functions(tmp_path):
    """Fall 2019's free_bacon beside an is_swap of no term: Fall 2019 and Summer 2019 (whose
    Free Bacon is the same) fit alike, and the line says so rather than 'no term'."""
    path = _write(
        tmp_path,
        "def free_bacon(score):\n    return 10 - min(score % 10, score // 10 % 10)\n\n"
        "def is_swap(player_score, opponent_score):\n    return player_score == opponent_score\n",
    )
    rules, report = terms.review(path, None)
    assert rules.name == DEFAULT_RULES and set(report.candidates) == {"hog-fa19", "hog-su19"}
    assert "the file's free_bacon fit hog-fa19, hog-su19 alike" in report.line
    _, given = terms.review(path, get_rules("hog-fa19"))
    assert [d.function for d in given.disagreements] == ["is_swap"]
    assert (
        given.lines()[-1]
        == "note: the file's free_bacon agree with hog-fa19's at every state tried"
    )


def test_watch_plays_under_the_recognised_term():
    path = str(FILES / "terms" / "hog-fa22" / "hog.py")
    watched = CliRunner().invoke(app, ["watch", path, "--seed", "3", "--json"])
    assert watched.exit_code == 0, watched.output
    data = json.loads(watched.stdout)
    assert data["rules"].startswith("hog-fa22") and data["term"]["recognised"] == "hog-fa22"
    ran = CliRunner().invoke(app, ["gauntlet", path, "-a", "always_roll:4", "--json"])
    assert ran.exit_code == 0, ran.output
    assert json.loads(ran.stdout)["term"]["how"] == "recognised"


def test_the_registry_names_rule_sets_and_the_cache_knows_no_rule_set():
    """Term recognition lives in terms.py; the cache is given a rule set's identity as a plain
    string, so neither the registry nor a rule set reaches into the cache, nor it into them."""
    package = Path(__file__).parent.parent / "hogbench"
    registry = (package / "rules" / "__init__.py").read_text()
    assert "from hogbench import cache" not in registry and "probe" not in registry
    assert "hogbench.cache" not in registry
    kept = (package / "cache.py").read_text()
    assert "__mro__" not in kept and "hogbench.rules" not in kept
    assert isinstance(get_rules("hog-fa19").identity, str)


@pytest.mark.parametrize(
    "reply",
    [
        '{"probed": {"free_bacon": [1, 2]}}',  # not the number of results asked for
        '{"probed": {"not_asked": [1]}}',
        '{"probed": [1, 2, 3]}',
        '{"probed": {"free_bacon": [{"raised": 5}]}}',
    ],
)
def test_a_file_that_forges_the_probes_reply_is_refused(tmp_path, reply):
    """The worker runs the submission in its own process: a file that replaces the worker's
    reply gets nothing from it but the default rules and the reason."""
    path = _write(
        tmp_path,
        "import __main__, json\n"
        f"__main__._probed = lambda found: json.loads({reply!r})\n\n"
        "def free_bacon(score):\n    return 1\n",
    )
    rules, report = terms.review(path, None)
    assert rules.name == DEFAULT_RULES and report.how == "default"
    assert "broke the protocol" in report.problem


def test_a_duel_of_two_files_checks_the_second_under_the_firsts_term():
    fa19, su21 = (str(FILES / "terms" / t / "hog.py") for t in ("hog-fa19", "hog-su21"))
    dueled = CliRunner().invoke(app, ["duel", fa19, su21, "-n", "200"])
    assert dueled.exit_code == 0, dueled.output
    assert f"{su21}: warning: the file's more_boar" in dueled.stderr
    assert "agree with hog-su21's (--rules hog-su21)" in dueled.stderr
    data = json.loads(CliRunner().invoke(app, ["duel", fa19, su21, "-n", "200", "--json"]).stdout)
    assert data["term"]["recognised"] == "hog-fa19"
    assert data["other_term"]["rules"].startswith("hog-fa19") and data["other_term"]["warning"]


HOSTILE = Path(__file__).parent / "hostile"
#: What the probe waits out before giving up (the table job waits them out too): the same limit.
SLOW = {"loop_at_import.py", "long_sleep.py", "just_over_time.py"}


@pytest.mark.parametrize("name", sorted(p.name for p in HOSTILE.glob("*.py") if p.name not in SLOW))
def test_the_hostile_corpus_through_the_probe_costs_nothing_but_the_default(name):
    """Every attack file of the sandbox's corpus, probed: a report (the default rules where the
    probe fails), never an exception, and nothing written outside."""
    pwned = [Path("/tmp/hogbench-pwned.txt"), Path("/root/hogbench-pwned.txt")]
    rules, report = terms.review(str(HOSTILE / name), None, time_limit=2.0)
    assert rules.name == DEFAULT_RULES or report.how == "recognised"
    assert report.line.startswith("rules: ")
    assert not any(p.exists() for p in pwned)


def test_a_goal_and_options_apply_to_the_recognised_term():
    """--option feral_hogs=false is Fall 2019's option, not the default's: it applies to the
    term the file is recognised as."""
    path = str(FILES / "terms" / "hog-fa19" / "hog.py")
    rules, report = terms.review(path, None, 50)
    assert rules.key == "hog-fa19:goal=50:feral_hogs=True"
    assert report.line.startswith("rules: hog-fa19 with goal 50 (recognised from the file's ")
    rules, _ = terms.review(path, None, None, {"feral_hogs": "false"})
    assert rules.key == "hog-fa19:goal=100:feral_hogs=False"
