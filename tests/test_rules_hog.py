"""The Hog rule texts, checked: every worked example of the three texts (Summer 2021, Summer 2020,
the contest), the course's ``play`` with test dice, and each rule set's engine model against an
independent memoised recursion over the course functions.

The recursions here use only a module's course functions (``roll_dice``/``take_turn``,
``is_swap``, ...) on dice distributions enumerated in this file; they never touch the model.
"""

from __future__ import annotations

import contextlib
import doctest
import itertools
import sys

import numpy as np
import pytest

from hogbench import exact
from hogbench.errors import IllegalChoice
from hogbench.exact import evaluate
from hogbench.rules import get_rules
from hogbench.rules import hog_contest as contest
from hogbench.rules import hog_su20 as su20
from hogbench.rules import hog_su21 as su21
from hogbench.tables import tabulate
from tests.course.turns import reference_turn
from tests.reference import roll_distribution, win_chance

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


class _Stop(Exception):
    pass


def moves_to_the_other_player(model) -> tuple[np.ndarray, np.ndarray]:
    """(state, successor) for every outcome of every choice after which the other player moves,
    read from the exact engine's own rows (row ``ci * n + i`` is choice ci at order[i]; an entry
    is 2 * successor + 1 when the other player moves next)."""
    _, row_ptr, _, row_to, _ = exact.engine(model).rows
    assert len(row_ptr) > 1, "this model has no rows"
    rows = np.repeat(np.arange(len(row_ptr) - 1), np.diff(row_ptr))
    moving = (row_to & 1) == 1
    return model.order[rows[moving] % len(model.order)], row_to[moving] >> 1


def scores_after_turns(game, turns):
    """Run GAME(say) until it ends or has played TURNS turns; the scores after each turn."""
    seen = []

    def say(score0, score1):
        seen.append((score0, score1))
        if len(seen) == turns:
            raise _Stop
        return say

    with contextlib.suppress(_Stop):
        game(say)
    return seen


def scripted(moves, log=None, who=None):
    """A strategy answering MOVES[(score, opponent_score)]; logs WHO on each call."""

    def strategy(score, opponent_score):
        if log is not None:
            log.append(who)
        return moves[(score, opponent_score)]

    return strategy


def mixed(score, opponent_score):
    """A deterministic strategy that uses every choice 0..10 somewhere."""
    return (3 * score + 7 * opponent_score + score * opponent_score) % 11


def mixed_chop(score, opponent_score):
    """Like mixed, with Pork Chop (-1) too."""
    return (3 * score + 7 * opponent_score + score * opponent_score) % 12 - 1


def exact_both_seatings(rules, strategy_a, strategy_b):
    table_a = tabulate(strategy_a, rules, "a").choices
    table_b = tabulate(strategy_b, rules, "b").choices
    values = evaluate(rules, table_a, table_b)
    return values.first, values.second


def module_doctests(module):
    result = doctest.testmod(module)
    return result.attempted, result.failed


def test_the_reference_roll_distribution_matches_every_ordered_roll():
    for n in (1, 2, 3):
        ordered: dict[int, float] = {}
        for roll in itertools.product(range(1, 7), repeat=n):
            value = su20.roll_dice(n, su21.make_test_dice(*roll))
            ordered[value] = ordered.get(value, 0.0) + 6.0**-n
        assert roll_distribution(su20.roll_dice, n, 6) == pytest.approx(ordered, abs=1e-15)


@pytest.mark.parametrize("module", [su20, contest])
def test_doctests(module):
    attempted, failed = module_doctests(module)
    assert attempted > 0 and failed == 0


# ---------------------------------------------------------------------------------------------
# Shared: dice and commentary (examples printed in the Summer 2021 and Summer 2020 texts)
# ---------------------------------------------------------------------------------------------


def test_announce_highest_tracks_gains_of_one_player(capsys):
    f = su20.announce_highest(0)
    for score0, score1 in [(5, 0), (5, 30), (12, 30), (30, 12), (31, 12), (61, 12)]:
        f = f(score0, score1)
    assert capsys.readouterr().out.splitlines() == [
        "5 point(s)! That's the biggest gain yet for Player 0",
        "7 point(s)! That's the biggest gain yet for Player 0",
        "18 point(s)! That's the biggest gain yet for Player 0",
        "30 point(s)! That's the biggest gain yet for Player 0",
    ]


# ---------------------------------------------------------------------------------------------
# hog-su21
# ---------------------------------------------------------------------------------------------


