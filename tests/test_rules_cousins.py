"""Greed, Pig (with Piglet) and Big Pig: the rule texts, the course APIs, and the engines' models.

Exact values are checked against numbers worked by hand (as fractions) and against plain value
iteration written in this file over the rules as the module docstrings read them; the engines'
results are also checked against each module's own plain ``play`` with seeded dice.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import sys
from fractions import Fraction

import numpy as np
import pytest

from hogbench import exact, simulate
from hogbench.errors import IllegalChoice, UsageError
from hogbench.loading import load_entrant, parse_spec
from hogbench.players import LivePlayer
from hogbench.rules import big_pig, get_rules, greed, pig
from hogbench.rules.base import OTHER, SAME, WIN
from hogbench.tables import DecisionTable, tabulate

# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def state_of(rules, *args, seat=0):
    """The engine state where the mover sees ARGS (Big Pig: in SEAT 0 first, 1 second)."""
    obs = int(np.ravel_multi_index(tuple(int(a) for a in args), rules.obs_shape))
    states = np.flatnonzero(rules.model.observation == obs)
    return int(states[seat] if len(states) > 1 else states[0])


def value_iteration(states, value_of, tol=1e-15):
    """Gauss-Seidel on a dict: V[x] = value_of(x, V) until nothing moves by TOL."""
    v = dict.fromkeys(states, 0.0)
    for _ in range(100_000):
        delta = 0.0
        for x in states:
            new = value_of(x, v)
            delta = max(delta, abs(new - v[x]))
            v[x] = new
        if delta < tol:
            return v
    raise AssertionError("reference value iteration did not converge")


def seeded(faces, seed):
    rng = random.Random(seed)
    return lambda: rng.choice(faces)


def assert_monte_carlo_agrees(play_game, exact_first, exact_second, games, seed):
    """Average outcome (win 1, tie 1/2) of GAMES games per seat within 4 standard errors."""
    for seat, expected in ((0, exact_first), (1, exact_second)):
        total = sum(play_game(seat, seeded_seed) for seeded_seed in range(seed, seed + games))
        mean = total / games
        se = math.sqrt(max(expected * (1 - expected), 1e-4) / games)
        assert abs(mean - expected) < 4 * se, (seat, mean, expected, se)


# ---------------------------------------------------------------------------------------------
# Pig and Piglet
# ---------------------------------------------------------------------------------------------


def pig_reference(goal, piglet=False, strategies=None):
    """Plain value iteration for Pig: optimal self-play, or two fixed strategies (A, B).

    Returns V[(who, score, opponent, turn_total)], the mover's chance of winning (who is 0 for
    A, 1 for B; always 0 for self-play).
    """
    faces = {0: Fraction(1, 2), 1: Fraction(1, 2)} if piglet else dict.fromkeys(range(1, 7), 1 / 6)
    players = (0,) if strategies is None else (0, 1)
    states = [
        (p, i, j, k)
        for p in players
        for i in range(goal)
        for j in range(goal)
        for k in range(goal - 1, -1, -1)
        if i + k < goal
    ]

    def points(face):
        return (1 if face == 1 else 0) if piglet else (0 if face == 1 else face)

    def value_of(x, v):
        p, i, j, k = x
        other = p if strategies is None else 1 - p
        roll = 0.0
        for face, prob in faces.items():
            gain = points(face)
            if gain == 0:
                roll += prob * (1 - v[(other, j, i, 0)])
            elif i + k + gain >= goal:
                roll += prob
            else:
                roll += prob * v[(p, i, j, k + gain)]
        if k == 0:
            return float(roll)
        hold = 1 - v[(other, j, i + k, 0)]
        if strategies is None:
            return float(max(roll, hold))
        return float(roll if strategies[p](i, j, k) else hold)

    return value_iteration(states, value_of)


def test_pig_rules_and_answers():
    rules = get_rules("pig", 10)
    assert rules.obs_shape == (10, 10, 10)
    assert rules.strategy_args == ("score", "opponent_score", "turn_total")
    for answer in (True, "roll", "Roll", " r ", np.True_):
        assert rules.choice(answer) == pig.ROLL
    for answer in (False, "hold", "HOLD", "h"):
        assert rules.choice(answer) == pig.HOLD
    for answer in (1, 0, None, "maybe", 1.0):
        with pytest.raises(IllegalChoice):
            rules.choice(answer)
    assert [pig.roll_points(f, False) for f in range(1, 7)] == [0, 2, 3, 4, 5, 6]
    assert [pig.roll_points(f, True) for f in (0, 1)] == [0, 1]


def test_pig_play_forced_first_roll_and_automatic_hold():
    never = lambda score, opponent, turn_total: "hold"  # noqa: E731
    asked = []

    def always(score, opponent, turn_total):
        asked.append(turn_total)
        return "roll"

    # Holding strategies still score: each turn starts with a roll; 12 >= 10 wins at once.
    assert pig.play(never, never, goal=10, dice=pig.make_test_dice(3)) == (12, 9)
    # Reaching the goal ends the game without asking; never asked at turn total 0.
    assert pig.play(always, never, goal=10, dice=pig.make_test_dice(6)) == (12, 0)
    assert asked == [6]
    # A 1 loses the turn total.
    assert pig.play(always, never, goal=10, dice=pig.make_test_dice(4, 1, 5)) == (0, 10)


def test_piglet_goal_2_by_hand():
    """Piglet to 2, worked by hand: P(0,0,0) = 4/7 (Neller & Presser), and the other states."""
    rules = get_rules("pig", 2, piglet=True)
    solution = exact.solve(rules)
    expected = {
        (0, 0, 0): Fraction(4, 7),
        (0, 0, 1): Fraction(5, 7),
        (0, 1, 0): Fraction(2, 5),
        (0, 1, 1): Fraction(3, 5),
        (1, 0, 0): Fraction(4, 5),
        (1, 1, 0): Fraction(2, 3),
    }
    for args, value in expected.items():
        assert solution.v_me[state_of(rules, *args)] == pytest.approx(float(value), abs=1e-13)
    assert solution.v_me[solution.start] == pytest.approx(4 / 7, abs=1e-13)
    # Rolling beats holding at (0, 0, 1) and (0, 1, 1).
    assert solution.policy[state_of(rules, 0, 0, 1)] == pig.ROLL
    assert solution.policy[state_of(rules, 0, 1, 1)] == pig.ROLL
    reference = pig_reference(2, piglet=True)
    assert float(reference[(0, 0, 0, 0)]) == pytest.approx(4 / 7, abs=1e-13)


@pytest.mark.parametrize("goal, piglet", [(12, False), (6, True)])
def test_pig_solve_matches_plain_value_iteration(goal, piglet):
    rules = get_rules("pig", goal, piglet=piglet)
    solution = exact.solve(rules)
    reference = pig_reference(goal, piglet)
    for (_, i, j, k), value in reference.items():
        assert solution.v_me[state_of(rules, i, j, k)] == pytest.approx(value, abs=1e-12)


def test_pig_evaluate_matches_plain_value_iteration():
    goal = 15
    rules = get_rules("pig", goal)
    a, b = pig.hold_at(4, goal), pig.keep_pace_end_race(goal)
    values = exact.evaluate(rules, tabulate(a, rules, "a").choices, tabulate(b, rules, "b").choices)
    reference = pig_reference(goal, strategies=(a, b))
    assert values.first == pytest.approx(reference[(0, 0, 0, 0)], abs=1e-12)
    assert values.second == pytest.approx(1 - reference[(1, 0, 0, 0)], abs=1e-12)


def test_pig_table_entries_not_consulted():
    """Turn total 0 (a forced roll) and score + turn total >= goal (a win) ignore the table."""
    goal = 10
    rules = get_rules("pig", goal)
    base = tabulate(pig.hold_at(3, goal), rules, "a").choices
    other = tabulate(pig.hold_at(5, goal), rules, "b").choices
    odd = base.copy().reshape(rules.obs_shape)
    odd[:, :, 0] = pig.HOLD
    for s in range(goal):
        odd[s, :, goal - s :] = pig.ROLL
    plain = exact.evaluate(rules, base, other)
    changed = exact.evaluate(rules, odd.ravel(), other)
    assert (plain.first, plain.second) == pytest.approx((changed.first, changed.second), abs=1e-14)


def test_pig_builtins():
    rules = get_rules("pig")
    assert rules.baseline == "hold_at:20"
    keep = rules.builtins()["keep_pace_end_race"].make()
    assert keep(0, 0, 20) and not keep(0, 0, 21)  # 21 + round(0 / 8)
    assert keep(0, 12, 22) and not keep(0, 12, 23)  # 21 + round(1.5) = 23
    assert keep(30, 34, 21) and not keep(30, 34, 22)  # 21 + round(0.5) = 22: halves round up
    assert keep(40, 0, 15) and not keep(40, 0, 16)  # 21 + round(-5) = 16
    assert keep(71, 0, 28) and keep(10, 71, 80)  # the end race
    assert not keep(71, 0, 29)  # holding wins
    hold20 = rules.builtins()["hold_at"].make(20)
    assert hold20(0, 0, 19) and not hold20(0, 0, 20) and not hold20(90, 0, 10)
    small = get_rules("pig", 20)
    table = load_entrant("hold_at:4", small).table
    assert table.at(small, 0, 0, 3) == pig.ROLL and table.at(small, 0, 0, 4) == pig.HOLD
    table = load_entrant("keep_pace_end_race", small).table  # goal - 29 < 0: always the race
    assert table.at(small, 0, 0, 19) == pig.ROLL and table.at(small, 5, 0, 14) == pig.ROLL


def test_pig_monte_carlo_agrees_with_exact():
    goal = 20
    rules = get_rules("pig", goal)
    a, b = pig.hold_at(5, goal), pig.hold_at(9, goal)
    values = exact.evaluate(rules, tabulate(a, rules, "a").choices, tabulate(b, rules, "b").choices)

    def play_game(seat, seed):
        dice = seeded((1, 2, 3, 4, 5, 6), seed)
        if seat == 0:
            return float(pig.play(a, b, goal, dice)[0] >= goal)
        return float(pig.play(b, a, goal, dice)[1] >= goal)

    assert_monte_carlo_agrees(play_game, values.first, values.second, 3000, seed=1)


@pytest.mark.slow
def test_pig_100_first_player_optimal_is_0_5306():
    """Neller & Presser (2004): with optimal play the first player wins 0.5306 of Pig games."""
    rules = get_rules("pig")
    solution = exact.solve(rules)
    assert round(float(solution.v_me[solution.start]), 4) == 0.5306


# ---------------------------------------------------------------------------------------------
# Greed
# ---------------------------------------------------------------------------------------------


def greed_sums(num_dice):
    """Every ordered roll of NUM_DICE Greed dice enumerated: {sum: chance}."""
    counts: dict[int, int] = {}
    for roll in itertools.product(range(6), repeat=num_dice):
        counts[sum(roll)] = counts.get(sum(roll), 0) + 1
    return {s: Fraction(c, 6**num_dice) for s, c in counts.items()}


def greed_reference(goal, max_dice, strategies=None):
    """Plain value iteration for Greed: V[(who, mine, theirs, last)], the mover's chance."""
    sums = {n: greed_sums(n) for n in range(1, max_dice + 1)}
    players = (0,) if strategies is None else (0, 1)
    states = [
        (p, m, t, last)
        for last in (True, False)
        for p in players
        for m in range(goal, -1, -1)
        for t in range(goal + 1)
    ]

    def final(mine, theirs):
        if mine > goal or mine < theirs:
            return 0.0
        return 0.5 if mine == theirs else 1.0

    def q(x, n, v):
        p, m, t, last = x
        other = p if strategies is None else 1 - p
        if n == 0:
            return final(m, t) if last else 1 - v[(other, t, m, True)]
        total = 0.0
        for s, prob in sums[n].items():
            if m + s > goal or last:
                total += float(prob) * final(m + s, t)
            else:
                total += float(prob) * (1 - v[(other, t, m + s, False)])
        return total

    def value_of(x, v):
        if strategies is None:
            return max(q(x, n, v) for n in range(max_dice + 1))
        p, m, t, last = x
        return q(x, strategies[p](m, t, last), v)

    return value_iteration(states, value_of)


