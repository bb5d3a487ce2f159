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
from hogbench.rules.base import LOSE, OTHER, WIN
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


def test_test_dice_examples():
    test_dice = su20.make_test_dice(4, 1, 2)
    assert test_dice() == 4
    assert su21.roll_dice(2, su21.make_test_dice(3, 4)) == 7
    assert su20.roll_dice(2, su20.make_test_dice(3, 4)) == 7


def test_announce_lead_changes_example(capsys):
    f0 = su20.announce_lead_changes()
    f1 = f0(5, 0)
    f2 = f1(5, 12)
    f3 = f2(8, 12)
    f4 = f3(8, 13)
    f4(15, 13)
    assert capsys.readouterr().out.splitlines() == [
        "Player 0 takes the lead by 5",
        "Player 1 takes the lead by 7",
        "Player 0 takes the lead by 2",
    ]


def test_both_example_su21(capsys):
    h0 = su21.both(su21.say_scores, su21.announce_lead_changes())
    h1 = h0(10, 0)
    h2 = h1(10, 8)
    h2(10, 17)
    assert capsys.readouterr().out.splitlines() == [
        "Player 0 now has 10 and Player 1 now has 0",
        "Player 0 takes the lead by 10",
        "Player 0 now has 10 and Player 1 now has 8",
        "Player 0 now has 10 and Player 1 now has 17",
        "Player 1 takes the lead by 7",
    ]


def test_both_example_su20(capsys):
    h0 = su20.both(su20.say_scores, su20.announce_lead_changes())
    h1 = h0(10, 0)
    h2 = h1(10, 6)
    h2(6, 17)
    assert capsys.readouterr().out.splitlines() == [
        "Player 0 now has 10 and Player 1 now has 0",
        "Player 0 takes the lead by 10",
        "Player 0 now has 10 and Player 1 now has 6",
        "Player 0 now has 6 and Player 1 now has 17",
        "Player 1 takes the lead by 11",
    ]


def test_announce_highest_messages(capsys):
    su21.announce_highest(1)(0, 22)
    su20.announce_highest(1)(0, 22)
    assert capsys.readouterr().out.splitlines() == [
        "Player 1 has reached a new maximum point gain. 22 point(s)!",
        "22 point(s)! That's the biggest gain yet for Player 1",
    ]


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


def test_su21_sow_sad_examples():
    assert su21.roll_dice(7, su21.make_test_dice(1, 1, 1, 1, 1, 2, 3)) == 1
    assert su21.roll_dice(4, su21.make_test_dice(3)) == 12
    assert su21.roll_dice(4, su21.make_test_dice(4, 6, 1)) == 1


@pytest.mark.parametrize("opponent, points", [(14, 7), (50, 9), (9, 13), (156, 5)])
def test_su21_piggy_points_examples(opponent, points):
    assert su21.piggy_points(opponent) == points
    assert su21.take_turn(0, opponent) == points


@pytest.mark.parametrize(
    "player, opponent, extra", [(25, 43, True), (32, 33, False), (7, 10, False), (26, 43, True)]
)
def test_su21_more_boar_examples(player, opponent, extra):
    assert su21.more_boar(player, opponent) == extra


def test_su21_more_boar_example_4_in_play():
    """25 vs 43 goes again; a 1 then makes 26 vs 43, and More Boar activates again."""
    log: list[int] = []
    strategy0 = scripted({(20, 43): 1, (25, 43): 1, (26, 43): 1}, log, 0)
    strategy1 = scripted({}, log, 1)
    seen = scores_after_turns(
        lambda say: su21.play(strategy0, strategy1, 20, 43, su21.make_test_dice(5, 1), say=say),
        3,
    )
    assert seen == [(25, 43), (26, 43), (31, 43)]
    assert log == [0, 0, 0]


def test_su21_more_boar_extra_turns_stack():
    """The clarification: 29 vs 55, then 38 vs 55, then 48 vs 55: a fourth turn in a row."""
    log: list[int] = []
    strategy0 = scripted({(20, 55): 3, (29, 55): 3, (38, 55): 2, (48, 55): 2}, log, 0)
    strategy1 = scripted({}, log, 1)
    dice = su21.make_test_dice(3, 3, 3, 3, 3, 3, 4, 6, 6, 6)
    seen = []

    def say(score0, score1):
        seen.append((score0, score1))
        return say

    assert su21.play(strategy0, strategy1, 20, 55, dice, goal=60, say=say) == (60, 55)
    assert seen == [(29, 55), (38, 55), (48, 55), (60, 55)]
    assert log == [0, 0, 0, 0]


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


def test_su20_pig_out_examples():
    assert su20.roll_dice(7, su20.make_test_dice(1, 1, 1, 1, 1, 2, 3)) == 1
    assert su20.roll_dice(4, su20.make_test_dice(3)) == 12


