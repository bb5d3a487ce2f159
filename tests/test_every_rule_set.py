"""Every registered rule set, through one shared test: watch, play, the narrated turn, and the
solve -> export -> check -> duel round trip (exact against Monte Carlo).

A new rule set gets these tests by being registered. The narrated turn (``play_step``, what
``watch`` and ``play`` show) must be a transition of the very model the engines evaluate.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import zlib
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from hogbench import exact, simulate
from hogbench.cli import app
from hogbench.jit import compiled
from hogbench.loading import load_entrant
from hogbench.pairs import player_of
from hogbench.rules import get_rules, names

runner = CliRunner()
#: Small goals keep the large models (Pig, Big Pig, Greed) quick to build.
GOAL = 30


def names_with_slow(*slow: str) -> list:
    """Every rule set, those named marked slow (``pytest -m "not slow"`` leaves them out)."""
    return [pytest.param(n, marks=pytest.mark.slow) if n in slow else n for n in names()]


def script(rules) -> str:
    """A person's moves for ``play``: enough of them for a whole game to GOAL (after the
    answer to "go first?", where the rules let the person choose)."""
    move = {"greed": "4\n0\n"}.get(rules.name)
    if move is None:
        move = "r\nr\nh\n" if "turn_total" in rules.strategy_args else "5\n"
    return ("" if rules.person_moves_first else "maybe\ny\n") + move * 200


@pytest.mark.parametrize("name", names())
def test_watch_plays_a_whole_game(name):
    rules = get_rules(name, GOAL)
    base = rules.baseline
    args = ["watch", base, base, "--rules", name, "--goal", str(GOAL), "--seed", "1"]
    shown = runner.invoke(app, args)
    assert shown.exit_code == 0, shown.output
    assert "Traceback" not in shown.output and (" wins " in shown.output or "tie" in shown.output)
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert data["turns"] and data["winner"] in (0, 1, None)


@pytest.mark.parametrize("name", names())
def test_play_takes_a_scripted_game_through_the_cli(name):
    rules = get_rules(name, GOAL)
    result = runner.invoke(
        app,
        ["play", rules.baseline, "--rules", name, "--goal", str(GOAL), "--seed", "2"],
        input=script(rules),
    )
    assert result.exit_code == 0, result.output
    if rules.person_moves_first:  # Big Pig: "The user always goes first"
        assert "You go first" in result.stdout and "go first?" not in result.stdout
    else:
        assert "please answer y or n" in result.stdout
    refused = [
        line
        for line in result.stdout.splitlines()
        if "try again" in line and "nothing to hold yet" not in line
    ]
    assert not refused, result.stdout  # every scripted move was legal (a hold at 0 is asked again)
    assert "You win" in result.stdout or " wins " in result.stdout or "tie" in result.stdout


@pytest.mark.parametrize("name", names())
def test_the_narrated_turn_is_a_transition_of_the_model(name):
    """On random states and dice, play_step's outcome is one the model's resolve, compiled as
    the engines run it, gives for that state and choice, and the dice it shows are legal dice.
    (play_step runs the same turn as Python.)"""
    rules = get_rules(name, GOAL)
    m = rules.model
    roll_kind, resolve = compiled(m.roll_kind), compiled(m.resolve)
    rng = random.Random(7)
    live = [int(x) for x in m.order]
    for _ in range(300):
        state = rng.choice(live)
        choice = int(rng.choice(m.choices))
        try:
            rules.choice(choice)
        except Exception:
            continue
        kind = int(roll_kind(m.params, state, choice))
        values = m.dist_value[m.dist_ptr[kind] : m.dist_ptr[kind + 1]]
        possible = {int(resolve(m.params, state, choice, int(v))) for v in values}
        step = rules.play_step(state, choice, random.Random(rng.random()))
        assert step.code in possible, (name, rules.describe_state(state), choice, step)
        assert all(isinstance(d, int) for d in step.dice)


def sample_states(rules, rng, n):
    """N random live states, and the start of every turn where turns are chains of rolls (a
    turn total of 0: where a hold has nothing to hold)."""
    m = rules.model
    live = [int(x) for x in m.order]
    states = [rng.choice(live) for _ in range(n)]
    if m.turn_starts is not None:
        states += [int(x) for x in rng.sample(list(m.turn_starts), min(n, len(m.turn_starts)))]
    return states


@pytest.mark.parametrize("name", names())
def test_the_narrated_move_is_the_models_for_hold_and_pass_too(name):
    """Every choice at random states and at turn starts, holds and passes included: the move
    narrated (``move_taken``) has the model's transition for the choice made, a move narrated
    as a hold or a pass shows no dice, and a move whose outcome the dice decide shows them. A
    hold at turn total 0 in Pig and Big Pig rolls, so it is narrated as a roll."""
    rules = get_rules(name, GOAL)
    m = rules.model
    roll_kind = compiled(m.roll_kind)
    rng = random.Random(11)
    for state in sample_states(rules, rng, 60):
        for choice in (int(c) for c in m.choices):
            try:
                rules.choice(choice)
            except Exception:
                continue
            move = rules.move_taken(state, choice)
            kind = int(roll_kind(m.params, state, choice))
            assert int(roll_kind(m.params, state, move)) == kind
            said = rules.describe_choice(move)
            step = rules.play_step(state, choice, random.Random(rng.random()))
            if "hold" in said or "pass" in said:
                assert not step.dice, (name, rules.describe_state(state), said, step)
            if m.dist_ptr[kind + 1] - m.dist_ptr[kind] > 1:  # a roll: the dice decide
                assert step.dice and "hold" not in said, (name, rules.describe_state(state), step)


@pytest.mark.parametrize("name", names())
def test_the_last_turns_commentary_agrees_with_the_outcome(name):
    """No "Player N takes the lead" on the turn that ends a game Player N did not win (Greed:
    a player goes over the goal, has the higher score, and loses)."""
    from hogbench.loading import load_for_one_game
    from hogbench.simulate import decider
    from hogbench.watch import play_game

    rules = get_rules(name, GOAL)
    entrant = load_for_one_game(rules.baseline, rules)
    seen_over = 0
    with contextlib.ExitStack() as stack:
        deciders = [decider(rules, player_of(entrant, rules), stack) for _ in range(2)]
        for seed in range(12):
            last = list(play_game(rules, tuple(deciders), seed))[-1]
            leader = (
                None if last.scores[0] == last.scores[1] else int(last.scores[1] > last.scores[0])
            )
            seen_over += leader is not None and leader != last.winner
            for line in last.commentary:
                if "takes the lead" in line:
                    assert line.startswith(f"Player {last.winner} "), (name, seed, last)
    if name == "greed":
        assert seen_over  # some game was lost by the higher score: the case this guards


@pytest.mark.parametrize(
    "name", [n for n in names() if "turn_total" in get_rules(n, GOAL).strategy_args]
)
def test_play_refuses_a_hold_with_nothing_to_hold_and_says_why(name):
    rules = get_rules(name, GOAL)
    first = "" if rules.person_moves_first else "y\n"
    result = runner.invoke(
        app,
        ["play", rules.baseline, "--rules", name, "--goal", str(GOAL), "--seed", "2"],
        input=first + "h\n" + "r\nr\nh\n" * 200,
    )
    assert result.exit_code == 0, result.output
    assert "nothing to hold yet: your turn total is 0" in result.stdout
    for line in result.stdout.splitlines():
        if line.startswith("You hold"):
            assert "→ banks" in line, line  # a hold never rolls


#: Rule sets whose rule functions run only compiled: Greed's turn calls the course's winner, and
#: the others' models are too large for a duel to build rows (it resolves turns on the spot).
COMPILED_ONLY = {"greed", "pig", "big-pig", "hog-fa19", "hog-sp20", "hog-su20"}


@pytest.mark.parametrize("name", names())
def test_rule_functions_that_take_arrays_answer_as_compiled(name):
    """Rule functions marked to take arrays (``jit(arrays=True)``) give, for every state of
    random tables at once, exactly the outcome codes the compiled kernel gives state by state:
    the Monte Carlo engine builds a table's rows from them with numpy alone."""
    m = get_rules(name, GOAL).model
    takes_arrays = m.roll_kind.arrays and m.resolve.arrays
    assert takes_arrays == (name not in COMPILED_ONLY)
    if not takes_arrays:
        return
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for _ in range(3):
        table = rng.choice(m.choices, size=int(m.observation.max()) + 1).astype(np.int64)
        got = simulate._outcome_codes_of_arrays(m, table)
        roll_kind, resolve = compiled(m.roll_kind), compiled(m.resolve)
        args = (m.params, m.dist_ptr, m.dist_value, m.observation, table)
        want = simulate._outcome_codes(roll_kind, resolve, *args)
        for mine, theirs in zip(got, want, strict=True):
            np.testing.assert_array_equal(mine, theirs)