def test_greed_rules_and_answers():
    rules = get_rules("greed", 20)
    assert rules.obs_shape == (21, 21, 2)
    assert rules.strategy_names[0] == "myStrategy"
    assert rules.choice(0) == 0 and rules.choice(50) == 50
    with pytest.raises(IllegalChoice, match="negative"):
        rules.choice(-1)
    assert rules.choice(51) == 51  # any number of dice: max_dice is no rule
    assert rules.choice(10**6) == greed.saturation(20)  # the same outcomes as any count past it
    for bad in (True, 3.0, "3", None):
        with pytest.raises(IllegalChoice):
            rules.choice(bad)
    with pytest.raises(UsageError):
        get_rules("greed", 20, max_dice=0).model  # noqa: B018
    assert rules.describe_choice(0) == "pass"


def test_greed_strategy_sees_last_as_a_bool():
    rules = get_rules("greed", 10)
    seen = set()

    def strategy(myscore, theirscore, last):
        assert type(myscore) is int and type(theirscore) is int and type(last) is bool
        seen.add((myscore, theirscore, last))
        return 1 if last else 0

    table = tabulate(strategy, rules, "s")
    assert len(seen) == 11 * 11 * 2 == table.choices.size
    assert table.at(rules, 3, 4, True) == 1 and table.at(rules, 3, 4, False) == 0


