"""What the Swine Swap terms share (Sp19, Su19, Fa17, Sp18, Fa18; Hog wild in Fa13, Sp14, Fa14):
Free Bacon or the dice (Pig Out), then a Swine Swap checked after every turn, also when the mover
has reached the goal.

A term names its course functions (``free_bacon`` of the opponent's score, ``is_swap``, the
strategies; with Hog wild, ``select_dice``) in a subclass of ``SwapTerm``. Its ``take_turn``,
``play`` and strategies are the course's, made here for its functions (``make_take_turn``,
``make_play``, ...). The state is the two scores; every turn scores at least 1 point and a swap
keeps the sum of the scores, so levels by that sum make the game acyclic.

The turn is written once (``_turn``): the engines compile it, and the narration of ``watch`` and
``play`` runs the same function as Python on the dice it rolls and says which rules fired from
what it returns. Not a rule set itself (the registry skips modules whose names start with
``_``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from hogbench.commentary import make_announce_highest, silence
from hogbench.dice import four_sided, six_sided
from hogbench.jit import jit
from hogbench.rules._kit import ALWAYS_ROLL, points_event, threshold_builtin
from hogbench.rules.base import (
    LOSE,
    MAX_DICE,
    OTHER,
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
    roll_kind_signature,
    score_sum_model,
)

GOAL_SCORE = 100


def pig_out(outcomes) -> int:
    """Pig Out: the turn scores 1 if any outcome is a 1, else the sum of the outcomes."""
    return 1 if 1 in outcomes else sum(outcomes)


#: What ``watch`` says of a player's biggest gain in these terms: Spring 2019's announce_highest.
announce_highest = make_announce_highest(
    "{gain} point(s)! That's the biggest gain yet for Player {who}"
)


# ---------------------------------------------------------------------------------------------
# The course's take_turn, play and strategies, for a term's functions
# ---------------------------------------------------------------------------------------------


def make_take_turn(free_bacon, roll_dice):
    """The course's take_turn for a term of FREE_BACON(opponent_score) and ROLL_DICE."""

    def take_turn(num_rolls, opponent_score, dice=six_sided):
        """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free Bacon)."""
        assert type(num_rolls) is int, "num_rolls must be an integer."
        assert num_rolls >= 0, "Cannot roll a negative number of dice in take_turn."
        assert num_rolls <= 10, "Cannot roll more than 10 dice."
        if num_rolls == 0:
            return free_bacon(opponent_score)
        return roll_dice(num_rolls, dice)

    return take_turn


def make_play(take_turn, is_swap):
    """The course's play for a term whose turn is TAKE_TURN(num_rolls, opponent_score, dice),
    then a swap when IS_SWAP(mover's score, opponent's score), checked after every turn."""

    def play(
        strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence
    ):
        """Simulate a game and return the final scores of both players, with Player 0's score
        first, and Player 1's score second."""
        player = 0  # Which player is about to take a turn, 0 (first) or 1 (second)
        while score0 < goal and score1 < goal:
            if player == 0:
                score0 += take_turn(strategy0(score0, score1), score1, dice)
                swap = is_swap(score0, score1)
            else:
                score1 += take_turn(strategy1(score1, score0), score0, dice)
                swap = is_swap(score1, score0)
            if swap:
                score0, score1 = score1, score0
            player = 1 - player
            say = say(score0, score1)
        return score0, score1

    return play


def make_bacon_strategy(free_bacon, num_rolls=4):
    """The course's bacon_strategy for a term's FREE_BACON."""

    def bacon_strategy(score, opponent_score, margin=8, num_rolls=num_rolls):
        """This strategy rolls 0 dice if that gives at least MARGIN points, and rolls NUM_ROLLS
        otherwise."""
        return 0 if free_bacon(opponent_score) >= margin else num_rolls

    return bacon_strategy


