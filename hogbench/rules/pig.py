"""Pig: one die, roll or hold (and Piglet, its coin-flipping miniature).

Rules (Neller & Presser, "Optimal Play of the Dice Game Pig", UMAP Journal 25(1), 2004):

* Each turn, a player repeatedly rolls a die until either a 1 is rolled or the player holds.
* A 1 scores nothing for the turn and ends it: the turn total is lost.
* Any other number is added to the turn total and the turn continues.
* Holding adds the turn total to the player's score and ends the turn.
* The first player to reach the goal (100) wins.

Piglet (option ``piglet``): a coin instead of the die; heads adds 1 to the turn total, tails loses
it and ends the turn.

The player's decision is ``strategy(score, opponent_score, turn_total) -> roll or hold``. A
strategy answers ``True`` or ``"roll"`` to roll, ``False`` or ``"hold"`` to hold (the strings in
any case, also ``"r"`` and ``"h"``); anything else, numbers included, is an illegal move.

Readings:

* A turn starts with a roll: the first decision of a turn is forced, so the game never asks the
  strategy at turn total 0. Holding with nothing would only pass the turn, and two strategies
  that always hold would otherwise loop forever.
* Reaching the goal wins: once score + turn total >= goal, holding wins, so the player holds
  automatically and the strategy is not asked.
* Decision tables cover the rectangle score, opponent_score, turn_total in [0, goal). Making
  one asks the strategy everywhere in it, so its answers at turn total 0 and where holding wins
  must be legal too, but the engines never use them.
* ``solve`` reports choice 0 (hold) where the choice is not consulted (turn total 0, or holding
  wins): both choices have the same value there and ties go to the first choice.

The first half of this module is the plain game (the readable reference); the second half builds
the engines' model from the same functions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from hogbench.dice import make_fair_dice, make_test_dice, six_sided  # noqa: F401
from hogbench.errors import IllegalChoice
from hogbench.jit import jit
from hogbench.rules.base import (
    OTHER,
    SAME,
    WIN,
    Builtin,
    GameModel,
    RuleSet,
    Step,
    distribution_table,
    levels_by_key,
    outcome,
    resolve_signature,
    roll_kind_signature,
)

GOAL_SCORE = 100

# ---------------------------------------------------------------------------------------------
# The plain game
# ---------------------------------------------------------------------------------------------

HOLD, ROLL = 0, 1


def coin() -> int:
    """Piglet's coin: 1 (heads) or 0 (tails) with equal chance."""
    return random.randint(0, 1)


@jit()
def roll_points(outcome: int, piglet: bool) -> int:
    """Points one roll adds to the turn total, 0 when it loses the turn total and ends the turn.

    Pig: a 1 loses the turn total; any other number is added. Piglet: tails (0) loses the turn
    total; heads (1) adds 1.
    """
    if piglet:
        return 1 if outcome == 1 else 0
    return 0 if outcome == 1 else outcome


@jit()
def holding_wins(score: int, turn_total: int, goal: int) -> bool:
    """The first player to reach the goal wins: holding now would reach it."""
    return score + turn_total >= goal


def parse_roll_or_hold(text: str) -> int:
    """A person's move in a roll-or-hold game: r or roll, h or hold (any case)."""
    word = text.strip().lower()
    if word in ("r", "roll"):
        return ROLL
    if word in ("h", "hold"):
        return HOLD
    raise IllegalChoice(f"{text.strip()!r} is not a move here: type r to roll or h to hold")


def wants_roll(answer: Any) -> bool:
    """A strategy's answer as roll (True) or hold (False); IllegalChoice for anything else.

    Roll: True or "roll" (or "r"); hold: False or "hold" (or "h"); strings in any case.
    """
    if isinstance(answer, (bool, np.bool_)):
        return bool(answer)
    if isinstance(answer, str):
        word = answer.strip().lower()
        if word in ("roll", "r"):
            return True
        if word in ("hold", "h"):
            return False
    raise IllegalChoice(
        f"returned {answer!r} ({type(answer).__name__}): answer True or 'roll' to roll,"
        " False or 'hold' to hold"
    )


def take_turn(
    strategy: Callable,
    score: int,
    opponent_score: int,
    goal: int = GOAL_SCORE,
    dice: Callable[[], int] = six_sided,
    piglet: bool = False,
) -> int:
    """Play one turn for the player with SCORE; return the points it scores.

    The turn starts with a roll; after each roll that keeps the turn going the strategy decides,
    unless holding wins, which ends the turn at once.
    """
    turn_total = 0
    while True:
        points = roll_points(dice(), piglet)
        if points == 0:
            return 0
        turn_total += points
        if holding_wins(score, turn_total, goal):
            return turn_total
        if not wants_roll(strategy(score, opponent_score, turn_total)):
            return turn_total