def test_greed_improve_spec():
    assert parse_spec("improve(sample1)").params == (parse_spec("sample1"),)
    rules = get_rules("greed", 30)
    plain = load_entrant("sample2", rules).table
    improved = load_entrant("improve(sample2)", rules).table
    assert improved.at(rules, 30, 20, False) == 0 and plain.at(rules, 30, 20, False) == 30
    assert improved.at(rules, 29, 20, False) == 30
    with pytest.raises(UsageError, match="unknown strategy"):
        load_entrant("improve(nothing)", rules)
    with pytest.raises(UsageError):
        load_entrant("sample1(sample2)", rules)
    # a built-in takes another built-in as a parameter by name, as improve(sample2) does
    by_name = load_entrant("improve:strat=sample2", rules).table
    assert np.array_equal(by_name.choices, improved.choices)
    assert np.array_equal(load_entrant("improve:sample2", rules).table.choices, improved.choices)
    with pytest.raises(UsageError, match="unknown strategy 'nothing'"):
        load_entrant("improve:strat=nothing", rules)
    with pytest.raises(UsageError, match="neither a number nor a built-in"):
        load_entrant("improve:strat=3-x", rules)


def test_greed_last_turn_by_hand():
    """Goal 5, (3, 4, last): one die wins on a 2 (1/6) and ties on a 1 (1/6): 1/4; two dice
    give 3/36 + (2/36) / 2 = 1/9; passing loses."""
    rules = get_rules("greed", 5)
    solution = exact.solve(rules)
    x = state_of(rules, 3, 4, True)
    assert solution.v_me[x] == pytest.approx(0.25, abs=1e-14)
    assert solution.policy[x] == 1
    # Always passing against always passing: a tie at 0.
    passing = np.zeros(int(np.prod(rules.obs_shape)), dtype=np.int64)
    values = exact.evaluate(rules, passing, passing)
    assert (values.first, values.second) == (0.5, 0.5)


