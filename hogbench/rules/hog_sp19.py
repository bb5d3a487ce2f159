"""Hog, CS 61A Spring 2019: Pig Out, Free Bacon, Swine Swap.

Rules (the course's text, as copied in gretasharoyan/hog ``README.md``; skeleton and ok tests:
1246245906/CS61A ``projects/hog/hog.py``, Kaiyuan-Lei/MyProject ``Hog/tests/``):

* Pig Out. If any of the dice outcomes is a 1, the current player's score for the turn is 1.
* Free Bacon. A player who chooses to roll zero dice scores one more than the minimum of the
  ones and tens digit of the opponent's score.
* Swine Swap. After points for the turn are added to the current player's score, if the current
  and other player's scores share any digits in the same place value, the scores are swapped.
  Note: a 0 at the beginning of a number does not count. This includes the 0 in the tens place
  of 5, the hundreds place of 23, and the ones place of 0. However, a 0 at the end of a number
  does count, so 20 and 30 are a swap.

Readings: the course's ``play`` checks ``is_swap`` after every turn, so a swap also happens when
the mover has reached the goal (the ok test "Free bacon refers to correct opponent score": from
11-98, Player 1 reaches 100 against 30, they swap, and Player 0 wins 100-30). Free Bacon uses
tens = (score // 10) % 10 (the opponent's score is below the goal when it is asked).

The first half of this module is the course's own code (the readable reference); the second
half builds the engines' model from the same functions. hog-su19 reuses the second half.
"""

from __future__ import annotations

import random

