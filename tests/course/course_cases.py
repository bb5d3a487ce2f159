"""Replaying the course's own test data (this folder's JSON) against a term's module.

``calls`` are ok-test expressions evaluated in the module's namespace; ``describe_game`` games
are rebuilt as the course's ``tests/play_utils.py`` builds them: both strategies and the dice
come from Python's ``random`` seeded with the test number, so the same dice reach the term's
course ``play`` in the same order.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from types import ModuleType

import numpy as np

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


@cache
def pig_out_distributions() -> dict[int, dict[int, float]]:
    """{n: {points: chance}} for 1..10 six-sided dice under Pig Out, by convolution."""
    out = {}
    for n in range(1, 11):
        no_one = np.zeros(6 * n + 1)
        no_one[0] = 1.0
        for _ in range(n):
            no_one = np.convolve(no_one, [0, 0, 1, 1, 1, 1, 1])[: 6 * n + 1] / 6
        dist = {s: float(p) for s, p in enumerate(no_one) if p > 0}
        dist[1] = dist.get(1, 0.0) + 1 - (5 / 6) ** n
        out[n] = dist
    return out


def plain_win_chance(strategy_a, strategy_b, *, free_bacon, is_swap=None, feral=None,
                     extra_turn=None, goal=100):  # fmt: skip
    """A's chance to beat B moving first, by a memoised recursion written from the course's
    rules (independent of the engines): FREE_BACON(opponent); IS_SWAP(mover, opponent) after
    the turn; FERAL "dice" (bonus on the previous number of dice) or "points" (on the previous
    turn's points); EXTRA_TURN(mover, opponent) after the turn."""
    dice = pig_out_distributions()

    @cache
    def mover_wins(score, opponent, previous, opponent_previous, a_moves):
        n = (strategy_a if a_moves else strategy_b)(score, opponent)
        outcomes = {free_bacon(opponent): 1.0} if n == 0 else dice[n]
        bonus = 3 if feral and abs(n - previous) == 2 else 0
        total = 0.0
        for points, p in outcomes.items():
            new, other = score + points + bonus, opponent
            kept = {"dice": n, "points": min(points, 13), None: 0}[feral]  # 13+: no bonus
            if is_swap is not None and is_swap(new, other):
                new, other = other, new
            if new >= goal:
                total += p
            elif other >= goal:
                continue
            elif extra_turn is not None and extra_turn(new, other):
                total += p * mover_wins(new, other, kept, opponent_previous, a_moves)
            else:
                total += p * (1 - mover_wins(other, new, opponent_previous, kept, not a_moves))
        return total

    return mover_wins(0, 0, 0, 0, True)
