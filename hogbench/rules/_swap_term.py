"""What the Swine Swap terms share (Sp19, Su19, Fa17, Sp18, Fa18; with Hog wild Fa13, Sp14,
Fa14, Fa16; the Feral Hogs kit builds on it): Free Bacon or the dice (Pig Out), then a Swine Swap
checked after every turn, also when the mover has reached the goal.

A term names its course functions (``free_bacon`` of the opponent's score, ``is_swap``, the
strategies) in a subclass of ``SwapTerm``; with Hog wild its ``select_dice`` too, and with a move
of -1 that scores 1 point and exchanges the dice in play for both players for the rest of the
game (Fall 2013's contest rule Ham Hijinks, Fall 2016's Pork Chop) the name of that rule. Its
``take_turn`` (the kit's ``make_take_turn``), ``play`` and strategies are the course's, made
for its functions (``make_play``, ...). The state is the two scores, and whether the dice are
exchanged, hidden from strategies; every turn scores at least 1 point and a swap keeps the sum
of the scores, so levels by that sum make the game acyclic.

The turn is written once (``_turn``): the engines compile it, and the narration of ``watch`` and
``play`` runs the same function as Python on the dice it rolls and says which rules fired from
what it returns. A term whose turn differs writes its own on the kit's dice (Sp15, Sp16). Not a
rule set itself (the registry skips modules whose names start with ``_``).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import ClassVar

import numpy as np

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
    check_int_choice,
    dice_roll_kind,
    dice_rows,
    narrated_turn,
    outcome,
    resolve_signature,
    roll_kind_signature,
    score_sum_model,
    turn_end,
    where,
)
from hogbench.rules.hog_contest import always_roll as always_roll_or_exchange

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


def make_wild_play(take_turn, select_dice, is_swap):
    """The course's play for a Hog wild term: the mover rolls SELECT_DICE(score, opponent)."""

    def play(strategy0, strategy1, score0=0, score1=0, goal=GOAL_SCORE):
        """Simulate a game and return the final scores of both players, Player 0's first."""
        who = 0
        while score0 < goal and score1 < goal:
            if who == 0:
                score0 += take_turn(strategy0(score0, score1), score1, select_dice(score0, score1))
            else:
                score1 += take_turn(strategy1(score1, score0), score0, select_dice(score1, score0))
            if is_swap(score0, score1):
                score0, score1 = score1, score0
            who = 1 - who
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
# The engines' model: state exchanged * goal**2 + score * goal + opponent, where exchanged says
# whether the dice in play are exchanged (by a -1 that scores 1 point: the contest's Ham
# Hijinks, hog-fa16's Pork Chop), hidden from strategies and shared by both players; 0 in a term
# without the move. params [goal, bacon[opponent] ..., swap[score * goal + opponent] ..., and with
# Hog wild wild[score * goal + opponent] ...], tables made by calling the term's course
# functions. Roll kinds: 0-9 roll 1 to 10 dice of variant 0 (six-sided), MAX_DICE is Free Bacon,
# variant v >= 1 rolls N dice as kind v * MAX_DICE + N (Hog wild's dice are variant 1, and with
# the exchange variant 2 * exchanged + Hog wild), and EXCHANGE_KIND is the exchange.
# ---------------------------------------------------------------------------------------------

EXCHANGE = -1  # the number of dice that exchanges the dice in play
WILD_KINDS = MAX_DICE + 1  # the first kind of variant 1
EXCHANGE_KIND = 4 * MAX_DICE + 1


@narrated_turn
def _turn(params, exchanged, score, opponent, choice, value):
    """The turn from the mover's side: the points (Free Bacon's for 0 dice, else VALUE: the
    dice's, or the exchange's point), the dice exchanged again by an exchange, then Swine Swap.
    Returns the scores after it, whether the dice are exchanged, the points and whether the
    scores swapped."""
    goal = params[0]
    points = params[1 + opponent] if choice == 0 else value
    score = score + points
    swap = params[1 + goal + score * goal + opponent] != 0
    exchanged = 1 - exchanged if choice == EXCHANGE else exchanged
    return where(swap, opponent, score), where(swap, score, opponent), exchanged, points, swap