def test_greed_solve_and_evaluate_match_plain_value_iteration():
    goal, most = 8, 3
    rules = get_rules("greed", goal, max_dice=most)
    solution = exact.solve(rules)
    reference = greed_reference(goal, most)
    for (_, m, t, last), value in reference.items():
        assert solution.v_me[state_of(rules, m, t, last)] == pytest.approx(value, abs=1e-12)

    def a(myscore, theirscore, last):
        return 0 if myscore > theirscore else 2

    def b(myscore, theirscore, last):
        return 3 if myscore < 4 else (1 if last else 0)

    values = exact.evaluate(rules, tabulate(a, rules, "a").choices, tabulate(b, rules, "b").choices)
    reference = greed_reference(goal, most, strategies=(a, b))
    assert values.first == pytest.approx(reference[(0, 0, 0, False)], abs=1e-12)
    assert values.second == pytest.approx(1 - reference[(1, 0, 0, False)], abs=1e-12)


def test_greed_monte_carlo_agrees_with_exact():
    rules = get_rules("greed")
    one, two = (tabulate(s, rules, "s").choices for s in (greed.sample1, greed.sample2))
    values = exact.evaluate(rules, one, two)

    def play_game(seat, seed):
        dice = seeded((0, 1, 2, 3, 4, 5), seed)
        if seat == 0:
            w = greed.autoplay(greed.sample1, greed.sample2, dice)
            return {1: 1.0, 2: 0.0, 3: 0.5}[w]
        w = greed.autoplay(greed.sample2, greed.sample1, dice)
        return {1: 0.0, 2: 1.0, 3: 0.5}[w]

    assert_monte_carlo_agrees(play_game, values.first, values.second, 2000, seed=7)