def make_swap_strategy(free_bacon, is_swap, num_rolls=4, avoid_harmful=True):
    """The course's swap_strategy for a term's FREE_BACON and IS_SWAP: 0 dice for a beneficial
    swap; with AVOID_HARMFUL (most terms), NUM_ROLLS rather than a harmful one; else the bacon
    strategy. A swap of equal scores is neither beneficial nor harmful."""
    bacon_strategy = make_bacon_strategy(free_bacon, num_rolls)

    def swap_strategy(score, opponent_score, margin=8, num_rolls=num_rolls):
        """This strategy rolls 0 dice when it triggers a beneficial swap. It also rolls 0 dice if
        it gives at least MARGIN points (and, in most terms, does not trigger a harmful swap).
        Otherwise, it rolls NUM_ROLLS."""
        new_score = score + free_bacon(opponent_score)
        if is_swap(new_score, opponent_score) and new_score != opponent_score:
            if new_score < opponent_score:
                return 0
            if avoid_harmful:
                return num_rolls
        return bacon_strategy(score, opponent_score, margin, num_rolls)

    return swap_strategy


# ---------------------------------------------------------------------------------------------
# The engines' model: state score * goal + opponent; params [goal, bacon[opponent] ...,
# swap[score * goal + opponent] ..., and with Hog wild wild[score * goal + opponent] ...], tables
# made by calling the term's course functions. Roll kinds: 0-9 roll 1 to 10 dice of variant 0
# (six-sided), MAX_DICE is Free Bacon, and variant v >= 1 rolls N dice as kind v * MAX_DICE + N
# (Hog wild's four-sided dice are variant 1).
# ---------------------------------------------------------------------------------------------

WILD_KINDS = MAX_DICE + 1  # the first kind of variant 1


@narrated_turn
def _turn(params, score, opponent, choice, value):
    """The turn from the mover's side: the points (Free Bacon's for 0 dice, else the dice's),
    then Swine Swap. Returns the scores after it, the points and whether the scores swapped."""
    goal = params[0]
    points = params[1 + opponent] if choice == 0 else value
    score += points
    swap = params[1 + goal + score * goal + opponent] != 0
    return (opponent if swap else score), (score if swap else opponent), points, swap


