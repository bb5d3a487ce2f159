"""Tournaments: sources, the round robin, standings, the resumable store, backends, the CLI."""

from __future__ import annotations

import math
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from hogbench import tournament as tm
from hogbench.cli import app
from hogbench.errors import StrategyError, UsageError
from hogbench.loading import load_entrant
from hogbench.players import LivePlayer
from hogbench.rules import get_rules
from hogbench.standings import (
    bradley_terry,
    match_points,
    rating_errors,
    shared_ranks,
    standings,
)
from hogbench.tables import DecisionTable
from hogbench.tournament.store import PairKey, PairResult, Store

ROOT = Path(__file__).parent.parent
BUILTINS = ["always_roll:3", "always_roll:5", "always_roll:6", "piggypoints_strategy"]
runner = CliRunner()


def small(specs, tmp_path, **kw) -> tm.Tournament:
    """A quick tournament: hog-su21 to 30, its store in TMP_PATH."""
    kw.setdefault("store", tmp_path / "store.sqlite")
    return tm.Tournament("t", get_rules("hog-su21", 30), list(specs), **kw)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# -- sources -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "body, key",
    [
        ('mode = "fast"', "mode"),
        ("games = 0", "games"),
        ('rules = "hog-fa99"', "rules"),
        ("[options]\nferal_hogs = false", "options"),  # not an option of hog-su21
        ("threshold = 2", "threshold"),
        ('seed = "lucky"', "seed"),
        ("goal = 0", "goal"),
        ("mod = 3", "mod"),  # a typo: unknown keys are named, not ignored
        ('entrants = ["nothing/*.py"]', "entrants"),
        ('entrants = ["missing.py", "always_roll:6"]', "entrants"),
        ("entrants = 5", "entrants"),
        ('entrants = ["always_roll:6"]', "entrants"),  # one entrant is no tournament
    ],
)
def test_toml_errors_name_the_key(tmp_path, body, key):
    entrants = "" if "entrants" in body else 'entrants = ["always_roll:4", "always_roll:6"]\n'
    # Top-level keys must come before [options] in TOML.
    text = f"{entrants}{body}\n" if body.startswith("[") else f"{body}\n{entrants}"
    path = write(tmp_path / "t.toml", text)
    with pytest.raises(UsageError) as info:
        tm.load_source([str(path)])
    assert f"key '{key}'" in str(info.value) and str(path) in str(info.value)


def test_toml_syntax_error_and_missing_file(tmp_path):
    path = write(tmp_path / "t.toml", "entrants = [\n")
    with pytest.raises(UsageError, match="not valid TOML"):
        tm.load_source([str(path)])
    with pytest.raises(UsageError, match="no such tournament file"):
        tm.load_source([str(tmp_path / "none.toml")])
    with pytest.raises(UsageError, match="key 'entrants' is missing"):
        tm.load_source([str(write(tmp_path / "e.toml", "seed = 1\n"))])


def test_toml_paths_are_relative_to_the_file(tmp_path, monkeypatch, files):
    course = tmp_path / "course"
    for name in ("b.py", "a.py"):
        write(course / "subs" / name, (files / "good_su21.py").read_text())
    write(course / "subs" / "_helpers.py", "")
    path = write(
        course / "t.toml",
        'name = "Fall"\nrules = "hog-su20"\ngoal = 50\nmode = "mc"\ngames = 100\nseed = 7\n'
        'store = "out/r.sqlite"\nout = "out"\nentrants = ["subs", "subs/a.py", "always_roll:6"]\n'
        "[options]\nferal_hogs = false\n",
    )
    monkeypatch.chdir(tmp_path)
    t = tm.load_source([str(path)], seed=9)  # the command line wins
    assert t.name == "Fall" and t.rules.key == "hog-su20:goal=50:feral_hogs=False"
    assert (t.mode, t.games, t.seed) == ("mc", 100, 9)
    # a folder is its .py files without "_" ones, in order; a file named twice is one entrant
    assert specs(t) == ["course/subs/a.py", "course/subs/b.py", "always_roll:6"]
    assert t.store == course / "out" / "r.sqlite" and t.out == course / "out"


