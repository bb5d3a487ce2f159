"""Hog, CS 61A Fall 2019: Pig Out, Free Bacon, Feral Hogs, Swine Swap.

Rules (the course's rules, from the term's skeleton AnthonyNg404/61A ``projects/hog/hog.py`` and
its ``play(..., feral_hogs=True)``; also laevatin/CS61A-fa19, yuzhoumo/cs61a-fa2019):

* Pig Out. If any of the dice outcomes is a 1, the current player's score for the turn is 1.
* Free Bacon. A player who chooses to roll zero dice scores ten minus the minimum of the tens
  digit and the ones digit of the opponent's score.
* Feral Hogs. If the number of dice you roll is exactly 2 away (absolute difference) from the
  number of dice you rolled on your previous turn, you get 3 extra points for the turn. Treat
  the turn before your first turn as rolling 0 dice. Rolling 0 dice is a number of dice too.
* Swine Swap. After points for the turn are added to the current player's score, if the first
  digit of the current player's score times its ones digit equals the first digit of the
  opponent's score times its ones digit, the scores are swapped (also when the current player
  has reached the goal: the course's ``play`` checks after every turn).

The staff contest engine's figures confirm two readings: always_roll(4) against always_roll(6)
wins 0.4610395535 moving first and 0.4313770522 moving second (0.4462083029 averaged), which
this rule set reproduces to 1e-12; without a swap at the goal it would be 0.4577/0.4258, and with
the tens digit as the "first digit" of 100..109 0.4612/0.4310. The Feral Hogs readings (0 before
a player's first turn; a 0-dice turn counts as 0 dice) follow the course's ``play``, which
records the number of dice of every turn; rolling 4 or 6 never tests them. Feral Hogs is switched
off with the option ``feral_hogs`` (the course's ``play(..., feral_hogs=False)``).

Hidden state: each player's previous number of dice, 0..10 (11 values each). No smaller state
is exact: a previous p triggers the bonus for the choices p - 2 and p + 2, a different pair for
every p. A strategy sees only the two scores.
"""

from __future__ import annotations

import random

import numpy as np

from hogbench.dice import six_sided
from hogbench.jit import jit
from hogbench.rules.base import (
    LOSE,
    OTHER,
    WIN,
    GameModel,
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
)
from hogbench.rules.hog_sp19 import (  # noqa: F401  (the course's names, re-exported)
    GOAL_SCORE,
    MAX_DICE,
    SwapTerm,
    _roll_kind,
    always_roll,
    announce_highest,
    make_test_dice,
    other,
    pig_out,
    roll_dice,
    silence,
)


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon), given the opponent's SCORE.

    >>> free_bacon(39)
    7
    """
    return 10 - min((score // 10) % 10, score % 10)


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free Bacon)."""
    assert type(num_rolls) is int, "num_rolls must be an integer."
    assert 0 <= num_rolls <= 10, "Cannot roll fewer than 0 or more than 10 dice."
    if num_rolls == 0:
        return free_bacon(opponent_score)
    return roll_dice(num_rolls, dice)


def is_swap(player_score, opponent_score):
    """Return whether the two scores should be swapped: equal first digit times ones digit.

    >>> is_swap(19, 91), is_swap(23, 32), is_swap(106, 16)
    (True, True, True)
    """

    def first_times_last(score):
        first = score
        while first >= 10:
            first //= 10
        return first * (score % 10)

    return first_times_last(player_score) == first_times_last(opponent_score)


def feral_bonus(num_rolls, previous_rolls):
    """Feral Hogs: 3 extra points when NUM_ROLLS is exactly 2 away from PREVIOUS_ROLLS."""
    return 3 if abs(num_rolls - previous_rolls) == 2 else 0


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
    """Simulate a game and return the final scores of both players, Player 0's score first."""
    player, previous = 0, [0, 0]  # each player's dice on their previous turn
    while score0 < goal and score1 < goal:
        if player == 0:
            num_rolls = strategy0(score0, score1)
            score0 += take_turn(num_rolls, score1, dice)
            score0 += feral_bonus(num_rolls, previous[0]) if feral_hogs else 0
        else:
            num_rolls = strategy1(score1, score0)
            score1 += take_turn(num_rolls, score0, dice)
            score1 += feral_bonus(num_rolls, previous[1]) if feral_hogs else 0
        previous[player] = num_rolls
        if is_swap(score0, score1):
            score0, score1 = score1, score0
        player = other(player)
        say = say(score0, score1)
    return score0, score1


def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):
    """This strategy rolls 0 dice if that gives at least MARGIN points, and rolls NUM_ROLLS
    otherwise."""
    return 0 if free_bacon(opponent_score) >= margin else num_rolls


def swap_strategy(score, opponent_score, margin=8, num_rolls=4):
    """This strategy rolls 0 dice when it triggers a beneficial swap. It also rolls 0 dice if it
    gives at least MARGIN points and does not trigger a non-beneficial swap. Otherwise, it rolls
    NUM_ROLLS. (Feral Hogs bonuses are not counted: a strategy cannot see them.)"""
    new_score = score + free_bacon(opponent_score)
    if is_swap(new_score, opponent_score) and new_score != opponent_score:
        return 0 if new_score < opponent_score else num_rolls
    return bacon_strategy(score, opponent_score, margin, num_rolls)


# ---------------------------------------------------------------------------------------------
# The engines' model. State (Feral Hogs on):
#     (mover_previous * 11 + opponent_previous) * goal * goal + score * goal + opponent
# params: [goal, feral, score_rows, goal divider, area divider, bacon[opponent] ...,
#          swap[score * goal + opponent] ...]. Every turn scores at least 1 and a swap keeps the
# sum of the scores, so levels by that sum are acyclic.
# ---------------------------------------------------------------------------------------------

