"""What the Sow Sad terms share (Sp21, Fa21 to Fa25), and Fa20 before them: a turn is points,
then an update of the mover's score, then perhaps an extra turn.

The mover's new score is ``after_turn(score + points, opponent)``, where the points are the dice
(Sow Sad: any 1 makes the turn 1 point) or, for 0 dice, a rule of the scores (Piggy Points, Picky
Piggy, Oink Points, Pig Tail, Boar Brawl). ``after_turn`` is the term's update rule (Hog Pile,
Pigs on Prime, Square Swine, Sus Fuss; from Fa22 the course's ``play`` takes it as ``update``).
A term may give the mover an extra turn (``extra_turn(score, opponent)``: Sp21's More Boar,
Fa20's Pig Pass and Swine Align; Fa20's dice rule is Pig Out, the same rule). There are no
swaps, so the state is the two scores, and every turn raises their sum: the model is acyclic by
that sum. Except where rolling 0 can score nothing (Sp22's Hefty Hogs): a term that says so
(``may_never_end``) keeps the sum on such a turn, its model is cyclic within each sum, and a
game may never end (see ``RuleSet.turn_cap``).

The turn is written once (``_turn``): the engines compile it, and the narration of ``watch`` and
``play`` runs the same function as Python on the dice it rolls and says what it did. A term
module gives its course functions and a subclass of ``UpdateTerm`` naming them: ``zero_points``,
``after_turn``, ``extra_turn``, the names the narration uses and the course's two threshold
strategies, which the kit makes built-ins. Not a rule set itself (the registry skips modules
whose names start with ``_``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from hogbench.commentary import silence
from hogbench.dice import six_sided
from hogbench.jit import jit
from hogbench.rules._kit import (  # noqa: F401  (always_roll re-exported)
    ALWAYS_ROLL,
    always_roll,
    points_event,
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
    narrated_turn,
    outcome,
    resolve_signature,
    score_sum_model,
    where,
)

GOAL_SCORE = 100


def sow_sad(outcomes) -> int:
    """Sow Sad: "If any of the dice outcomes is a 1, the current player's score for the turn
    is 1." Otherwise the turn scores the sum of the outcomes."""
    return 1 if 1 in outcomes else sum(outcomes)


def make_extra_turn_play(take_turn, extra_turn):
    """The course's play for a term of extra turns (Spring and Summer 2021's More Boar): the
    mover adds TAKE_TURN(num_rolls, opponent_score, dice, goal) and goes again while
    EXTRA_TURN(their score, the opponent's)."""

    def play(
        strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence
    ):
        """Simulate a game and return the final scores of both players, with Player 0's score
        first, and Player 1's score second.

        A strategy is a function that takes two total scores as arguments (the current player's
        score, and the opponent's score), and returns a number of dice that the current player
        will roll this turn.
        """
        who = 0  # Who is about to take a turn, 0 (first) or 1 (second)
        while score0 < goal and score1 < goal:
            if who == 0:
                score0 += take_turn(strategy0(score0, score1), score1, dice, goal)
                extra = extra_turn(score0, score1)
            else:
                score1 += take_turn(strategy1(score1, score0), score0, dice, goal)
                extra = extra_turn(score1, score0)
            say = say(score0, score1)
            if not extra:
                who = 1 - who
        return score0, score1

    return play


def make_bonus_play(take_turn, bonus, silence):
    """The course's play of Spring and Summer 2022: the mover adds TAKE_TURN(num_rolls, score,
    opponent_score, dice, goal), then BONUS(their score, the opponent's) (Hog Pile, Pigs on
    Prime). The commentary, SILENCE unless given, takes the scores and the leader and returns
    the leader and a message to print."""

    def play(
        strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence
    ):
        """Simulate a game and return the final scores of both players, Player 0's first."""
        who, leader = 0, None
        while score0 < goal and score1 < goal:
            if who == 0:
                score0 += take_turn(strategy0(score0, score1), score0, score1, dice, goal)
                score0 += bonus(score0, score1)
            else:
                score1 += take_turn(strategy1(score1, score0), score1, score0, dice, goal)
                score1 += bonus(score1, score0)
            leader, message = say(score0, score1, leader)
            if message:
                print(message)
            who = 1 - who
        return score0, score1

    return play