def test_folder_and_spec_sources(tmp_path, files, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("y.py", "x.py"):
        write(tmp_path / "subs" / name, (files / "good_su21.py").read_text())
    t = tm.load_source(["subs"], rules="hog-su21", mode="mc", games=50)
    assert t.name == "subs" and specs(t) == ["subs/x.py", "subs/y.py"] and t.mode == "mc"
    t = tm.load_source(["subs/x*.py", "always_roll:6"], threshold=0.6)
    assert specs(t) == ["subs/x.py", "always_roll:6"] and t.threshold == 0.6
    with pytest.raises(UsageError, match="--mode"):
        tm.load_source(["subs/*.py", "always_roll:6"], mode="fast")


# -- standings ---------------------------------------------------------------------------------
def rates_of(pairs: dict[tuple[int, int], float], n: int) -> np.ndarray:
    rates = np.full((n, n), np.nan)
    for (i, j), r in pairs.items():
        rates[i, j], rates[j, i] = r, 1 - r
    return rates


def test_match_points_threshold_and_ties_count_as_losses():
    rates = rates_of(
        {
            (0, 1): 0.5,  # a tied match: no point for either side
            (0, 2): 0.5000005,  # above one half, but not above 50.0001%: no point
            (0, 3): 0.500002,  # a point for 0
            (1, 2): 0.9,
            (1, 3): 0.2,  # a point for 3
            (2, 3): 0.5,
        },
        4,
    )
    assert match_points(rates).tolist() == [1, 1, 0, 1]
    assert match_points(rates, threshold=0.5).tolist() == [2, 1, 0, 1]
    table = standings(["a", "b", "c", "d"], rates)
    assert [s.rank for s in table] == [1, 1, 1, 4]  # level on points: one rank
    assert table[-1].name == "c" and table[-1].points == 0


def test_shared_ranks():
    assert shared_ranks([5, 3, 3, 3, 1, 0, 0]) == [1, 2, 2, 2, 5, 6, 6]


def test_bradley_terry_hand_worked():
    # Strengths 4 : 2 : 1 give P(1 beats 2) = 4/6, P(1 beats 3) = 4/5, P(2 beats 3) = 2/3. Those
    # rates fit the model exactly, so the fit returns the strengths: on Elo's scale (geometric
    # mean 2 at 1500) 1500 + 400 log10(4/2), 1500, 1500 + 400 log10(1/2).
    ratings = bradley_terry(rates_of({(0, 1): 2 / 3, (0, 2): 4 / 5, (1, 2): 2 / 3}, 3))
    step = 400 * math.log10(2)
    assert ratings == pytest.approx([1500 + step, 1500, 1500 - step], abs=1e-6)
    # Two entrants, 3:1: a gap of 400 log10(3) = 190.85 points around 1500.
    ratings = bradley_terry(rates_of({(0, 1): 0.75}, 2))
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(3))
    assert ratings.mean() == pytest.approx(1500)


def test_bradley_terry_survives_a_strategy_that_never_wins():
    ratings = bradley_terry(rates_of({(0, 1): 1.0, (0, 2): 0.7, (1, 2): 0.0}, 3))
    assert np.isfinite(ratings).all() and ratings[1] < ratings[2] < ratings[0]


def test_exact_ratings_have_no_error_and_no_rating_where_no_result():
    """Exact rates carry no sampling error: each rating's error is 0, and NaN exactly where
    there is no rating (an entrant without a single result)."""
    rates = rates_of({(0, 1): 0.6, (0, 2): 0.3, (1, 2): 0.55}, 4)
    errors = np.zeros_like(rates)
    assert np.isnan(bradley_terry(rates)).tolist() == [False, False, False, True]
    assert rating_errors(rates, errors).tolist()[:3] == [0.0, 0.0, 0.0]
    assert np.isnan(rating_errors(rates, errors)[3])
    assert [s.rating_error for s in standings(list("abcd"), rates, errors=errors)][:3] == [0.0] * 3


def specs(t) -> list[str]:
    return [e if isinstance(e, str) else e.spec for e in t.entrants]