PREVIOUS = MAX_DICE + 1  # previous dice 0..10
HEADER = 5


@jit(inline="always")
def _decode(params, state):
    goal = params[0]
    area = goal * goal
    previous = fast_divide(state, area, params[4])
    scores = state - previous * area
    score = fast_divide(scores, goal, params[3])
    return score, scores - score * goal, previous // PREVIOUS, previous % PREVIOUS


@jit(inline="always")
def _turn(params, score, opponent, previous, opponent_previous, choice, value):
    goal = params[0]
    score += params[HEADER + opponent] if choice == 0 else value
    if params[1] and (choice - previous == 2 or previous - choice == 2):
        score += 3
    if params[HEADER + goal + score * goal + opponent]:
        score, opponent = opponent, score
    if score >= goal:
        return WIN
    if opponent >= goal:  # a swap handed the opponent the goal
        return LOSE
    hidden = opponent_previous * PREVIOUS + choice if params[1] else 0
    return outcome(hidden * goal * goal + opponent * goal + score, OTHER)


@jit(resolve_signature)
def _resolve(params, state, choice, value):
    score, opponent, previous, opponent_previous = _decode(params, state)
    return _turn(params, score, opponent, previous, opponent_previous, choice, value)


@jit(resolve_row_signature)
def _resolve_row(params, state, choice, values, lo, hi, out):
    score, opponent, previous, opponent_previous = _decode(params, state)
    for d in range(lo, hi):
        out[d - lo] = _turn(params, score, opponent, previous, opponent_previous, choice, values[d])


@jit(q_keys_signature)
def _q_keys(params, states, choices, lo, hi, out):
    """Keys for the exact engine: the mover's previous dice change a turn only through the
    bonus, so (opponent's previous, score + bonus, opponent, choice) decides the outcomes."""
    goal = params[0]
    for j in range(lo, hi):
        score, opponent, previous, opponent_previous = _decode(params, states[j])
        choice = choices[j]
        if choice - previous == 2 or previous - choice == 2:
            score += 3
        out[j] = ((opponent_previous * (goal + 3) + score) * goal + opponent) * PREVIOUS + choice


class HogFa19(SwapTerm):
    name = "hog-fa19"
    max_goal = 200  # the previous-turn state multiplies the states by 121 or more
    hidden_state = "how many dice each player rolled on their previous turn (Feral Hogs)"
    title = "Hog, CS 61A Fall 2019"
    free_bacon = staticmethod(free_bacon)
    is_swap = staticmethod(is_swap)
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    options_help = {
        "feral_hogs": (True, "Feral Hogs: +3 when the dice rolled are 2 away from your last"),
    }
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 1"),
        ("Free Bacon", "rolling 0 scores 10 - min(tens, ones) of the opponent's score"),
        ("Feral Hogs", "+3 when |dice rolled - dice you rolled last turn| is 2 (option)"),
        ("Swine Swap", "swap when first digit x ones digit match for both scores, even at goal"),
    )
    hidden_text = "each player's number of dice on their previous turn (Feral Hogs)"

    def build_model(self) -> GameModel:
        goal, feral = self.goal, bool(self.options["feral_hogs"])
        rows = [dice_distribution(n, (1, 2, 3, 4, 5, 6), pig_out) for n in range(1, MAX_DICE + 1)]
        rows.append({0: 1.0})
        ptr, values, probs = distribution_table(rows)
        bacon = [free_bacon(o) for o in range(goal)]
        assert min(bacon) >= 1  # every turn raises the sum of the scores
        score_rows = goal + max(max(bacon), int(values.max())) + 3
        swap = [int(is_swap(s, o)) for s in range(score_rows) for o in range(goal)]
        area = goal * goal
        n_states = area * (PREVIOUS * PREVIOUS if feral else 1)
        dividers = [divider(goal, area), divider(area, n_states)]
        params = np.array([goal, int(feral), score_rows, *dividers, *bacon, *swap], np.int64)
        states = np.arange(n_states, dtype=np.int64)
        observation = states % area
        order, level_ptr = levels_by_key(observation // goal + observation % goal, states)
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
            choices=np.arange(0, MAX_DICE + 1, dtype=np.int64),
            q_keys=_q_keys if feral else None,
            n_keys=PREVIOUS * (goal + 3) * goal * PREVIOUS if feral else 0,
            resolve_row=_resolve_row,
            independent_levels=True,
        )

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        step = super().play_step(state, choice, rng)
        if not self.options["feral_hogs"]:
            return step
        previous = state // (self.goal * self.goal) // PREVIOUS
        bonus = feral_bonus(choice, previous)
        if not bonus:
            return step
        # The swap is decided after the bonus: recount the events with it.
        score, opponent = self.scores(state)
        points = free_bacon(opponent) if choice == 0 else pig_out(step.dice)
        events = [e for e in step.events if e != "Swine Swap!"] + [f"Feral Hogs: +{bonus}"]
        score += points + bonus
        if is_swap(score, opponent):
            score, opponent = opponent, score
            events.append("Swine Swap!")
        final = (score, opponent) if step.code & 7 in (WIN, LOSE) else None
        return Step(step.dice, events, step.code, final)

    def describe_state(self, state: int) -> str:
        text = super().describe_state(state)
        if self.options["feral_hogs"]:
            previous, opponent_previous = divmod(state // (self.goal * self.goal), PREVIOUS)
            text += f" (dice on the previous turn: {previous}, opponent's {opponent_previous})"
        return text


RULES = HogFa19