def test_greed_model_fits_in_memory_at_goal_100():
    """max_dice = 50 keeps every outcome of every choice in the exact engine's rows (see the
    module docstring): the count the engine itself checks against its limit."""
    m = get_rules("greed").model
    assert len(m.choices) == 51
    assert exact.engine(m).row_entries <= exact.MAX_ROW_ENTRIES


# ---------------------------------------------------------------------------------------------
# Big Pig
# ---------------------------------------------------------------------------------------------


def big_pig_points(die1, die2):
    if die1 == die2 == 1:
        return 25
    if 1 in (die1, die2):
        return 0
    return 2 * (die1 + die2) if die1 == die2 else die1 + die2


def big_pig_reference(goal, cap, strategies=None):
    """Plain value iteration for Big Pig with the model's cap (a turn reaching CAP ends there).

    V[(seat, who, score, opponent, turn_total)]: the mover's chance (a tie counts half), SEAT 0
    for the first player of the round.
    """
    rolls: dict[int, Fraction] = {}
    for d1, d2 in itertools.product(range(1, 7), repeat=2):
        pts = big_pig_points(d1, d2)
        rolls[pts] = rolls.get(pts, 0) + Fraction(1, 36)
    players = (0,) if strategies is None else (0, 1)
    states = [
        (seat, p, s, o, t)
        for seat in (1, 0)
        for p in players
        for s in range(goal)
        for o in range(cap + 1 if seat else goal)
        for t in range(cap - s - 1, -1, -1)
    ]

    def end_turn(seat, p, final, o, v):
        other = p if strategies is None else 1 - p
        if seat == 0:
            return 1 - v[(1, other, o, final, 0)]
        if final >= goal or o >= goal:
            return 1.0 if final > o else (0.5 if final == o else 0.0)
        return 1 - v[(0, other, o, final, 0)]

    def value_of(x, v):
        seat, p, s, o, t = x
        roll = 0.0
        for pts, prob in rolls.items():
            if pts == 0:
                roll += float(prob) * end_turn(seat, p, s, o, v)
            elif s + t + pts >= cap:
                roll += float(prob) * end_turn(seat, p, cap, o, v)
            else:
                roll += float(prob) * v[(seat, p, s, o, t + pts)]
        if t == 0:
            return roll
        hold = end_turn(seat, p, s + t, o, v)
        if strategies is None:
            return max(roll, hold)
        return roll if strategies[p](s, o, t) else hold

    return value_iteration(states, value_of)


