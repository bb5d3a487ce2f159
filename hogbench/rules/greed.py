"""Greed: dice labelled 0-5, any number of them, over 100 loses, a pass gives one last turn.

Rules (from the course text):

* The dice are 6-sided, their sides labelled 0 through 5. Both players start at 0.
* On a turn a player chooses how many dice to roll: 0, 1, 2, or more, rolls them and adds their
  sum to their score. Then it is the other player's turn.
* The game ends if, as a result of a dice roll, a player's score goes over 100; the other player
  wins.
* A player may choose to roll 0 dice: that is a pass. After a pass the other player gets one more
  turn to roll and add that roll's total to their score. After that last roll, the player with
  the highest score not higher than 100 wins; they tie if they are at the same score.

A strategy is ``strategy(myscore, theirscore, last) -> number of dice``, where ``last`` is True when
the opponent has just passed, so this is the player's last turn. The course calls the submitted
strategy ``myStrategy``.

Readings:

* Reaching exactly 100 does not end the game (the course's ``improve`` exists because of it).
* A negative number of dice is an illegal move, as is anything but an int (a bool, a float).
* A roll of one or more dice that all show 0 scores nothing but is not a pass: play goes on.
* On the last turn, rolling 0 dice (passing again) or rolling a sum of 0 ends the game just the
  same: the scores are compared. A last roll that goes over 100 loses, as any roll over 100 does.
* The rules set no upper limit on the dice, and neither does hogbench for the games: an answer
  of any size is legal. The engines' model holds the outcomes of 0 to ``max_dice`` dice (option,
  default 50: what ``solve`` chooses among) and grows, when the decision tables it is given
  answer more, to the largest answer they use (``Greed.fit``). At goal 100 more than 40 dice is
  already more likely than not to go over from a score of 0, and 50 dice go over with
  probability 0.979, so no sensible strategy is cut off from ``solve``.
* From ``saturation(goal)`` dice on (572 at goal 100), every chance of a sum at most the goal is
  0.0 in floating point (below the smallest double): such a roll goes over with chance 1.0, which
  is the true chance rounded to a double, for every count alike. So the engines take any larger
  answer as that count: their outcomes, and every figure, are the same. (A count below it keeps
  its own outcomes.)
* Two safety bounds, neither a rule: an answer above ``MOST_DICE`` (a million) is refused,
  since the course's ``roll_dice`` (the reference ``play``) keeps every die in memory; and a
  model whose outcomes would take more than ``MODEL_BYTES`` of memory is refused with its size.
* ``manyGames`` reports wins by strategy (its first argument is "Player 1" whichever seat it has):
  the first strategy moves first in the first n // 2 games, the second in the rest.

The first half of this module is the course's own code (the readable reference); the second
half builds the engines' model from the same functions.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from hogbench.dice import cycling
from hogbench.errors import IllegalChoice, UsageError
from hogbench.jit import jit
from hogbench.rules.base import (
    LOSE,
    OTHER,
    TIE,
    WIN,
    Builtin,
    GameModel,
    RuleSet,
    Step,
    levels_by_key,
    outcome,
    resolve_signature,
    roll_kind_signature,
)

GOAL_SCORE = 100
FACES = (0, 1, 2, 3, 4, 5)

#: hogbench's safety bound on one answer (not a rule: Greed allows any number of dice): the
#: course's roll_dice, which the reference play follows, keeps every die rolled in a list.
MOST_DICE = 1_000_000
#: hogbench's safety bound on the memory of the engines' model (its outcomes, 16 bytes each).
MODEL_BYTES = 512 * 2**20

# ---------------------------------------------------------------------------------------------
# The course's functions
# ---------------------------------------------------------------------------------------------


def zero_to_five() -> int:
    """A fair Greed die: 0 to 5 with equal chance."""
    return random.randint(0, 5)


def make_test_dice(*outcomes: int) -> Callable[[], int]:
    """Return a Greed die that cycles deterministically through OUTCOMES (each 0..5)."""
    assert outcomes, "You must supply outcomes to make_test_dice"
    assert all(type(o) is int and 0 <= o <= 5 for o in outcomes), "outcomes must be 0..5"
    return cycling(outcomes)


def check_dice(num_dice: Any) -> int:
    """A move is a number of dice: an int >= 0 (0 is a pass); IllegalChoice otherwise. Any
    number is legal; above MOST_DICE it is refused as past hogbench's safety bound."""
    if isinstance(num_dice, bool) or not isinstance(num_dice, (int, np.integer)):
        raise IllegalChoice(f"returned {num_dice!r} ({type(num_dice).__name__}), not an int")
    if num_dice < 0:
        raise IllegalChoice(f"returned {num_dice}: a negative number of dice is illegal")
    if num_dice > MOST_DICE:
        raise IllegalChoice(
            f"returned {num_dice:,} dice, more than {MOST_DICE:,}: Greed allows any number, but"
            f" that is hogbench's safety bound on memory (rolling them keeps every die), and"
            f" from {saturation(GOAL_SCORE)} dice on every roll goes over {GOAL_SCORE} with"
            f" chance 1 to within floating point, so fewer dice play the same"
        )
    return int(num_dice)


