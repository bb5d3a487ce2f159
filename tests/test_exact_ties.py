"""Exact wins, losses and ties for rule sets whose games can tie (Greed, Big Pig): the engine's
tie chances against plain value iterations written here, and the split carried from a
tournament's or a gauntlet's pairs to the store, the report model and every view."""

from __future__ import annotations

import csv
import json
import math
import sqlite3

import numpy as np
import pytest

from hogbench import exact, results
from hogbench import tournament as tm
from hogbench.exact import analysis
from hogbench.exact.rows import engine
from hogbench.loading import load_entrant
from hogbench.report import files, terminal
from hogbench.rules import get_rules
from hogbench.tournament.store import PairKey, PairResult, Store

# --- Greed: a plain value iteration over (my score, their score, last) ------------------------


def _dice_sums(n: int) -> np.ndarray:
    """The chance of each sum of N dice labelled 0-5 (the seed text's Greed dice)."""
    dist = np.array([1.0])
    for _ in range(n):
        dist = np.convolve(dist, np.full(6, 1 / 6))
    return dist


def _greed_plain(dice_a, dice_b, goal: int = 100) -> tuple[float, float, float]:
    """The chances that player A, moving first, wins, loses and ties, by value iteration.

    The rules as the seed text (003) states them: each turn adds the sum of the dice chosen; a
    score over the goal loses at once; rolling 0 dice passes, the other player then has one
    last turn, after which the higher score not over the goal wins and equal scores tie.
    DICE_X(me, them, last) is a strategy's number of dice. Values are from the mover's side,
    arrays indexed [mover is A: 0, B: 1][my score, their score]."""
    size = goal + 1
    dice = [
        np.array([[[d(m, t, last) for t in range(size)] for m in range(size)] for last in (0, 1)])
        for d in (dice_a, dice_b)
    ]
    sums = {n: _dice_sums(n) for p in dice for n in np.unique(p)}
    me, them = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    # The last turn: no successor, so its win, loss and tie follow at once.
    last = np.zeros((2, 3, size, size))  # [mover, (win, loss, tie), me, them]
    for s in range(2):
        for m in range(size):
            for t in range(size):
                dist = sums[int(dice[s][1, m, t])]
                for total, p in enumerate(dist):
                    new = m + total
                    if new > goal or new < t:
                        last[s, 1, m, t] += p
                    elif new > t:
                        last[s, 0, m, t] += p
                    else:
                        last[s, 2, m, t] += p
    # Other turns: iterate until nothing moves (a roll of all zeros comes back to the state).
    value = np.zeros((2, 3, size, size))
    for _ in range(10_000):
        new_value = np.zeros_like(value)
        for s in range(2):
            other = 1 - s
            passes = dice[s][0] == 0
            # Passing: the opponent's last turn, at (them, me); its win is the mover's loss.
            new_value[s, 0] += passes * last[other, 1].T
            new_value[s, 1] += passes * last[other, 0].T
            new_value[s, 2] += passes * last[other, 2].T
            for n in np.unique(dice[s][0]):
                if n == 0:
                    continue
                rolls = dice[s][0] == n
                for total, p in enumerate(sums[int(n)]):
                    new = me + total
                    over = new > goal
                    at = np.minimum(new, goal)
                    # The opponent moves next at (them, new): its loss is the mover's win.
                    follow = value[other][:, them, at]
                    new_value[s, 0] += rolls * p * np.where(over, 0.0, follow[1])
                    new_value[s, 1] += rolls * p * np.where(over, 1.0, follow[0])
                    new_value[s, 2] += rolls * p * np.where(over, 0.0, follow[2])
        moved = np.abs(new_value - value).max()
        value = new_value
        if moved < 1e-16:
            break
    return tuple(float(x) for x in value[0, :, 0, 0])  # type: ignore[return-value]


def _sample1(myscore, theirscore, last):
    """The seed text's sample1: "it passes if it's currently ahead, and otherwise it rolls 12
    dice"."""
    return 0 if myscore > theirscore else 12