def su21_recursion(strategy_a, strategy_b, goal):
    """A's chance of winning, moving first and second, by the shared reference recursion."""
    turn = reference_turn("hog-su21")
    return win_chance(turn, strategy_a, strategy_b, goal), 1 - win_chance(
        turn, strategy_b, strategy_a, goal
    )


@pytest.mark.parametrize(
    "goal, a, b",
    [
        (30, mixed, su21.always_roll(5)),
        (100, su21.always_roll(6), su21.always_roll(4)),
        (100, su21.more_boar_strategy, mixed),
    ],
)
def test_su21_model_agrees_with_recursion(goal, a, b):
    rules = get_rules("hog-su21", goal=goal)
    engine = exact_both_seatings(rules, a, b)
    assert engine == pytest.approx(su21_recursion(a, b, goal), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# hog-su20
# ---------------------------------------------------------------------------------------------


def su20_recursion(strategy_a, strategy_b, goal, feral_hogs):
    """A's chance of winning, moving first and second, by the shared reference recursion."""
    turn = reference_turn("hog-su20", feral_hogs=feral_hogs)
    return win_chance(turn, strategy_a, strategy_b, goal), 1 - win_chance(
        turn, strategy_b, strategy_a, goal
    )


@pytest.mark.parametrize("feral_hogs", [True, False])
@pytest.mark.parametrize(
    "a, b",
    [(mixed, su20.swap_strategy), (su20.always_roll(2), mixed)],
)
def test_su20_model_agrees_with_recursion(feral_hogs, a, b):
    goal = 24
    rules = get_rules("hog-su20", goal=goal, feral_hogs=feral_hogs)
    engine = exact_both_seatings(rules, a, b)
    assert engine == pytest.approx(su20_recursion(a, b, goal, feral_hogs), abs=1e-12)


def test_su20_feral_hogs_changes_the_game():
    rules_on = get_rules("hog-su20", goal=24)
    rules_off = get_rules("hog-su20", goal=24, feral_hogs=False)
    on = exact_both_seatings(rules_on, mixed, su20.swap_strategy)
    off = exact_both_seatings(rules_off, mixed, su20.swap_strategy)
    assert abs(on[0] - off[0]) > 1e-3


@pytest.mark.slow  # 22 s CPU: a plain recursion at goal 100
def test_su20_goal_100_always_roll_6_against_4():
    """At goal 100 Feral Hogs can never fire for this pair: 6 dice score 1 or at least 12, never
    4 or 8, and 4 dice score 1 or at least 8, never 2 or 6 (nor 6 - 0 or 4 - 0 on a first
    turn). So with and without it the engine must match the plain recursion without it."""
    for n, scores in (
        (6, roll_distribution(su20.roll_dice, 6, 6)),
        (4, roll_distribution(su20.roll_dice, 4, 6)),
    ):
        assert all(su20.feral_bonus(n, p) == 0 for p in [0, *scores])
    a, b = su20.always_roll(6), su20.always_roll(4)
    expected = su20_recursion(a, b, 100, feral_hogs=False)
    for feral_hogs in (False, True):
        rules = get_rules("hog-su20", feral_hogs=feral_hogs)
        assert exact_both_seatings(rules, a, b) == pytest.approx(expected, abs=1e-12)


def test_su20_model_shape():
    model = get_rules("hog-su20").model
    assert model.n_states == 100 * 100 * 14 * 14
    assert not exact.engine(model).has_rows  # over MAX_ROW_ENTRIES: resolved on the fly
    assert np.array_equal(model.observation[model.canonical], np.arange(100 * 100))
    assert model.canonical[0] == model.start
    off = get_rules("hog-su20", feral_hogs=False).model
    assert off.n_states == 100 * 100 and exact.engine(off).has_rows


def test_su20_levels_are_independent():
    """The model says no outcome stays in its level (the solver then takes a level's states
    several at once): every move leads to a level solved before its own."""
    m = get_rules("hog-su20", goal=15).model
    assert m.independent_levels
    level_of = np.empty(m.n_states, dtype=np.int64)
    for level in range(len(m.level_ptr) - 1):
        level_of[m.order[m.level_ptr[level] : m.level_ptr[level + 1]]] = level
    state, successor = moves_to_the_other_player(m)
    assert np.all(level_of[successor] < level_of[state])


@pytest.mark.parametrize("feral_hogs", [True, False])
def test_su20_resolve_row_is_resolve_value_by_value(feral_hogs):
    """The exact engine resolves whole rolls at once with resolve_row; it must give what
    resolve gives for each value, at every choice and value of 400 states drawn at random."""
    m = get_rules("hog-su20", feral_hogs=feral_hogs).model
    out = np.empty(64, dtype=np.int64)
    for state in np.random.default_rng(20).integers(0, m.n_states, 400):
        for choice in m.choices:
            k = m.roll_kind(m.params, state, choice)
            lo, hi = int(m.dist_ptr[k]), int(m.dist_ptr[k + 1])
            m.resolve_row(m.params, state, choice, m.dist_value, lo, hi, out)
            expected = [m.resolve(m.params, state, choice, v) for v in m.dist_value[lo:hi]]
            assert list(out[: hi - lo]) == expected


# ---------------------------------------------------------------------------------------------
# hog-contest
# ---------------------------------------------------------------------------------------------


def test_contest_pork_chop_option():
    on = get_rules("hog-contest")
    off = get_rules("hog-contest", pork_chop=False)
    assert on.choice(-1) == -1
    with pytest.raises(IllegalChoice):
        off.choice(-1)
    with pytest.raises(IllegalChoice):
        on.choice(11)
    assert list(on.model.choices) == list(range(-1, 11))
    assert list(off.model.choices) == list(range(0, 11))
    assert on.model.n_states == 4 * off.model.n_states == 40000
    assert np.array_equal(on.model.observation[on.model.canonical], np.arange(100 * 100))
    with pytest.raises(AssertionError):
        contest.play(contest.always_roll(-1), contest.always_roll(4), pork_chop=False)
    assert "pork_chop_strategy" in on.builtins() and "pork_chop_strategy" not in off.builtins()


def test_contest_levels_put_successors_first():
    """Every successor is solved before its state, Pork Chops inside a level included."""
    for pork_chop in (True, False):
        model = get_rules("hog-contest", goal=40, pork_chop=pork_chop).model
        position = np.empty(model.n_states, dtype=np.int64)
        position[model.order] = np.arange(model.n_states)
        state, successor = moves_to_the_other_player(model)
        assert np.all(position[successor] < position[state])


def contest_recursion(strategy_a, strategy_b, goal, pork_chop):
    """A's chance of winning, moving first and second, by the shared reference recursion (a
    strategy answers -1 only with Pork Chop on)."""
    turn = reference_turn("hog-contest")
    return win_chance(turn, strategy_a, strategy_b, goal), 1 - win_chance(
        turn, strategy_b, strategy_a, goal
    )


def _chop_when_behind(score, opponent_score):
    return contest.pork_chop_strategy(score, opponent_score, margin=8)


@pytest.mark.parametrize(
    "pork_chop, goal, a, b",
    [
        (True, 30, mixed_chop, contest.swap_strategy),
        (True, 30, _chop_when_behind, mixed_chop),
        (False, 30, mixed, contest.bacon_strategy),
        (True, 100, contest.always_roll(6), contest.always_roll(4)),
        (False, 100, contest.always_roll(6), contest.always_roll(4)),
    ],
)
def test_contest_model_agrees_with_recursion(pork_chop, goal, a, b):
    rules = get_rules("hog-contest", goal=goal, pork_chop=pork_chop)
    engine = exact_both_seatings(rules, a, b)
    assert engine == pytest.approx(contest_recursion(a, b, goal, pork_chop), abs=1e-12)


def test_hog_sp17_is_the_contest_without_pork_chop():
    """Spring 2017's project is the contest's game without Pork Chop, which is its option."""
    from hogbench import exact

    sp17, contest = get_rules("hog-sp17"), get_rules("hog-contest", pork_chop=False)
    assert (
        not sp17.options["pork_chop"] and get_rules("hog-sp17", pork_chop=True).options["pork_chop"]
    )
    rng = np.random.default_rng(17)
    a, b = rng.integers(0, 11, 10000), rng.integers(0, 11, 10000)
    assert exact.evaluate(sp17, a, b).first == exact.evaluate(contest, a, b).first


def test_an_illegal_answer_is_explained_in_the_terms_rules():
    from hogbench.errors import IllegalChoice

    with pytest.raises(
        IllegalChoice, match=r"-1, outside 0\.\.10 \(hog-fa21 takes a number of dice"
    ):
        get_rules("hog-fa21").choice(-1)
    with pytest.raises(IllegalChoice, match="without Pork Chop takes 0 to 10 dice; -1 needs"):
        get_rules("hog-sp17").choice(-1)
    assert get_rules("hog-sp17", pork_chop=True).choice(-1) == -1
    with pytest.raises(IllegalChoice, match=r"11, outside -1\.\.10 \(hog-contest: .*Pork Chop"):
        get_rules("hog-contest").choice(11)