def roll_dice(num_dice: int, dice: Callable[[], int] = zero_to_five) -> list[int]:
    """Roll NUM_DICE dice and return what they show (an empty list for 0 dice: a pass)."""
    return [dice() for _ in range(num_dice)]


@jit()
def winner(score1: int, score2: int, goal: int = GOAL_SCORE) -> int:
    """Who has won once the game is over: 1, 2, or 3 for a tie.

    A score over the goal loses; otherwise the highest score wins, and equal scores tie.
    """
    if score1 > goal:
        return 2
    if score2 > goal:
        return 1
    if score1 == score2:
        return 3
    return 1 if score1 > score2 else 2


def play(
    strat1: Callable,
    strat2: Callable,
    dice: Callable[[], int] = zero_to_five,
    goal: int = GOAL_SCORE,
    say: Callable[..., Any] | None = None,
) -> tuple[int, int]:
    """Play one game of STRAT1 (Player 1, moving first) against STRAT2; return both final scores.

    SAY, if given (e.g. print), receives the transcript lines of the course's autoplayLoud.
    (The course's own ``play()`` is the interactive game of two people typing their moves.)
    """
    strategies = (strat1, strat2)
    scores = [0, 0]
    who = 0
    last = False  # the player to move has their last turn: the other one passed
    while True:
        if say:
            say(f"Player 1: {scores[0]} Player 2: {scores[1]}")
            say(f"It is Player {who + 1}'s turn.")
        num_dice = check_dice(strategies[who](scores[who], scores[1 - who], last))
        rolled = roll_dice(num_dice, dice)
        scores[who] += sum(rolled)
        if say:
            say(f"{num_dice} dice chosen.")
            say("Dice rolled: " + " ".join(str(d) for d in rolled))
            say(f"Total for this turn: {sum(rolled)}")
        if scores[who] > goal or last:
            break
        last = num_dice == 0
        who = 1 - who
    if say:
        say(f"Player 1: {scores[0]} Player 2: {scores[1]}")
        w = winner(scores[0], scores[1], goal)
        say("It's a tie." if w == 3 else f"Player {w} wins.")
    return scores[0], scores[1]


def autoplay(
    strat1: Callable,
    strat2: Callable,
    dice: Callable[[], int] = zero_to_five,
    goal: int = GOAL_SCORE,
) -> int:
    """Play one game quietly: 1 if STRAT1 (moving first) wins, 2 if STRAT2 wins, 3 for a tie."""
    return winner(*play(strat1, strat2, dice, goal), goal)


def autoplayLoud(  # noqa: N802  (the course's name)
    strat1: Callable,
    strat2: Callable,
    dice: Callable[[], int] = zero_to_five,
    goal: int = GOAL_SCORE,
) -> None:
    """Play one game of STRAT1 (Player 1) against STRAT2 (Player 2), printing its transcript."""
    play(strat1, strat2, dice, goal, say=print)


