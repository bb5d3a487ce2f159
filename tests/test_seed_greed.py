"""The Greed text (seed 003, rules-sources/003_aabf2e5c1257c389.txt), example by example:
each test runs one worked example of the text against the course's Greed functions (the greed
rule set's module), its engines or hogbench's testStrat, and says in a comment where in the
text it is (line numbers of that file). The text has no doctests.

What the text holds, and where it is tested:

- The rules: dice labelled 0-5, any number of dice, over 100 loses at once, a pass gives the
  other player one last turn, the higher score not over 100 wins, ties happen (lines 40-52):
  test_play_readings, test_any_number_of_dice
- sample1: "it passes if it's currently ahead, and otherwise it rolls 12 dice" (line 107):
  test_sample1
- autoplayLoud(sample1, sample1) and its transcript, 32 and 31, a pass, 24: "Player 2 wins."
  (lines 128-258): test_autoplay_loud_transcript
- autoplay returns 1, 2, or 3 for a tie (line 273): test_play_readings
- manyGames' summary, and manyGames(sample1, sample1, 1000) "nearly equal performance by both
  players, only a few ties" (lines 280-295): test_many_games_output,
  test_sample1_against_itself_has_only_a_few_ties
- sample2: 30 dice up to 50, 10 from 51 to 80, else pass (line 305): test_sample2
- "it consistently beats sample1", switching who goes first (line 310):
  test_sample2_beats_sample1_switching_who_goes_first
- improve: pass at a score of 100, else as the strategy given (line 315): test_improve
- testStrat(myStrategy, 10000) against the ten test strategies, within 30 seconds (lines 372,
  385, 423): test_test_strat_reports_each_match_and_the_30_second_rule,
  test_test_strat_plays_games_as_the_seed_does_when_asked
"""

from __future__ import annotations

import json
import random
import re

import pytest
from typer.testing import CliRunner

from hogbench import exact
from hogbench.cli import app
from hogbench.errors import IllegalChoice
from hogbench.experiments import TEST_STRAT_SECONDS, greed_field
from hogbench.rules import get_rules, greed
from hogbench.tables import tabulate
from tests.test_rules_cousins import greed_pair_reference

runner = CliRunner()


def test_play_readings():
    def always(n):
        return lambda myscore, theirscore, last: n

    # lines 50-52 and 273 (autoplay: 1 or 2 for the winner, 3 for a tie)
    fives = greed.make_test_dice(5)
    # Exactly 100 does not end the game: 100-100, then Player 1 goes over.
    assert greed.play(always(20), always(20), fives) == (200, 100)
    assert greed.autoplay(always(20), always(20), fives) == 2
    # Pass, then a last turn that passes too: compared, a tie.
    assert greed.autoplay(always(0), always(0)) == 3
    # Going over on the last turn loses.
    assert greed.autoplay(always(0), always(21), fives) == 1
    # All zeros is not a pass: the game goes on until Player 2 goes over (3, 6 > 5).
    assert greed.play(always(1), always(1), greed.make_test_dice(0, 3), goal=5) == (0, 6)
    # The last turn: Player 2 passed, Player 1 rolls once more and the scores compare.
    assert greed.play(always(1), always(0), greed.make_test_dice(2), goal=5) == (4, 0)
    with pytest.raises(IllegalChoice):
        greed.play(always(-1), always(0))


def test_sample1():
    # line 107: "it passes if it's currently ahead, and otherwise it rolls 12 dice"
    assert greed.sample1(10, 5, False) == 0 and greed.sample1(5, 5, False) == 12
    assert greed.sample1(4, 5, True) == 12


def test_autoplay_loud_transcript(capsys):
    """Lines 128-258: autoplayLoud(sample1, sample1) with the text's own dice prints the text's
    transcript, line for line (the text's page breaks its lines; the words are these)."""
    dice = greed.make_test_dice(
        *(3, 4, 5, 2, 3, 2, 1, 0, 1, 5, 2, 4),  # Player 1: 32
        *(4, 2, 4, 2, 4, 1, 3, 1, 4, 0, 1, 5),  # Player 2: 31
        *(0, 3, 4, 1, 1, 0, 4, 2, 5, 0, 2, 2),  # Player 1 passed; Player 2's last turn: 24
    )
    greed.autoplayLoud(greed.sample1, greed.sample1, dice)
    assert capsys.readouterr().out.splitlines() == [
        "Player 1: 0 Player 2: 0",
        "It is Player 1's turn.",
        "12 dice chosen.",
        "Dice rolled: 3 4 5 2 3 2 1 0 1 5 2 4",
        "Total for this turn: 32",
        "Player 1: 32 Player 2: 0",
        "It is Player 2's turn.",
        "12 dice chosen.",
        "Dice rolled: 4 2 4 2 4 1 3 1 4 0 1 5",
        "Total for this turn: 31",
        "Player 1: 32 Player 2: 31",
        "It is Player 1's turn.",
        "0 dice chosen.",
        "Dice rolled: ",
        "Total for this turn: 0",
        "Player 1: 32 Player 2: 31",
        "It is Player 2's turn.",
        "12 dice chosen.",
        "Dice rolled: 0 3 4 1 1 0 4 2 5 0 2 2",
        "Total for this turn: 24",
        "Player 1: 32 Player 2: 55",
        "Player 2 wins.",
    ]