# -- the store ---------------------------------------------------------------------------------
def test_store_round_trip_and_flip(tmp_path):
    key = PairKey("hog-su21:goal=100", "aaa", "bbb", "mc", 3, 10)
    # joint counts of the game pairs: [A first won/lost/tied] x [A second won/lost/tied]
    result = PairResult(key, 0.6, 0.4, (1, 2, 0, 1, 1, 0, 0, 0, 0), 0.1)
    with Store(tmp_path / "s.sqlite") as store:
        store.put([result])
    with Store(tmp_path / "s.sqlite") as store:
        assert store.get([key]) == {key: result}
        assert store.get([PairKey("hog-su21:goal=100", "aaa", "bbb", "mc", 4, 10)]) == {}
    flipped = result.flipped()
    # B's first game is A's second, and B's wins are A's losses
    assert flipped.seat_counts().tolist() == [[3, 2, 0], [2, 3, 0]]
    assert result.seat_counts().tolist() == [[3, 2, 0], [2, 3, 0]]
    assert flipped.key.a == "bbb" and flipped.flipped() == result
    assert flipped.win_rate == pytest.approx(1 - result.win_rate)
    assert flipped.paired.pairs == result.paired.pairs == 5


OLD_KEYED_SCHEMA = (
    "CREATE TABLE pairs (rules TEXT NOT NULL, a TEXT NOT NULL, b TEXT NOT NULL,"
    " mode TEXT NOT NULL, seed INTEGER NOT NULL, games INTEGER NOT NULL, first REAL NOT NULL,"
    " second REAL NOT NULL, counts TEXT, seconds REAL NOT NULL, ties TEXT,"
    " PRIMARY KEY (rules, a, b, mode, seed, games))"
)


@pytest.mark.parametrize("made", ["now", "with a key, as before"])
def test_a_pair_stored_again_is_read_as_stored_last(tmp_path, made):
    """A pair put twice (played again) reads as its last result, in a store made now (no key:
    both rows kept) and in one made with the unique key (the first row replaced); other pairs
    are untouched."""
    path = tmp_path / "s.sqlite"
    if made != "now":
        with sqlite3.connect(path) as db:
            db.execute(OLD_KEYED_SCHEMA)
    key, other = (PairKey("hog-su21:goal=100", "aaa", b, "exact", 0, 0) for b in ("bbb", "ccc"))
    first, kept = PairResult(key, 0.6, 0.4, None, 0.1), PairResult(other, 0.3, 0.2, None, 0.1)
    again = PairResult(key, 0.7, 0.5, None, 0.2, (0.01, 0.02))
    with Store(path) as store:
        store.put([first, kept])
        store.put([again])
    with Store(path) as store:
        assert store.get([key, other]) == {key: again, other: kept}
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT COUNT(*) FROM pairs").fetchone()[0]
    assert rows == (3 if made == "now" else 2)


def test_a_store_row_counted_per_seating_by_an_older_version_is_played_again(tmp_path):
    key = PairKey("hog-su21:goal=100", "aaa", "bbb", "mc", 3, 10)
    with Store(tmp_path / "s.sqlite") as store:
        store.put([PairResult(key, 0.6, 0.4, (3, 2, 0, 2, 3, 0), 0.1)])
        assert store.get([key]) == {}


# -- the round robin ---------------------------------------------------------------------------
CRASHES = "TEAM_NAME = 'Crash'\ndef final_strategy(s, o):\n    return 6 // (s - 7)\n"
ELEVEN = "def final_strategy(s, o):\n    return 11 if o == 20 else 4\n"


