"""What the Feral Hogs terms share (Fa19, Sp20, Su20): Free Bacon or the dice (Pig Out), then
Feral Hogs, then a Swine Swap checked after every turn, also when the mover has reached the goal.

Feral Hogs gives 3 extra points when the number of dice rolled is exactly 2 away from what the
player did on their previous turn: the points it scored (Sp20, Su20: ``take_turn``'s points,
bonuses and swaps excluded) or the dice it rolled (Fa19). So the game depends on more than the
two scores: the state carries that memory of each player's previous turn, 0 before their first.
A strategy sees only the two scores. Every turn scores at least 1 point and a swap keeps the sum
of the scores, so levels by that sum make the game acyclic, and no outcome stays in its level.

The turn is written once (``_turn``): the engines compile it, and the narration runs the same
function as Python on the dice it rolls and says which rules fired from what it returns. A term
module gives its course functions (``free_bacon`` of the opponent's score, ``feral_bonus``,
``is_swap``), its ``play`` made from them (``make_feral_play``) and a subclass of ``FeralTerm``
naming them and what Feral Hogs remembers. Not a
rule set itself (the registry skips modules whose names start with ``_``).
"""

from __future__ import annotations

import random
from typing import ClassVar

import numpy as np

from hogbench.commentary import silence
from hogbench.dice import six_sided
from hogbench.jit import jit
from hogbench.rules._kit import points_event
from hogbench.rules._swap_term import GOAL_SCORE, SwapTerm, pig_out
from hogbench.rules.base import (
    DIVIDE_SHIFT,
    LOSE,
    MAX_DICE,
    OTHER,
    WIN,
    GameModel,
    Step,
    dice_roll_kind,
    dice_rows,
    distribution_table,
    divider,
    levels_by_key,
    narrated_turn,
    outcome,
    q_keys_signature,
    resolve_row_signature,
    resolve_signature,
)


def make_feral_play(take_turn, feral_bonus, is_swap, remembers="points"):
    """The course's play for a Feral Hogs term: TAKE_TURN's points, plus FERAL_BONUS(num_rolls,
    what the mover REMEMBERS of their previous turn: its "points" or its "dice", 0 before their
    first), then a swap when IS_SWAP(mover's score, opponent's score), after every turn."""

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
        """Simulate a game and return the final scores of both players, with Player 0's score
        first, and Player 1's score second. FERAL_HOGS False plays without Feral Hogs."""
        who = 0  # Who is about to take a turn, 0 (first) or 1 (second)
        previous = [0, 0]  # what each player remembers of their previous turn
        while score0 < goal and score1 < goal:
            if who == 0:
                num_rolls = strategy0(score0, score1)
                points = take_turn(num_rolls, score1, dice)
                score0 += points + (feral_bonus(num_rolls, previous[0]) if feral_hogs else 0)
                swap = is_swap(score0, score1)
            else:
                num_rolls = strategy1(score1, score0)
                points = take_turn(num_rolls, score0, dice)
                score1 += points + (feral_bonus(num_rolls, previous[1]) if feral_hogs else 0)
                swap = is_swap(score1, score0)
            previous[who] = num_rolls if remembers == "dice" else points
            if swap:
                score0, score1 = score1, score0
            who = 1 - who
            say = say(score0, score1)
        return score0, score1

    return play


# States. Feral Hogs off: score * goal + opponent. On:
#     (mover's memory * MEMORY + opponent's memory) * goal * goal + score * goal + opponent
# (scores innermost: the observation is state % goal**2, and the successors of one state for
# consecutive dice totals lie next to each other in memory). A memory is the dice rolled, 0..10,
# or the points scored, min(points, 13): with at most 10 dice, |num_rolls - points| == 2 needs
# points <= 12, so 13 stands for "13 or more" (build_model checks that this never changes a
# bonus).
#
# params, the tables made by calling the term's course functions: the header, then
# bacon[opponent] = free_bacon(opponent), feral[num_rolls * MEMORY + memory] =
# feral_bonus(num_rolls, memory), swap[score * goal + opponent] = is_swap(score, opponent).
GOAL, FERAL, MEMORY, BY_DICE = range(4)  # goal, on or off, memories per player, what they hold
GOAL_DIVIDER, AREA_DIVIDER, MEMORY_DIVIDER, FERAL_AT, SWAP_AT = range(4, 9)
BACON_AT = 9  # the header's length
POINTS_MEMORY = 14  # points 0..12, and 13 for "13 or more"