def _sample2(myscore, theirscore, last):
    """The seed text's sample2 (step 6): 30 dice up to 50, 10 dice from 51 to 80, else pass."""
    return 30 if myscore <= 50 else 10 if myscore <= 80 else 0


def _policies(rules, *specs):
    tables = [load_entrant(s, rules).table.choices for s in specs]
    m = rules.fit(*tables)
    return tables, [exact.table_policy(m, t) for t in tables]


def test_greed_sample1_against_itself_splits_as_a_plain_value_iteration():
    """Greed's first seat with sample1 against itself wins 18.4931% and ties 0.0619%: the
    engine's value and tie chance against the value iteration above, to 1e-9."""
    win, loss, tie = _greed_plain(_sample1, _sample1)
    assert win == pytest.approx(0.184931, abs=5e-7) and tie == pytest.approx(0.000619, abs=5e-7)
    assert win + loss + tie == pytest.approx(1, abs=1e-12)
    rules = get_rules("greed")
    tables, (a, b) = _policies(rules, "sample1", "sample1")
    values = exact.evaluate(rules, *tables)
    first_tie, second_tie = exact.tie_chance(rules, a, b)
    assert first_tie == pytest.approx(tie, abs=1e-9) and second_tie == pytest.approx(tie, abs=1e-9)
    assert values.first - first_tie / 2 == pytest.approx(win, abs=1e-9)
    # A second: the other seat of the same game, its loss A's win.
    assert values.second - second_tie / 2 == pytest.approx(loss, abs=1e-9)


@pytest.mark.slow
def test_greed_sample2_against_sample1_both_seatings_as_the_value_iteration():
    rules = get_rules("greed")
    tables, (a, b) = _policies(rules, "sample2", "sample1")
    values = exact.evaluate(rules, *tables)
    ties = exact.tie_chance(rules, a, b)
    for seat, (first, second) in enumerate([(_sample2, _sample1), (_sample1, _sample2)]):
        win, loss, tie = _greed_plain(first, second)
        assert ties[seat] == pytest.approx(tie, abs=1e-9)
        mine = win if seat == 0 else loss  # sample2's win: A's, or B's loss when B moves first
        assert (values.first, values.second)[seat] - tie / 2 == pytest.approx(mine, abs=1e-9)


# --- Big Pig: rounds of two whole turns, each a chain of rolls ---------------------------------


def _big_pig_turn(hold_at: int) -> dict[int, float]:
    """The points a turn banks, playing hold_at(N) (roll while the turn total is below N), by
    the seed text's (004) rules 1-5: a 1 on one die only scores nothing and ends the turn; two
    1s add 25; other doubles twice their sum; else the sum."""
    rolls: dict[int | None, float] = {}
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            if (d1 == 1) != (d2 == 1):
                points = None  # Big Pig
            elif d1 == d2:
                points = 25 if d1 == 1 else 2 * (d1 + d2)
            else:
                points = d1 + d2
            rolls[points] = rolls.get(points, 0.0) + 1 / 36
    banked: dict[int, float] = {}
    reach = {0: 1.0}  # chance of each turn total still rolling
    for total in range(hold_at):  # totals only grow, so in increasing order
        p = reach.pop(total, 0.0)
        for points, q in rolls.items():
            if points is None:
                banked[0] = banked.get(0, 0.0) + p * q
            elif total + points >= hold_at:
                banked[total + points] = banked.get(total + points, 0.0) + p * q
            else:
                reach[total + points] = reach.get(total + points, 0.0) + p * q
    return banked


