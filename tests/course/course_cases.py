"""Replaying the course's own test data (this folder's JSON) against a term's module.

``calls`` are ok-test expressions evaluated in the module's namespace; ``describe_game`` games
are rebuilt as the course's ``tests/play_utils.py`` builds them: both strategies and the dice
come from Python's ``random`` seeded with the test number, so the same dice reach the term's
course ``play`` in the same order.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).parent


def load(term: str) -> dict:
    return json.loads((HERE / term / "cases.json").read_text())


def check_calls(term: str, module: ModuleType) -> int:
    """Evaluate every course call; returns how many were checked."""
    data = load(term)
    namespace = dict(vars(module))
    exec(data["setup"], namespace)
    for call, expected in data["calls"]:
        got = eval(call, namespace)
        got = list(got) if isinstance(got, tuple) else got
        assert got == expected, f"{term}: {call} gave {got}, the course expects {expected}"
    return len(data["calls"])


def _with_seed(seed, fn):
    state = random.getstate()
    random.seed(seed)
    try:
        return fn()
    finally:
        random.setstate(state)


def course_strategy(seed):
    """The course's random_strat: a seeded, deterministic choice for each pair of scores."""

    def strategy(score, opponent_score):
        key = score * 314159265358979 + opponent_score * 27182818284590452353602874713527
        key += seed * 161803398874989484820
        return _with_seed(key % 2**32, lambda: random.randrange(0, 11))

    return strategy


def course_dice(seed):
    """The course's get_dice: each roll reseeds from the previous one."""

    def dice():
        nonlocal seed
        seed, value = _with_seed(seed, lambda: (random.randrange(0, 2**32), random.randrange(1, 7)))
        return value

    return dice


def replay_game(play, game, **options):
    """Play one describe_game case through PLAY; returns its turns as the course prints them:
    [who, num_dice, outcomes, end0, end1]."""
    number, score0, score1, goal = game[:4]
    seeds = _with_seed(number, lambda: [random.randrange(2**32) for _ in range(3)])
    rolled, turns, ends = [], [], []
    raw = course_dice(seeds[2])

    def dice():
        rolled.append(raw())
        return rolled[-1]

    def recorded(strategy, who):
        def choose(score, opponent_score):
            turns.append([who, strategy(score, opponent_score), len(rolled)])
            return turns[-1][1]

        return choose

    def say(s0, s1):
        ends.append((s0, s1))
        return say

    play(
        recorded(course_strategy(seeds[0]), 0), recorded(course_strategy(seeds[1]), 1),
        score0=score0, score1=score1, dice=dice, goal=goal, say=say, **options,
    )  # fmt: skip
    starts = [t[2] for t in turns] + [len(rolled)]
    return [
        [w, n, rolled[starts[i] : starts[i + 1]], *ends[i]] for i, (w, n, _) in enumerate(turns)
    ]