def test_big_pig_rules_and_cap():
    rules = get_rules("big-pig", 6, overshoot=4)
    assert rules.cap == 10 and rules.obs_shape == (6, 11, 10)
    assert rules.choice("roll") == big_pig.ROLL and rules.choice(False) == big_pig.HOLD
    with pytest.raises(IllegalChoice):
        rules.choice(1)
    m = rules.model
    x = state_of(rules, 5, 0, 4)  # first player, score-if-held 9
    assert "first" in rules.describe_state(x)
    # A roll of 5 would make 14: the turn ends at the cap, 10; the second player moves.
    code = m.resolve(m.params, x, big_pig.ROLL, 5)
    assert code & 7 == OTHER
    assert code >> 3 == state_of(rules, 0, 10, 0, seat=1)
    assert "second" in rules.describe_state(code >> 3)
    assert m.resolve(m.params, state_of(rules, 5, 0, 3), big_pig.ROLL, 0) >> 3 == state_of(
        rules, 0, 5, 0, seat=1
    )
    assert m.resolve(m.params, state_of(rules, 0, 0, 3), big_pig.ROLL, 5) & 7 == SAME
    # A second player holding with more than a first player at the goal wins.
    assert m.resolve(m.params, state_of(rules, 3, 8, 6, seat=1), big_pig.HOLD, 0) == WIN


def test_big_pig_last_turn_by_hand():
    """Goal 10: second player at 9 against 10 must roll once: Big Pig (10/36) loses, anything
    else puts it ahead: 13/18. At 5 against 10, a 5 (2/36) ties if held and wins 26/36 rolled
    on, 6 or more (24/36) wins: 2/3 + (2/36)(26/36) = 229/324."""
    rules = get_rules("big-pig", 10)
    solution = exact.solve(rules)
    assert solution.v_me[state_of(rules, 9, 10, 0, seat=1)] == pytest.approx(13 / 18, abs=1e-14)
    assert solution.v_me[state_of(rules, 5, 10, 0, seat=1)] == pytest.approx(229 / 324, abs=1e-14)
    assert solution.policy[state_of(rules, 5, 10, 5, seat=1)] == big_pig.ROLL


def test_big_pig_solve_and_evaluate_match_plain_value_iteration():
    goal, overshoot = 6, 8
    rules = get_rules("big-pig", goal, overshoot=overshoot)
    solution = exact.solve(rules)
    reference = big_pig_reference(goal, goal + overshoot)
    for (seat, _, s, o, t), value in reference.items():
        assert solution.v_me[state_of(rules, s, o, t, seat=seat)] == pytest.approx(value, abs=1e-12)
    a, b = big_pig.hold_at(7), big_pig.computer(goal, target=9)
    values = exact.evaluate(rules, tabulate(a, rules, "a").choices, tabulate(b, rules, "b").choices)
    reference = big_pig_reference(goal, goal + overshoot, strategies=(a, b))
    assert values.first == pytest.approx(reference[(0, 0, 0, 0, 0)], abs=1e-12)
    assert values.second == pytest.approx(1 - reference[(0, 1, 0, 0, 0)], abs=1e-12)


def test_big_pig_monte_carlo_agrees_with_exact():
    """Goal 30: hold_at:20 and the computer never reach the cap (80), so the uncapped plain
    play() and the model play the same game."""
    goal = 30
    rules = get_rules("big-pig", goal)
    a, b = big_pig.hold_at(20), big_pig.computer(goal)
    values = exact.evaluate(rules, tabulate(a, rules, "a").choices, tabulate(b, rules, "b").choices)

    def play_game(seat, seed):
        dice = seeded((1, 2, 3, 4, 5, 6), seed)
        first, second = (
            big_pig.play(a, b, goal, dice) if seat == 0 else big_pig.play(b, a, goal, dice)
        )
        mine, theirs = (first, second) if seat == 0 else (second, first)
        return 1.0 if mine > theirs else (0.5 if mine == theirs else 0.0)

    assert_monte_carlo_agrees(play_game, values.first, values.second, 3000, seed=3)


