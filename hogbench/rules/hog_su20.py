"""Hog, CS 61A Summer 2020: Pig Out, Free Bacon, Feral Hogs, Swine Swap.

Rules (from the course text):

* Pig Out. If any of the dice outcomes is a 1, the current player's score for the turn is 1.
* Free Bacon. A player who chooses to roll zero dice scores points equal to ten minus the value of
  the opponent score's ones digit, summed with the value of the opponent's score's tens digit.
* Feral Hogs. If the number of dice you roll is exactly 2 away (absolute difference) from the
  number of points you scored on the previous turn, you get 3 extra points for the turn. Treat
  the turn before the first turn as scoring 0 points. Do not take into account any previous feral
  hog bonuses or swine swap when calculating the number of points scored the previous turn.
* Swine Swap. After points for the turn are added to the current player's score, if the absolute
  value of the difference between the current player score's ones digit and the opponent score's
  ones digit is equal to the value of the opponent score's tens digit, the scores are swapped. A
  swap may occur at the end of a turn in which a player reaches the goal score, leading to the
  opponent winning.

Readings: tens = (score // 10) % 10, so Free Bacon and Swine Swap are defined past 100; "the
previous turn" is the player's own previous turn, and its points are what ``take_turn`` returned
(Feral Hogs bonus and swaps excluded), 0 before a player's first turn, also when a game starts
from other scores. Feral Hogs is on by default and switched off with the option ``feral_hogs``
(the course's ``play(..., feral_hogs=False)``).

Feral Hogs makes the game depend on more than the two scores: the engines' state carries each
player's previous-turn points. A strategy sees only the two scores (as the course says, it
cannot know the points of the previous turn, so it cannot predict Feral Hogs); its decision table
is therefore the same whatever the previous points, and the optimal *score-only* strategy is not
what ``solve`` finds (``solve`` optimises a player who also sees the previous points).

The first half of this module is the course's own code (the readable reference); the second
half builds the engines' model from the same functions.
"""

from __future__ import annotations

import random

import numpy as np