def test_disqualified_entrants_are_listed_and_the_rest_goes_on(tmp_path, files):
    crash = write(tmp_path / "crash.py", CRASHES)
    eleven = write(tmp_path / "eleven.py", ELEVEN)
    good = files / "good_su21.py"
    six = write(tmp_path / "six.py", "TEAM_NAME = 'Six'\ndef final_strategy(s, o):\n    return 6\n")
    specs = [str(crash), *BUILTINS, str(good), str(eleven), str(six)]
    result = tm.run(small(specs, tmp_path))
    reasons = {s.spec: s.disqualified for s in result.disqualified}
    assert set(reasons) == {str(crash), str(eleven)}
    assert "ZeroDivisionError" in reasons[str(crash)] and "(7, 0)" in reasons[str(crash)]
    assert "returned 11" in reasons[str(eleven)]
    n = len(result.active)
    assert n == 6 and len(result.results) == n * (n - 1)
    # Six plays as always_roll:6 does (one table, two entrants): their shared pairs are
    # computed once for both.
    names = [s.name for s in result.standings]
    assert "Test Team" in names and "Six" in names and "always_roll:6" in names
    assert result.computed == 15 - 4  # Six's pairs with the 4 others are always_roll:6's


def test_a_strategy_that_is_not_deterministic_is_disqualified_as_check_says(tmp_path, files):
    """One policy: the contest rules disqualify it, in check and in a tournament alike."""
    from hogbench.check import check_file

    specs = [str(files / "randomised.py"), "always_roll:5", "always_roll:6"]
    result = tm.run(small(specs, tmp_path, games=200, seed=3))
    (banned,) = result.disqualified
    assert banned.spec == str(files / "randomised.py")
    assert "not deterministic" in banned.disqualified and "--allow-live" in banned.disqualified
    report = check_file(str(files / "randomised.py"), get_rules("hog-su21", 30), cache=False)
    assert not report.valid and "not deterministic" in report.lines[0]


def test_live_entrants_play_monte_carlo_and_the_standings_say_so(tmp_path, files):
    specs = [str(files / "randomised.py"), "always_roll:5", "always_roll:6"]
    result = tm.run(small(specs, tmp_path, games=200, seed=3, allow_live=True))
    live = next(i for i, s in enumerate(result.active) if s.entrant.live_reason)
    assert result.modes(live) == (0, 2)
    assert all(result.modes(i) == (1, 1) for i in range(3) if i != live)
    r = result.results[live, (live + 1) % 3]
    assert not r.exact and sum(r.totals) == 200 and r.key.seed == 3


def test_the_progress_says_live_pairs_have_a_budget(tmp_path, files):
    class Recorder:
        def __init__(self):
            self.notes = []

        def start(self, what, total):
            pass

        def advance(self, n):
            pass

        def stop(self):
            pass

        def note(self, text):
            self.notes.append(text)

    recorder = Recorder()
    specs = [str(files / "randomised.py"), "always_roll:5", "always_roll:6"]
    tournament = small(specs, tmp_path, games=200, seed=3, allow_live=True, live_budget=90)
    tm.run(tournament, progress=recorder)
    assert "1 live strategies: each of their pairs within 90 s" in recorder.notes


def test_a_live_entrant_failing_in_play_is_disqualified(tmp_path, monkeypatch):
    def broken(*args):
        raise StrategyError("flaky.py:final_strategy", "raised RuntimeError: bad luck", args)

    from hogbench.tournament import match

    real_player = match.player_of

    def fake_player(entrant, rules, request=None):
        if entrant.spec.text == "always_roll:3":
            return LivePlayer(lambda: broken)
        return real_player(entrant, rules, request)

    monkeypatch.setattr(match, "player_of", fake_player)
    slots = tm.load_slots(BUILTINS, get_rules("hog-su21", 30))
    slots[0].entrant.table = None  # always_roll:3 now plays live, and fails
    result = tm.run(small(BUILTINS, tmp_path, games=20), slots=slots)
    assert [s.spec for s in result.disqualified] == ["always_roll:3"]
    assert "bad luck" in result.disqualified[0].disqualified
    assert len(result.active) == 3 and len(result.results) == 6
    assert len(result.failures) == 3


def standings_lines(result: tm.TournamentResult) -> list[tuple]:
    return [(s.rank, s.name, s.points, s.win_rate, s.rating) for s in result.standings]


def same_standings(one: tm.TournamentResult, other: tm.TournamentResult) -> bool:
    """The same ranks, names and points, and win rates and ratings equal up to rounding."""
    lines, others = standings_lines(one), standings_lines(other)
    return [line[:3] for line in lines] == [line[:3] for line in others] and all(
        line[3:] == pytest.approx(o[3:], rel=1e-12) for line, o in zip(lines, others, strict=True)
    )


