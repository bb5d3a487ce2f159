"""Real submissions load as written: they import the course's dice and ucb, and may use numpy.

The files under tests/files/course are written for these tests in the shape students hand in
(the term's import lines, @main run blocks, @trace, a contest entry's name); none ships a dice.py
or ucb.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from hogbench import sandbox
from hogbench.errors import StrategyError
from hogbench.loading import load_entrant
from hogbench.rules import get_rules
from hogbench.sandbox import bwrap as bwrap_module

COURSE = __import__("pathlib").Path(__file__).parent / "files" / "course"
TERMS = COURSE.parent / "terms"
#: term -> the built-in its student-style file's final_strategy is (terms whose files are loaded
#: in their own term tests are not repeated here)
TERM_FILES = {"hog-fa16": "swap_strategy:margin=7,num_rolls=5"}


@pytest.fixture(params=["bwrap", "off"])
def mode(request, monkeypatch):
    if request.param == "off":
        monkeypatch.setattr(bwrap_module, "turned_off", lambda request=None: True)  # --no-sandbox
    elif sandbox.bwrap_path() is None:
        pytest.skip("bubblewrap is not installed or does not work here")
    return request.param


@pytest.mark.parametrize("name", ["hog_fa14_style.py", "hog_fa22_style.py"])
def test_a_course_file_loads_and_is_the_strategy_it_writes(name, mode):
    rules = get_rules("hog-su21")
    entrant = load_entrant(str(COURSE / name), rules, cache=False)
    same = load_entrant("piggypoints_strategy:cutoff=8,num_rolls=6", rules)
    assert entrant.table is not None and entrant.function == "final_strategy"
    assert (entrant.table.choices == same.table.choices).all()


@pytest.mark.parametrize("term", TERM_FILES)
def test_a_term_file_loads_and_is_the_strategy_it_writes(term, mode):
    """A student's file of the term, in its skeleton's shape (its dice and ucb imports, its
    check_strategy calls at import), loads as written and answers for every pair of scores."""
    rules = get_rules(term)
    entrant = load_entrant(str(TERMS / term / "hog.py"), rules, cache=False)
    assert entrant.function == "final_strategy"
    same = load_entrant(TERM_FILES[term], rules)
    assert (entrant.table.choices == same.table.choices).all()


def test_the_oldest_skeletons_dice_names_import(mode):
    """The oldest skeleton imports four_sided_dice and six_sided_dice, and compares its chosen
    dice with them: the stand-in has those names, as the same dice."""
    entrant = load_entrant(str(COURSE / "hog_fa12_style.py"), get_rules("hog-fa13"), cache=False)
    expected = []
    for score in range(100):
        for opponent in range(100):
            if 100 - score <= 1 + max(opponent // 10, opponent % 10):
                expected.append(0)
            else:
                expected.append(3 if (score + opponent) % 7 == 0 else 5)
    assert entrant.table.choices.tolist() == expected


def test_a_name_the_stand_ins_lack_is_named_plainly(tmp_path, mode):
    """A course name hogbench's dice or ucb does not have is said to be missing from the stand-in
    (with what it has), not blamed on the import policy, and no path of hogbench's shows."""
    (tmp_path / "hog.py").write_text(
        "from dice import six_sided, twenty_sided\n\n"
        "def final_strategy(score, opponent_score):\n    return 4\n"
    )
    with pytest.raises(StrategyError) as caught:
        load_entrant(str(tmp_path / "hog.py"), get_rules("hog-fa13"), cache=False)
    message, detail = str(caught.value), caught.value.detail
    assert "stand-in for the course's dice module has no 'twenty_sided'" in message
    assert "four_sided_dice" in message and "make_test_dice" in message
    assert "--allow-import" not in message
    assert str(sandbox.COURSE_MODULES) not in message + detail


def test_a_contest_entrys_player_name_is_its_name(mode):
    entrant = load_entrant(
        str(COURSE / "contest_player_name.py"), get_rules("hog-sp19"), cache=False
    )
    assert entrant.name == "Hogwarts Express"
    assert entrant.table.choices[99 * 100 + 5] == 0 and entrant.table.choices[0] == 5


def test_team_name_wins_over_player_name(tmp_path, mode):
    (tmp_path / "hog.py").write_text(
        "TEAM_NAME = 'Team'\nPLAYER_NAME = 'Player'\n\n"
        "def final_strategy(score, opponent_score):\n    return 4\n"
    )
    entrant = load_entrant(str(tmp_path / "hog.py"), get_rules("hog-sp19", 20), cache=False)
    assert entrant.name == "Team"