@narrated_turn
def _turn(params, score, opponent, previous, choice, value):
    """The turn from the mover's side, PREVIOUS the mover's memory (-1: Feral Hogs off): the
    scores after it, the turn's points (Free Bacon's or the dice's), the Feral Hogs bonus and
    whether the scores swapped."""
    goal = params[GOAL]
    points = params[BACON_AT + opponent] if choice == 0 else value
    bonus = params[params[FERAL_AT] + choice * params[MEMORY] + previous] if previous >= 0 else 0
    score += points + bonus
    swap = params[params[SWAP_AT] + score * goal + opponent] != 0
    return (opponent if swap else score), (score if swap else opponent), points, bonus, swap


@jit(inline="always")
def _decode(params, state):
    """(score, opponent's score, memory, opponent's memory); the memories are -1 when Feral
    Hogs is off. Like the turn, written without branches (``base.narrated_turn``): the
    divisions are multiplications by the dividers, which always exist below max_goal."""
    goal, memory, feral = params[GOAL], params[MEMORY], params[FERAL]
    memories = (state * params[AREA_DIVIDER]) >> DIVIDE_SHIFT  # 0 when Feral Hogs is off
    scores = state - memories * goal * goal
    score = (scores * params[GOAL_DIVIDER]) >> DIVIDE_SHIFT
    previous = (memories * params[MEMORY_DIVIDER]) >> DIVIDE_SHIFT if feral else -1
    return score, scores - score * goal, previous, memories - previous * memory if feral else -1


@jit(inline="always")
def _outcome(params, score, opponent, previous, opponent_previous, choice, value):
    """The outcome of a turn from a decoded state: a win, a loss (a swap handed the opponent
    the goal), or the opponent to move with this turn's memory kept."""
    goal, memory = params[GOAL], params[MEMORY]
    score, opponent, points, _, _ = _turn(params, score, opponent, previous, choice, value)
    kept = choice if params[BY_DICE] else min(points, memory - 1)
    hidden = (opponent_previous * memory + kept) * goal * goal if previous >= 0 else 0
    following = outcome(hidden + opponent * goal + score, OTHER)
    return WIN if score >= goal else (LOSE if opponent >= goal else following)


@jit(resolve_signature)
def _resolve(params, state, choice, value):
    score, opponent, previous, opponent_previous = _decode(params, state)
    return _outcome(params, score, opponent, previous, opponent_previous, choice, value)


@jit(resolve_row_signature)
def _resolve_row(params, state, choice, values, lo, hi, out):
    """_resolve for a whole roll, decoding the state once."""
    score, opponent, previous, opponent_previous = _decode(params, state)
    for d in range(lo, hi):
        out[d - lo] = _outcome(
            params, score, opponent, previous, opponent_previous, choice, values[d]
        )


@jit(q_keys_signature)
def _q_keys(params, states, choices, lo, hi, out):
    """Keys for the exact engine (Feral Hogs on): the mover's memory changes a turn only through
    the bonus, so (opponent's memory, score + bonus, opponent's score, choice) decides the
    outcomes, and states that differ only in the mover's memory share most choice values. A run
    often holds one state with every choice, decoded once."""
    goal, memory = params[GOAL], params[MEMORY]
    decoded = -1
    score = opponent = previous = opponent_previous = 0
    for j in range(lo, hi):
        if states[j] != decoded:
            decoded = states[j]
            score, opponent, previous, opponent_previous = _decode(params, decoded)
        bonus = params[params[FERAL_AT] + choices[j] * memory + previous]
        key = (opponent_previous * (goal + 3) + score + bonus) * goal + opponent
        out[j] = key * (MAX_DICE + 1) + choices[j]