def play(
    strategy0: Callable,
    strategy1: Callable,
    goal: int = GOAL_SCORE,
    dice: Callable[[], int] | None = None,
    piglet: bool = False,
) -> tuple[int, int]:
    """Play one game; return the final scores, the first player's first.

    DICE is the die (Pig) or the coin (Piglet, 1 heads, 0 tails); by default a fair one.
    """
    if dice is None:
        dice = coin if piglet else six_sided
    scores = [0, 0]
    who = 0
    while True:
        strategy = strategy0 if who == 0 else strategy1
        scores[who] += take_turn(strategy, scores[who], scores[1 - who], goal, dice, piglet)
        if scores[who] >= goal:
            return scores[0], scores[1]
        who = 1 - who


def hold_at(n: int, goal: int = GOAL_SCORE) -> Callable:
    """Return a strategy that holds once the turn total reaches N, or when holding wins."""
    assert n >= 1, "hold_at needs a turn total of at least 1"

    def strategy(score, opponent_score, turn_total):
        return turn_total < n and not holding_wins(score, turn_total, goal)

    strategy.__name__ = f"hold_at({n})"
    return strategy


def keep_pace_end_race(goal: int = GOAL_SCORE) -> Callable:
    """Neller & Presser's "keep pace and end race" strategy ("Practical Play of the Dice Game
    Pig", UMAP Journal 31(1), 2010), for goal 100:

    * if score + turn total reaches the goal, hold;
    * otherwise, if either player's score is 71 or more, roll;
    * otherwise roll while the turn total is below 21 + round((opponent_score - score) / 8).

    For other goals 71 becomes goal - 29; round() rounds halves up.
    """
    race = goal - 29

    def strategy(score, opponent_score, turn_total):
        if holding_wins(score, turn_total, goal):
            return False
        if score >= race or opponent_score >= race:
            return True
        return turn_total < 21 + int(np.floor((opponent_score - score) / 8 + 0.5))

    strategy.__name__ = "keep_pace_end_race"
    return strategy


# ---------------------------------------------------------------------------------------------
# The engines' model, built from the functions above
# ---------------------------------------------------------------------------------------------
#
# State (score, opponent_score, turn_total) from the mover's side, numbered as the decision table:
# (score * goal + opponent) * goal + turn_total, all three in [0, goal). States with
# score + turn_total >= goal never occur (holding wins at once): they resolve to WIN and are left
# out of the order, so no engine spends time on them (their values stay 0 and are never read).
#
# Levels: a pig-out hands the same two scores to the opponent, so the states of scores (a, b)
# and (b, a) form one strongly connected set; holding adds to the scores. Levels are those sets,
# larger score sums first; within one, the turn totals descend so a sweep passes each set once
# around its only cycle (two pig-outs).

ROLL_ROW, HOLD_ROW = 0, 1


@jit(roll_kind_signature)
def _roll_kind(params, state, choice):
    goal = params[0]
    turn_total = state % goal
    score = state // (goal * goal)
    if holding_wins(score, turn_total, goal):
        return HOLD_ROW
    return ROLL_ROW if choice == ROLL or turn_total == 0 else HOLD_ROW


