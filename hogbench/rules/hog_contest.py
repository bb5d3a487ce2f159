"""Hog contest, CS 61A (Spring 2017 rules with Pork Chop): Pig Out, Free Bacon, Hogtimus Prime,
Hog Wild, Swine Swap, Pork Chop.

Rules (from the contest text):

* Pig Out. If any of the dice outcomes is a 1, the current player's score for the turn is the
  number of 1's rolled, at most 11 minus the number of dice rolled.
* Free Bacon. A player who chooses to roll zero dice scores one more than the largest digit in
  the opponent's total score.
* Hogtimus Prime. If a player's score for the turn is a prime number, the turn score is increased
  to the next larger prime number (Free Bacon and Pig Out turns included; 1 is not a prime).
* Hog Wild. If the sum of both players' total scores is a multiple of seven (0 included), the
  current player rolls four-sided dice instead of the usual six-sided dice.
* Swine Swap. After the turn score is added, if one of the scores is double the other, the two
  scores are swapped; a swap can hand the opponent a score at or over the goal, and the win.
* Pork Chop. A player may choose to roll -1 dice, which scores no points for the turn but swaps
  both players' scores. Each player can use it once; every later -1 of that player is treated as
  rolling 10 dice. There is at most one swap per turn, so no Swine Swap follows a Pork Chop.

Readings: a score's digits are its own (7 has the single digit 7, so Free Bacon gives 8); Swine
Swap compares the scores after the turn's points are added. The case 0 == 2 * 0 never arises:
every turn but a Pork Chop scores at least 1 point (Pig Out at least 1, dice sums at least 2,
Free Bacon at least 1), so after it the mover has at least 1, and no Swine Swap follows a Pork
Chop (swapping equal scores would change nothing anyway). Pork Chop is on by default; with the
option ``pork_chop`` off, -1 is an illegal move and these are the plain Spring 2017 contest rules.

A strategy sees only the two scores: ``final_strategy(score, opponent_score) -> -1..10``. It
cannot see who has already used Pork Chop (the engines' state carries it), so a -1 may turn out
to be 10 dice.

Contest scoring: every submission plays every other, and their expected win rates are computed
exactly (no dice are rolled). A submission scores a match point for each opponent against which
its expected win rate is above 50.0001%; ties count as losses. Submissions are ranked by match
points.

The first half of this module is the course's own code (the readable reference); the second
half builds the engines' model from the same functions.
"""

from __future__ import annotations

import random

import numpy as np

from hogbench.commentary import (  # noqa: F401  (the course's names, re-exported)
    announce_lead_changes,
    both,
    say_scores,
    silence,
)
from hogbench.dice import four_sided, make_fair_dice, make_test_dice, six_sided  # noqa: F401
from hogbench.jit import jit
from hogbench.rules._kit import points_event, threshold_builtin
from hogbench.rules.base import (
    LOSE,
    OTHER,
    WIN,
    Builtin,
    GameModel,
    RuleSet,
    Step,
    check_int_choice,
    dice_rows,
    distribution_table,
    levels_by_key,
    narrated_turn,
    outcome,
    resolve_signature,
    roll_kind_signature,
    turn_end,
    where,
)

GOAL_SCORE = 100
PORK_CHOP = -1  # the number of dice that asks for a Pork Chop
MAX_DICE = 10

# ---------------------------------------------------------------------------------------------
# The course's functions
# ---------------------------------------------------------------------------------------------


def pig_out(outcomes) -> int:
    """The points of one roll of dice before Hogtimus Prime: the sum of the OUTCOMES, unless any
    is a 1; then the number of 1's, at most 11 minus the number of dice rolled.

    >>> pig_out([1, 1, 1, 1, 1, 2, 3])
    4
    """
    ones = list(outcomes).count(1)
    if ones:
        return min(11 - len(outcomes), ones)
    return sum(outcomes)


