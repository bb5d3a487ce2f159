"""Hog, CS 61A Spring 2016 (probable; see below): Pig Out, Free Bacon, Hogtimus Prime, Perfect
Piggy, Swine Swap.

Rules (the course's rule text, as copied into the docstring of ema00/Berkeley-CS61A-sp15
``01_Introduction/hog/hog.py``):

* Pig Out. "If any of the dice outcomes is a 1, the current player's score for the turn is 1."
* Free Bacon. "A player who chooses to roll zero dice scores one more than the largest digit in
  the opponent's total score."
* Hogtimus Prime. "If a player's score for the turn is a prime number, then the turn score is
  increased to the next larger prime number." (Free Bacon included; 1 is not prime.)
* Perfect Piggy. "If a player's score for the turn is not a 1, but is a perfect square or a
  perfect cube, the player scores the turn score but swaps the normal six-sided dice with
  four-sided dice for all subsequent turns. The next time either player activates Perfect
  Piggy, the six-sided dice will be swapped back."
* Swine Swap. "After the turn score is added, if one of the scores is double the other, then
  the two scores are swapped" — also when that hands the opponent the goal (the text's
  example 2: the opponent "ends the turn with 110 and wins the game").

Readings: the term is inferred from the rules (the repository is named for Spring 2015, whose
rules differ; one results page disagrees). Perfect Piggy looks at the turn score after Hogtimus
Prime, as the skeleton's ``play`` does (a boosted score is prime, so never a square or cube).
The dice in play are shared by both players and hidden from strategies, which see the scores.

The course's 1000 seeded games for these rules (``tests/play.sol`` in chengcyber/SICPinPython
``hog/``, whose skeleton ``hog.py`` is this term's) are reproduced turn for turn with these
readings: without the swap at the goal 10 of them differ, and Perfect Piggy on a turn score of 1
changes every one.
"""

from __future__ import annotations

from math import isqrt

from hogbench.dice import four_sided, make_test_dice, six_sided  # noqa: F401
from hogbench.jit import jit
from hogbench.rules._kit import points_event
from hogbench.rules._swap_term import WILD_KINDS, SwapTerm
from hogbench.rules.base import (
    MAX_DICE,
    OTHER,
    GameModel,
    dice_rows,
    narrated_turn,
    outcome,
    resolve_signature,
    roll_kind_signature,
    score_sum_model,
    turn_end,
    where,
)
from hogbench.rules.hog_contest import is_prime, next_prime
from hogbench.rules.hog_fa13 import (  # noqa: F401  (the course's names, re-exported)
    always_roll,
    free_bacon,
    is_swap,
    other,
    pig_out,
    roll_dice,
)

GOAL_SCORE = 100


def hogtimus_prime(turn_score):
    """A prime turn score becomes the next prime.

    >>> hogtimus_prime(11), hogtimus_prime(1), hogtimus_prime(9)
    (13, 1, 9)
    """
    return next_prime(turn_score) if is_prime(turn_score) else turn_score


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice (Free Bacon for 0), with Hogtimus Prime."""
    assert type(num_rolls) is int and 0 <= num_rolls <= 10
    assert opponent_score < 100, "The game should be over."
    points = free_bacon(opponent_score) if num_rolls == 0 else roll_dice(num_rolls, dice)
    return hogtimus_prime(points)


def select_dice(dice_swapped):
    """Six-sided dice unless Perfect Piggy has swapped in the four-sided ones."""
    return four_sided if dice_swapped else six_sided


def is_perfect_piggy(turn_score):
    """Whether Perfect Piggy swaps the dice: a turn score other than 1 that is a perfect square
    or a perfect cube.

    >>> [n for n in range(1, 30) if is_perfect_piggy(n)]
    [4, 8, 9, 16, 25, 27]
    """
    cube = round(turn_score ** (1 / 3))
    return turn_score != 1 and (isqrt(turn_score) ** 2 == turn_score or cube**3 == turn_score)


def play(strategy0, strategy1, score0=0, score1=0, goal=GOAL_SCORE):
    """Simulate a game and return the final scores of both players, Player 0's first."""
    player, dice_swapped = 0, False
    while score0 < goal and score1 < goal:
        if player == 0:
            points = take_turn(strategy0(score0, score1), score1, select_dice(dice_swapped))
            score0 += points
        else:
            points = take_turn(strategy1(score1, score0), score0, select_dice(dice_swapped))
            score1 += points
        if is_perfect_piggy(points):
            dice_swapped = not dice_swapped
        if is_swap(score0, score1):
            score0, score1 = score1, score0
        player = other(player)
    return score0, score1