@jit(resolve_signature)
def _resolve(params, state, choice, value):
    goal = params[0]
    turn_total = state % goal
    opponent = (state // goal) % goal
    score = state // (goal * goal)
    if holding_wins(score, turn_total, goal):
        return WIN
    if choice == HOLD and turn_total > 0:
        return outcome((opponent * goal + score + turn_total) * goal, OTHER)
    if value == 0:  # the turn total is lost
        return outcome((opponent * goal + score) * goal, OTHER)
    turn_total += value
    if holding_wins(score, turn_total, goal):
        return WIN
    return outcome((score * goal + opponent) * goal + turn_total, SAME)


class RollOrHold(RuleSet):
    """A game of Pig's choices, roll or hold (Pig, Big Pig): typed r or h, and the strategy's
    third argument the turn total; a turn starts with a roll, so a hold with nothing to hold
    rolls."""

    strategy_args = ("score", "opponent_score", "turn_total")
    choice_help = "r to roll, h to hold"

    def choice(self, value: Any) -> int:
        return ROLL if wants_roll(value) else HOLD

    def describe_choice(self, choice: int) -> str:
        return "roll" if choice == ROLL else "hold"

    def parse_choice(self, text: str) -> int:
        return parse_roll_or_hold(text)

    def move_taken(self, state: int, choice: int) -> int:
        """A hold with a turn total of 0 rolls: a turn starts with a roll (the model's
        reading), so a hold there is never narrated as one."""
        return ROLL if choice == HOLD and self.state_args(state)[2] == 0 else choice

    def refusal(self, state: int, choice: int) -> str | None:
        if choice == HOLD and self.state_args(state)[2] == 0:
            return "nothing to hold yet: your turn total is 0, and a turn starts with a roll"
        return None


class Pig(RollOrHold):
    name = "pig"
    title = "Pig (Neller & Presser)"
    options_help = {
        "piglet": (False, "Piglet: a coin instead of a die; heads adds 1, tails loses the turn"),
    }
    rule_lines = (
        ("Roll", "a 1 loses the turn total and ends the turn; 2-6 add to the turn total"),
        ("Hold", "the turn total is added to the score; a turn starts with a roll"),
        ("Goal", "the first to reach the goal wins (holding is automatic there)"),
        ("Piglet", "option: a coin, heads adds 1, tails loses the turn total"),
    )
    baseline = "hold_at:20"

    max_goal = 150  # a table has goal**3 states: 3.4M at 150

    @property
    def obs_shape(self) -> tuple[int, ...]:
        return (self.goal, self.goal, self.goal)

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        """One decision with a real die (or Piglet's coin): a roll adds to the turn total or
        loses it; a hold banks it."""
        m, goal = self.model, self.goal
        score, _, turn_total = self.state_args(state)
        if choice == HOLD and turn_total > 0:
            code = int(m.resolve(m.params, state, HOLD, 0))
            final = (score + turn_total, self.scores(state)[1]) if code & 7 == WIN else None
            return Step((), [f"banks {turn_total} points"], code, final)
        piglet = bool(self.options["piglet"])
        face = rng.randint(0, 1) if piglet else rng.randint(1, 6)
        value = int(roll_points(face, piglet))
        code = int(m.resolve(m.params, state, ROLL, value))
        if value == 0:
            lost = "tails" if piglet else "Pig! a 1"
            events = [f"{lost}: loses the turn total of {turn_total}"]
        else:
            events = [f"turn total {turn_total + value}"]
        if choice == HOLD:
            events.insert(0, "nothing to hold at turn total 0: rolls")
        final = None
        if code & 7 == WIN:
            events.append(f"reaches {goal}: holds and wins")
            final = (score + turn_total + value, self.scores(state)[1])
        return Step((face,), events, code, final)

    def build_model(self) -> GameModel:
        goal = self.goal
        piglet = bool(self.options["piglet"])
        faces = (0, 1) if piglet else (1, 2, 3, 4, 5, 6)
        roll: dict[int, float] = {}
        for face in faces:
            points = int(roll_points(face, piglet))
            roll[points] = roll.get(points, 0.0) + 1 / len(faces)
        ptr, values, probs = distribution_table([roll, {0: 1.0}])  # ROLL_ROW, HOLD_ROW

        states = np.arange(goal**3, dtype=np.int64)
        turn_total = states % goal
        opponent = (states // goal) % goal
        score = states // (goal * goal)
        live = states[score + turn_total < goal]  # the others never occur: left out of order
        s, o, t = score[live], opponent[live], turn_total[live]
        order, level_ptr = levels_by_key((s + o) * goal + np.minimum(s, o), (s > o) * goal - t)
        order = live[order]
        return GameModel(
            n_states=goal**3,
            start=0,
            observation=states,
            order=order,
            level_ptr=level_ptr,
            cyclic=True,
            params=np.array([goal], dtype=np.int64),
            roll_kind=_roll_kind,
            resolve=_resolve,
            dist_ptr=ptr,
            dist_value=values,
            dist_prob=probs,
            choices=np.array([HOLD, ROLL], dtype=np.int64),
            turn_starts=order[order % goal == 0],  # turn total 0
        )

    def builtins(self) -> dict[str, Builtin]:
        goal = self.goal
        return {
            "hold_at": Builtin(
                lambda n=20: hold_at(n, goal),
                "hold once the turn total reaches N (or holding wins): hold_at:20",
            ),
            "keep_pace_end_race": Builtin(
                lambda: keep_pace_end_race(goal),
                "Neller & Presser: roll for the goal once a score is >= goal-29, else hold at"
                " 21 + round((opponent - score) / 8)",
            ),
        }


RULES = Pig