class FeralTerm(SwapTerm):
    """A Swine Swap term with Feral Hogs (the option ``feral_hogs``, on by default)."""

    max_goal = 200  # the memories multiply the states by 121 or more
    #: what Feral Hogs compares the dice with: "points" or "dice" of the previous turn
    remembers: ClassVar[str]
    #: feral_bonus(num_rolls, previous points or dice)
    feral_bonus: ClassVar
    #: how describe_state names the memories
    memory_text: ClassVar[str]

    def build_model(self) -> GameModel:
        goal, feral, by_dice = self.goal, bool(self.options["feral_hogs"]), self.remembers == "dice"
        rows = [*dice_rows(pig_out), {0: 1.0}]
        ptr, values, probs = distribution_table(rows)
        bacon = [self.free_bacon(o) for o in range(goal)]
        assert min(bacon) >= 1  # every turn raises the sum of the scores
        most = max(*bacon, *(max(row) for row in rows))  # the most points in a turn
        memory = MAX_DICE + 1 if by_dice else POINTS_MEMORY
        choices = range(MAX_DICE + 1)
        feral_table = [self.feral_bonus(n, b) for n in choices for b in range(memory)]
        assert max(feral_table) == 3  # _q_keys leaves room for a bonus of 3
        for n in choices:  # a memory stands for every points value it holds
            for p in range(0 if by_dice else most + 1):
                if self.feral_bonus(n, p) != self.feral_bonus(n, min(p, memory - 1)):
                    raise AssertionError(f"Feral Hogs needs previous points {p} apart")
        swap = [int(self.is_swap(s, o)) for s in range(goal + most + 3) for o in range(goal)]
        area = goal * goal
        n_states = area * (memory * memory if feral else 1)
        dividers = [divider(goal, area), divider(area, n_states), divider(memory, memory**2)]
        assert all(dividers)  # _decode divides by them
        feral_at = BACON_AT + goal
        header = [goal, int(feral), memory, int(by_dice), *dividers, feral_at]
        params = [*header, feral_at + len(feral_table), *bacon, *feral_table, *swap]
        states = np.arange(n_states, dtype=np.int64)
        observation = states % area
        # Within a level, the states that differ only in the mover's memory come together: they
        # share most choice values (see _q_keys), which the solver then finds still in cache.
        previous, opponent_previous = np.divmod(states // area, memory)
        order, level_ptr = levels_by_key(
            observation // goal + observation % goal,
            (observation * memory + opponent_previous) * memory + previous,
        )
        canonical = None
        if feral and not by_dice:
            # A strategy sees only the scores. As its representative state we take the one in
            # which neither player's previous turn is 2 away from any number of dice (13 or
            # more points): no Feral Hogs bonus in reach for either player, which is how the
            # course tells students to reason ("for strategies, we do not take into account
            # bonuses from feral hogs"). The scores 0-0 only occur at the start, so that
            # observation maps to the real start state (no previous turns: 0 points each).
            canonical = states[:area] + ((memory - 1) * memory + memory - 1) * area
            canonical[0] = 0
        return GameModel(
            n_states=n_states,
            start=0,
            observation=observation,
            order=order,
            level_ptr=level_ptr,
            cyclic=False,
            params=np.array(params, dtype=np.int64),
            roll_kind=dice_roll_kind,
            resolve=_resolve,
            dist_ptr=ptr,
            dist_value=values,
            dist_prob=probs,
            choices=np.arange(0, MAX_DICE + 1, dtype=np.int64),
            canonical=canonical,
            q_keys=_q_keys if feral else None,
            resolve_row=_resolve_row,
            independent_levels=True,
            n_keys=memory * (goal + 3) * goal * (MAX_DICE + 1) if feral else 0,
            memories=memory if feral else 0,
            memory_class=np.array(feral_table).reshape(len(choices), memory) > 0 if feral else None,
            memory_is_choice=by_dice,
        )

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        m = self.model
        score, opponent, previous, _ = _decode(m.params, state)  # the compiled code, as Python
        dice = tuple(rng.randint(1, 6) for _ in range(choice))
        value = pig_out(dice) if dice else 0
        turn = _turn(m.params, score, opponent, previous, choice, value)
        score, opponent, points, bonus, swap = (int(v) for v in turn)
        events = [points_event(dice, points, "Free Bacon", "Pig Out")]
        events += [f"Feral Hogs: +{bonus}"] * (bonus > 0) + ["Swine Swap!"] * swap
        code = int(m.resolve(m.params, state, choice, value))
        return Step(dice, events, code, (score, opponent) if code & 7 in (WIN, LOSE) else None)

    def describe_state(self, state: int) -> str:
        text = super().describe_state(state)
        if self.options["feral_hogs"]:
            _, _, *memories = (int(v) for v in _decode(self.model.params, state))
            if self.remembers == "points":  # the last memory holds 13 points or more
                memories = [f"{v}+" if v == POINTS_MEMORY - 1 else v for v in memories]
            text += f" ({self.memory_text}: {memories[0]}, opponent's {memories[1]})"
        return text
