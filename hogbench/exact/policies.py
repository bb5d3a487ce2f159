"""The engine's one policy type, ``core.Policy`` (a choice for every state, read as
``table[index[state]]``), and the named conversions into it: every kernel family takes its
policies from here, so a decision table becomes a policy in one way only.

A decision table (``tables.DecisionTable``, the one table type) is a choice per observation,
in the narrowest integer type that holds it; a solver's policy
(``Solution.policy``) is a choice per state. The kernels take plain arrays out of a Policy
(``policy.table``, ``policy.index``), so the conversion costs nothing inside them."""

from __future__ import annotations

import numpy as np

from hogbench.exact.core import Policy
from hogbench.exact.rows import engine
from hogbench.rules.base import GameModel, RuleSet, check_answers
from hogbench.tables import engine_table


def table_policy(model: GameModel, table: np.ndarray) -> Policy:
    """A decision table (one choice per observation) as a policy, its choices checked against
    MODEL's and copied as the compiled kernels take them (int64)."""
    check_answers(model, [table])  # the kernels index outcomes by the answer
    return Policy(engine_table(table), model.observation, engine(model).observation_period)


def kept_table_policy(model: GameModel, table: np.ndarray) -> Policy:
    """A decision table as a policy in the type it is kept in (int8, not copied): the whole-turn
    kernels (``turns``) take it so, and key their turn rows by it."""
    return Policy(np.asarray(table).reshape(-1), model.observation)


def state_policy(model: GameModel, policy: np.ndarray) -> Policy:
    """A choice per state (as ``solve`` finds) as a policy."""
    return Policy(engine_table(policy), engine(model).identity, model.n_states)


def constant_policy(model: GameModel, choice: int) -> Policy:
    """CHOICE at every state."""
    return Policy(np.array([choice]), np.zeros(model.n_states, dtype=np.int64))


def no_policy() -> Policy:
    """The placeholder a kernel takes for an opponent it does not read (the solver playing
    itself)."""
    none = np.zeros(1, dtype=np.int64)
    return Policy(none, none)


def table_policies(rules: RuleSet, *tables: np.ndarray) -> tuple[Policy, ...]:
    """TABLES as policies of one model, fitted to them all (a model grows to hold every answer
    of its tables: Greed's dice)."""
    m = rules.fit(*tables)
    return tuple(table_policy(m, t) for t in tables)
