"""The exact engine: win probabilities by dynamic programming over a rule set's GameModel.

Values are always from the side of the player to move: the chance that the player to move at
state ``x`` wins (a tie counts half). States are visited level by level, successors first; a
level whose transitions can stay inside it (a zero roll in Greed, a lost turn in Pig) is
iterated until no value moves by more than ``TOLERANCE``.

A game that never ends (hog-sp22, where two 0-point turns repeat a state: a model's
``may_never_end``) is a tie, so a value is the chance of winning plus half the chance that the
game never ends, and the value after a turn is still 1 minus the opponent's value there. Such a
model's cyclic levels start from 1/2, not 0: a closed loop then keeps 1/2 (each sweep gives
1 - 1/2), and the rest converges to the same values as from any start, because the sweeps from
1/2 add up exactly the chances of the games that end, and nothing for those that never do.
``ending_chance`` gives the chance that a game ends.

The engine is generic over rule sets. What makes it fast:

* Rows. When a model's outcomes fit in memory, every (state, choice) is resolved once into a
  *row*: the value of the outcomes that end the game, plus the outcomes that continue it, each
  a successor and a signed probability. Rows are stored choice by choice in the order states
  are solved, so a pass over one strategy's choices reads memory front to back, and the sum
  over a row keeps four partial sums, so it is not one long chain of dependent additions.
* One value array. The values of both players (or of the solver and its opponent) sit side by
  side, ``w[2 * x]`` and ``w[2 * x + 1]``. An outcome is stored as ``2 * y + 1`` when the other
  player moves next, ``2 * y`` when the same player moves again: the first player reads
  ``w[to]``, the second ``w[to ^ 1]``, with no branch, and the two values of a state share a
  cache line.
* Reachable states only. A model too large for rows (hog-su20 with its Feral Hogs state) is
  evaluated by a depth-first search from the start that visits only the states the two
  strategies can reach, as a memoised recursion would, without recursion or Python.
* Memory rows. Where the hidden state is each player's memory of their own last turn, read
  only through a class (Feral Hogs fires or not: a model's ``memories``), a pair of decision
  tables is evaluated over observations, classes and the opponent's memory instead of states,
  on rows resolved once per model (``memory``): hog-fa19's always_roll(4) against
  always_roll(6) in about a millisecond for both seatings. A best response's two figures
  against a table take the same rows (``best_response``), some 20 times faster than ``solve``.
* Shared choice values. A model may declare ``q_keys``, a key for each (state, choice): states
  and choices with equal keys have the same outcomes, so the value of a choice is computed once
  per key (in hog-su20 the previous-turn points only matter through whether Feral Hogs fires).
* Levels in parallel. When no outcome stays in its level (hog-su20: every turn raises the sum
  of the scores), the solver splits each level between numba's threads.
* Whole rolls at once. A model may resolve all values of a roll with one call (``resolve_row``)
  and key a run of (state, choice) pairs with one call: a call through a function pointer
  costs more than the rule it runs.

Policies come in two shapes: a decision table indexed by observation (what a strategy sees), or
a per-state policy (what the solver finds when a state holds more than the strategy sees). The
kernels take both as ``table[index[x]]``: the index is the model's observation map or the
identity.

The kernel families live apart: ``rows`` (resolving a model into rows; the engine),
``evaluation`` (two fixed strategies; ``memory`` for models with memories, ``turns`` for games
whose turns are chains of rolls), ``solving`` (optimal play) and ``analysis`` (how often states
occur, the value of each choice); ``core`` holds what they share (``Policy``, ``SeatValues``, the
sweep helpers), ``policies`` makes tables and solved policies into ``Policy`` (the only
conversions), ``plan`` chooses the evaluator for a pair or a batch (one pure function), and
``kept`` evaluates a pair in numpy from rows kept on disk.

Importing this package loads no kernel: ``kept`` and ``plan`` need neither numba nor the
model, so a warm exact duel never starts numba. The names below load the kernels the first time
one is asked for.
"""

from __future__ import annotations

from hogbench.lazy import lazy_names

__all__, __getattr__ = lazy_names(
    __name__,
    {
        "analysis": (
            "choice_values", "ending", "ending_chance", "observation_values", "reach",
            "tie_chance", "tie_grid",
        ),
        "core": (
            "MAX_ROW_ENTRIES", "NEVER", "TIE_MARGIN", "TOLERANCE", "UNSEEN", "Policy",
            "SeatValues",
        ),
        "evaluation": ("evaluate", "evaluate_grid", "evaluate_policies", "opponents_at_once"),
        "policies": ("state_policy", "table_policies", "table_policy"),
        "rows": ("engine",),
        "solving": ("Solution", "best_response", "solve"),
    },
)  # fmt: skip