# The Feral Hogs terms, Big Pig and Greed take 4-10 s of CPU each here, the others under 4 s.
@pytest.mark.parametrize(
    "name", names_with_slow("hog-fa19", "hog-sp20", "hog-su20", "big-pig", "greed")
)
def test_solve_export_check_and_duel_round_trip(name, tmp_path):
    """The strategy `solve --export` writes loads, passes `check`, and plays the baseline at
    exactly the win rate `solve` reported; Monte Carlo of the same pair lands within 4 standard
    errors of that exact value (fixed seed)."""
    path = tmp_path / "solved.py"
    common = ["--rules", name, "--goal", str(GOAL)]
    solved = runner.invoke(app, ["solve", *common, "--export", str(path), "--json"])
    assert solved.exit_code == 0, solved.output
    reported = json.loads(solved.stdout)["strategy_vs_baseline"]
    baseline = get_rules(name, GOAL).baseline

    checked = runner.invoke(app, ["check", str(path), *common, "--json"])
    assert checked.exit_code == 0 and json.loads(checked.stdout)["valid"], checked.output

    duel = ["duel", str(path), baseline, *common, "--json"]
    exact = json.loads(runner.invoke(app, [*duel, "--exact"]).stdout)
    assert exact["exact"] and exact["win_rate"] == pytest.approx(reported["average"], abs=1e-9)
    assert exact["first"]["win_rate"] == pytest.approx(reported["first"], abs=1e-9)

    mc = json.loads(runner.invoke(app, [*duel, "-n", "20000", "--seed", "3"]).stdout)
    error = mc["paired"]["standard_error"]
    assert 0 < error < 0.01
    assert abs(mc["win_rate"] - exact["win_rate"]) <= 4 * error, (mc["win_rate"], exact)