def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):
    """Roll 0 dice if that gives at least MARGIN points (Hogtimus Prime included), else
    NUM_ROLLS."""
    return 0 if hogtimus_prime(free_bacon(opponent_score)) >= margin else num_rolls


def swap_strategy(score, opponent_score, margin=8, num_rolls=4):
    """Roll 0 dice when that triggers a beneficial swap, or gives at least MARGIN points;
    else NUM_ROLLS."""
    new_score = score + hogtimus_prime(free_bacon(opponent_score))
    if is_swap(new_score, opponent_score) and new_score < opponent_score:
        return 0
    return bacon_strategy(score, opponent_score, margin, num_rolls)


# The engines' model: the swap kit's state, four * goal**2 + score * goal + opponent, with the
# dice in play (hidden, shared by both players) for the dice exchanged; params [goal,
# bacon[opponent] ..., boosted[turn score] ..., piggy[turn score] ..., swap[score * goal +
# opponent] ...].
TOP_POINTS = 64  # above any turn score: 10 dice of 6, or a boosted Free Bacon


@narrated_turn
def _turn(params, four, score, opponent, choice, value):
    """The turn from the mover's side, FOUR-sided dice in play or not: the points (Free Bacon's
    or the dice's), Hogtimus Prime, Perfect Piggy's exchange of the dice, then Swine Swap.
    Returns the scores after it, the dice in play, the points before and after Hogtimus Prime,
    and whether the scores swapped."""
    goal = params[0]
    raw = params[1 + opponent] if choice == 0 else value
    points = params[1 + goal + raw]
    four = four ^ params[1 + goal + TOP_POINTS + points]
    score = score + points
    swap = params[1 + goal + 2 * TOP_POINTS + score * goal + opponent] != 0
    return where(swap, opponent, score), where(swap, score, opponent), four, raw, points, swap


@jit(resolve_signature, arrays=True)
def _resolve(params, state, choice, value):
    goal = params[0]
    area = goal * goal
    four, scores = state // area, state % area
    turn = _turn(params, four, scores // goal, scores % goal, choice, value)
    score, opponent, four, _, _, _ = turn
    return turn_end(goal, score, opponent, outcome(four * area + opponent * goal + score, OTHER))


@jit(roll_kind_signature, arrays=True)
def _roll_kind(params, state, choice):
    goal = params[0]
    if choice == 0:
        return MAX_DICE
    return where(state >= goal * goal, WILD_KINDS, 0) + choice - 1


class HogSp16(SwapTerm):
    name = "hog-sp16"
    title = "Hog, CS 61A Spring 2016 (probable term)"
    hidden_state = "which dice are in play (Perfect Piggy swaps them for both players)"
    free_bacon = staticmethod(free_bacon)
    is_swap = staticmethod(is_swap)
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    swap_strategy_summary = "0 dice for a beneficial swap or >= margin points, else num_rolls"
    turn = staticmethod(_turn)
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 1"),
        ("Free Bacon", "rolling 0 scores 1 + the largest digit of the opponent's score"),
        ("Hogtimus Prime", "a prime turn score becomes the next prime"),
        (
            "Perfect Piggy",
            "a turn score (not 1) that is a square or cube swaps six/four-sided dice",
        ),
        ("Swine Swap", "swap when one score is double the other, even at the goal"),
    )

    def build_model(self) -> GameModel:
        goal = self.goal
        rows = [*dice_rows(pig_out), {0: 1.0}, *dice_rows(pig_out, (1, 2, 3, 4))]
        bacon = [free_bacon(o) for o in range(goal)]
        boosted = [hogtimus_prime(v) for v in range(TOP_POINTS)]
        piggy = [int(is_perfect_piggy(v)) if v else 0 for v in range(TOP_POINTS)]
        swap = [int(is_swap(s, o)) for s in range(goal + TOP_POINTS) for o in range(goal)]
        params = [goal, *bacon, *boosted, *piggy, *swap]
        return score_sum_model(goal, rows, params, _roll_kind, _resolve, copies=2)

    def narrate(
        self, choice: int, variant: int, four: int, opponent_score: int,
        dice: tuple[int, ...], turn: tuple[int, ...],
    ) -> list[str]:  # fmt: skip
        _, _, now, raw, points, swap = turn
        events = ["four-sided dice"] if dice and four else []
        events.append(points_event(dice, raw, self.zero_rule, self.ones_rule))
        events += [f"Hogtimus Prime: {raw} becomes {points}"] * (points != raw)
        piggy = f"Perfect Piggy: {'six' if four else 'four'}-sided dice from now on"
        return events + [piggy] * (now != four) + [f"{self.swap_rule}!"] * swap


RULES = HogSp16