def test_big_pig_builtins():
    rules = get_rules("big-pig", 20)
    assert rules.baseline == "computer"
    # the computer's table: tests/test_seed_big_pig.py (the text's rules for it)
    assert load_entrant("computer:25", rules).table.at(rules, 0, 0, 24) == big_pig.ROLL
    assert load_entrant("hold_at:5", rules).table.at(rules, 0, 30, 5) == big_pig.HOLD


# ---------------------------------------------------------------------------------------------
# The Monte Carlo engine plays the same models
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, goal, a, b",
    [
        ("pig", 30, "hold_at:10", "keep_pace_end_race"),
        pytest.param("greed", 100, "sample1", "improve(sample2)", marks=pytest.mark.slow),  # 6 s
        ("big-pig", 30, "hold_at:20", "computer"),
    ],
)
def test_simulator_agrees_with_exact(name, goal, a, b):
    rules = get_rules(name, goal)
    table_a, table_b = (load_entrant(s, rules).table.choices for s in (a, b))
    values = exact.evaluate(rules, table_a, table_b)
    counts = simulate.simulate(
        rules,
        DecisionTable.from_choices(rules, table_a),
        DecisionTable.from_choices(rules, table_b),
        40_000,
        seed=5,
    )
    for seat, expected in enumerate((values.first, values.second)):
        wins, _, ties = counts[seat]
        n = counts[seat].sum()
        se = math.sqrt(expected * (1 - expected) / n)
        assert abs((wins + ties / 2) / n - expected) < 4 * se


def greed_sums_exact(num_dice, goal):
    """P(sum = k) for k = 0..GOAL of NUM_DICE Greed dice, as fractions: ways counted with
    integers (a polynomial product cut at GOAL), not the engine's floating convolution."""
    ways = [1] + [0] * goal
    for _ in range(num_dice):
        ways = [sum(ways[k - f] for f in range(6) if k - f >= 0) for k in range(goal + 1)]
    return [Fraction(w, 6**num_dice) for w in ways]


def greed_pair_reference(strategy_a, strategy_b, goal=100):
    """A's chance of winning (a tie half), moving first, by a plain exact recursion over
    (mover, myscore, theirscore, last). The only cycle is a roll summing 0 from both sides of
    (m, t): those two values are solved together as a 2 by 2 system."""
    sys.setrecursionlimit(100_000)
    chances = {}

    def sums(n):
        if n not in chances:
            exact_sums = greed_sums_exact(n, goal)
            chances[n] = [float(p) for p in exact_sums], float(1 - sum(exact_sums))
        return chances[n]

    def final(mine, theirs):
        if mine > goal or mine < theirs:
            return 0.0
        return 0.5 if mine == theirs else 1.0

    strategies = (strategy_a, strategy_b)

    @functools.cache
    def last_turn(p, m, t):
        n = strategies[p](m, t, True)
        if n == 0:
            return final(m, t)
        within, _ = sums(n)
        return sum(q * final(m + s, t) for s, q in enumerate(within) if m + s <= goal)

    def parts(p, m, t):
        """(value without the 0-sum roll, chance of the 0-sum roll) for p to move at (m, t)."""
        n = strategies[p](m, t, False)
        if n == 0:
            return 1 - last_turn(1 - p, t, m), 0.0
        within, _ = sums(n)
        rest = sum(
            q * (1 - value(1 - p, t, m + s)) for s, q in enumerate(within) if 0 < s <= goal - m
        )
        return rest, within[0]

    @functools.cache
    def value(p, m, t):
        a1, c1 = parts(p, m, t)
        if c1 == 0.0:
            return a1
        a2, c2 = parts(1 - p, t, m)
        # v1 = a1 + c1 (1 - v2), v2 = a2 + c2 (1 - v1)
        return (a1 + c1 - c1 * a2 - c1 * c2) / (1 - c1 * c2)

    return value(0, 0, 0), 1 - value(1, 0, 0)