@pytest.mark.parametrize("name", names())
def test_the_turn_score_experiment(name):
    """max-scoring-num-rolls works for every Hog term from the rule set's own dice rule (its exact
    means equal the closed form where any 1 scores 1 point), and the cousins, whose turns are
    not a number of dice, say so in one line."""
    rules = get_rules(name)
    args = ["experiment", "max-scoring-num-rolls", "--rules", name, "-n", "50", "--json"]
    result = runner.invoke(app, args)
    if rules.dice_points is None:
        assert result.exit_code == 2 and "not played by rolling a number of dice" in result.output
        return
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    assert [row["num_rolls"] for row in rows] == list(range(1, 11))
    if rules.dice_points([1, 1, 1, 5]) == 1:  # Pig Out and Sow Sad: any 1 makes the turn 1 point
        for row in rows:
            n, no_one = row["num_rolls"], (5 / 6) ** row["num_rolls"]
            assert row["exact"] == pytest.approx((1 - no_one) + no_one * 4 * n, abs=1e-12)


#: A small goal keeps the reference recursion quick for the terms with hidden state.
REFERENCE_GOAL = 40


@pytest.mark.parametrize("name", names_with_slow("hog-fa19", "hog-sp20", "hog-su20"))
def test_the_model_agrees_with_the_reference_recursion(name):
    """Every Hog rule set's exact values equal the shared reference recursion over its turn
    written from the course functions (tests/course/turns.py), to 1e-12, on its course
    strategies against its baseline and on random tables of legal moves."""
    from tests.course.turns import COUSINS, reference_turn
    from tests.reference import win_chance

    if name in COUSINS:
        pytest.skip("a cousin of Hog: its references are in tests/test_rules_cousins.py")
    turn = reference_turn(name)  # a KeyError here: a new rule set needs its reference turn
    rules = get_rules(name, REFERENCE_GOAL)
    builtins = [spec for spec in rules.builtins() if spec != "always_roll"]
    rng = np.random.default_rng(zlib.crc32(name.encode()))  # the same tables every run
    legal = rules.model.choices[rules.model.choices <= 6]  # at most 6 dice: a quick reference
    size = REFERENCE_GOAL * REFERENCE_GOAL
    pairs = [
        (
            load_entrant(builtins[-1], rules).table.choices,
            load_entrant(rules.baseline, rules).table.choices,
        ),
        (rng.choice(legal, size), rng.choice(legal, size)),
    ]
    for a, b in pairs:

        def strategy(table):
            return lambda score, opponent: int(table[score * REFERENCE_GOAL + opponent])

        values = exact.evaluate(rules, a, b)
        first = win_chance(turn, strategy(a), strategy(b), REFERENCE_GOAL)
        second = 1 - win_chance(turn, strategy(b), strategy(a), REFERENCE_GOAL)
        assert values.first == pytest.approx(first, abs=1e-12), name
        assert values.second == pytest.approx(second, abs=1e-12), name


GOLDEN = Path(__file__).parent / "golden" / "watch"


@pytest.mark.parametrize("name", names())
def test_watch_json_is_the_golden_transcript(name):
    """A watched game for a fixed seed is exactly the recorded one: dice, events, scores and
    commentary, turn by turn. A change to a rule set's narration or to the order the dice are
    drawn shows here. After a deliberate change, rewrite the files with HOGBENCH_WRITE_GOLDEN=1
    and read the diff before committing it."""
    rules = get_rules(name, GOAL)
    base = rules.baseline
    args = ["watch", base, base, "--rules", name, "--goal", str(GOAL), "--seed", "7", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    path = GOLDEN / f"{name}.json"
    if os.environ.get("HOGBENCH_WRITE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(result.stdout)
    assert path.exists(), f"no golden transcript for {name}: see this test's docstring"
    watched = json.loads(result.stdout)
    assert watched == json.loads(path.read_text())
    scores = [watched["scores"], *(turn["scores"] for turn in watched["turns"])]
    assert all(type(score) is int for pair in scores for score in pair)  # numbers, not text