def test_resume_recomputes_nothing_and_adding_one_computes_its_pairs(tmp_path, monkeypatch):
    # A short form of the SIGKILL test: the run stops after two batches (as if killed), the
    # next run computes only the rest.
    specs = [*BUILTINS, "more_boar_strategy", "always_roll:4"]
    full = tm.run(small(specs, tmp_path, store=tmp_path / "full.sqlite"))
    from hogbench.tournament import match

    real = match._dispatch

    def dies_after_two(*args, **kwargs):
        for k, batch in enumerate(real(*args, **kwargs)):
            if k == 2:
                raise KeyboardInterrupt
            yield batch

    monkeypatch.setattr(match, "_dispatch", dies_after_two)
    with pytest.raises(KeyboardInterrupt):
        tm.run(small(specs, tmp_path), batch_size=1)
    monkeypatch.setattr(match, "_dispatch", real)
    resumed = tm.run(small(specs, tmp_path))
    assert (resumed.stored, resumed.computed) == (2, 13)
    # Pairs computed one by one and in a batch sum their outcomes in another order: their
    # values may differ in the last bit, and so the ratings fitted to them.
    assert same_standings(resumed, full)
    again = tm.run(small(specs, tmp_path))
    assert (again.stored, again.computed) == (15, 0)
    bigger = tm.run(small([*specs, "always_roll:2"], tmp_path))
    assert (bigger.stored, bigger.computed) == (15, 6)


def test_changing_a_submission_computes_only_its_pairs(tmp_path, files):
    sub = write(tmp_path / "sub.py", (files / "good_su21.py").read_text())
    specs = [str(sub), *BUILTINS]
    assert tm.run(small(specs, tmp_path)).computed == 10
    write(sub, (files / "good_su21.py").read_text().replace("else 5", "else 4"))
    changed = tm.run(small(specs, tmp_path))
    assert (changed.stored, changed.computed) == (6, 4)


@pytest.mark.parametrize(
    ("rules_name", "specs"),
    [
        ("hog-su21", ("always_roll:4", "always_roll:6")),  # rows, a grid of pairs
        ("hog-fa19", ("always_roll:4", "always_roll:6")),  # memories
        ("pig", ("hold_at:10", "hold_at:20")),  # whole turns, tables as kept (int8)
    ],
)
@pytest.mark.parametrize("exact_pair", [True, False])
def test_a_batch_takes_read_only_tables(rules_name, specs, exact_pair):
    """joblib memory-maps large arrays and Dask may deserialise them in place: read-only
    tables are played as they are, by every engine, and give the values of writable ones."""
    rules = get_rules(rules_name, 30)
    a, b = (load_entrant(s, rules) for s in specs)
    key = tm.pair_key(rules.key, a.key, b.key, exact_pair, 0, 400)
    results = []
    for writeable in (True, False):
        players = {}
        for entrant in (a, b):
            table = entrant.table.choices.copy()
            table.flags.writeable = writeable
            players[entrant.key] = DecisionTable.from_choices(rules, table)
        (result,) = tm.play_batch(rules, players, [key])
        assert isinstance(result, PairResult) and 0 < result.first < 1
        results.append((result.first, result.second))
    assert results[0] == results[1]