@jit(resolve_signature, arrays=True)
def _resolve(params, state, choice, value):
    goal = params[0]
    score, opponent, _, _, _ = _turn(params, 0, state // goal, state % goal, choice, value)
    return turn_end(goal, score, opponent, outcome(opponent * goal + score, OTHER))


@jit(resolve_signature, arrays=True)
def _exchange_resolve(params, state, choice, value):
    goal = params[0]
    area = goal * goal
    exchanged, scores = state // area, state % area
    turn = _turn(params, exchanged, scores // goal, scores % goal, choice, value)
    score, opponent, exchanged, _, _ = turn
    return turn_end(
        goal, score, opponent, outcome(exchanged * area + opponent * goal + score, OTHER)
    )


@jit(roll_kind_signature, arrays=True)
def wild_roll_kind(params, state, choice):
    """Hog wild: four-sided dice where the wild table, at the end of the params, says so."""
    goal = params[0]
    if choice == 0:
        return MAX_DICE
    return where(params[len(params) - goal * goal + state] != 0, WILD_KINDS, 0) + choice - 1


@jit(roll_kind_signature, arrays=True)
def _exchange_roll_kind(params, state, choice):
    goal = params[0]
    area = goal * goal
    if choice == 0:
        return MAX_DICE
    if choice == EXCHANGE:
        return EXCHANGE_KIND
    variant = 2 * (state // area) + params[len(params) - area + state % area]
    return where(variant == 0, choice - 1, variant * MAX_DICE + choice)


def variant_of(kind: int) -> int:
    """The variant of the dice a roll kind rolls (0 for no dice)."""
    return (kind - 1) // MAX_DICE if MAX_DICE < kind < EXCHANGE_KIND else 0


class SwapTerm(RuleSet):
    """A term of Pig Out, Free Bacon and a Swine Swap checked after every turn; with Hog wild's
    dice where the term names its ``select_dice``, and a move of -1 that scores 1 point and
    exchanges the dice in play where it names its ``exchange_rule``."""

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
    #: the name of the -1 that exchanges the dice (Ham Hijinks, Pork Chop); None: no such move
    exchange_rule: ClassVar[str | None] = None
    bacon_strategy: ClassVar[Callable]
    swap_strategy: ClassVar[Callable]
    strategy_num_rolls = 4  # the course strategies' default number of dice
    strategy_threshold = "margin"  # what they call their threshold
    bacon_strategy_summary = ""  # "" : 0 dice when Free Bacon >= margin, else num_rolls
    swap_strategy_summary = (
        "0 dice for a beneficial swap or >= margin points (never a harmful swap), else num_rolls"
    )
    #: the sides of each variant's dice: six, Hog wild's four, and the dice exchanged (the
    #: contest's Ham Hijinks): four, or under Hog wild six
    variant_sides: ClassVar[tuple[int, ...]] = (6, 4, 4, 6)
    #: the turn the model's resolve runs, and the narration (a term with its own model may name
    #: its own): (params, exchanged, score, opponent, choice, value) -> (score, opponent,
    #: exchanged, ...) after it
    turn = staticmethod(_turn)
    #: the rules' names in the narration
    zero_rule, ones_rule, wild_rule, swap_rule = "Free Bacon", "Pig Out", "Hog Wild", "Swine Swap"

    def exchanging(self) -> bool:
        """Whether -1 exchanges the dice in this game (a term may make it an option)."""
        return self.exchange_rule is not None

    def choice(self, value: object) -> int:
        if not self.exchanging():
            return super().choice(value)
        return check_int_choice(value, EXCHANGE, MAX_DICE, f"{self.name}: {self.choice_help}")

    def describe_choice(self, choice: int) -> str:
        if choice == EXCHANGE and self.exchange_rule:
            return f"{self.exchange_rule} ({EXCHANGE})"
        return super().describe_choice(choice)

    def build_model(self) -> GameModel:
        goal, rows = self.goal, self.roll_rows()
        bacon = [self.zero_points(o) for o in range(goal)]
        assert min(bacon) >= 1  # every turn raises the sum of the scores
        score_rows = goal + max(*bacon, *(max(row) for row in rows))
        swap = [int(self.is_swap(s, o)) for s in range(score_rows) for o in range(goal)]
        params = [goal, *bacon, *swap, *(self.wild_table() if self.select_dice else [])]
        if self.exchanging():
            model = score_sum_model(goal, rows, params, _exchange_roll_kind, _exchange_resolve, 2)
            return dataclasses.replace(model, choices=np.arange(EXCHANGE, MAX_DICE + 1))
        roll_kind = wild_roll_kind if self.select_dice else dice_roll_kind
        return score_sum_model(goal, rows, params, roll_kind, _resolve)

    def roll_rows(self) -> list[dict[int, float]]:
        """The roll kinds' distributions: the dice of variant 0, Free Bacon (its value is 0),
        those of the other variants, and the exchange (1 point)."""
        variants = 4 if self.exchanging() else 2 if self.select_dice else 1
        rows = [*self.variant_rows(0), {0: 1.0}]
        for variant in range(1, variants):
            rows += self.variant_rows(variant)
        return [*rows, {1: 1.0}] if self.exchanging() else rows

    def variant_rows(self, variant: int) -> list[dict[int, float]]:
        """The points of 1 to 10 dice of VARIANT: the dice rule's on fair dice of its sides."""
        return dice_rows(self.dice_points, tuple(range(1, self.variant_sides[variant] + 1)))

    def zero_points(self, opponent_score: int) -> int:
        """The points of rolling 0 dice: Free Bacon's."""
        return self.free_bacon(opponent_score)

    def wild_table(self) -> list[int]:
        """Hog wild: 1 at score * goal + opponent where it changes the dice."""
        goal = self.goal
        return [int(self.hog_wild(s, o)) for s in range(goal) for o in range(goal)]

    def hog_wild(self, score: int, opponent_score: int) -> bool:
        """Whether Hog wild changes the dice at these scores: select_dice's four-sided dice."""
        return self.select_dice(score, opponent_score) is four_sided

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        exchanged, scores = divmod(state, self.goal * self.goal)
        score, opponent = divmod(scores, self.goal)
        dice, value, variant = self.roll(state, choice, rng)
        turn = self.turn(self.model.params, exchanged, score, opponent, choice, value)
        turn = tuple(int(v) for v in turn)
        events = self.narrate(choice, variant, exchanged, opponent, dice, turn)
        return self.step(state, choice, value, dice, events, turn[:2])

    def roll(self, state: int, choice: int, rng: random.Random) -> tuple[tuple[int, ...], int, int]:
        """The dice of CHOICE at STATE, rolled with RNG; the value of the roll kind the model's
        resolve takes for them; the variant of the dice (the model's roll kind says which)."""
        m = self.model
        kind = int(m.roll_kind(m.params, state, choice))
        variant = variant_of(kind)
        dice = tuple(self.die(rng, variant) for _ in range(max(choice, 0)))
        value = self.roll_points(dice) if dice else int(m.dist_value[m.dist_ptr[kind]])
        return dice, value, variant

    def die(self, rng: random.Random, variant: int) -> int:
        """One die of VARIANT rolled with RNG."""
        return rng.randint(1, self.variant_sides[variant])

    def roll_points(self, outcomes: tuple[int, ...]) -> int:
        """The value of a roll of OUTCOMES in the model's rows: the dice rule's points."""
        return self.dice_points(outcomes)

    def narrate(
        self, choice: int, variant: int, exchanged: int, opponent_score: int,
        dice: tuple[int, ...], turn: tuple[int, ...],
    ) -> list[str]:  # fmt: skip
        """What ``watch`` says of a turn: CHOICE, from dice EXCHANGED or not against
        OPPONENT_SCORE, rolled DICE of VARIANT, and the turn returned TURN."""
        if choice == EXCHANGE:
            events = [self.exchange_event(exchanged)]
        else:
            events = self.dice_events(variant, exchanged) if dice else []
            events += self.points_events(dice, turn[3], opponent_score)
        return events + [f"{self.swap_rule}!"] * turn[4]

    def exchange_event(self, exchanged: int) -> str:
        """What ``watch`` says of the exchange, the dice EXCHANGED before it or not."""
        return f"{self.exchange_rule}: 1 point, the dice exchanged"

    def dice_events(self, variant: int, exchanged: int) -> list[str]:
        """What ``watch`` says of the dice of VARIANT before their points."""
        why = [self.wild_rule] * (variant & 1) + ["dice exchanged"] * exchanged
        sides = "four" if self.variant_sides[variant] == 4 else "six"
        return [f"{', '.join(why)}: {sides}-sided dice"] if why else []

    def points_events(self, dice: tuple[int, ...], points: int, opponent_score: int) -> list[str]:
        """What ``watch`` says of the turn's POINTS."""
        return [points_event(dice, points, self.zero_rule, self.ones_rule)]

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
        found = {
            "always_roll": ALWAYS_ROLL,
            "bacon_strategy": threshold_builtin(
                self.bacon_strategy, 8, num_rolls, "Free Bacon", bacon, name=threshold
            ),
            "swap_strategy": threshold_builtin(
                self.swap_strategy, 8, num_rolls, "", swap, name=threshold
            ),
        }
        if self.exchanging():
            summary = f"always roll N dice, -1 to 10: {self.baseline}"
            found["always_roll"] = Builtin(always_roll_or_exchange, summary)
        return found
