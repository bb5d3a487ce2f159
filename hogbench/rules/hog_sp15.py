"""Hog, CS 61A Spring 2015: Pig out, Free bacon, Hog wild, Hogtimus prime.

Rules (the term's skeleton and compiled ok tests, FreecssX/CS61A-SP15 ``projects/hog/``; no
project page was found, so the rule text is the skeleton's and the tests'):

* Pig out. Any die showing 1 makes the turn score 1.
* Free bacon. A player who rolls zero dice scores one more than the largest digit of the
  opponent's score.
* Hog wild. When the sum of the scores is a multiple of 7, the mover rolls four-sided dice.
* Hogtimus prime. After the turn, "add the earned score to the leader if the sum of the scores of
  both players is a prime number while the two scores are not equal" (``hogtimus_prime``): the
  leader, whoever it is, gains the turn's points again. There is no Swine swap this term.

Readings: the bonus can go to the opponent and can carry either player to the goal (a game the
opponent reaches the goal in is theirs); ``is_prime`` is the course's (1 is not prime).
"""

from __future__ import annotations

import random

from hogbench.dice import four_sided, make_test_dice, six_sided  # noqa: F401
from hogbench.jit import jit
from hogbench.rules._kit import points_event
from hogbench.rules._swap_term import wild_roll_kind
from hogbench.rules.base import (
    OTHER,
    GameModel,
    Step,
    narrated_turn,
    outcome,
    resolve_signature,
    score_sum_model,
    turn_end,
)
from hogbench.rules.hog_fa13 import (  # noqa: F401  (the course's names, re-exported)
    BASELINE_NUM_ROLLS,
    GOAL_SCORE,
    HogFa13,
    always_roll,
    free_bacon,
    other,
    pig_out,
    roll_dice,
    take_turn,
)


def select_dice(score, opponent_score):
    """Six-sided dice unless the sum of the scores is a multiple of 7: four-sided (Hog wild)."""
    return four_sided if (score + opponent_score) % 7 == 0 else six_sided


def is_prime(n):
    """Return True if a non-negative number N is prime (1 is not).

    >>> [n for n in range(20) if is_prime(n)]
    [2, 3, 5, 7, 11, 13, 17, 19]
    """
    return n > 1 and all(n % k for k in range(2, int(n**0.5) + 1))


def hogtimus_prime(score0, score1, earned_score):
    """Add EARNED_SCORE to the leader when the sum of the scores is prime and they differ.

    >>> hogtimus_prime(10, 3, 5), hogtimus_prime(3, 10, 5), hogtimus_prime(10, 2, 5)
    ((15, 3), (3, 15), (10, 2))
    """
    if is_prime(score0 + score1) and score0 != score1:
        if score0 > score1:
            return score0 + earned_score, score1
        return score0, score1 + earned_score
    return score0, score1


def play(strategy0, strategy1, score0=0, score1=0, goal=GOAL_SCORE):
    """Simulate a game and return the final scores of both players, Player 0's first."""
    who = 0
    while score0 < goal and score1 < goal:
        if who == 0:
            earned = take_turn(strategy0(score0, score1), score1, select_dice(score0, score1))
            score0 += earned
        else:
            earned = take_turn(strategy1(score1, score0), score0, select_dice(score1, score0))
            score1 += earned
        who = other(who)
        score0, score1 = hogtimus_prime(score0, score1, earned)
    return score0, score1


def bacon_strategy(score, opponent_score, margin=8, num_rolls=BASELINE_NUM_ROLLS):
    """Roll 0 dice if that gives at least MARGIN points, and NUM_ROLLS otherwise."""
    return 0 if free_bacon(opponent_score) >= margin else num_rolls


def prime_strategy(score, opponent_score, margin=8, num_rolls=BASELINE_NUM_ROLLS):
    """Roll 0 dice when that gives us a Hogtimus prime boost and NUM_ROLLS when it gives the
    opponent one; else 0 dice if that gives at least MARGIN points, and NUM_ROLLS otherwise."""
    new_score = score + free_bacon(opponent_score)
    if is_prime(new_score + opponent_score) and new_score != opponent_score:
        return 0 if new_score > opponent_score else num_rolls
    return bacon_strategy(score, opponent_score, margin, num_rolls)


# The engines' model: the swap kit's dice with Hog wild, whose table ends the params [goal,
# bacon[opponent] ..., prime[sum of the scores] ..., wild[score * goal + opponent] ...].


@narrated_turn
def _turn(params, score, opponent, choice, value):
    """The turn from the mover's side: the points (Free bacon's or the dice's), then Hogtimus
    prime: when the scores differ and their sum is prime, the leader gains the points again.
    Returns the scores after it, the points, the leader's gain and whether the mover leads."""
    goal = params[0]
    points = params[1 + opponent] if choice == 0 else value
    score = score + points
    # Products with the prime table's 0 or 1 and the comparisons: faster here than selections.
    gain = points * params[1 + goal + score + opponent]
    lead, trail = score > opponent, score < opponent
    return score + gain * lead, opponent + gain * trail, points, gain * (lead | trail), lead


@jit(resolve_signature, arrays=True)
def _resolve(params, state, choice, value):
    goal = params[0]
    score, opponent, _, _, _ = _turn(params, state // goal, state % goal, choice, value)
    return turn_end(goal, score, opponent, outcome(opponent * goal + score, OTHER))


class HogSp15(HogFa13):
    name = "hog-sp15"
    title = "Hog, CS 61A Spring 2015"
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(prime_strategy)
    swap_strategy_summary = (
        "0 dice for a prime boost to us or >= margin points (never a boost to the opponent),"
        " else num_rolls"
    )
    rule_lines = (
        *HogFa13.rule_lines[:3],
        ("Hogtimus prime", "a prime sum of unequal scores: the leader gains the turn's points"),
    )

    def build_model(self) -> GameModel:
        goal = self.goal
        bacon = [self.free_bacon(o) for o in range(goal)]
        primes = [int(is_prime(n)) for n in range(2 * goal + 61)]
        params = [goal, *bacon, *primes, *self.wild_table()]
        return score_sum_model(goal, self.roll_rows(), params, wild_roll_kind, _resolve)

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        dice, value, variant = self.roll(state, choice, rng)
        turn = _turn(self.model.params, *divmod(state, self.goal), choice, value)
        score, opponent, points, gain, lead = (int(v) for v in turn)
        events = self.dice_events(variant, 0) if dice else []
        events.append(points_event(dice, points, self.zero_rule, self.ones_rule))
        leader = "the mover" if lead else "the other player"
        events += [f"Hogtimus prime: {points} more to the leader, {leader}"] * (gain > 0)
        return self.step(state, choice, value, dice, events, (score, opponent))

    def builtins(self):
        found = super().builtins()
        found["prime_strategy"] = found.pop("swap_strategy")
        return found


RULES = HogSp15