def test_a_whole_turn_batch_meets_its_opponents_in_blocks(monkeypatch):
    """Pig keeps a few tables' turn rows: a batch gives each entrant a block of opponents at a
    time, so a table's turns are made about once per block, not once per pair, and the values
    are the pair-by-pair ones."""
    from hogbench import exact
    from hogbench.exact import turns

    rules = get_rules("pig", 30)
    entrants = [load_entrant(f"hold_at:{n}", rules) for n in (5, 8, 10, 12, 15, 18, 20, 25)]
    players = {e.key: e.table for e in entrants}
    # A tile of the pair matrix, as make_batches cuts: four entrants against four others.
    keys = [
        PairKey(rules.key, a.key, b.key, "exact", 0, 0) for a in entrants[:4] for b in entrants[4:]
    ]
    assert exact.opponents_at_once(rules) >= 10  # the real budget keeps every table here
    sizes = [turns._size(turns.turn_rows(rules, exact.table_policy(rules.model, e.table.choices)))
             for e in entrants]  # fmt: skip
    monkeypatch.setattr(turns, "KEPT_BYTES", 4 * max(sizes))  # 4 tables kept
    made = []
    real = turns._turn_rows
    monkeypatch.setattr(turns, "_turn_rows", lambda *args: made.append(1) or real(*args))

    def play(at_once):
        monkeypatch.setattr(turns, "opponents_at_once", lambda model: at_once)
        turns._turns(rules.model).kept.clear()
        made.clear()
        return {r.key: r for r in tm.play_batch(rules, players, keys)}, len(made)

    results, in_blocks = play(2)
    _, all_at_once = play(len(entrants))
    # Four tables kept: in blocks of two, each opponent's turns are made once and each
    # entrant's once a block; all at once, entrants cycle through four opponents and most
    # turns are made again (in a 32 by 32 tile of Big Pig, 1056 against 160).
    assert in_blocks == 4 + 4 * 2 < all_at_once
    assert len(results) == len(keys) == 16
    for key in keys:
        want = exact.evaluate(rules, players[key.a].choices, players[key.b].choices)
        assert results[key].first == pytest.approx(want.first, abs=1e-12)
        assert results[key].second == pytest.approx(want.second, abs=1e-12)


