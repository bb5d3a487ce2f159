"""hog-fa18 against the course's seeded games (``tests/play.sol``)."""

from __future__ import annotations

import json

from hogbench.rules import hog_fa18 as course
from tests.course.course_cases import load
from tests.course.play_sol import seeded_games


def test_the_course_seeded_games():
    """The course's 1000 seeded games, kept in full. The course's ``play`` rolls its own
    six-sided dice (``dice=six_sided``, bound when it was defined), so the tracer sees no roll,
    and this term's tracer records a turn only once the last one has seen all its dice: only
    turns after a 0-dice turn are recorded, and each game's last recorded turn carries its final
    scores."""
    data = load("hog-fa18")["play_sol"]
    games = seeded_games(
        lambda strategy0, strategy1, *tracer_dice: course.play(strategy0, strategy1),
        wait_for_rolls=True,
    )
    for index, (turns, expected) in enumerate(zip(games, data["games"], strict=True)):
        assert turns == expected, f"game {index}"
    assert len(json.dumps(games)) == data["chars"] and sum(map(len, games)) == data["turns"] == 1109