from hogbench.commentary import (  # noqa: F401  (the course's names, re-exported)
    announce_lead_changes,
    both,
    make_announce_highest,
    say_scores,
    silence,
)
from hogbench.dice import four_sided, make_fair_dice, make_test_dice, six_sided  # noqa: F401
from hogbench.jit import jit
from hogbench.rules.base import (
    LOSE,
    OTHER,
    WIN,
    Builtin,
    GameModel,
    RuleSet,
    Step,
    dice_distribution,
    distribution_table,
    divider,
    fast_divide,
    levels_by_key,
    outcome,
    q_keys_signature,
    resolve_row_signature,
    resolve_signature,
    roll_kind_signature,
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
    unless any of the outcomes is 1. In that case, return 1.

    >>> roll_dice(2, make_test_dice(3, 4))
    7
    """
    assert type(num_rolls) is int, "num_rolls must be an integer."
    assert num_rolls > 0, "Must roll at least once."
    return pig_out([dice() for _ in range(num_rolls)])


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon), given the opponent's SCORE.

    >>> free_bacon(32)
    11
    """
    tens = (score // 10) % 10
    ones = score % 10
    return 10 - ones + tens


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free Bacon).
    Return the points scored for the turn by the current player (Feral Hogs is added by play).
    """
    assert type(num_rolls) is int, "num_rolls must be an integer."
    assert num_rolls >= 0, "Cannot roll a negative number of dice in take_turn."
    assert num_rolls <= 10, "Cannot roll more than 10 dice."
    if num_rolls == 0:
        return free_bacon(opponent_score)
    return roll_dice(num_rolls, dice)


def feral_bonus(num_rolls, previous_points):
    """Feral Hogs: 3 extra points when NUM_ROLLS is exactly 2 away from the points the player
    scored on their previous turn (PREVIOUS_POINTS, bonuses and swaps excluded), else 0.

    >>> feral_bonus(5, 7)
    3
    """
    return 3 if abs(num_rolls - previous_points) == 2 else 0


def is_swap(player_score, opponent_score):
    """Return whether the two scores should be swapped (Swine Swap).

    >>> is_swap(55, 23)
    True
    """
    difference = abs(player_score % 10 - opponent_score % 10)
    return difference == (opponent_score // 10) % 10


def other(who):
    """Return the other player, for a player WHO numbered 0 or 1."""
    return 1 - who


next_player = other


def play(
    strategy0,
    strategy1,
    score0=0,
    score1=0,
    dice=six_sided,
    goal=GOAL_SCORE,
    say=silence,
    feral_hogs=True,
):
    """Simulate a game and return the final scores of both players, with Player 0's score first,
    and Player 1's score second.

    A strategy is a function that takes two total scores as arguments (the current player's
    score, and the opponent's score), and returns a number of dice that the current player will
    roll this turn.
    """
    who = 0  # Who is about to take a turn, 0 (first) or 1 (second)
    previous0, previous1 = 0, 0  # points scored on each player's previous turn
    while score0 < goal and score1 < goal:
        if who == 0:
            num_rolls = strategy0(score0, score1)
            points = take_turn(num_rolls, score1, dice)
            score0 += points + (feral_bonus(num_rolls, previous0) if feral_hogs else 0)
            previous0 = points
            if is_swap(score0, score1):
                score0, score1 = score1, score0
        else:
            num_rolls = strategy1(score1, score0)
            points = take_turn(num_rolls, score0, dice)
            score1 += points + (feral_bonus(num_rolls, previous1) if feral_hogs else 0)
            previous1 = points
            if is_swap(score1, score0):
                score0, score1 = score1, score0
        say = say(score0, score1)
        who = other(who)
    return score0, score1


announce_highest = make_announce_highest(
    "{gain} point(s)! That's the biggest gain yet for Player {who}"
)


def always_roll(n):
    """Return a strategy that always rolls N dice."""
    assert 0 <= n <= 10

    def strategy(score, opponent_score):
        return n

    return strategy


def bacon_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice if that gives at least CUTOFF points, and rolls NUM_ROLLS
    otherwise (Feral Hogs bonuses are not counted: a strategy cannot predict them)."""
    return 0 if free_bacon(opponent_score) >= cutoff else num_rolls


def swap_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice when it triggers a beneficial swap. It also rolls 0 dice if it
    gives at least CUTOFF points and does not trigger a non-beneficial swap. Otherwise, it rolls
    NUM_ROLLS. A swap of equal scores is neither beneficial nor detrimental."""
    new_score = score + free_bacon(opponent_score)
    if is_swap(new_score, opponent_score):
        if new_score < opponent_score:
            return 0
        if new_score > opponent_score:
            return num_rolls
    return bacon_strategy(score, opponent_score, cutoff, num_rolls)


def final_strategy(score, opponent_score):
    """A placeholder final strategy."""
    return 6


# ---------------------------------------------------------------------------------------------
# The engines' model, built from the functions above
# ---------------------------------------------------------------------------------------------
#
# States. Feral Hogs off: score * goal + opponent_score. Feral Hogs on:
#     (mover_previous * BUCKETS + opponent_previous) * goal * goal + score * goal + opponent_score
# (scores innermost: the observation is state % goal**2, and the successors of one state for
# consecutive dice totals lie next to each other in memory). A previous-points bucket is
# min(points, BUCKETS - 1): with at most 10 dice, |num_rolls - points| == 2 needs points <= 12,
# so 13 stands for "13 or more" (build_model checks that this bucketing never changes a Feral
# Hogs bonus). Every turn scores at least 1 point (Pig Out 1, Free Bacon at least 1) and a swap
# keeps the sum of the scores, so levels by that sum make the game acyclic.
#
# params (int64), all tables computed by calling the course functions above:
#   [GOAL]            goal
#   [FERAL]           1 when Feral Hogs is on
#   [SCORE_ROWS]      number of mover scores the swap table covers (goal + most points in a turn)
#   [BACON_AT]        offset of bacon[opponent_score]          = free_bacon(opponent_score)
#   [FERAL_AT]        offset of feral[num_rolls * BUCKETS + b] = feral_bonus(num_rolls, b)
#   [SWAP_AT]         offset of swap[score * goal + opponent]  = is_swap(score, opponent)
#   [GOAL_DIVIDER]    multiplier for fast_divide(n, goal, .)   (decoding states without a division)
#   [AREA_DIVIDER]    multiplier for fast_divide(n, goal * goal, .)

MAX_DICE = 10
ZERO_DICE_KIND = MAX_DICE  # the roll-kind row for rolling 0 dice (one value, 0, certain)
BUCKETS = 14  # previous-turn points 0..12 individually, and 13 for "13 or more"
GOAL, FERAL, SCORE_ROWS, BACON_AT, FERAL_AT, SWAP_AT, GOAL_DIVIDER, AREA_DIVIDER = range(8)
HEADER = 8


@jit(roll_kind_signature)
def _roll_kind(params, state, choice):
    return ZERO_DICE_KIND if choice == 0 else choice - 1


@jit(inline="always")
def _turn(params, score, opponent, choice, value, previous):
    """One turn from the mover's side: (mover's score, opponent's score, points for Feral Hogs).

    PREVIOUS is the mover's previous-points bucket, or -1 when Feral Hogs is off.
    """
    goal = params[GOAL]
    points = params[params[BACON_AT] + opponent] if choice == 0 else value
    score += points
    if previous >= 0:
        score += params[params[FERAL_AT] + choice * BUCKETS + previous]
    if params[params[SWAP_AT] + score * goal + opponent]:
        score, opponent = opponent, score
    return score, opponent, points


@jit(inline="always")
def _decode(params, state):
    """(score, opponent's score, previous, opponent's previous) at STATE; the previous-points
    buckets are -1 when Feral Hogs is off."""
    goal = params[GOAL]
    area = goal * goal
    buckets = fast_divide(state, area, params[AREA_DIVIDER])  # 0 when Feral Hogs is off
    scores = state - buckets * area
    score = fast_divide(scores, goal, params[GOAL_DIVIDER])
    opponent = scores - score * goal
    if params[FERAL]:
        previous = buckets // BUCKETS
        return score, opponent, previous, buckets - previous * BUCKETS
    return score, opponent, -1, -1


@jit(inline="always")
def _turn_outcome(params, score, opponent, previous, opponent_previous, choice, value):
    """The model's outcome of a turn from a decoded state."""
    goal = params[GOAL]
    score, opponent, points = _turn(params, score, opponent, choice, value, previous)
    if score >= goal:
        return WIN
    if opponent >= goal:  # a swap handed the opponent the goal
        return LOSE
    following = opponent * goal + score
    if previous >= 0:
        following += (opponent_previous * BUCKETS + min(points, BUCKETS - 1)) * goal * goal
    return outcome(following, OTHER)


@jit(resolve_signature)
def _resolve(params, state, choice, value):
    score, opponent, previous, opponent_previous = _decode(params, state)
    return _turn_outcome(params, score, opponent, previous, opponent_previous, choice, value)


@jit(resolve_row_signature)
def _resolve_row(params, state, choice, values, lo, hi, out):
    """_resolve for a whole roll, decoding the state once."""
    score, opponent, previous, opponent_previous = _decode(params, state)
    for d in range(lo, hi):
        out[d - lo] = _turn_outcome(
            params, score, opponent, previous, opponent_previous, choice, values[d]
        )


@jit(inline="always")
def _q_key(params, score, opponent, previous, opponent_previous, choice):
    """A key for the exact engine (Feral Hogs on), of a decoded state: Feral Hogs changes a
    turn only through the points it adds, so a choice's outcomes depend on the mover's score
    plus that bonus, the opponent's score, the opponent's previous points and the choice,
    whatever the mover's own previous points. Many states share a key, and the engine values
    each key once."""
    goal = params[GOAL]
    score += params[params[FERAL_AT] + choice * BUCKETS + previous]
    return ((opponent_previous * (goal + 3) + score) * goal + opponent) * (MAX_DICE + 1) + choice


@jit(q_keys_signature)
def _q_keys(params, states, choices, lo, hi, out):
    """The exact engine's keys for a run of (state, choice) pairs, one call for many; a run
    often holds one state with every choice, decoded once."""
    decoded = -1
    score = opponent = previous = opponent_previous = 0
    for j in range(lo, hi):
        if states[j] != decoded:
            decoded = states[j]
            score, opponent, previous, opponent_previous = _decode(params, decoded)
        out[j] = _q_key(params, score, opponent, previous, opponent_previous, choices[j])


class HogSu20(RuleSet):
    name = "hog-su20"
    dice_points = staticmethod(pig_out)
    announce_highest = staticmethod(announce_highest)
    max_goal = 200  # the previous-turn state multiplies the states by 121 or more
    hidden_state = "each player's points on their previous turn (Feral Hogs)"
    title = "Hog, CS 61A Summer 2020"
    strategy_args = ("score", "opponent_score")
    requires_deterministic = True
    options_help = {
        "feral_hogs": (
            True,
            "Feral Hogs: +3 when the dice rolled are 2 away from your previous turn's points",
        ),
    }
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 1"),
        ("Free Bacon", "rolling 0 scores 10 - ones + tens of the opponent's score"),
        ("Feral Hogs", "+3 when |dice rolled - your previous turn's points| is 2 (option)"),
        ("Swine Swap", "swap when |your ones - their ones| equals their tens, even at the goal"),
    )
    # The course text measures final strategies against always_roll(4).
    baseline = "always_roll:4"

    def build_model(self) -> GameModel:
        goal = self.goal
        feral = bool(self.options["feral_hogs"])
        rows = [dice_distribution(n, (1, 2, 3, 4, 5, 6), pig_out) for n in range(1, MAX_DICE + 1)]
        rows.append({0: 1.0})
        ptr, values, probs = distribution_table(rows)
        choices = np.arange(0, MAX_DICE + 1, dtype=np.int64)

        bacon = [free_bacon(o) for o in range(goal)]
        most_points = max(max(bacon), int(values.max()))
        feral_table = [feral_bonus(n, b) for n in choices for b in range(BUCKETS)]
        assert max(feral_table) == 3  # _q_key leaves room for a bonus of 3
        for n in choices:  # a bucket stands for every points value it holds
            for p in range(most_points + 1):
                if feral_bonus(n, p) != feral_bonus(n, min(p, BUCKETS - 1)):
                    raise AssertionError(f"Feral Hogs needs previous points {p} apart")
        score_rows = goal + most_points + (max(feral_table) if feral else 0)
        swap = [is_swap(s, o) for s in range(score_rows) for o in range(goal)]
        bacon_at = HEADER
        feral_at = bacon_at + len(bacon)
        swap_at = feral_at + len(feral_table)
        n_states = goal * goal * (BUCKETS * BUCKETS if feral else 1)
        dividers = [divider(goal, goal * goal), divider(goal * goal, n_states)]
        header = [goal, int(feral), score_rows, bacon_at, feral_at, swap_at, *dividers]
        params = np.array(header + bacon + feral_table + swap, dtype=np.int64)

        states = np.arange(n_states, dtype=np.int64)
        observation = states % (goal * goal)
        # Within a level, the states that differ only in the mover's previous points come
        # together: they share most choice values (see _q_key), which the solver then finds
        # still in cache.
        previous, opponent_previous = np.divmod(states // (goal * goal), BUCKETS)
        order, level_ptr = levels_by_key(
            observation // goal + observation % goal,
            (observation * BUCKETS + opponent_previous) * BUCKETS + previous,
        )
        canonical = None
        if feral:
            # A strategy sees only the scores. As its representative state we take the one in
            # which neither player's previous turn is 2 away from any number of dice (bucket
            # "13 or more"): no Feral Hogs bonus in reach for either player, which is how the
            # course tells students to reason ("for strategies, we do not take into account
            # bonuses from feral hogs"). The scores 0-0 only occur at the start, so that
            # observation maps to the real start state (no previous turns: 0 points each).
            last = BUCKETS - 1
            canonical = (
                np.arange(goal * goal, dtype=np.int64) + (last * BUCKETS + last) * goal * goal
            )
            canonical[0] = 0
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
            choices=choices,
            canonical=canonical,
            q_keys=_q_keys if feral else None,
            resolve_row=_resolve_row,
            independent_levels=True,  # every turn raises the sum of the scores
            n_keys=BUCKETS * (goal + 3) * goal * (MAX_DICE + 1) if feral else 0,
        )

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        m = self.model
        score, opponent = self.scores(state)
        if choice == 0:
            value, dice = 0, ()
            points = free_bacon(opponent)
            events = [f"Free Bacon: {points} point{'s' * (points != 1)}"]
        else:
            dice = tuple(rng.randint(1, 6) for _ in range(choice))
            value = points = pig_out(dice)
            events = ["Pig Out! 1 point"] if 1 in dice else [f"{points} points"]
        score += points
        if self.options["feral_hogs"]:
            # The mover's previous points live in the state as a bucket, which gives the same
            # bonus as the points themselves (build_model checks this).
            previous = state // (self.goal * self.goal) // BUCKETS
            bonus = feral_bonus(choice, previous)
            if bonus:
                score += bonus
                events.append(f"Feral Hogs: +{bonus}")
        if is_swap(score, opponent):
            score, opponent = opponent, score
            events.append("Swine Swap!")
        code = int(m.resolve(m.params, state, choice, value))
        final = (score, opponent) if code & 7 in (WIN, LOSE) else None
        return Step(dice, events, code, final)

    def describe_state(self, state: int) -> str:
        text = super().describe_state(state)
        if self.options["feral_hogs"]:
            previous, opponent_previous = divmod(state // (self.goal * self.goal), BUCKETS)
            text += (
                f" (previous turn's points: {_bucket_text(previous)},"
                f" opponent's {_bucket_text(opponent_previous)})"
            )
        return text

    def builtins(self) -> dict[str, Builtin]:
        return {
            "always_roll": Builtin(always_roll, "always roll N dice: always_roll:6"),
            "bacon_strategy": Builtin(
                lambda cutoff=8, num_rolls=6: _bind(bacon_strategy, cutoff, num_rolls),
                "0 dice when Free Bacon gives >= cutoff, else num_rolls",
            ),
            "swap_strategy": Builtin(
                lambda cutoff=8, num_rolls=6: _bind(swap_strategy, cutoff, num_rolls),
                "0 dice for a beneficial swap or >= cutoff points (never a harmful swap), else"
                " num_rolls",
            ),
        }


def _bucket_text(bucket: int) -> str:
    return f"{bucket}+" if bucket == BUCKETS - 1 else str(bucket)


def _bind(strategy, cutoff, num_rolls):
    def bound(score, opponent_score):
        return strategy(score, opponent_score, cutoff, num_rolls)

    bound.__name__ = f"{strategy.__name__}(cutoff={cutoff}, num_rolls={num_rolls})"
    return bound


RULES = HogSu20