def test_many_games_output(capsys):
    # lines 280-295: the summary's three lines; sample1 against itself nearly even
    random.seed(61)
    greed.manyGames(greed.sample1, greed.sample1, 1000)
    out = capsys.readouterr().out
    match = re.fullmatch(r"Player 1 wins: (\d+)\nPlayer 2 wins: (\d+)\nTies: (\d+)\n", out)
    assert match, out
    w1, w2, ties = map(int, match.groups())
    assert w1 + w2 + ties == 1000
    assert abs(w1 - w2) < 150 and ties < 50  # nearly equal, few ties (as the text says)

    # The first strategy moves first in n // 2 games; with these dice the second mover wins.
    def roll_one(myscore, theirscore, last):
        return 1

    def also_one(myscore, theirscore, last):
        return 1

    greed.manyGames(roll_one, also_one, 5, dice=greed.make_test_dice(1), goal=5)
    assert capsys.readouterr().out == "Player 1 wins: 3\nPlayer 2 wins: 2\nTies: 0\n"


def test_sample1_against_itself_has_only_a_few_ties():
    # line 295: "nearly equal performance by both players, only a few ties": exactly, the
    # first seat wins 18.49% and ties 0.06% (tests/test_exact_ties.py checks these against a
    # plain value iteration), so over both seatings each strategy wins half of the rest
    rules = get_rules("greed")
    one = tabulate(greed.sample1, rules, "s").choices
    policy = exact.table_policy(rules.fit(one), one)
    first, second = exact.tie_chance(rules, policy, policy)
    assert first == pytest.approx(0.000619, abs=5e-7) and second == first
    values = exact.evaluate(rules, one, one)
    assert values.average == pytest.approx(0.5, abs=1e-12)


def test_sample2():
    # line 305: 30 dice up to 50, 10 dice from 51 to 80 inclusive, pass above 80
    assert [greed.sample2(s, 0, False) for s in (0, 50, 51, 80, 81, 100)] == [30, 30, 10, 10, 0, 0]


def test_sample2_beats_sample1_switching_who_goes_first():
    """Line 310: "You should find that in large samples, switching which strategy goes
    first, it [sample2] consistently beats sample1." Exactly: in both seatings together."""
    rules = get_rules("greed")
    one, two = (tabulate(s, rules, "s").choices for s in (greed.sample1, greed.sample2))
    values = exact.evaluate(rules, two, one)
    assert (values.first + values.second) / 2 > 0.55


def test_improve():
    # line 315: improve(strat) passes at a score of 100, and otherwise does what strat does
    better = greed.improve(lambda myscore, theirscore, last: 7)
    assert better(100, 100, False) == 0 and better(100, 3, True) == 0
    assert better(99, 100, False) == 7


def test_any_number_of_dice():
    """Line 45: "He can choose any number of dice". A strategy answering 60 dice, and
    one answering 1000, play under the default options (the model grows to the answers used),
    and their exact chances against sample1 are a plain recursion's, whose dice are counted
    with integers."""
    rules = get_rules("greed")
    one = tabulate(greed.sample1, rules, "sample1").choices

    def sixty(myscore, theirscore, last):
        return 0 if myscore > theirscore else (60 if theirscore - myscore > 40 else 12)

    def thousand(myscore, theirscore, last):
        return 0 if myscore > theirscore else (1000 if theirscore - myscore > 30 else 12)

    for strategy in (sixty, thousand):
        table = tabulate(strategy, rules, strategy.__name__).choices
        values = exact.evaluate(rules, table, one)
        first, second = greed_pair_reference(strategy, greed.sample1)
        assert values.first == pytest.approx(first, abs=1e-9)
        assert values.second == pytest.approx(second, abs=1e-9)
    assert values.first != pytest.approx(exact.evaluate(rules, one, one).first, abs=1e-6)


def test_test_strat_reports_each_match_and_the_30_second_rule():
    # lines 385 and 423: testStrat(myStrategy, 10000), a match against each of the ten test
    # strategies, beats or not; line 372: within 30 seconds
    mine = str(greed_field()[5])  # test06, a middling strategy
    shown = runner.invoke(app, ["experiment", "test-strat", mine, "--json"])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    assert data["field"] == 10 and len(data["matches"]) == 10
    beaten = [m["beats"] for m in data["matches"]]
    assert data["beaten"] == sum(beaten) and 3 <= data["beaten"] <= 7
    assert beaten[0] is True and beaten[-1] is False  # beats the weakest, not the strongest
    assert data["matches"][5]["identical"] and data["matches"][5]["win_rate"] == pytest.approx(0.5)
    # a game of Greed takes each player a few decisions, not hundreds
    per_game = data["test_strat_calls"] / (10 * 10_000)
    assert 1 < per_game < 50
    assert data["limit_seconds"] == TEST_STRAT_SECONDS and data["within_time"] is True
    text = runner.invoke(app, ["experiment", "test-strat", mine]).stdout
    assert "test10_patient_judge" in text and "30-second rule" in text


@pytest.mark.slow  # 23 s CPU: plays the course's games
def test_test_strat_plays_games_as_the_seed_does_when_asked():
    # line 423: testStrat plays games (10000 in the text; 200 here) when asked
    mine = str(greed_field()[0])
    data = json.loads(
        runner.invoke(
            app, ["experiment", "test-strat", mine, "-n", "200", "--seed", "1", "--json"]
        ).stdout
    )
    assert all(m["games"] == 200 for m in data["matches"])
    assert data["beaten"] == 0  # the weakest beats none, itself included