@jit(resolve_signature)
def _resolve(params, state, choice, value):
    goal = params[0]
    score, opponent, _, _ = _turn(params, state // goal, state % goal, choice, value)
    if score >= goal:
        return WIN
    if opponent >= goal:  # a swap handed the opponent the goal
        return LOSE
    return outcome(opponent * goal + score, OTHER)


@jit(roll_kind_signature)
def wild_roll_kind(params, state, choice):
    """Hog wild: four-sided dice where the wild table, at the end of the params, says so."""
    goal = params[0]
    if choice == 0:
        return MAX_DICE
    if params[len(params) - goal * goal + state]:
        return WILD_KINDS + choice - 1
    return choice - 1


def variant_of(kind: int) -> int:
    """The variant of the dice a roll kind rolls (0 for no dice)."""
    return (kind - 1) // MAX_DICE if kind > MAX_DICE else 0


class SwapTerm(RuleSet):
    """A term of Pig Out, Free Bacon and a Swine Swap checked after every turn; with Hog wild's
    four-sided dice where the term names its ``select_dice``."""

    strategy_args = ("score", "opponent_score")
    requires_deterministic = True
    baseline = "always_roll:4"
    dice_points = staticmethod(pig_out)
    announce_highest = staticmethod(announce_highest)
    #: the term's course functions: free_bacon(opponent_score), is_swap(score, opponent_score)
    free_bacon: ClassVar[Callable[[int], int]]
    is_swap: ClassVar[Callable[[int, int], bool]]
    #: Hog wild: select_dice(score, opponent_score) is four_sided or six_sided; None: six-sided
    select_dice: ClassVar[Callable | None] = None
    bacon_strategy: ClassVar[Callable]
    swap_strategy: ClassVar[Callable]
    strategy_num_rolls = 4  # the course strategies' default number of dice
    strategy_threshold = "margin"  # what they call their threshold
    bacon_strategy_summary = ""  # "" : 0 dice when Free Bacon >= margin, else num_rolls
    swap_strategy_summary = (
        "0 dice for a beneficial swap or >= margin points (never a harmful swap), else num_rolls"
    )
    #: the sides of each variant's dice
    variant_sides: ClassVar[tuple[int, ...]] = (6, 4)
    #: the rules' names in the narration
    zero_rule, ones_rule, wild_rule, swap_rule = "Free Bacon", "Pig Out", "Hog Wild", "Swine Swap"

    def build_model(self) -> GameModel:
        goal, rows = self.goal, self.roll_rows()
        bacon = [self.free_bacon(o) for o in range(goal)]
        assert min(bacon) >= 1  # every turn raises the sum of the scores
        score_rows = goal + max(*bacon, *(max(row) for row in rows))
        swap = [int(self.is_swap(s, o)) for s in range(score_rows) for o in range(goal)]
        if self.select_dice is None:
            return score_sum_model(goal, rows, [goal, *bacon, *swap], dice_roll_kind, _resolve)
        params = [goal, *bacon, *swap, *self.wild_table()]
        return score_sum_model(goal, rows, params, wild_roll_kind, _resolve)

    def roll_rows(self) -> list[dict[int, float]]:
        """The roll kinds' distributions: six-sided dice, Free Bacon (its value is 0), and with
        Hog wild four-sided dice."""
        four = dice_rows(self.dice_points, (1, 2, 3, 4)) if self.select_dice else []
        return [*dice_rows(self.dice_points), {0: 1.0}, *four]

    def wild_table(self) -> list[int]:
        """Hog wild: 1 at score * goal + opponent where the mover rolls four-sided dice."""
        goal, select_dice = self.goal, self.select_dice
        return [int(select_dice(s, o) is four_sided) for s in range(goal) for o in range(goal)]

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        dice, value, variant = self.roll(state, choice, rng)
        turn = _turn(self.model.params, *divmod(state, self.goal), choice, value)
        score, opponent, points, swap = (int(v) for v in turn)
        events = self.dice_events(variant) if dice else []
        events.append(points_event(dice, points, self.zero_rule, self.ones_rule))
        events += [f"{self.swap_rule}!"] * swap
        return self.step(state, choice, value, dice, events, (score, opponent))

    def roll(self, state: int, choice: int, rng: random.Random) -> tuple[tuple[int, ...], int, int]:
        """The dice of CHOICE at STATE, rolled with RNG; the value of the roll kind the model's
        resolve takes for them; the variant of the dice (the model's roll kind says which)."""
        m = self.model
        kind = int(m.roll_kind(m.params, state, choice))
        variant = variant_of(kind)
        dice = tuple(rng.randint(1, self.variant_sides[variant]) for _ in range(max(choice, 0)))
        return (
            dice,
            self.dice_points(dice) if dice else int(m.dist_value[m.dist_ptr[kind]]),
            variant,
        )

    def dice_events(self, variant: int) -> list[str]:
        """What ``watch`` says of the dice of VARIANT before their points."""
        return [f"{self.wild_rule}: four-sided dice"] if variant else []

    def step(
        self, state: int, choice: int, value: int, dice: tuple[int, ...], events: list[str],
        scores: tuple[int, int],
    ) -> Step:  # fmt: skip
        """The narrated turn as a Step: its outcome code is the model's resolve of VALUE, and
        SCORES, the scores after it, are the final scores when the game is over."""
        m = self.model
        code = int(m.resolve(m.params, state, choice, value))
        return Step(dice, events, code, scores if code & 7 in (WIN, LOSE) else None)

    def builtins(self) -> dict[str, Builtin]:
        threshold, num_rolls = self.strategy_threshold, self.strategy_num_rolls
        bacon, swap = self.bacon_strategy_summary, self.swap_strategy_summary
        return {
            "always_roll": ALWAYS_ROLL,
            "bacon_strategy": threshold_builtin(
                self.bacon_strategy, 8, num_rolls, "Free Bacon", bacon, name=threshold
            ),
            "swap_strategy": threshold_builtin(
                self.swap_strategy, 8, num_rolls, "", swap, name=threshold
            ),
        }
