"""Big Pig: two dice per roll, roll or hold, played in rounds.

Rules (from the course text, adapted there from Pig):

* On a turn a player rolls a pair of dice as many times as they wish, adding the points of each
  roll to a turn total, and may hold after any roll.
* A 1 on one die and anything but a 1 on the other: "Big Pig". The turn total is lost and the
  turn ends.
* Two different values: their sum is added to the turn total.
* A 1 on both dice: 25 is added to the turn total.
* The same value (above 1) on both dice: twice their sum is added to the turn total.
* Holding adds the turn total to the player's score and ends the turn.
* Play goes in rounds, the first player then the second. If at the end of a round at least one
  player has 100 points or more, the game ends and the higher score wins; equal scores tie.

The player's decision is ``strategy(score, opponent_score, turn_total) -> roll or hold``, answered
as in Pig: ``True`` or ``"roll"`` to roll, ``False`` or ``"hold"`` to hold (the strings in any case,
also ``"r"`` and ``"h"``); anything else is an illegal move.

Readings:

* A turn starts with a roll: the strategy is not asked at turn total 0 (as in Pig).
* Nothing ends a turn but holding or Big Pig: a second player who would win by holding is still
  asked, as the course's computer player shows (below 100 against a first player below 100, it
  rolls on while its turn total is under 20).
* The strategy sees the three numbers only. The engines' state also knows whether the mover is
  first or second in the round; for the second player the opponent's score tells whether the
  game ends after this turn (it does when the first player has reached 100, or when the second
  player holds with 100 or more). So ``solve`` finds the best play for a player who knows the
  seat, which a three-argument strategy cannot always follow (both seats share an observation
  while both scores are below 100).
* Scores can pass 100, so the engines track them up to a cap, goal + ``overshoot`` (option,
  default 50): a turn whose score-if-held (score + turn total) reaches the cap ends there, as if
  the player held with exactly the cap. This is not a rule of the game but a bound on the model.
  It changes nothing in a game in which no first player's score-if-held reaches the cap and no
  second player's reaches it while the strategy would still roll (a second player at the cap is
  ahead of a first player below it, so holding there wins); otherwise the engines' result can
  differ from the game's by at most the chance of that happening. With the default cap, 150,
  games between the course's computer and ``hold_at:N`` players with N <= 26 are exact: as first
  players they hold by 99 + (N - 1) + 25 <= 149 (the computer as hold_at:20), as second players
  hold_at:N holds by 149 too and the computer only rolls on in the last turn while behind. A
  smaller overshoot gives a smaller, faster model and a larger bound. The plain ``play`` below
  has no cap.
* Decision tables cover score in [0, goal), opponent_score in [0, cap] and turn_total in
  [0, cap). Making one asks the strategy everywhere in it; the engines never use its answers at
  turn total 0 or with score + turn total >= cap (or opponent_score >= goal for a first player,
  which cannot occur).

The first half of this module is the plain game (the readable reference); the second half builds
the engines' model from the same functions.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import numpy as np

from hogbench.dice import make_fair_dice, make_test_dice, six_sided  # noqa: F401
from hogbench.errors import UsageError
from hogbench.jit import jit
from hogbench.rules.base import (
    LOSE,
    OTHER,
    SAME,
    TIE,
    WIN,
    Builtin,
    GameModel,
    Step,
    distribution_table,
    levels_by_key,
    outcome,
    resolve_row_signature,
    resolve_signature,
    roll_kind_signature,
)
from hogbench.rules.pig import HOLD, ROLL, RollOrHold, wants_roll

GOAL_SCORE = 100

# ---------------------------------------------------------------------------------------------
# The plain game
# ---------------------------------------------------------------------------------------------


@jit()
def roll_points(die1: int, die2: int) -> int:
    """Points one roll of the pair adds to the turn total; 0 for Big Pig, which loses it.

    Two 1s add 25; a 1 and anything else is Big Pig; two equal values add twice their sum;
    otherwise the sum.
    """
    if die1 == 1 and die2 == 1:
        return 25
    if die1 == 1 or die2 == 1:
        return 0
    if die1 == die2:
        return 2 * (die1 + die2)
    return die1 + die2


@jit()
def game_over(score0: int, score1: int, goal: int) -> bool:
    """At the end of a round: the game ends when at least one player has GOAL or more."""
    return score0 >= goal or score1 >= goal


def take_turn(
    strategy: Callable, score: int, opponent_score: int, dice: Callable[[], int] = six_sided
) -> int:
    """Play one turn for the player with SCORE; return the points it scores.

    The turn starts with a roll; after each roll that keeps the turn going the strategy decides.
    """
    turn_total = 0
    while True:
        points = roll_points(dice(), dice())
        if points == 0:
            return 0
        turn_total += points
        if not wants_roll(strategy(score, opponent_score, turn_total)):
            return turn_total


def play(
    strategy0: Callable,
    strategy1: Callable,
    goal: int = GOAL_SCORE,
    dice: Callable[[], int] = six_sided,
) -> tuple[int, int]:
    """Play one game in rounds, STRATEGY0 first in each; return the final scores, its first.

    The higher score wins; equal scores tie.
    """
    score0 = score1 = 0
    while not game_over(score0, score1, goal):
        score0 += take_turn(strategy0, score0, score1, dice)
        score1 += take_turn(strategy1, score1, score0, dice)
    return score0, score1


def computer(goal: int = GOAL_SCORE, target: int = 20) -> Callable:
    """Return the course's computer player.

    While the opponent has fewer than GOAL points it rolls while its turn total is below TARGET
    (20). Once the opponent has GOAL or more it rolls until holding would win.
    """

    def strategy(score, opponent_score, turn_total):
        if opponent_score < goal:
            return turn_total < target
        return score + turn_total <= opponent_score

    strategy.__name__ = "computer"
    return strategy


def hold_at(n: int) -> Callable:
    """Return a strategy that holds once the turn total reaches N."""
    assert n >= 1, "hold_at needs a turn total of at least 1"

    def strategy(score, opponent_score, turn_total):
        return turn_total < n

    strategy.__name__ = f"hold_at({n})"
    return strategy


# ---------------------------------------------------------------------------------------------
# The engines' model, built from the functions above
# ---------------------------------------------------------------------------------------------
#
# With CAP = goal + overshoot, the decision table covers (score, opponent_score, turn_total) in
# [0, goal) x [0, CAP] x [0, CAP); a state is that observation plus the seat:
#     seat * OBS + (score * (CAP + 1) + opponent_score) * CAP + turn_total,  OBS = table size,
# seat 0 for the first player of the round, 1 for the second. The first player only ever moves
# with both scores below the goal, and no turn total goes past score + turn_total = CAP - 1, so
# the other states never occur: they resolve to LOSE and are left out of the order, so no
# engine spends time on them (their values stay 0 and are never read).
#
# Levels: Big Pig hands the turn on without changing the scores, so in the round with scores
# (a, b) the first player's states (a, b, *) and the second player's (b, a, *) form one strongly
# connected set; holding raises a score. Levels are those sets, larger score sums first; within
# one, the first player's turn totals descending, then the second's, so a sweep goes once around
# the set's only cycle. The second player's last turns (first player at the goal or beyond) lead
# only to the end of the game: they form the first level.

ROLL_ROW, HOLD_ROW = 0, 1


# The helpers take the goal and the cap as numbers, not the params array: numba keeps a reference
# count on an array passed to a function with branches, at every call (the entry points below
# read it once).


@jit()
def _state(goal, cap, seat, score, opponent, turn_total):
    return (seat * goal + score) * (cap + 1) * cap + opponent * cap + turn_total


@jit()
def _decode(goal, cap, state):
    turn_total = state % cap
    opponent = (state // cap) % (cap + 1)
    score = (state // (cap * (cap + 1))) % goal
    seat = state // (goal * cap * (cap + 1))
    live = score + turn_total < cap and (seat == 1 or opponent < goal)
    return seat, score, opponent, turn_total, live


@jit()
def _end_turn(goal, cap, seat, final, opponent):
    """The outcome once the mover's turn ends with score FINAL."""
    if seat == 0:
        return outcome(_state(goal, cap, 1, opponent, final, 0), OTHER)
    if game_over(final, opponent, goal):
        if final == opponent:
            return TIE
        return WIN if final > opponent else LOSE
    return outcome(_state(goal, cap, 0, opponent, final, 0), OTHER)