def test_numpy_is_importable(mode):
    entrant = load_entrant(str(COURSE / "uses_numpy.py"), get_rules("hog-su21"), cache=False)
    expected = np.tile(np.where(np.arange(100) % 10 == 0, 0, 5), 100)
    assert (entrant.table.choices == expected).all()


def test_another_import_fails_with_the_policy_in_one_line(mode):
    with pytest.raises(StrategyError) as caught:
        load_entrant(str(COURSE / "imports_pandas.py"), get_rules("hog-su21"), cache=False)
    message = str(caught.value)
    assert "No module named 'pandas'" in message
    assert "the standard library, numpy and the course's dice and ucb" in message
    assert "--allow-import" in message


def test_a_module_neither_beside_the_file_nor_installed_is_said_to_belong_beside_it(tmp_path, mode):
    """A student's helper module left out of the folder: allowing imports cannot help, and the
    message says where the module belongs; with it beside the file, the file loads."""
    (tmp_path / "hog.py").write_text(
        "from best_move import best\n\n"
        "def final_strategy(score, opponent_score):\n    return best(score)\n"
    )
    rules = get_rules("hog-su21", 20)
    with pytest.raises(StrategyError) as caught:
        load_entrant(str(tmp_path / "hog.py"), rules, cache=False)
    message = str(caught.value)
    assert "'best_move' is neither beside the file nor installed" in message
    assert "goes in the file's folder" in message
    (tmp_path / "best_move.py").write_text("def best(score):\n    return 3\n")
    entrant = load_entrant(str(tmp_path / "hog.py"), rules, cache=False)
    assert set(entrant.table.choices.tolist()) == {3}


def test_a_file_drawing_random_numbers_at_import_is_not_deterministic(tmp_path, mode):
    """A file that picks its numbers of dice by experiment with random dice as it is imported
    is deterministic within one import, but not from one import to the next: under contest
    rules the two passes are two imports with different seeds, so it gets no table."""
    (tmp_path / "hog.py").write_text(
        "import random\n\n"
        "DRAWS = [random.randint(1, 10) for _ in range(20)]\n\n"
        "def final_strategy(score, opponent_score):\n    return DRAWS[score % 20]\n"
    )
    rules = get_rules("hog-su21", 20)
    entrant = load_entrant(str(tmp_path / "hog.py"), rules, cache=False)
    assert entrant.table is None and "randomness drawn at import" in entrant.live_reason


def test_allow_import_makes_an_installed_module_importable(tmp_path, mode):
    (tmp_path / "hog.py").write_text(
        "import rich\n\ndef final_strategy(score, opponent_score):\n    return 4\n"
    )
    rules = get_rules("hog-su21", 20)
    with pytest.raises(StrategyError, match="No module named 'rich'"):
        load_entrant(str(tmp_path / "hog.py"), rules, cache=False)
    entrant = load_entrant(str(tmp_path / "hog.py"), rules, cache=False, allow_imports=("rich",))
    assert set(entrant.table.choices.tolist()) == {4}


def test_a_students_own_dice_module_wins_over_the_stand_in(mode):
    entrant = load_entrant(str(COURSE / "own_dice" / "hog.py"), get_rules("hog-su21"), cache=False)
    assert set(entrant.table.choices.tolist()) == {3}


def test_the_stand_ins_behave_as_the_course_describes():
    import importlib.util

    spec = importlib.util.spec_from_file_location("dice", sandbox.COURSE_MODULES / "dice.py")
    dice = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dice)
    test = dice.make_test_dice(4, 1, 2)
    assert [test() for _ in range(5)] == [4, 1, 2, 4, 1]
    assert {dice.six_sided() for _ in range(300)} == set(range(1, 7))
    assert {dice.four_sided() for _ in range(200)} == set(range(1, 5))
    # The oldest skeletons' names for the same things.
    assert dice.four_sided_dice is dice.four_sided and dice.six_sided_dice is dice.six_sided
    assert {dice.make_fair_die(3)() for _ in range(100)} == {1, 2, 3}
    die = dice.make_test_die(2, 5)
    assert [die(), die(), die()] == [2, 5, 2]


def test_a_change_to_the_stand_ins_retires_cached_verdicts():
    """A verdict depends on the stand-ins a file imports: a file that failed for want of a name
    must be judged again once the stand-in has it, so they are part of every cache key."""
    from hogbench import verdicts

    stand_ins = {f"course_modules/{p.name}" for p in sandbox.COURSE_MODULES.glob("*.py")}
    assert {"course_modules/dice.py", "course_modules/ucb.py"} <= stand_ins
    assert stand_ins <= set(verdicts.JUDGES)