def test_batches_send_each_table_once_and_tile_the_matrix():
    keys = [PairKey("r", f"{i:03}", f"{j:03}", "exact", 0, 0) for i in range(20) for j in range(i)]
    batches = tm.make_batches(keys, {"005"}, 16)
    assert sum(map(len, batches)) == len(keys)
    live = [b for b in batches if any("005" in (k.a, k.b) for k in b)]
    assert all(len(b) == 1 for b in live) and len(live) == 19
    tiled = [b for b in batches if len(b) > 1]
    assert max(map(len, tiled)) == 16
    assert max(len({k.a for k in b} | {k.b for k in b}) for b in tiled) <= 8
    # In the order of the tiles and of the keys within each, whatever the order given.
    assert tm.make_batches(random.Random(1).sample(keys, len(keys)), {"005"}, 16) == batches
    assert [k for b in tiled for k in b] == sorted(
        (k for b in tiled for k in b), key=lambda k: (int(k.a) // 4, int(k.b) // 4, k.a, k.b)
    )


@pytest.mark.parametrize(("rules_name", "size"), [("hog-su21", 1024), ("big-pig", 25)])
def test_a_batch_carries_a_bounded_weight_of_tables(rules_name, size):
    """A class's batches are as large as the engine likes, but a tile's tables stay within
    MAX_BATCH_TABLE_BYTES: Big Pig's 2.3 MB tables come ten at a time."""
    rules = get_rules(rules_name)
    table_bytes = int(np.prod(rules.obs_shape))
    assert tm.auto_batch_size(499_500, 2, table_bytes) == size
    side = math.isqrt(size)
    assert 2 * side * table_bytes <= tm.MAX_BATCH_TABLE_BYTES
    assert tm.auto_batch_size(10, 2, table_bytes) == 2  # few pairs: four batches per worker


@pytest.mark.slow  # a Dask cluster's start: 4 s CPU, 28 s wall
def test_dask_cluster_gives_the_local_standings(tmp_path):
    distributed = pytest.importorskip("distributed")
    specs = [*BUILTINS, "more_boar_strategy"]
    local = tm.run(small(specs, tmp_path, store=tmp_path / "local.sqlite"))
    # Worker processes, not threads: pairs travel pickled, as to a real cluster.
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = tm.run(
            small(specs, tmp_path, store=tmp_path / "dask.sqlite"),
            jobs=2,
            backend="dask",
            scheduler=cluster.scheduler_address,
            batch_size=2,
        )
    assert remote.computed == 10
    assert standings_lines(remote) == standings_lines(local)


def test_an_unknown_backend_is_a_clear_error(tmp_path):
    with pytest.raises(UsageError, match="--backend must be one of local, dask, got 'ray'"):
        tm.run(small(BUILTINS, tmp_path), backend="ray")


# -- gauntlet and the command line ---------------------------------------------------------------
def test_gauntlet_against_a_field(tmp_path, files):
    crash = write(tmp_path / "crash.py", CRASHES)
    rules = get_rules("hog-su21", 30)
    me, rows = tm.gauntlet(rules, "piggypoints_strategy", ["always_roll:3", str(crash)])
    assert me.name == "piggypoints_strategy"
    assert rows[0].result.exact and rows[0].beats and rows[0].result.win_rate > 0.5
    assert rows[1].result is None and rows[1].problem  # disqualified, with the reason


def test_cli_gauntlet_json(files):
    result = runner.invoke(
        app,
        ["gauntlet", str(files / "good_su21.py"), "-a", "always_roll:6", "always_roll:0", "--json"],
    )
    assert result.exit_code == 0, result.output
    import json

    data = json.loads(result.stdout)
    assert data["strategy"] == "Test Team" and len(data["opponents"]) == 2
    assert {o["name"] for o in data["opponents"]} == {"always_roll:6", "always_roll:0"}
    assert all(o["mode"] == "exact" for o in data["opponents"])


def test_cli_tournament_prints_standings_and_matrix(tmp_path, files):
    args = ["tournament", *BUILTINS, str(files / "good_su21.py"), "--goal", "30"]
    args += ["--store", str(tmp_path / "s.sqlite"), "-j", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    for word in ("rank", "points", "rating", "Test Team", "always_roll:5", "win rate of the row"):
        assert word in result.stdout
    assert "10 pairs computed" in result.stderr
    bad = runner.invoke(app, ["tournament", "always_roll:6", "always_rol:5", *args[-4:]])
    assert bad.exit_code == 2 and "always_rol" in bad.stderr


def test_cli_tournament_json_is_the_results_document(tmp_path, files):
    """--json prints what results.json holds (from the store, here), and no tables."""
    import json

    args = ["tournament", *BUILTINS, str(files / "good_su21.py"), "--goal", "30"]
    args += ["--store", str(tmp_path / "s.sqlite"), "-j", "1", "--out", str(tmp_path / "out")]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data == json.loads((tmp_path / "out" / "results.json").read_text())
    assert "Test Team" in {e["name"] for e in data["standings"]}


def hogbench(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "hogbench", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=kw.get("cwd", ROOT),
        env={**os.environ, "COLUMNS": "120"},
    )


def stored(path: Path) -> int:
    try:
        with sqlite3.connect(path, timeout=0.1) as db:
            return db.execute("SELECT COUNT(*) FROM pairs").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet, or locked by the writer this instant
        return 0


def test_a_real_run_writes_the_reports(tmp_path):
    out = tmp_path / "out"
    run = hogbench(
        "tournament", *BUILTINS, "--goal", "30", "--store", str(tmp_path / "s.sqlite"),
        "--out", str(out),
    )  # fmt: skip
    stdout, stderr = run.communicate(timeout=300)
    assert run.returncode == 0, stderr
    assert "piggypoints_strategy" in stdout and "6 pairs computed" in stderr
    assert (out / "index.html").is_file() and (out / "standings.csv").is_file()


@pytest.mark.slow
def test_resume_after_sigkill_of_a_real_process(tmp_path):
    specs = ["always_roll:2", "always_roll:4", *BUILTINS, "more_boar_strategy"]  # 21 pairs
    toml = write(
        tmp_path / "t.toml",
        'mode = "mc"\ngames = 30000\nseed = 5\nentrants = ['
        + ", ".join(f'"{s}"' for s in specs)
        + "]\n",
    )
    common = ["tournament", str(toml), "-j", "1", "--batch-size", "1", "--store"]
    reference = hogbench(*common, str(tmp_path / "reference.sqlite"))
    killed = hogbench(*common, str(tmp_path / "s.sqlite"))
    deadline = time.monotonic() + 120
    while stored(tmp_path / "s.sqlite") < 3 and killed.poll() is None:
        assert time.monotonic() < deadline, "no pair was stored"
        time.sleep(0.02)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    done = stored(tmp_path / "s.sqlite")
    assert 3 <= done < 21, f"the run was not killed halfway ({done} pairs stored)"
    resumed = hogbench(*common, str(tmp_path / "s.sqlite"))
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert f"{21 - done} pairs computed" in err and f"{done} from the store" in err
    ref_out, ref_err = reference.communicate(timeout=300)
    assert reference.returncode == 0, ref_err
    assert out == ref_out  # byte-identical standings and matrix
    third = hogbench(*common, str(tmp_path / "s.sqlite"))
    third_out, third_err = third.communicate(timeout=300)
    assert third_out == ref_out and "0 pairs computed" in third_err


def test_demo_tournament_loads():
    t = tm.load_source([str(ROOT / "tournaments" / "demo.toml")])
    assert t.rules.name == "hog-su21" and len(t.entrants) >= 20
    assert any("random_roller" in e for e in specs(t))


@pytest.mark.parametrize(
    "setup, args, words",
    [
        (lambda d: (d / "bad.sqlite").write_text("garbage"), ["--store", "bad.sqlite"],
         "not a usable hogbench results store"),
        (lambda d: (d / "folder").mkdir(), ["--store", "folder"], "is a folder"),
        (lambda d: (d / "file").write_text("x"), ["--out", "file"], "is a file"),
        (lambda d: (d / "out" / "index.html").mkdir(parents=True), ["--out", "out"],
         "index.html is a folder"),
        (lambda d: None, ["--batch-size", "-3"], "--batch-size must be at least 1"),
    ],
)  # fmt: skip
def test_bad_store_and_output_paths_are_one_line_before_any_work(
    tmp_path, monkeypatch, setup, args, words
):
    monkeypatch.chdir(tmp_path)
    setup(tmp_path)
    extra = [] if "--store" in args else ["--store", "s.sqlite"]
    result = runner.invoke(app, ["tournament", *BUILTINS[:2], *args, *extra])
    assert result.exit_code in (1, 2), result.output
    assert words in result.stderr and "Traceback" not in result.output
    assert "pairs computed" not in result.stderr  # refused before the work


def test_a_missing_tournament_source_is_named(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["tournament", "nosuch_dir"])
    assert (
        result.exit_code == 2 and "nosuch_dir: no such tournament file or folder" in result.stderr
    )


def test_killing_hogbench_kills_its_workers(tmp_path):
    """kill -9 of hogbench leaves no joblib worker running on: a worker that has played a
    batch (``play_batch`` and ``play_block`` call ``die_with_parent`` first) dies with it."""
    script = tmp_path / "parent.py"
    script.write_text(
        "import os, time\n"
        "from joblib import Parallel, delayed\n"
        "from hogbench.processes import die_with_parent\n"
        "def work(_):\n"
        "    die_with_parent()\n"
        "    os.write(1, b'%d\\n' % os.getpid())  # one write: two workers' lines never mix\n"
        "    time.sleep(600)\n"
        "Parallel(n_jobs=2)(delayed(work)(k) for k in range(2))\n"
    )
    parent = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    workers = [int(parent.stdout.readline()) for _ in range(2)]
    assert all(Path(f"/proc/{w}").exists() for w in workers)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while True:
        running = [w for w in workers if _running(w)]
        if not running:
            break
        assert time.monotonic() < deadline, f"joblib workers {running} outlived hogbench"
        time.sleep(0.1)


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_a_live_strategy_over_its_budget_is_disqualified_with_the_reason(tmp_path):
    slow = write(
        tmp_path / "slow.py",
        "import random, time\n\ndef final_strategy(score, opponent_score):\n"
        "    time.sleep(0.0005)\n    return random.randint(3, 6)\n",
    )
    t = small([str(slow), "always_roll:5", "always_roll:6"], tmp_path, games=20_000, seed=1)
    t.allow_live, t.live_budget = True, 0.2
    result = tm.run(t)
    (banned,) = result.disqualified
    assert banned.spec == str(slow) and "budget of 0.2 s for one pair" in banned.disqualified
    assert len(result.active) == 2 and len(result.results) == 2