def roll_dice(num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS > 0 times. Return the sum of the outcomes
    unless any of the outcomes is 1. In that case, return the number of 1's rolled, at most
    11 - NUM_ROLLS (Pig Out).

    >>> roll_dice(5, make_test_dice(1, 1, 1, 4, 4))
    3
    """
    assert type(num_rolls) is int, "num_rolls must be an integer."
    assert num_rolls > 0, "Must roll at least once."
    return pig_out([dice() for _ in range(num_rolls)])


def free_bacon(opponent_score):
    """Return the points scored from rolling 0 dice (Free Bacon), before Hogtimus Prime.

    >>> free_bacon(42)
    5
    """
    return 1 + max(int(digit) for digit in str(opponent_score))


def is_prime(n):
    """Return whether N is a prime number (1 is not).

    >>> is_prime(11), is_prime(1), is_prime(9)
    (True, False, False)
    """
    if n < 2:
        return False
    k = 2
    while k * k <= n:
        if n % k == 0:
            return False
        k += 1
    return True


def next_prime(n):
    """Return the smallest prime number larger than N.

    >>> next_prime(11)
    13
    """
    n += 1
    while not is_prime(n):
        n += 1
    return n


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free Bacon). Return the points
    scored for the turn by the current player, after Hogtimus Prime.

    >>> take_turn(0, 42)
    7
    """
    assert type(num_rolls) is int, "num_rolls must be an integer."
    assert num_rolls >= 0, "Cannot roll a negative number of dice in take_turn."
    assert num_rolls <= MAX_DICE, "Cannot roll more than 10 dice."
    if num_rolls == 0:
        points = free_bacon(opponent_score)
    else:
        points = roll_dice(num_rolls, dice)
    if is_prime(points):
        points = next_prime(points)
    return points


def select_dice(score, opponent_score, dice=six_sided, wild_dice=four_sided):
    """Return WILD_DICE (four-sided) if the sum of SCORE and OPPONENT_SCORE is a multiple of 7
    (Hog Wild), else DICE (six-sided)."""
    return wild_dice if (score + opponent_score) % 7 == 0 else dice


def is_swap(score0, score1):
    """Return whether one of the scores is double the other (Swine Swap).

    >>> is_swap(46, 92)
    True
    """
    return score0 == 2 * score1 or score1 == 2 * score0


def other(who):
    """Return the other player, for a player WHO numbered 0 or 1."""
    return 1 - who


next_player = other


def chop_or_take_turn(num_rolls, score, opponent_score, chopped, dice, wild_dice):
    """One turn of the player with SCORE choosing NUM_ROLLS: Pork Chop, or the dice (Hog Wild
    choosing which) and then Swine Swap. CHOPPED says whether this player has used their Pork
    Chop. Return the player's score, the opponent's score and CHOPPED after the turn."""
    if num_rolls == PORK_CHOP and not chopped:
        return opponent_score, score, True  # the turn's one swap: no Swine Swap follows
    if num_rolls == PORK_CHOP:
        num_rolls = MAX_DICE
    score += take_turn(
        num_rolls, opponent_score, select_dice(score, opponent_score, dice, wild_dice)
    )
    if is_swap(score, opponent_score):
        score, opponent_score = opponent_score, score
    return score, opponent_score, chopped


def play(
    strategy0,
    strategy1,
    score0=0,
    score1=0,
    dice=six_sided,
    goal=GOAL_SCORE,
    say=silence,
    wild_dice=four_sided,
    pork_chop=True,
):
    """Simulate a game and return the final scores of both players, with Player 0's score first,
    and Player 1's score second.

    A strategy takes the current player's score and the opponent's score and returns a number
    of dice to roll, 0 to 10, or -1 for a Pork Chop (when PORK_CHOP is on). DICE is rolled
    normally and WILD_DICE under Hog Wild.
    """
    who = 0  # Who is about to take a turn, 0 (first) or 1 (second)
    chopped0, chopped1 = False, False  # whether each player has used their Pork Chop
    while score0 < goal and score1 < goal:
        if who == 0:
            num_rolls = strategy0(score0, score1)
            assert pork_chop or num_rolls != PORK_CHOP, "Pork Chop (-1) is off in this game."
            score0, score1, chopped0 = chop_or_take_turn(
                num_rolls, score0, score1, chopped0, dice, wild_dice
            )
        else:
            num_rolls = strategy1(score1, score0)
            assert pork_chop or num_rolls != PORK_CHOP, "Pork Chop (-1) is off in this game."
            score1, score0, chopped1 = chop_or_take_turn(
                num_rolls, score1, score0, chopped1, dice, wild_dice
            )
        say = say(score0, score1)
        who = other(who)
    return score0, score1


def always_roll(n):
    """Return a strategy that always rolls N dice (-1: a Pork Chop, then 10 dice)."""
    assert PORK_CHOP <= n <= MAX_DICE

    def strategy(score, opponent_score):
        return n

    return strategy


def bacon_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice if that gives at least CUTOFF points (Hogtimus Prime
    included), and rolls NUM_ROLLS otherwise."""
    return 0 if take_turn(0, opponent_score) >= cutoff else num_rolls


def swap_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice when it triggers a beneficial swap, and never when it triggers
    a harmful one. Otherwise it rolls 0 dice if that gives at least CUTOFF points, and rolls
    NUM_ROLLS otherwise."""
    new_score = score + take_turn(0, opponent_score)
    if is_swap(new_score, opponent_score):
        if new_score < opponent_score:
            return 0
        if new_score > opponent_score:
            return num_rolls
    return bacon_strategy(score, opponent_score, cutoff, num_rolls)


def pork_chop_strategy(score, opponent_score, margin=20, cutoff=8, num_rolls=6):
    """Pork Chop (-1) when the opponent leads by at least MARGIN, else swap_strategy. It cannot
    know whether it has chopped already: a second -1 rolls 10 dice."""
    if opponent_score - score >= margin:
        return PORK_CHOP
    return swap_strategy(score, opponent_score, cutoff, num_rolls)


def final_strategy(score, opponent_score):
    """A placeholder final strategy."""
    return 4


# ---------------------------------------------------------------------------------------------
# The engines' model, built from the functions above
# ---------------------------------------------------------------------------------------------
#
# States. Pork Chop off: score * goal + opponent_score. Pork Chop on:
#     (score * goal + opponent_score) * 4 + mover_used * 2 + opponent_used
# where *_used is 1 once that player has used their Pork Chop.
#
# Roll kinds: rows 0..9 roll 1..10 six-sided dice, rows 10..19 roll 1..10 four-sided dice (Hog
# Wild), row ZERO_DICE_KIND is Free Bacon and row CHOP_KIND a Pork Chop (both: value 0, certain).
# Dice rows hold the turn's points after Hogtimus Prime (take_turn's, on test dice).
#
# params (int64), tables computed by calling the course functions above (or a term's own, for
# the terms built on this model: hog-fa15): [goal, pork (1 when Pork Chop is on), piggy (1 for
# Piggy Back: a turn of dice scoring 0 gives the opponent the dice rolled), opp_rows (opponent
# scores the swap table covers: goal, + 10 with Piggy Back)], bacon[opponent] = take_turn(0,
# opponent), wild[score * goal + opponent] = Hog Wild at these scores, swap[score * opp_rows +
# opponent] = is_swap(score, opponent).

WILD_KINDS = MAX_DICE  # four-sided rows start here
ZERO_DICE_KIND = 2 * MAX_DICE
CHOP_KIND = ZERO_DICE_KIND + 1
GOAL, PORK, PIGGY, OPP_ROWS, BACON_AT = range(5)  # BACON_AT: the header's length


@jit(inline="always")
def _decode(params, state):
    """(scores index, mover_used, opponent_used) of a state. No branch: base.narrated_turn."""
    pork = params[PORK]
    return state >> 2 if pork else state, (state >> 1) & 1 if pork else 0, state & 1 if pork else 0


@jit(roll_kind_signature, arrays=True)
def _roll_kind(params, state, choice):
    scores, used, _ = _decode(params, state)
    if choice == 0:
        return ZERO_DICE_KIND
    dice = where(params[BACON_AT + params[GOAL] + scores] != 0, WILD_KINDS, 0) - 1
    if choice == PORK_CHOP:  # a Pork Chop, or 10 dice once the mover has used theirs
        return where(used != 0, dice + MAX_DICE, CHOP_KIND)
    return dice + choice


@narrated_turn
def _turn(params, score, opponent, used, choice, value):
    """The turn from the mover's side, as chop_or_take_turn plays it: a Pork Chop when CHOICE
    asks for one and the mover has not used theirs (the turn's one swap), else the turn's points
    (Free Bacon's or the dice's, after Hogtimus Prime), under Piggy Back a gift of the dice
    rolled to the opponent when the dice scored nothing, and then Swine Swap. Returns the scores
    after it, whether the mover has used their Pork Chop, the points, whether the scores
    swapped, and the gift."""
    goal = params[GOAL]
    chop = (choice == PORK_CHOP) & (used == 0)
    points = where(chop, 0, params[BACON_AT + opponent] if choice == 0 else value)
    piggy = (params[PIGGY] != 0) & (chop == 0) & (choice != 0) & (value == 0)
    gift = where(piggy, MAX_DICE if choice == PORK_CHOP else choice, 0)
    score = score + points
    opponent = opponent + gift
    swap_at = BACON_AT + goal + goal * goal + score * params[OPP_ROWS] + opponent
    swap = chop | (params[swap_at] != 0)
    mover, other_score = where(swap, opponent, score), where(swap, score, opponent)
    return mover, other_score, used | chop, points, swap, gift


@jit(resolve_signature, arrays=True)
def _resolve(params, state, choice, value):
    goal = params[GOAL]
    scores, used, opponent_used = _decode(params, state)
    # A division, not fast_divide: its if statement would cost a reference count (narrated_turn)
    score, opponent = scores // goal, scores % goal
    score, opponent, used, _, _, _ = _turn(params, score, opponent, used, choice, value)
    following = opponent * goal + score  # a swap or Piggy Back may hand the opponent the goal
    return turn_end(
        goal,
        score,
        opponent,
        outcome(
            (following << 2) | (opponent_used << 1) | used if params[PORK] else following, OTHER
        ),
    )


class HogContest(RuleSet):
    """The contest's game; a term of Hog Wild, Hogtimus Prime and Pork Chop names its own course
    functions here (hog-fa15 adds Piggy Back) and shares the model."""

    name = "hog-contest"
    dice_points = staticmethod(pig_out)
    take_turn = staticmethod(take_turn)
    free_bacon = staticmethod(free_bacon)
    select_dice = staticmethod(select_dice)
    is_swap = staticmethod(is_swap)
    #: Piggy Back: a turn of dice that scores 0 gives the opponent the number of dice rolled
    piggy_back = False
    hidden_state = "whether each player has used their Pork Chop"
    title = "Hog contest, CS 61A (with Pork Chop)"
    strategy_args = ("score", "opponent_score")
    requires_deterministic = True
    choice_help = "number of dice 0 to 10, or -1 for Pork Chop"
    options_help = {
        "pork_chop": (True, "Pork Chop: -1 swaps the scores for 0 points, once per player"),
    }
    rule_lines = (
        ("Pig Out", "a 1 makes the turn score the number of 1s, at most 11 - dice rolled"),
        ("Free Bacon", "rolling 0 scores 1 + the largest digit of the opponent's score"),
        ("Hogtimus Prime", "a prime turn score becomes the next prime"),
        ("Hog Wild", "four-sided dice when the sum of the scores is a multiple of 7"),
        ("Swine Swap", "swap when one score is double the other, even at the goal"),
        ("Pork Chop", "-1 swaps the scores for 0 points, once per player (option)"),
    )

    def choice(self, value) -> int:
        if self.options["pork_chop"]:
            return check_int_choice(value, PORK_CHOP, MAX_DICE, f"{self.name}: {self.choice_help}")
        legal = (
            f"{self.name} without Pork Chop takes 0 to 10 dice; -1 needs --option pork_chop=true"
        )
        return check_int_choice(value, 0, MAX_DICE, legal)

    def describe_choice(self, choice: int) -> str:
        return "Pork Chop (-1)" if choice == PORK_CHOP else f"roll {choice}"

    def turn_points(self, outcomes) -> int:
        """The points take_turn scores when the dice show OUTCOMES (test dice replaying them)."""
        return self.take_turn(len(outcomes), 0, make_test_dice(*outcomes))

    def build_model(self) -> GameModel:
        goal, pork = self.goal, bool(self.options["pork_chop"])
        rows = [*dice_rows(self.turn_points), *dice_rows(self.turn_points, (1, 2, 3, 4))]
        # Every turn of dice scores, or under Piggy Back gives the opponent, at least 1 point.
        assert self.piggy_back or min(min(row) for row in rows) >= 1
        ptr, values, probs = distribution_table([*rows, {0: 1.0}, {0: 1.0}])  # Free Bacon, chop
        bacon = [self.take_turn(0, o) for o in range(goal)]
        assert min(bacon) >= 1
        wild = [int(self.select_dice(s, o) is four_sided) for s in range(goal) for o in range(goal)]
        top = goal + max(max(bacon), int(values.max()))
        opp_rows = goal + (MAX_DICE if self.piggy_back else 0)
        swap = [int(self.is_swap(s, o)) for s in range(top) for o in range(opp_rows)]
        header = [goal, int(pork), int(self.piggy_back), opp_rows]
        params = np.array([*header, *bacon, *wild, *swap], dtype=np.int64)
        per_scores = 4 if pork else 1
        n_states = goal * goal * per_scores
        states = np.arange(n_states, dtype=np.int64)
        observation = states // per_scores
        used = (states >> 1 & 1) + (states & 1) if pork else np.zeros_like(states)
        # Levels by the sum of the scores: every other turn adds at least 1 point (to the
        # opponent under Piggy Back), and Swine Swap keeps the sum. A Pork Chop keeps the sum
        # too but uses one more chop, so within a level states with more chops used come first:
        # a chop's successor is solved before it.
        order, level_ptr = levels_by_key(observation // goal + observation % goal, -used)
        # A strategy sees only the scores; its representative state is the one in which nobody
        # has used their Pork Chop yet (every game starts there, and there a -1 is a Pork Chop).
        canonical = np.arange(goal * goal, dtype=np.int64) * per_scores if pork else None
        low = PORK_CHOP if pork else 0
        return GameModel(
            n_states=n_states,
            start=0,
            observation=observation,
            order=order,
            level_ptr=level_ptr,
            cyclic=False,
            params=params,
            roll_kind=_roll_kind,
            resolve=_resolve,
            dist_ptr=ptr,
            dist_value=values,
            dist_prob=probs,
            choices=np.arange(low, MAX_DICE + 1, dtype=np.int64),
            canonical=canonical,
        )

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        m, goal = self.model, self.goal
        kind = int(_roll_kind(m.params, state, choice))  # the compiled functions, as Python
        num_rolls = kind % MAX_DICE + 1 if kind < ZERO_DICE_KIND else 0
        sides = 4 if WILD_KINDS <= kind < ZERO_DICE_KIND else 6
        dice = tuple(rng.randint(1, sides) for _ in range(num_rolls))
        value = self.turn_points(dice) if dice else 0
        scores, used, _ = (int(v) for v in _decode(m.params, state))
        turn = _turn(m.params, scores // goal, scores % goal, used, choice, value)
        score, opponent, now_used, points, swap, gift = (int(v) for v in turn)
        if now_used != used:
            events = ["Pork Chop: scores swapped"]
        else:  # the course functions say what the points were before Hogtimus Prime
            raw = self.dice_points(dice) if dice else self.free_bacon(scores % goal)
            events = [f"Pork Chop already used: rolling {MAX_DICE} dice"] * (choice == PORK_CHOP)
            events += ["Hog Wild: four-sided dice"] * (sides == 4)
            events.append(points_event(dice, raw, "Free Bacon", "Pig Out"))
            events += [f"Hogtimus Prime: {raw} → {points}"] * (points != raw)
            events += [f"Piggy Back: {gift} point{'s' * (gift != 1)} to the opponent"] * (gift > 0)
            events += ["Swine Swap!"] * swap
        code = int(m.resolve(m.params, state, choice, value))
        return Step(dice, events, code, (score, opponent) if code & 7 in (WIN, LOSE) else None)

    def describe_state(self, state: int) -> str:
        text = super().describe_state(state)
        if self.options["pork_chop"]:
            used = [("the player to move", state & 2), ("the opponent", state & 1)]
            who = " and ".join(name for name, chopped in used if chopped) or "nobody"
            text += f" (Pork Chop used by {who})"
        return text

    def builtins(self) -> dict[str, Builtin]:
        bacon = "0 dice when Free Bacon (after Hogtimus Prime) gives >= cutoff, else num_rolls"
        swap = "0 dice for a beneficial swap or >= cutoff points (never a harmful swap), else"
        found = {
            "always_roll": Builtin(always_roll, "always roll N dice: always_roll:6"),
            "bacon_strategy": threshold_builtin(bacon_strategy, 8, 6, "", bacon, name="cutoff"),
            "swap_strategy": threshold_builtin(
                swap_strategy, 8, 6, "", f"{swap} num_rolls", name="cutoff"
            ),
        }
        if self.options["pork_chop"]:
            found["pork_chop_strategy"] = Builtin(
                _pork_chop_strategy,
                "-1 when the opponent leads by >= margin, else swap_strategy:"
                " pork_chop_strategy:margin=20,cutoff=8,num_rolls=6",
            )
        return found


def _pork_chop_strategy(margin=20, cutoff=8, num_rolls=6):
    def bound(score, opponent_score):
        return pork_chop_strategy(score, opponent_score, margin, cutoff, num_rolls)

    bound.__name__ = f"pork_chop_strategy(margin={margin}, cutoff={cutoff}, num_rolls={num_rolls})"
    return bound


RULES = HogContest