def manyGames(  # noqa: N802  (the course's name)
    strat1: Callable,
    strat2: Callable,
    n: int,
    dice: Callable[[], int] = zero_to_five,
    goal: int = GOAL_SCORE,
) -> None:
    """Play N games, STRAT1 moving first in the first n // 2 and STRAT2 in the rest, and print
    the wins of each strategy (STRAT1 is "Player 1") and the ties."""
    wins = {1: 0, 2: 0, 3: 0}
    for i in range(n):
        if i < n // 2:
            wins[autoplay(strat1, strat2, dice, goal)] += 1
        else:
            wins[{1: 2, 2: 1, 3: 3}[autoplay(strat2, strat1, dice, goal)]] += 1
    print("Player 1 wins:", wins[1])
    print("Player 2 wins:", wins[2])
    print("Ties:", wins[3])


def sample1(myscore, theirscore, last):
    """Pass if ahead, otherwise roll 12 dice."""
    if myscore > theirscore:
        return 0
    return 12


def sample2(myscore, theirscore, last):
    """Roll 30 dice while the score is at most 50, 10 dice from 51 to 80, and pass above 80."""
    if myscore <= 50:
        return 30
    if myscore <= 80:
        return 10
    return 0


def improve(strat: Callable, goal: int = GOAL_SCORE) -> Callable:
    """Return STRAT, except that it passes when its score is 100 (a roll could only lose)."""

    def better_strat(myscore, theirscore, last):
        if myscore == goal:
            return 0
        return strat(myscore, theirscore, last)

    better_strat.__name__ = f"improve({getattr(strat, '__name__', 'strategy')})"
    return better_strat


def myStrategy(myscore, theirscore, last):  # noqa: N802  (the course's name)
    """The course's placeholder for the submitted strategy."""
    return sample1(myscore, theirscore, last)


# ---------------------------------------------------------------------------------------------
# The engines' model, built from the functions above
# ---------------------------------------------------------------------------------------------
#
# State (myscore, theirscore, last) from the mover's side, scores in [0, goal], numbered
# (last * (goal + 1) + myscore) * (goal + 1) + theirscore: the successors of one roll's sums are
# then consecutive states. (The decision table is ordered (myscore, theirscore, last).)
#
# Roll kinds: row 0 is a pass (value 0, certain). Otherwise ROOM = goal - myscore is what the
# mover can still score without going over. For n dice up to max_dice (params[2]):
# * not the last turn: row 1 + (n - 1) * (goal + 1) + room is n dice with values 0..room, and
#   room + 1 standing for every sum that goes over the goal;
# * the last turn: only the comparison matters, so row LAST_AT + ((n - 1) * (goal + 1) + myscore)
#   * (goal + 1) + theirscore merges the sums into at most three values: room + 1 for every
#   losing sum (over the goal, or below theirscore), theirscore - myscore for a tie, and the
#   smallest winning sum for every winning one.
# For n past max_dice (a model grown to a table's answers), row EXTRA_AT + (n - max_dice - 1)
# * (goal + 1) + room: the sums as on any other turn, on the last turn too (resolve compares
# them the same), which keeps a grown model to (goal + 1) rows a count, not (goal + 1)**2.
#
# Levels: a roll summing 0 hands the same two scores to the opponent, so (a, b) and (b, a) with
# last False form one strongly connected pair; anything else raises the score sum or moves to a
# last turn. Last-turn states only lead to the end of the game: they form the first level. Then
# the pairs, larger score sums first.


