"""What the Sow Sad terms share (Sp21, Fa21 to Fa25): a turn is points, then an update of the
mover's score, then perhaps an extra turn.

The mover's new score is ``after_turn(score + points, opponent)``, where the points are the dice
(Sow Sad: any 1 makes the turn 1 point) or, for 0 dice, a rule of the scores (Piggy Points, Picky
Piggy, Oink Points, Pig Tail, Boar Brawl). ``after_turn`` is the term's update rule (Hog Pile,
Pigs on Prime, Square Swine, Sus Fuss; from Fa22 the course's ``play`` takes it as ``update``).
A term may give the mover an extra turn (``extra_turn(score, opponent)``: Sp21's More Boar).
There are no swaps, so the state is the two scores, and every turn raises their sum: the model
is acyclic by that sum. Except where rolling 0 can score nothing (Sp22's Hefty Hogs): a term
that says so (``may_never_end``) keeps the sum on such a turn, its model is cyclic within each
sum, and a game may never end (see ``RuleSet.turn_cap``).

A term module gives its course functions and a subclass of ``UpdateTerm`` naming them:
``zero_points``, ``after_turn``, ``extra_turn`` and the names the narration uses. Not a rule set
itself (the registry skips modules whose names start with ``_``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from hogbench.jit import jit
from hogbench.rules._kit import (  # noqa: F401  (always_roll, threshold_builtin re-exported)
    ALWAYS_ROLL,
    always_roll,
    threshold_builtin,
)
from hogbench.rules.base import (
    OTHER,
    SAME,
    WIN,
    Builtin,
    GameModel,
    RuleSet,
    Step,
    dice_roll_kind,
    dice_rows,
    outcome,
    resolve_signature,
    score_sum_model,
)


def sow_sad(outcomes) -> int:
    """Sow Sad: "If any of the dice outcomes is a 1, the current player's score for the turn
    is 1." Otherwise the turn scores the sum of the outcomes."""
    return 1 if 1 in outcomes else sum(outcomes)


# The engines' model: state score * goal + opponent; params [goal, top, zero[score * goal +
# opponent] ..., after_turn[score * goal + opponent] for scores below top ..., extra_turn[score *
# goal + opponent] ...], tables made by calling the term's course functions.


@jit(resolve_signature)
def _resolve(params, state, choice, value):
    goal, top = params[0], params[1]
    after_base = 2 + goal * goal
    extra_base = after_base + top * goal
    score = state // goal
    opponent = state % goal
    points = params[2 + state] if choice == 0 else value
    score = params[after_base + (score + points) * goal + opponent]
    if score >= goal:
        return WIN
    if params[extra_base + score * goal + opponent]:
        return outcome(score * goal + opponent, SAME)
    return outcome(opponent * goal + score, OTHER)


def _unchanged(score: int, opponent_score: int) -> int:
    return score


class UpdateTerm(RuleSet):
    """A term whose turn is ``after_turn(score + points, opponent)``; subclasses name the course
    functions."""

    strategy_args = ("score", "opponent_score")
    requires_deterministic = True
    baseline = "always_roll:6"
    dice_points = staticmethod(sow_sad)
    hidden_state = "nothing beyond the two scores"
    #: points for rolling 0 dice: zero_points(score, opponent_score)
    zero_points: ClassVar[Callable[[int, int], int]]
    #: the mover's score once the turn's points are added: after_turn(score, opponent_score)
    after_turn: ClassVar[Callable[[int, int], int]] = staticmethod(_unchanged)
    #: whether the mover, below the goal after the turn, takes another: extra_turn(score, opp)
    extra_turn: ClassVar[Callable[[int, int], bool] | None] = None
    #: whether rolling 0 can score 0 points with no update, so that a game may never end
    may_never_end: ClassVar[bool] = False
    zero_rule: ClassVar[str]  # the names the narration uses
    after_rule: ClassVar[str] = ""
    extra_rule: ClassVar[str] = ""

    def build_model(self) -> GameModel:
        goal = self.goal
        rows = [*dice_rows(sow_sad), {0: 1.0}]
        zero = [self.zero_points(s, o) for s in range(goal) for o in range(goal)]
        assert min(zero) >= 1 or self.may_never_end  # else every turn raises the sum
        top = goal + max(*zero, *(max(row) for row in rows))
        after = [self.after_turn(s, o) for s in range(top) for o in range(goal)]
        assert all(a >= i // goal for i, a in enumerate(after))
        extra = [
            int(bool(self.extra_turn and self.extra_turn(s, o)))
            for s in range(goal)
            for o in range(goal)
        ]
        params = [goal, top, *zero, *after, *extra]
        return score_sum_model(
            goal, rows, params, dice_roll_kind, _resolve, may_never_end=self.may_never_end
        )

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        score, opponent = self.scores(state)
        if choice == 0:
            dice, points = (), self.zero_points(score, opponent)
            events = [f"{self.zero_rule}: {points} point{'s' * (points != 1)}"]
        else:
            dice = tuple(rng.randint(1, 6) for _ in range(choice))
            points = sow_sad(dice)
            events = ["Sow Sad! 1 point"] if 1 in dice else [f"{points} points"]
        new = self.after_turn(score + points, opponent)
        if new != score + points:
            events.append(f"{self.after_rule}: {score + points} becomes {new}")
        m = self.model
        code = int(m.resolve(m.params, state, choice, 0 if choice == 0 else points))
        if code & 7 == SAME:
            events.append(f"{self.extra_rule}: extra turn!")
        return Step(dice, events, code, (new, opponent) if new >= self.goal else None)

    def builtins(self) -> dict[str, Builtin]:
        return {"always_roll": ALWAYS_ROLL}