# The engines' model: state score * goal + opponent; params [goal, top, zero[score * goal +
# opponent] ..., after_turn[score * goal + opponent] for scores below top ..., extra_turn[score *
# goal + opponent] for every score after_turn gives (0 from the goal on) ...], tables made by
# calling the term's course functions.


@narrated_turn
def _turn(params, score, opponent, choice, value):
    """The turn: the points (the zero-dice rule's or the dice's), the mover's score after the
    update rule, and whether the mover takes another turn."""
    goal, top = params[0], params[1]
    points = params[2 + score * goal + opponent] if choice == 0 else value
    score = params[2 + goal * goal + (score + points) * goal + opponent]
    again = params[2 + goal * goal + top * goal + score * goal + opponent] != 0
    return points, score, again


@jit(resolve_signature, arrays=True)
def _resolve(params, state, choice, value):
    goal = params[0]
    opponent = state % goal
    _, score, again = _turn(params, state // goal, opponent, choice, value)
    goes_on = where(
        again, outcome(score * goal + opponent, SAME), outcome(opponent * goal + score, OTHER)
    )
    return where(score >= goal, WIN, goes_on)


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
    ones_rule: ClassVar[str] = "Sow Sad"
    after_rule: ClassVar[str] = ""
    extra_rule: ClassVar[str] = ""
    #: The course's two strategies, which roll 0 dice when that gives at least a threshold, else
    #: 6 dice: by the zero-dice rule's points, and by the rule after them (the update or the
    #: extra turn) as its summary says. Their built-ins take the threshold, named and with the
    #: default of STRATEGY_THRESHOLD, and num_rolls.
    zero_rule_strategy: ClassVar[Callable | None] = None
    after_rule_strategy: ClassVar[Callable | None] = None
    after_rule_strategy_summary: ClassVar[str] = ""
    strategy_threshold: ClassVar[tuple[str, int]] = ("threshold", 8)

    def build_model(self) -> GameModel:
        goal = self.goal
        rows = [*dice_rows(self.dice_points), {0: 1.0}]
        zero = [self.zero_points(s, o) for s in range(goal) for o in range(goal)]
        assert min(zero) >= 1 or self.may_never_end  # else every turn raises the sum
        top = goal + max(*zero, *(max(row) for row in rows))
        after = [self.after_turn(s, o) for s in range(top) for o in range(goal)]
        assert all(a >= i // goal for i, a in enumerate(after))
        extra = [
            int(s < goal and bool(self.extra_turn and self.extra_turn(s, o)))
            for s in range(max(after) + 1)
            for o in range(goal)
        ]
        params = [goal, top, *zero, *after, *extra]
        return score_sum_model(
            goal, rows, params, dice_roll_kind, _resolve, may_never_end=self.may_never_end
        )

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        m = self.model
        score, opponent = self.scores(state)
        dice = tuple(rng.randint(1, 6) for _ in range(choice))
        value = self.dice_points(dice) if dice else 0
        points, new, again = (int(v) for v in _turn(m.params, score, opponent, choice, value))
        events = [points_event(dice, points, self.zero_rule, self.ones_rule)]
        if new != score + points:
            events.append(f"{self.after_rule}: {score + points} becomes {new}")
        if again:
            events.append(f"{self.extra_rule_at(new, opponent)}: extra turn!")
        code = int(m.resolve(m.params, state, choice, value))
        return Step(dice, events, code, (new, opponent) if new >= self.goal else None)

    def extra_rule_at(self, score: int, opponent_score: int) -> str:
        """The rule that gives the extra turn at these scores (a term may have several)."""
        return self.extra_rule

    def builtins(self) -> dict[str, Builtin]:
        found = {"always_roll": ALWAYS_ROLL}
        name, threshold = self.strategy_threshold
        for strategy, what, summary in (
            (self.zero_rule_strategy, self.zero_rule, ""),
            (self.after_rule_strategy, "", self.after_rule_strategy_summary),
        ):
            if strategy:  # a built-in by the course's name for it
                found[strategy.__name__] = threshold_builtin(
                    strategy, threshold, 6, what, summary, name=name
                )
        return found
