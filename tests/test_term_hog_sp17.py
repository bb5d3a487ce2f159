"""hog-sp17 against the course's ok tests and its seeded games (``tests/play.sol``)."""

from __future__ import annotations

from hogbench.rules import hog_contest as course
from tests.course.course_cases import check_calls, load
from tests.course.play_sol import differing, seeded_games


def test_the_course_ok_tests():
    """Questions 1 to 5 of the course's ok tests, with hog-contest's functions (hog-sp17's, Pork
    Chop never chosen): Pig Out's cap, Hogtimus Prime, Hog Wild's dice, Swine Swap, play."""
    assert check_calls("hog-sp17", course) == 54


def test_the_course_seeded_games():
    """The course's 1000 seeded games, every one compared by digest. hog-sp17 is hog-contest
    with Pork Chop off; the course's ``play`` looked up the module's dice at each turn (Hog Wild
    choosing them), so the tracer's dice are passed in and it records their sides, as for Fall
    2015. The games confirm Hog Wild and Pig Out as read here (without either, all 1000 differ),
    Hogtimus Prime on Free Bacon turns (without it 999) and the swap after a turn that reaches
    the goal (without it, games 27, 194, 200, 319, 532, 831, 883, 909)."""
    data = load("hog-sp17")["play_sol"]
    games = seeded_games(
        lambda strategy0, strategy1, six_sided, four_sided: course.play(
            strategy0, strategy1, dice=six_sided, wild_dice=four_sided, pork_chop=False
        )
    )
    differ = differing(games, data["digests"])
    assert not differ, f"{len(differ)} of the course's games differ, the first {differ[:10]}"
    assert sum(map(len, games)) == data["turns"] == 22_611