@pytest.mark.parametrize("opponent, points", [(32, 11), (19, 2), (80, 18), (5, 5)])
def test_su20_free_bacon_examples(opponent, points):
    assert su20.free_bacon(opponent) == points
    assert su20.take_turn(0, opponent) == points


@pytest.mark.parametrize(
    "player, opponent, swap", [(6, 2, False), (17, 65, False), (55, 23, True), (89, 54, True)]
)
def test_su20_swine_swap_examples(player, opponent, swap):
    assert su20.is_swap(player, opponent) == swap


def test_su20_feral_hogs_example_1_in_play():
    moves0 = {(0, 0): 3, (7, 4): 5, (20, 15): 8, (43, 19): 1}
    moves1 = {(0, 7): 1, (4, 20): 2, (15, 43): 6}
    # dice for 3, 1, 5, 2, 8, 6 and 1 dice: 7, 4, 10, 8, 20, 1 (Pig Out) and 2 points
    outcomes = iter([2, 2, 3, 4, 2, 2, 2, 2, 2, 4, 4, 2, 2, 2, 2, 3, 3, 3, 3, 6, 6, 6, 6, 6, 1, 2])

    def scripted_dice():
        return next(outcomes)

    seen = []

    def say(score0, score1):
        seen.append((score0, score1))
        return say

    final = su20.play(
        scripted(moves0), scripted(moves1), dice=scripted_dice, goal=45, say=say, feral_hogs=True
    )
    assert seen == [(7, 0), (7, 4), (20, 4), (20, 15), (43, 15), (43, 19), (45, 19)]
    assert final == (45, 19)


def test_su20_feral_hogs_example_2():
    """Rolling 2 dice on the first turn is 2 away from the 0 points before it: +3. (The text's
    3 points from 2 dice cannot happen with a Pig Out rule, so the dice here show 2 and 2.)"""
    assert su20.feral_bonus(2, 0) == 3
    seen = scores_after_turns(
        lambda say: su20.play(
            su20.always_roll(2), su20.always_roll(2), dice=su20.make_test_dice(2), say=say
        ),
        1,
    )
    assert seen == [(7, 0)]
    seen = scores_after_turns(
        lambda say: su20.play(
            su20.always_roll(2),
            su20.always_roll(2),
            dice=su20.make_test_dice(2),
            say=say,
            feral_hogs=False,
        ),
        1,
    )
    assert seen == [(4, 0)]


def test_su20_swap_at_the_goal_hands_the_opponent_the_win():
    # 95 + 12 = 107 against 43: |7 - 3| = 4 = the tens digit of 43, so the scores swap.
    final = su20.play(su20.always_roll(4), su20.always_roll(4), 95, 43, su20.make_test_dice(3))
    assert final == (43, 107)
    rules = get_rules("hog-su20")
    model = rules.model
    state = 95 * 100 + 43  # both previous-points buckets 0
    assert model.resolve(model.params, state, 4, 12) == LOSE
    assert model.resolve(model.params, state, 4, 18) == WIN  # 113 vs 43: no swap


def test_su20_strategies():
    assert su20.bacon_strategy(0, 32) == 0  # 11 points
    assert su20.bacon_strategy(0, 19) == 6  # 2 points
    assert su20.bacon_strategy(0, 19, cutoff=2, num_rolls=3) == 0
    # 2 + 9 = 11 against 23 swaps: beneficial, so 0 whatever the cutoff
    assert su20.swap_strategy(2, 23, cutoff=20) == 0
    # 22 + 9 = 31 against 23 swaps: harmful, so no Free Bacon although 9 >= 8
    assert su20.swap_strategy(22, 23, cutoff=8, num_rolls=6) == 6
    assert su20.bacon_strategy(22, 23, cutoff=8, num_rolls=6) == 0
    # 0 + 5 = 5 against 5 "swaps" equal scores: neither, so the cutoff decides
    assert su20.swap_strategy(0, 5, cutoff=8, num_rolls=6) == 6
    assert su20.swap_strategy(0, 5, cutoff=5, num_rolls=6) == 0


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


def test_contest_pig_out_examples():
    # 7 dice, five 1's: min(11 - 7, 5) = 4, not a prime
    assert contest.roll_dice(7, contest.make_test_dice(1, 1, 1, 1, 1, 2, 3)) == 4
    assert contest.take_turn(7, 0, contest.make_test_dice(1, 1, 1, 1, 1, 2, 3)) == 4
    # 5 dice, three 1's: min(11 - 5, 3) = 3, which Hogtimus Prime makes 5
    assert contest.roll_dice(5, contest.make_test_dice(1, 1, 1, 4, 4)) == 3
    assert contest.take_turn(5, 0, contest.make_test_dice(1, 1, 1, 4, 4)) == 5
    # 4 dice, all 3's: 12
    assert contest.take_turn(4, 0, contest.make_test_dice(3)) == 12