@jit(roll_kind_signature)
def _roll_kind(params, state, choice):
    seat, score, opponent, turn_total, live = _decode(params[0], params[1], state)
    if live and (choice == ROLL or turn_total == 0):
        return ROLL_ROW
    return HOLD_ROW


@jit()
def _outcome(goal, cap, seat, score, opponent, turn_total, live, choice, value):
    """The outcome of rolling VALUE (or holding) at a decoded state: the turn, written once."""
    if not live:
        return LOSE
    if choice == HOLD and turn_total > 0:
        return _end_turn(goal, cap, seat, score + turn_total, opponent)
    if value == 0:  # Big Pig
        return _end_turn(goal, cap, seat, score, opponent)
    turn_total += value
    if score + turn_total >= cap:  # the model's bound: the turn ends at the cap
        return _end_turn(goal, cap, seat, cap, opponent)
    return outcome(_state(goal, cap, seat, score, opponent, turn_total), SAME)


@jit(resolve_signature)
def _resolve(params, state, choice, value):
    goal, cap = params[0], params[1]
    seat, score, opponent, turn_total, live = _decode(goal, cap, state)
    return _outcome(goal, cap, seat, score, opponent, turn_total, live, choice, value)


@jit(resolve_row_signature)
def _resolve_row(params, state, choice, values, lo, hi, out):
    """_resolve for a whole roll, the state decoded once."""
    goal, cap = params[0], params[1]
    seat, score, opponent, turn_total, live = _decode(goal, cap, state)
    for d in range(lo, hi):
        out[d - lo] = _outcome(
            goal, cap, seat, score, opponent, turn_total, live, choice, values[d]
        )