def _big_pig_plain(first: int, second: int, goal: int = 100) -> tuple[float, float, float]:
    """The first player's chances of winning, losing and tying, hold_at(FIRST) against
    hold_at(SECOND): rounds of the first player's turn and then the second's; after a round in
    which someone has the goal, the higher score wins, equal scores tie. A round from (x, y)
    where both bank nothing comes back to (x, y): solved for, not iterated."""
    turn_a, turn_b = _big_pig_turn(first), _big_pig_turn(second)
    stay = turn_a.get(0, 0.0) * turn_b.get(0, 0.0)
    value: dict[tuple[int, int], tuple[float, float, float]] = {}
    for total in range(2 * goal - 2, -1, -1):  # rounds start below the goal, sums decreasing
        for x in range(max(0, total - goal + 1), min(goal - 1, total) + 1):
            y = total - x
            win = loss = tie = 0.0
            for ga, pa in turn_a.items():
                for gb, pb in turn_b.items():
                    if ga == gb == 0:
                        continue
                    p = pa * pb
                    x2, y2 = x + ga, y + gb
                    if x2 >= goal or y2 >= goal:
                        win += p * (x2 > y2)
                        loss += p * (x2 < y2)
                        tie += p * (x2 == y2)
                    else:
                        w, lo, t = value[x2, y2]
                        win, loss, tie = win + p * w, loss + p * lo, tie + p * t
            value[x, y] = (win / (1 - stay), loss / (1 - stay), tie / (1 - stay))
    return value[0, 0]


@pytest.mark.slow  # Big Pig's model: 4.5 million states
def test_big_pig_hold_at_pair_splits_as_a_plain_recursion():
    """hold_at(20) against hold_at(25), both seatings, win and tie to 1e-9."""
    rules = get_rules("big-pig")
    tables, (a, b) = _policies(rules, "hold_at:20", "hold_at:25")
    values = exact.evaluate(rules, *tables)
    ties = exact.tie_chance(rules, a, b)
    first = _big_pig_plain(20, 25)
    second = _big_pig_plain(25, 20)
    assert first[2] > 1e-3  # ties are not rare here: a real check
    assert ties[0] == pytest.approx(first[2], abs=1e-9)
    assert ties[1] == pytest.approx(second[2], abs=1e-9)
    assert values.first - ties[0] / 2 == pytest.approx(first[0], abs=1e-9)
    assert values.second - ties[1] / 2 == pytest.approx(second[1], abs=1e-9)


# --- The tie kernels agree with each other ----------------------------------------------------


def test_tie_chance_on_rows_agrees_with_resolving_every_outcome():
    """The rows' tie sweep (what a tournament uses) and the sweep that resolves every outcome
    on the spot (models without rows) give the same chances, pair by pair."""
    rules = get_rules("greed")
    specs = ["sample1", "sample2", "strategies/greed/test05_room_third.py"]
    tables, policies = _policies(rules, *specs)
    m = rules.fit(*tables)
    e = engine(m)
    grid = exact.tie_grid(rules, tables, tables, ~np.eye(3, dtype=bool))
    for i, a in enumerate(policies):
        for j, b in enumerate(policies):
            if i == j:
                assert np.isnan(grid[i, j]).all()
                continue
            chance = np.zeros(2 * m.n_states)
            stuck = analysis._tying(
                e.rules, m.order, m.level_ptr, a.table, a.index, b.table, b.index, chance, 1e-14
            )
            assert stuck == -1
            spot = chance[2 * m.start], chance[2 * m.start + 1]
            assert grid[i, j] == pytest.approx(spot, abs=1e-12)


def test_rules_without_ties_have_no_tie_chance():
    rules = get_rules("hog-su21", 30)
    tables, (a, b) = _policies(rules, "always_roll:4", "always_roll:6")
    assert exact.tie_chance(rules, a, b) == (0.0, 0.0)
    assert (exact.tie_grid(rules, tables, tables, np.ones((2, 2), bool)) == 0).all()


# --- Carried through: store, report model, views ------------------------------------------------

GREED_FIELD = [
    "sample1",
    "sample2",
    "strategies/greed/test04_catch_up.py",
    "strategies/greed/test09_pass_judge.py",
]


@pytest.fixture(scope="module")
def greed_report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("greed-ties")
    t = tm.Tournament("g", get_rules("greed"), GREED_FIELD, store=tmp / "s.sqlite")
    result = tm.run(t)
    report = results.build(result, budget=0)
    out = tmp / "out"
    files.write_reports(report, out)
    return t, result, report, out