@pytest.mark.parametrize("opponent, points", [(42, 5), (48, 9), (7, 8)])
def test_contest_free_bacon_examples(opponent, points):
    assert contest.free_bacon(opponent) == points


def test_contest_hogtimus_prime():
    assert contest.take_turn(2, 0, contest.make_test_dice(5, 6)) == 13  # 11 -> 13
    assert contest.take_turn(0, 42) == 7  # Free Bacon 5 -> 7
    assert contest.take_turn(0, 48) == 9  # 9 is not a prime
    assert contest.take_turn(10, 0, contest.make_test_dice(1, 2)) == 1  # 1 is not a prime
    assert [contest.next_prime(n) for n in (2, 3, 5, 7, 11, 59)] == [3, 5, 7, 11, 13, 61]


def test_contest_hog_wild():
    for total in (0, 7, 14, 21, 35):
        assert contest.select_dice(total, 0) is contest.four_sided
        assert contest.select_dice(0, total) is contest.four_sided
    for score, opponent in ((1, 0), (10, 5), (50, 50)):
        assert contest.select_dice(score, opponent) is contest.six_sided


def test_contest_swine_swap_example_1():
    # 37 + 9 = 46, half of 92: swapped, the turn ends 92 to 46
    seen = scores_after_turns(
        lambda say: contest.play(
            contest.always_roll(2),
            contest.always_roll(2),
            37,
            92,
            contest.make_test_dice(4, 5),
            say=say,
        ),
        1,
    )
    assert seen == [(92, 46)]


def test_contest_swine_swap_example_2_hands_the_opponent_the_win():
    # 91 + (17 -> 19) = 110, double 55: swapped, the opponent has 110 and wins
    dice = contest.make_test_dice(3, 3, 3, 4, 4)
    final = contest.play(contest.always_roll(5), contest.always_roll(5), 91, 55, dice)
    assert final == (55, 110)
    model = get_rules("hog-contest").model
    state = (91 * 100 + 55) * 4  # nobody has used Pork Chop
    assert model.resolve(model.params, state, 5, 19) == LOSE


def test_contest_sample_game():
    """The text's sample game, from 14 to 42 with Player 0 to roll."""
    moves = {(14, 42): 0, (21, 42): -1, (42, 22): 3}
    seen = []

    def say(score0, score1):
        seen.append((score0, score1))
        return say

    final = contest.play(
        scripted(moves),
        scripted(moves),
        14,
        42,
        dice=contest.make_test_dice(3),
        goal=50,
        say=say,
        wild_dice=contest.make_test_dice(1, 2),
    )
    assert seen == [
        (42, 21),  # Free Bacon 5 -> 7 makes 21 to 42; Swine Swap
        (21, 42),  # Player 1's Pork Chop; no Swine Swap after it
        (42, 21),  # Player 0's Pork Chop
        (42, 22),  # Player 1's second -1 rolls 10 (four-sided: 63) dice: Pig Out, 1 point
        (51, 22),
    ]
    assert final == (51, 22)


def test_contest_sample_game_in_the_model():
    rules = get_rules("hog-contest")
    model = rules.model
    params = model.params

    def state(score, opponent, used, opponent_used):
        return (score * 100 + opponent) * 4 + used * 2 + opponent_used

    # Player 1 at 21 against 42, nobody has chopped: -1 is a Pork Chop, then Player 0 moves
    # at 21 against 42 (scores swapped) with Player 1's chop used.
    code = model.resolve(params, state(21, 42, 0, 0), -1, 0)
    assert code == state(21, 42, 0, 1) * 8 + OTHER
    # Player 1 again at 21 against 42, chop used: 10 four-sided dice (21 + 42 = 63)
    kind = model.roll_kind(params, state(21, 42, 1, 1), -1)
    assert kind == model.roll_kind(params, state(21, 42, 0, 0), 10)
    assert kind != model.roll_kind(params, state(22, 42, 0, 0), 10)  # 64: six-sided
    assert model.resolve(params, state(21, 42, 1, 1), -1, 1) == state(42, 22, 1, 1) * 8 + OTHER


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


def test_contest_always_pork_chop_then_ten_dice():
    log = []

    def chopper(score, opponent_score):
        log.append((score, opponent_score))
        return -1

    seen = scores_after_turns(
        lambda say: contest.play(
            chopper,
            contest.always_roll(1),
            0,
            5,
            contest.make_test_dice(2),
            say=say,
            wild_dice=contest.make_test_dice(3),
        ),
        4,
    )
    # Pork Chop: 5 to 0. Player 1 rolls a 2 (prime: 3). Player 0's second -1 rolls 10 dice:
    # 20 + 5 = 25. At 3 + 25 = 28 Player 1 rolls a four-sided 3 (prime: 5), making 8.
    assert seen == [(5, 0), (5, 3), (25, 3), (25, 8)]
    assert log == [(0, 5), (5, 3)]


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
