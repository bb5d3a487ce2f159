"""hog-sp16 against the course's seeded games (``tests/play.sol``)."""

from __future__ import annotations

from hogbench.rules import hog_sp16 as course
from tests.course.course_cases import load
from tests.course.play_sol import differing, seeded_games, with_module_dice


def test_the_course_seeded_games():
    """The course's 1000 seeded games, every one compared by digest: the course's ``play`` looks
    up the dice in play (six- or four-sided, Perfect Piggy switching them) at each turn, so the
    tracer records their sides, as it does for Fall 2015."""
    data = load("hog-sp16")["play_sol"]
    games = seeded_games(with_module_dice(course))
    differ = differing(games, data["digests"])
    assert not differ, f"{len(differ)} of the course's games differ, the first {differ[:10]}"
    assert sum(map(len, games)) == data["turns"] == 27_735