@jit(roll_kind_signature)
def _roll_kind(params, state, choice):
    goal, last_at, most, extra_at = params[0], params[1], params[2], params[3]
    if choice == 0:
        return 0
    side = goal + 1
    mine = (state // side) % side
    if choice > most:  # a count past max_dice: its sums, on the last turn as on any other
        return extra_at + (choice - most - 1) * side + goal - mine
    if state >= side * side:  # the last turn
        theirs = state % side
        return last_at + ((choice - 1) * (goal + 1) + mine) * (goal + 1) + theirs
    return 1 + (choice - 1) * (goal + 1) + goal - mine


@jit(resolve_signature)
def _resolve(params, state, choice, value):
    goal = params[0]
    side = goal + 1
    theirs = state % side
    mine = (state // side) % side + value
    if state >= side * side or mine > goal:  # the last turn ends the game, as going over does
        w = winner(mine, theirs, goal)
        return WIN if w == 1 else (LOSE if w == 2 else TIE)
    last = 1 if choice == 0 else 0  # a pass gives the opponent their last turn
    return outcome((last * side + theirs) * side + mine, OTHER)


ONE_DIE = np.full(len(FACES), 1 / len(FACES))


def sum_distribution(num_dice: int) -> np.ndarray:
    """Exact chances of each sum 0..5 * NUM_DICE of NUM_DICE Greed dice (repeated convolution)."""
    dist = np.ones(1)
    for _ in range(num_dice):
        dist = np.convolve(dist, ONE_DIE)
    return dist


@functools.cache
def saturation(goal: int) -> int:
    """The fewest dice whose chances of every sum 0..GOAL are 0.0 in floating point (below the
    smallest double; 572 at goal 100): from there on every roll goes over with chance 1.0, the
    true chance rounded to a double, so every larger count has the same outcomes. (A count's
    chances of sums up to the goal come only from the previous count's, so they stay 0.0.)"""
    dist, n = np.ones(1), 0
    while dist[: goal + 1].any():
        dist, n = np.convolve(dist, ONE_DIE), n + 1
    return n


def _distributions(counts: list[int], goal: int) -> Iterator[tuple[int, np.ndarray]]:
    """(n, sum_distribution(n)) for each of COUNTS (ascending), by the same convolutions made
    once; a count past saturation(goal) gets saturation's (its outcomes are the same)."""
    full = saturation(goal)
    dist, made = np.ones(1), 0
    for n in counts:
        while made < min(n, full):
            dist, made = np.convolve(dist, ONE_DIE), made + 1
        yield n, dist


def _tail(dist: np.ndarray, goal: int) -> np.ndarray:
    """above[k] = P(sum >= k) for k = 0..len(dist). Where every sum up to the goal has chance
    0.0, P(sum >= k) for k <= goal + 1 is 1.0 (the true chance, rounded); added up from the
    top it would be 1 only to within rounding, differently for each count."""
    above = np.concatenate((np.cumsum(dist[::-1])[::-1], [0.0]))
    if not dist[: goal + 1].any():
        above[: goal + 2] = 1.0
    return above


def _sums_block(dist: np.ndarray, goal: int) -> tuple[np.ndarray, np.ndarray]:
    """One count's rows by room 0..goal: the sums 0..room, and room + 1 for going over."""
    rooms = np.arange(goal + 1)
    above = _tail(dist, goal)
    padded = np.append(dist, np.zeros(goal + 2))
    values = np.tile(np.arange(goal + 2), (goal + 1, 1))
    probs = np.where(values <= rooms[:, None], padded[values], 0.0)
    probs[rooms, rooms + 1] = above[np.minimum(rooms + 1, len(dist))]
    return values, probs


def _last_block(dist: np.ndarray, goal: int) -> tuple[np.ndarray, np.ndarray]:
    """One count's last-turn rows by (myscore, theirscore): one value each for losing, tying
    and winning."""
    rooms = np.arange(goal + 1)
    mine, theirs = (a.ravel() for a in np.meshgrid(rooms, rooms, indexing="ij"))
    room, tie = goal - mine, theirs - mine
    win_from = np.maximum(tie + 1, 0)
    below = np.concatenate(([0.0], np.cumsum(dist)))  # below[k] = P(sum < k)
    above = _tail(dist, goal)

    def clip(k, top=len(dist)):
        return np.clip(k, 0, top)

    p_tie = np.where((tie >= 0) & (tie < len(dist)), dist[clip(tie, len(dist) - 1)], 0.0)
    p_win = np.maximum(below[clip(room + 1)] - below[clip(win_from)], 0.0)
    p_lose = below[clip(np.maximum(tie, 0))] + above[clip(room + 1)]
    return np.stack([tie, win_from, room + 1], axis=1), np.stack([p_tie, p_win, p_lose], 1)


def _compact(block: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A block of padded rows (values, probs) as its values and chances of chance above 0, and
    each row's count of them: made block by block, so the padding never all sits in memory."""
    values, probs = block
    kept = probs > 0
    return values[kept].astype(np.int64), probs[kept], kept.sum(axis=1)


def _pack(parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> tuple[np.ndarray, ...]:
    """CSR arrays (ptr, value, prob) from compacted blocks, in order."""
    counts = np.concatenate([c for _, _, c in parts])
    ptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    return ptr, np.concatenate([v for v, _, _ in parts]), np.concatenate([p for _, p, _ in parts])


def model_bytes(goal: int, most: int, top: int) -> int:
    """About how much memory the outcomes of a model take: 0..MOST dice in full, and up to TOP
    dice by their sums (16 bytes an outcome, 8 a row)."""
    side = goal + 1
    sums = side * (side + 3) // 2  # the outcomes of one count's rows by room
    return 16 * (most * (sums + 3 * side * side) + max(top - most, 0) * sums) + 8 * side * (
        most * (side + 1) + max(top - most, 0)
    )


class Greed(RuleSet):
    name = "greed"
    can_tie = True  # equal scores at the end tie
    title = "Greed (dice labelled 0-5)"
    strategy_args = ("myscore", "theirscore", "last")
    strategy_names = ("myStrategy", "strategy")
    options_help = {
        "max_dice": (
            50,
            "the dice counts the model always holds and solve chooses among, not a rule:"
            " Greed allows any number, and a strategy answering more is played as it says"
            " (the model grows to fit it, up to a safety bound on memory)",
        ),
    }
    rule_lines = (
        ("Dice", "any number of dice labelled 0-5; their sum is added to your score"),
        ("Over", "a score over the goal loses at once; exactly the goal does not end the game"),
        ("Pass", "rolling 0 dice passes: the opponent has one last turn, then scores compare"),
    )
    baseline = "sample1"
    has_ties = True  # equal scores when the game ends

    max_goal = 200  # 51 choices a state; rows stop fitting in memory above about 130

    @property
    def obs_shape(self) -> tuple[int, ...]:
        return (self.goal + 1, self.goal + 1, 2)

    def observations(self) -> Iterator[tuple]:
        return (self.obs_args(i) for i in range(int(np.prod(self.obs_shape))))

    def obs_args(self, index: int) -> tuple:
        myscore, theirscore, last = np.unravel_index(index, self.obs_shape)
        return int(myscore), int(theirscore), bool(last)

    def choice(self, value: Any) -> int:
        """Any number of dice; from saturation(goal) on, the engine's int is that count, whose
        outcomes every larger count has (see the module docstring)."""
        return min(check_dice(value), saturation(self.goal))

    def _top(self) -> int:
        """The most dice the model holds: max_dice, or more where tables asked (``fit``)."""
        return max(int(self.options["max_dice"]), self.__dict__.get("answers_up_to", 0))

    def fit(self, *tables: np.ndarray) -> GameModel:
        """The model, grown to hold the largest answer in TABLES where it is past the model's
        counts (up to saturation(goal): an answer past it is that count's as ``choice`` makes
        it, and a table that says otherwise is refused, not indexed past)."""
        used = max((int(np.max(t)) for t in tables if np.size(t)), default=0)
        if used > self._top():
            self.__dict__["answers_up_to"] = min(used, saturation(self.goal))
            self.__dict__.pop("model", None)  # rebuilt with the new counts
        return super().fit(*tables)

    def fit_any(self) -> GameModel:
        """The model holding every answer a strategy called live may give (every count up to
        saturation(goal))."""
        if self._top() < saturation(self.goal):
            self.__dict__["answers_up_to"] = saturation(self.goal)
            self.__dict__.pop("model", None)
        return self.model

    def describe_choice(self, choice: int) -> str:
        return "pass" if choice == 0 else f"roll {choice}"

    choice_help = "number of dice, 0 to pass"

    def parse_choice(self, text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise IllegalChoice(f"{text.strip()!r}: type a number of dice, or 0 to pass") from None
        return self.choice(value)

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        """One turn with real dice labelled 0-5: going over the goal loses at once; a pass
        gives the opponent one last turn, after which the scores compare."""
        m, goal = self.model, self.goal
        mine, theirs, last = self.state_args(state)
        if choice == 0:
            code = int(m.resolve(m.params, state, 0, 0))
            events = ["passes"] + ([] if last else ["the opponent has one last turn"])
            return Step((), events, code, (mine, theirs) if last else None)
        dice = tuple(rng.choice(FACES) for _ in range(choice))
        total = mine + sum(dice)
        # the model's value for this sum: its exact size matters only up to going over, and on
        # the last turn only as losing, tying or winning
        room, tie = goal - mine, theirs - mine
        if total > goal:
            value = room + 1
        elif last:
            value = tie if total == theirs else (max(tie + 1, 0) if total > theirs else room + 1)
        else:
            value = sum(dice)
        code = int(m.resolve(m.params, state, choice, value))
        events = [f"+{sum(dice)}, score {total}"]
        if total > goal:
            events.append(f"over {goal}: loses at once")
        elif last:
            events.append("the last turn: scores compare")
        final = (total, theirs) if code & 7 in (WIN, LOSE, TIE) else None
        return Step(dice, events, code, final)

    def build_model(self) -> GameModel:
        goal = self.goal
        most = int(self.options["max_dice"])
        if most < 1:
            raise UsageError(f"option max_dice of greed must be at least 1, got {most}")
        top = self._top()
        size = model_bytes(goal, most, top)
        if size > MODEL_BYTES:
            raise UsageError(
                f"greed's model of 0 to {top} dice (max_dice = {most}) at goal {goal} would take"
                f" about {size / 2**20:,.0f} MB of memory, more than hogbench's safety bound of"
                f" {MODEL_BYTES / 2**20:,.0f} MB on the engines' memory (not a rule: Greed allows"
                f" any number of dice); use a smaller max_dice or goal"
            )
        one_pass = [_compact((np.zeros((1, 1), dtype=np.int64), np.ones((1, 1))))]  # a pass
        dists = list(_distributions(list(range(1, most + 1)), goal))
        full = [_compact(_sums_block(dist, goal)) for _, dist in dists]
        last = [_compact(_last_block(dist, goal)) for _, dist in dists]
        extra = [
            _compact(_sums_block(dist, goal))
            for _, dist in _distributions(list(range(most + 1, top + 1)), goal)
        ]
        ptr, values, probs = _pack(one_pass + full + last + extra)
        last_at = 1 + most * (goal + 1)
        extra_at = last_at + most * (goal + 1) ** 2

        side = goal + 1
        states = np.arange(side * side * 2, dtype=np.int64)
        theirs = states % side
        mine = (states // side) % side
        last = states // (side * side)
        key = np.where(
            last == 1, 2 * side * side, (mine + theirs) * side + np.minimum(mine, theirs)
        )
        order, level_ptr = levels_by_key(key, mine > theirs)
        return GameModel(
            n_states=len(states),
            start=0,
            observation=(mine * side + theirs) * 2 + last,
            order=order,
            level_ptr=level_ptr,
            cyclic=True,
            params=np.array([goal, last_at, most, extra_at], dtype=np.int64),
            roll_kind=_roll_kind,
            resolve=_resolve,
            dist_ptr=ptr,
            dist_value=values,
            dist_prob=probs,
            choices=np.arange(0, top + 1, dtype=np.int64),
        )

    def builtins(self) -> dict[str, Builtin]:
        goal = self.goal
        return {
            "sample1": Builtin(lambda: sample1, "pass if ahead, otherwise roll 12 dice"),
            "sample2": Builtin(
                lambda: sample2, "30 dice up to 50, 10 dice from 51 to 80, pass above 80"
            ),
            "improve": Builtin(
                lambda strat: improve(strat, goal),
                "a strategy that passes at the goal score: improve(sample1)",
            ),
        }


RULES = Greed