def test_a_tournament_splits_exact_wins_losses_and_ties(greed_report):
    """Each exact pair of a Greed tournament: wins + losses + ties = 1, the rate counts the
    tie half, and the tie is the engine's tie chance for that pair, averaged over seatings."""
    _, result, report, _ = greed_report
    rules = get_rules("greed")
    assert report.pairs and all(r.exact for r in report.pairs)
    assert any(r.ties > 1e-3 for r in report.pairs)
    for r in report.pairs:
        assert r.wins + r.losses + r.ties == pytest.approx(1, abs=1e-12)
        assert r.win_rate == pytest.approx(r.wins + r.ties / 2, abs=1e-12)
    names = report.names
    for r in report.pairs[:2]:
        tables, (a, b) = _policies(rules, *(_spec(names[k]) for k in (r.a, r.b)))
        ties = exact.tie_chance(rules, a, b)
        assert r.ties == pytest.approx(sum(ties) / 2, abs=1e-12)
    # The records against the field are pairs, by match point.
    for e in report.entrants:
        assert e.wins + e.losses + e.ties == len(GREED_FIELD) - 1


def _spec(name: str) -> str:
    return next(s for s in GREED_FIELD if s == name or s.endswith(f"/{name}.py"))


def test_every_view_carries_the_split(greed_report):
    """results.json's exact rows, pairs.csv, the terminal's W/L/T matrix and the page's cells
    all give the split, and no view says a tie is not split."""
    _, _, report, out = greed_report
    data = json.loads((out / "results.json").read_text())
    columns = data["pairs"]["exact_columns"]
    assert {"wins", "losses", "ties"} <= set(columns)
    by_pair = {(r.a, r.b): r for r in report.pairs}
    for row in data["pairs"]["exact"]:
        cells = dict(zip(columns, row, strict=True))
        r = by_pair[cells["a"], cells["b"]]
        for key in ("wins", "losses", "ties"):
            assert cells[key] == pytest.approx(getattr(r, key), abs=1e-9)
    with (out / "pairs.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(report.pairs)
    for row in rows:
        w, lo, t = (float(row[k]) for k in ("wins", "losses", "ties"))
        assert w + lo + t == pytest.approx(1, abs=1e-9)
        assert float(row["win_rate"]) == pytest.approx(w + t / 2, abs=1e-9)
    from rich.console import Console

    console = Console(record=True, width=200, color_system=None)
    terminal.print_report(console, terminal.console_report(report, None, 200, "wlt"))
    text = console.export_text()
    assert "not split" not in text and "½" not in text.split("wins/losses/ties")[1]
    r = max(report.pairs, key=lambda r: r.ties)
    cell = f"{100 * r.wins:.0f}/{100 * r.losses:.0f}/{100 * r.ties:.0f}"
    assert cell in text
    page = (out / "index.html").read_text()
    assert "not split" not in page
    assert f"W/L/T {100 * r.wins:.2f}% / {100 * r.losses:.2f}% / {100 * r.ties:.2f}%" in page


def test_the_store_keeps_ties_and_replays_pairs_kept_without(greed_report, tmp_path):
    """A resumed tournament reads the ties back; a store written before ties were kept (no
    ties column, or none for a pair) is upgraded and those exact pairs are played again."""
    t, result, report, _ = greed_report
    again = tm.run(t)
    assert again.computed == 0
    for key, r in result.results.items():
        assert again.results[key].ties == pytest.approx(r.ties, abs=0)
    old = tmp_path / "old.sqlite"
    with sqlite3.connect(old) as db:  # the schema before this change: no ties column
        db.execute(
            "CREATE TABLE pairs (rules TEXT NOT NULL, a TEXT NOT NULL, b TEXT NOT NULL,"
            " mode TEXT NOT NULL, seed INTEGER NOT NULL, games INTEGER NOT NULL,"
            " first REAL NOT NULL, second REAL NOT NULL, counts TEXT, seconds REAL NOT NULL,"
            " PRIMARY KEY (rules, a, b, mode, seed, games))"
        )
        for r in Store(t.store).get(_all_keys(t.store)).values():
            k = r.key
            db.execute(
                "INSERT INTO pairs VALUES (?,?,?,?,?,?,?,?,?,?)",
                (k.rules, k.a, k.b, k.mode, k.seed, k.games, r.first, r.second, None, 1.0),
            )
    replayed = tm.run(tm.Tournament("g", get_rules("greed"), GREED_FIELD, store=old))
    assert replayed.computed == len(result.results) // 2  # every pair, once
    for key, r in result.results.items():
        assert replayed.results[key].ties == pytest.approx(r.ties, abs=1e-15)


def _all_keys(path) -> list[PairKey]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT rules, a, b, mode, seed, games FROM pairs").fetchall()
    return [PairKey(*row) for row in rows]


def test_a_flipped_pair_swaps_its_seats_ties():
    key = PairKey("greed", "a", "b", "exact", 0, 0)
    r = PairResult(key, 0.6, 0.3, None, 0.0, (0.1, 0.02))
    f = r.flipped()
    assert f.ties == (0.02, 0.1)
    w, lo, t = r.split
    fw, flo, ft = f.split
    assert (fw, flo, ft) == pytest.approx((lo, w, t), abs=1e-15)
    assert t == pytest.approx(0.06) and w == pytest.approx(0.45 - 0.03)


def test_a_gauntlet_splits_its_exact_pairs():
    """The Greed course's testStrat view: each exact opponent's W/L/T in the JSON, chances that
    add up to 1 and give the rate with the tie counted half."""
    rules = get_rules("greed")
    me, rows = tm.gauntlet(rules, "sample2", ["sample1", "strategies/greed/test04_catch_up.py"])
    data = files.gauntlet_data(me, rows, 0.5)
    for row in data["opponents"]:
        w, lo, t = row["wlt"]
        assert w + lo + t == pytest.approx(1, abs=1e-12) and t > 0
        assert row["win_rate"] == pytest.approx(w + t / 2, abs=1e-12)
    assert not math.isnan(rows[0].result.ties[0])
    from rich.console import Console

    console = Console(record=True, width=120, color_system=None)
    terminal.print_report(console, terminal.gauntlet_report(me, rows, 0.5))
    text = console.export_text()
    assert "ties" in text and "a win rate counts it half" in text
    for row in data["opponents"]:
        assert f"{100 * row['wlt'][2]:.2f}%" in text


def test_a_game_that_never_ends_is_a_tie_split_too():
    """hog-sp22: a game that never ends is a tie, which a value counts half; a tournament's
    exact pair splits it from the win as it splits Greed's ties (the chance is 1 - the chance
    that the game ends)."""
    from hogbench.pairs import play_exact_grid
    from hogbench.tables import DecisionTable
    from tests.test_term_hog_sp22 import GOAL, looper, table

    rules = get_rules("hog-sp22", GOAL)
    tables = [table(looper(1)), table(looper(2))]
    players = [DecisionTable.from_choices(rules, t) for t in tables]
    wanted = np.array([[False, True], [False, False]])
    values, ties = play_exact_grid(rules, players, players, wanted)
    policies = [exact.table_policy(rules.fit(*tables), t) for t in tables]
    ends = exact.ending_chance(rules, *policies)
    assert ties[0, 1] == pytest.approx([1 - ends[0], 1 - ends[1]], abs=1e-12)
    assert ties[0, 1, 0] > 1e-3
    key = PairKey(rules.key, "a", "b", "exact", 0, 0)
    w, lo, t = PairResult(key, *values[0, 1], None, 0.0, tuple(ties[0, 1])).split
    assert w + lo + t == pytest.approx(1, abs=1e-12) and t == pytest.approx(sum(ties[0, 1]) / 2)
