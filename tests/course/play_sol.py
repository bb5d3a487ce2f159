"""The course's seeded games (``tests/play.sol``), replayed as the course's ``tests/play_utils.py``
plays and hashes them.

From Fall 2015 to Fall 2019 the harness is the same in substance: ``random.seed(1337)``, then for
each of 1000 games two random strategies, each drawing a seed from Python's random and answering
``randrange(0, 11)`` from random reseeded with the hash of (score, opponent_score, seed), the
generator's state kept for the dice. A traced strategy records a turn (the scores before it,
who, the number of dice) when it is a plausible successor of the last one (the other player,
different scores, nobody at the goal); traced dice record the sides of the last die rolled
(6 when none is seen). A turn's hash is the low 32 bits of the md5 of
``str((score0, score1, score0_after, score1_after, who, num_rolls, sides))``; ``play.sol`` holds
each game's list of hashes, written as a Python list.

Two details differ by term, and a term's test passes them:

* which dice the tracer sees: where the course's ``play`` looks up the module's dice at each turn
  (Fall 2015, Spring 2016, Spring 2017), the tracer records their sides; where its ``play`` has
  ``dice=six_sided`` as a default, bound when the course defined it (Fall 2018 on), the tracer
  never sees a roll;
* Fall 2018's harness also requires the last turn to be over (as many dice seen as chosen) before
  it records a successor. With no roll seen, only turns that follow a 0-dice turn are recorded, so
  its games are short lists; the last recorded turn still carries the game's final scores.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from hashlib import md5, sha256

from hogbench.dice import four_sided, six_sided

SEED, GAMES = 1337, 1000

#: play(strategy0, strategy1, six_sided, four_sided) -> final scores, with the tracer's dice
Play = Callable[..., tuple[int, int]]


def course_hash(value) -> int:
    """play_utils.hash: the low 32 bits of the md5 of str(VALUE)."""
    return int(md5(str(value).encode()).hexdigest(), base=16) & 0xFFFFFFFF


def digest(turns: list[int]) -> str:
    """A game's hash list as ``play.sol`` writes it (JSON), its sha256's first 12 hex digits."""
    return sha256(json.dumps(turns).encode()).hexdigest()[:12]


def with_module_dice(module) -> Play:
    """The play of a course module whose ``play`` looks up the module's ``six_sided`` and
    ``four_sided`` at each turn: during the game they are the tracer's dice."""

    def play(strategy0, strategy1, traced_six_sided, traced_four_sided):
        saved = module.six_sided, module.four_sided
        module.six_sided, module.four_sided = traced_six_sided, traced_four_sided
        try:
            return module.play(strategy0, strategy1)
        finally:
            module.six_sided, module.four_sided = saved

    return play


def seeded_game(play: Play, wait_for_rolls: bool = False) -> list[int]:
    """The hashed turns of the next seeded game; the strategies' seeds are drawn now."""
    turns = []  # [score0, score1, score0_after, score1_after, who, num_rolls, sides, rolls seen]

    def random_strategy(who):
        seed = random.randrange(0, 2**31)

        def strategy(score, opponent_score):
            state = random.getstate()
            random.seed(course_hash((score, opponent_score, seed)))
            num_rolls = random.randrange(0, 11)
            random.setstate(state)
            scores = (score, opponent_score) if who == 0 else (opponent_score, score)
            turn = [*scores, None, None, who, num_rolls, 6, 0]
            if turns:
                last = turns[-1]
                if (
                    last[4] == who
                    or last[:2] == turn[:2]
                    or (wait_for_rolls and last[7] < last[5])
                    or max(scores) >= 100
                ):
                    return num_rolls
                last[2:4] = scores
            turns.append(turn)
            return num_rolls

        return strategy

    def traced(dice, sides):
        def roll():
            outcome = dice()
            if turns:
                turns[-1][6] = sides
                turns[-1][7] += 1
            return outcome

        return roll

    strategy0, strategy1 = random_strategy(0), random_strategy(1)
    final = play(strategy0, strategy1, traced(six_sided, 6), traced(four_sided, 4))
    turns[-1][2:4] = final
    return [course_hash(tuple(turn[:7])) for turn in turns]


def seeded_games(play: Play, wait_for_rolls: bool = False) -> list[list[int]]:
    """The course's 1000 seeded games, Python's random restored afterwards."""
    state = random.getstate()
    random.seed(SEED)
    try:
        return [seeded_game(play, wait_for_rolls) for _ in range(GAMES)]
    finally:
        random.setstate(state)


def differing(games: list[list[int]], digests: list[str]) -> list[int]:
    """The games whose digest is not the course's."""
    return [i for i, (g, d) in enumerate(zip(games, digests, strict=True)) if digest(g) != d]