def test_greed_counts_past_saturation_are_the_same_outcomes_exactly():
    """From saturation(goal) dice on, every sum up to the goal has chance 0.0 as floating point
    computes it, so a roll goes over with chance 1.0 (the true chance, rounded): the rows of
    572, 573 and 1000 dice are the same, so taking 1000 as 572 changes no figure."""
    goal = 100
    full = greed.saturation(goal)
    assert full == 572
    assert greed.sum_distribution(full - 1)[: goal + 1].any()
    for n in (full, full + 1, 1000):
        assert not greed.sum_distribution(n)[: goal + 1].any()
        assert float(sum(greed_sums_exact(n, goal))) == 0.0  # not busting rounds to 0 too
    blocks = {}
    for n, dist in greed._distributions([full - 1, full, full + 1, 1000], goal):
        blocks[n] = (greed._sums_block(dist, goal), greed._last_block(dist, goal))
    plain = greed.sum_distribution(1000)  # made from 1000 convolutions, not saturation's
    assert all(
        np.array_equal(a, b)
        for a, b in zip(
            (*blocks[1000][0], *blocks[1000][1]),
            (*greed._sums_block(plain, goal), *greed._last_block(plain, goal)),
            strict=True,
        )
    )
    for n in (full + 1, 1000):
        for ours, theirs in zip(blocks[n], blocks[full], strict=True):
            assert all(np.array_equal(a, b) for a, b in zip(ours, theirs, strict=True))
    assert not np.array_equal(blocks[full - 1][0][1], blocks[full][0][1])
    rules = get_rules("greed")
    assert rules.choice(1000) == full
    table = np.full(int(np.prod(rules.obs_shape)), 12, dtype=np.int64)
    at_full, at_1000 = table.copy(), table.copy()
    at_full[::7], at_1000[::7] = full, full  # the table holds the engine's int
    assert (
        exact.evaluate(rules, at_full, table).first == exact.evaluate(rules, at_1000, table).first
    )


def test_greed_bounds_are_safety_bounds_that_say_so():
    """An absurd answer is refused with the reason, not a crash; a model past the memory bound
    says its size; a table the model cannot hold is refused before any engine indexes it."""
    rules = get_rules("greed")
    for absurd in (10**9, 10**100):
        with pytest.raises(IllegalChoice, match="safety bound on memory") as refused:
            rules.choice(absurd)
        assert "any number" in str(refused.value)
    assert "not a rule" in rules.describe()["options"]["max_dice"]["help"]
    with pytest.raises(UsageError, match=r"safety bound of 512 MB on the engines' memory"):
        get_rules("greed", max_dice=2000).model  # noqa: B018
    small = get_rules("greed", 10)
    table = np.full(int(np.prod(small.obs_shape)), 1000, dtype=np.int64)  # not via choice()
    with pytest.raises(UsageError, match="no outcomes for"):
        exact.evaluate(small, table, table)
    with pytest.raises(UsageError, match="no outcomes for"):
        exact.table_policy(small.model, table)


@pytest.mark.slow  # grows the model to every count a live answer may take: minutes
def test_greed_live_strategy_may_answer_past_max_dice():
    """A strategy called live (not a table) gets every count the rules allow."""
    rules = get_rules("greed", 20)

    def seventy(myscore, theirscore, last):
        return 0 if myscore > theirscore else 70

    live = LivePlayer(lambda: seventy)
    table = tabulate(greed.sample1, rules, "s")
    counts = simulate.simulate(rules, live, table, 20, seed=1)
    assert counts.sum() == 20