from hogbench.commentary import (  # noqa: F401  (the course's names, re-exported)
    announce_lead_changes,
    both,
    make_announce_highest,
    say_scores,
    silence,
)
from hogbench.dice import four_sided, make_fair_dice, make_test_dice, six_sided  # noqa: F401
from hogbench.jit import jit
from hogbench.rules._kit import ALWAYS_ROLL, threshold_builtin
from hogbench.rules.base import (
    LOSE,
    MAX_DICE,  # noqa: F401  (the swap terms read it here)
    OTHER,
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

GOAL_SCORE = 100

# ---------------------------------------------------------------------------------------------
# The course's functions
# ---------------------------------------------------------------------------------------------


def pig_out(outcomes) -> int:
    """Pig Out: the turn scores 1 if any outcome is a 1, else the sum of the outcomes."""
    return 1 if 1 in outcomes else sum(outcomes)


def roll_dice(num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS > 0 times. Return the sum of the outcomes
    unless any of the outcomes is 1. In that case, return 1."""
    assert type(num_rolls) is int, "num_rolls must be an integer."
    assert num_rolls > 0, "Must roll at least once."
    return pig_out([dice() for _ in range(num_rolls)])


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon), given the opponent's SCORE.

    >>> free_bacon(39)
    4
    """
    return 1 + min((score // 10) % 10, score % 10)


def make_take_turn(free_bacon):
    """The course's take_turn for a term of Pig Out and FREE_BACON(opponent_score)."""

    def take_turn(num_rolls, opponent_score, dice=six_sided):
        """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free Bacon)."""
        assert type(num_rolls) is int, "num_rolls must be an integer."
        assert num_rolls >= 0, "Cannot roll a negative number of dice in take_turn."
        assert num_rolls <= 10, "Cannot roll more than 10 dice."
        if num_rolls == 0:
            return free_bacon(opponent_score)
        return roll_dice(num_rolls, dice)

    return take_turn


take_turn = make_take_turn(free_bacon)


def is_swap(player_score, opponent_score):
    """Return whether the two scores should be swapped: a digit shared in the same place.

    >>> is_swap(117, 14), is_swap(8, 2), is_swap(20, 0)
    (True, False, False)
    """
    while player_score > 0 and opponent_score > 0:
        if player_score % 10 == opponent_score % 10:
            return True
        player_score, opponent_score = player_score // 10, opponent_score // 10
    return False


def other(player):
    """Return the other player, for a player PLAYER numbered 0 or 1."""
    return 1 - player


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
            player = other(player)
            say = say(score0, score1)
        return score0, score1

    return play


play = make_play(take_turn, is_swap)


announce_highest = make_announce_highest(
    "{gain} point(s)! That's the biggest gain yet for Player {who}"
)


def always_roll(n):
    """Return a strategy that always rolls N dice."""
    assert 0 <= n <= 10, f"always_roll takes 0 to 10 dice, got {n}"

    def strategy(score, opponent_score):
        return n

    return strategy


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


bacon_strategy = make_bacon_strategy(free_bacon)
swap_strategy = make_swap_strategy(free_bacon, is_swap)


# ---------------------------------------------------------------------------------------------
# The engines' model: state score * goal + opponent; params [goal, bacon[opponent] ...,
# swap[score * goal + opponent] ...] computed by calling the course functions. Every turn scores
# at least 1 and a swap keeps the sum of the scores, so levels by that sum are acyclic.
# ---------------------------------------------------------------------------------------------


@jit(resolve_signature)
def _resolve(params, state, choice, value):
    goal = params[0]
    score, opponent = state // goal, state % goal
    score += params[1 + opponent] if choice == 0 else value
    if params[1 + goal + score * goal + opponent]:
        score, opponent = opponent, score
    if score >= goal:
        return WIN
    if opponent >= goal:  # a swap handed the opponent the goal
        return LOSE
    return outcome(opponent * goal + score, OTHER)


class SwapTerm(RuleSet):
    """A term of Pig Out, Free Bacon and a Swine Swap checked after every turn."""

    strategy_args = ("score", "opponent_score")
    requires_deterministic = True
    baseline = "always_roll:4"
    dice_points = staticmethod(pig_out)
    announce_highest = staticmethod(announce_highest)
    free_bacon = staticmethod(free_bacon)
    is_swap = staticmethod(is_swap)
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    strategy_num_rolls = 4  # the course strategies' default number of dice
    strategy_threshold = "margin"  # what they call their threshold
    bacon_strategy_summary = ""  # "" : 0 dice when Free Bacon >= margin, else num_rolls
    swap_strategy_summary = (
        "0 dice for a beneficial swap or >= margin points (never a harmful swap), else num_rolls"
    )

    def build_model(self) -> GameModel:
        goal = self.goal
        rows = [*dice_rows(pig_out), {0: 1.0}]
        bacon = [self.free_bacon(o) for o in range(goal)]
        assert min(bacon) >= 1  # every turn raises the sum of the scores
        score_rows = goal + max(*bacon, *(max(row) for row in rows))
        swap = [int(self.is_swap(s, o)) for s in range(score_rows) for o in range(goal)]
        return score_sum_model(goal, rows, [goal, *bacon, *swap], dice_roll_kind, _resolve)

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        m = self.model
        score, opponent = self.scores(state)
        if choice == 0:
            dice, points = (), self.free_bacon(opponent)
            events = [f"Free Bacon: {points} point{'s' * (points != 1)}"]
        else:
            sides = self.dice_sides(score, opponent)
            dice = tuple(rng.randint(1, sides) for _ in range(choice))
            points = pig_out(dice)
            events = ["Hog Wild: four-sided dice"] if sides == 4 else []
            events += ["Pig Out! 1 point"] if 1 in dice else [f"{points} points"]
        score += points
        if self.is_swap(score, opponent):
            score, opponent = opponent, score
            events.append("Swine Swap!")
        code = int(m.resolve(m.params, state, choice, 0 if choice == 0 else points))
        final = (score, opponent) if code & 7 in (WIN, LOSE) else None
        return Step(dice, events, code, final)

    def dice_sides(self, score: int, opponent: int) -> int:
        """The sides of the dice the mover rolls (six; Hog Wild terms say otherwise)."""
        return 6

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


class HogSp19(SwapTerm):
    name = "hog-sp19"
    title = "Hog, CS 61A Spring 2019"
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 1"),
        ("Free Bacon", "rolling 0 scores 1 + min(tens, ones) of the opponent's score"),
        ("Swine Swap", "swap when the scores share a digit in the same place, even at the goal"),
    )


RULES = HogSp19