class BigPig(RollOrHold):
    name = "big-pig"
    can_tie = True  # equal scores at the end tie
    hidden_state = "whether the player moved first or second in the round"
    title = "Big Pig (two dice, in rounds)"
    options_help = {
        "overshoot": (
            50,
            "the engines track scores up to goal + overshoot; a turn reaching it ends there",
        ),
    }
    rule_lines = (
        ("Big Pig", "a 1 on one die only loses the turn total and ends the turn"),
        ("Doubles", "two 1s add 25; other doubles add twice their sum; else the sum"),
        ("Hold", "the turn total is added to the score; a turn starts with a roll"),
        ("Rounds", "after a round in which someone has the goal, the higher score wins"),
    )
    baseline = "computer"
    has_ties = True  # equal scores after the last round
    person_moves_first = True  # "The user always goes first and the computer always gets a
    # final turn to try to win."

    @property
    def cap(self) -> int:
        return self.goal + int(self.options["overshoot"])

    max_goal = 100  # the model at goal 100 already holds 32M outcomes

    @property
    def obs_shape(self) -> tuple[int, ...]:
        return (self.goal, self.cap + 1, self.cap)

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        """One decision with a real pair of dice: doubles, snake eyes and Big Pig narrated."""
        m = self.model
        seat, score, opponent, turn_total, live = _decode(*m.params.tolist(), state)
        if choice == HOLD and turn_total > 0:
            code = int(m.resolve(m.params, state, HOLD, 0))
            return Step((), [f"banks {turn_total} points"], code, (score + turn_total, opponent))
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        value = int(roll_points(*dice))
        code = int(m.resolve(m.params, state, ROLL, value))
        forced = ["nothing to hold at turn total 0: rolls"] if choice == HOLD else []
        if dice == (1, 1):
            events = [f"snake eyes: +25, turn total {turn_total + 25}"]
        elif value == 0:
            events = [f"Big Pig! loses the turn total of {turn_total}"]
        elif dice[0] == dice[1]:
            events = [f"doubles: +{value}, turn total {turn_total + value}"]
        else:
            events = [f"+{value}, turn total {turn_total + value}"]
        events = forced + events
        if code & 7 == SAME:
            return Step(dice, events, code)
        if value:  # a roll that ends the turn reached the model's cap (see the readings)
            events.append(f"reaches the model's cap of {self.cap}: the turn ends there")
        return Step(dice, events, code, (score if value == 0 else self.cap, opponent))

    def describe_state(self, state: int) -> str:
        seat = "first" if state < int(np.prod(self.obs_shape)) else "second"
        return f"{super().describe_state(state)} ({seat} in the round)"

    def build_model(self) -> GameModel:
        goal, cap = self.goal, self.cap
        if self.options["overshoot"] < 0:
            raise UsageError("option overshoot of big-pig must be at least 0")
        roll: dict[int, float] = {}
        for die1, die2 in itertools.product(range(1, 7), repeat=2):
            points = int(roll_points(die1, die2))
            roll[points] = roll.get(points, 0.0) + 1 / 36
        ptr, values, probs = distribution_table([roll, {0: 1.0}])  # ROLL_ROW, HOLD_ROW

        n_obs = goal * (cap + 1) * cap
        # 4.5 million states at goal 100: the played ones are worked out one seat at a time, in
        # 32 bits, so that building the model does not take twice what it keeps.
        seat_states = np.arange(n_obs, dtype=np.int32)
        live, key, within = [], [], []
        for seat in (0, 1):
            t, o, s = (
                seat_states % cap,
                (seat_states // cap) % (cap + 1),
                seat_states // (cap * (cap + 1)),
            )
            played = (s + t < cap) & ((seat == 1) | (o < goal))
            t, o, s = t[played], o[played], s[played]
            live.append(seat_states[played] + seat * n_obs)
            a, b = (s, o) if seat == 0 else (o, s)  # the scores of the round's 1st and 2nd
            key.append(np.where(a < goal, (a + b) * goal + a, 2 * goal * goal))
            within.append(seat * cap - t)
            del t, o, s, a, b, played
        order, level_ptr = levels_by_key(np.concatenate(key), np.concatenate(within))
        del key, within
        order = np.concatenate(live)[order].astype(np.int64)
        del live, seat_states
        # An observation's state in the first seat, or the second where its opponent's score
        # is past the goal. 32 bits, like the temporaries: a worker holds this model.
        canonical = np.arange(n_obs, dtype=np.int32)
        canonical[(canonical // cap) % (cap + 1) >= goal] += n_obs
        return GameModel(
            n_states=2 * n_obs,
            start=0,
            observation=np.tile(np.arange(n_obs, dtype=np.int64), 2),  # the seat is not seen
            order=order,
            level_ptr=level_ptr,
            cyclic=True,
            params=np.array([goal, cap], dtype=np.int64),
            roll_kind=_roll_kind,
            resolve=_resolve,
            resolve_row=_resolve_row,
            dist_ptr=ptr,
            dist_value=values,
            dist_prob=probs,
            choices=np.array([HOLD, ROLL], dtype=np.int64),
            turn_starts=order[order % cap == 0],  # turn total 0
            canonical=canonical,
        )

    def builtins(self) -> dict[str, Builtin]:
        goal = self.goal
        return {
            "computer": Builtin(
                lambda target=20: computer(goal, target),
                "the course's computer: roll below 20 (computer:N), and once the opponent has"
                " the goal, roll until ahead",
            ),
            "hold_at": Builtin(hold_at, "hold once the turn total reaches N: hold_at:20"),
        }


RULES = BigPig
