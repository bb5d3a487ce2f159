"""The disk cache: where it lives, that it stays under its cap (least recently used first), that
entries are compact and read back exactly, and that `hogbench cache` shows and clears it."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from hogbench import cache
from hogbench.cli import app


@pytest.fixture
def root(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(cache.CAP_ENV, raising=False)
    return tmp_path / "cache"


def test_the_variable_wins_else_the_platforms_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "mine"))
    assert cache.cache_root() == tmp_path / "mine"
    monkeypatch.delenv(cache.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # what Linux's folder follows
    assert cache.cache_root() == tmp_path / "xdg" / "hogbench"


def test_arrays_come_back_exactly_in_their_own_types_and_smaller(root):
    arrays = {
        "ptr": np.arange(0, 300_000, 3, dtype=np.int64),
        "codes": np.repeat(np.arange(40, dtype=np.int64), 2_500) * 7,
        "negative": np.array([-5, 3, 120], dtype=np.int64),
        "p": np.linspace(0, 1, 1000),
        "start": np.int64(123),
    }
    path = root / "rows" / "x.npz"
    cache.save_arrays(path, **arrays)
    back = cache.load_arrays(path)
    for name, array in arrays.items():
        assert back[name].dtype == np.asarray(array).dtype and np.array_equal(back[name], array)
    raw = sum(np.asarray(a).nbytes for a in arrays.values())
    assert path.stat().st_size < raw / 4


def test_mapped_arrays_come_back_exactly_as_read_only_views_of_the_file(root):
    arrays = {
        "order": np.arange(7, dtype=np.int64),
        "to": np.array([3, 1, 4, 1, 5], dtype=np.int32),
        "flags": np.array([1, 0, 1], dtype=np.uint8),  # makes the next field need padding
        "p": np.linspace(0, 1, 1000),
        "empty": np.zeros(0, dtype=np.int64),
    }
    path = root / "rows" / "x.npy"
    cache.save_mapped(path, **arrays)
    back = cache.load_mapped(path)
    assert list(back) == list(arrays)
    for name, array in arrays.items():
        assert back[name].dtype == array.dtype and np.array_equal(back[name], array)
        assert not back[name].flags.writeable and back[name].flags.aligned
    np.save(root / "rows" / "plain.npy", np.arange(3))  # an entry that is not a record
    with pytest.raises(ValueError):
        cache.load_mapped(root / "rows" / "plain.npy")


def test_past_the_cap_the_least_recently_used_go_first(root, monkeypatch):
    monkeypatch.setenv(cache.CAP_ENV, "0.85")  # MB: four entries fit, five do not
    rng = np.random.default_rng(0)
    paths = []
    for k in range(4):  # ~190 KB each once compressed (random floats do not compress)
        path = root / "rows" / f"{k}.npz"
        cache.save_arrays(path, p=rng.random(24_000))
        os.utime(path, (time.time() - 100 + k, time.time() - 100 + k))
        paths.append(path)
    cache.load_arrays(paths[0])  # used just now: it stays
    cache.save_arrays(root / "rows" / "new.npz", p=rng.random(24_000))
    kept = {p.name for p, _ in cache.entries()}
    assert "0.npz" in kept and "new.npz" in kept and "1.npz" not in kept
    assert sum(info.st_size for _, info in cache.entries()) <= cache.cap_bytes()


def test_small_writes_far_below_the_cap_do_not_look_at_every_entry(root, monkeypatch):
    """Loading a class writes an entry per submission: looking at the whole cache after each
    made that quadratic. Far below the cap it looks once, then again only near the cap."""
    looked = []
    entries = cache.entries
    monkeypatch.setattr(cache, "entries", lambda *a: looked.append(1) or entries(*a))
    monkeypatch.setattr(cache, "_size_seen", None)
    for k in range(50):
        cache.write_sealed(root / "tables" / f"{k}.json", str(k), {"choices": [k]})
    assert len(looked) == 1
    monkeypatch.setenv(cache.CAP_ENV, str(sum(i.st_size for _, i in entries()) / 2**20))
    cache.write_sealed(root / "tables" / "last.json", "last", {"choices": []})
    assert len(looked) == 2  # at the cap now: it looks, and the oldest entry goes
    assert sum(info.st_size for _, info in entries()) <= cache.cap_bytes()


def test_a_vanished_entry_is_a_miss_not_a_crash(root):
    with pytest.raises(OSError):
        cache.load_arrays(root / "rows" / "gone.npz")
    assert cache.enforce_cap(0) == 0  # nothing there, nothing to do


def test_cache_info_and_clear_through_the_cli(root):
    cache.save_arrays(root / "rows" / "a.npz", x=np.arange(10))
    cache.write_sealed(root / "tables" / "b.json", "b", {"choices": [1, 2]})
    runner = CliRunner()
    info = json.loads(runner.invoke(app, ["cache", "info", "--json"]).stdout)
    assert info["path"] == str(root) and info["entries"] == 2
    assert set(info["kinds"]) == {"rows", "tables"} and info["cap_bytes"] == 500 * 2**20
    cleared = json.loads(runner.invoke(app, ["cache", "clear", "--json"]).stdout)
    assert cleared["entries"] == 2 and cleared["bytes"] > 0
    assert cache.entries() == [] and (root / cache.SECRET).exists()  # the key stays
    shown = runner.invoke(app, ["cache", "info"]).stdout
    assert "total 0.0 MB of 500.0 MB" in shown


@pytest.mark.parametrize(
    ("rules_name", "source"),
    [
        ("hog-su21", "def final_strategy(score, opponent_score):\n    return 4 + score % 3\n"),
        ("pig", "def strategy(score, opponent_score, turn_total):\n    return turn_total < 20\n"),
        ("greed", "def myStrategy(myscore, theirscore, last):\n    return 0 if last else 3\n"),
    ],
)
def test_a_file_is_judged_once_then_read_from_the_cache(
    root, tmp_path, monkeypatch, rules_name, source
):
    """Every game's verdict is kept: the second load runs no worker (Pig's tables hold the
    engine's 0 and 1, which are not answers a Pig strategy may give, and were once judged
    again as answers, so a Pig or Big Pig file was never read back)."""
    from hogbench import sandbox
    from hogbench.loading import load_entrant
    from hogbench.rules import get_rules

    path = tmp_path / "player.py"
    path.write_text(source)
    rules = get_rules(rules_name, 30)
    first = load_entrant(str(path), rules)

    def no_worker(*args, **kwargs):
        raise AssertionError("a worker ran for a file whose verdict is cached")

    monkeypatch.setattr(sandbox, "collect_answers", no_worker)
    again = load_entrant(str(path), rules)
    assert np.array_equal(first.table.choices, again.table.choices)


def test_an_exact_duel_is_kept_and_read_back_the_next_time(root):
    """A student runs the same exact duel again: the values come from the cache, the same to
    the last bit, and say so; another pair or another rule set is computed."""
    runner = CliRunner()

    def duel(*args: str) -> dict:
        result = runner.invoke(app, ["duel", *args, "--exact", "--json"])
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    pair = ("always_roll:4", "always_roll:6", "--rules", "hog-su20")
    first = duel(*pair)
    again = duel(*pair)
    assert (first["kept_from_earlier_run"], again["kept_from_earlier_run"]) == (False, True)
    for key in ("win_rate", "first", "second"):
        assert again[key] == first[key]
    assert (
        duel("always_roll:4", "always_roll:5", "--rules", "hog-su20")["kept_from_earlier_run"]
        is False
    )
    assert (
        duel("always_roll:4", "always_roll:6", "--rules", "hog-fa19")["kept_from_earlier_run"]
        is False
    )
    endless = duel("always_roll:0", "always_roll:6", "--rules", "hog-sp22")  # may never end
    kept = duel("always_roll:0", "always_roll:6", "--rules", "hog-sp22")
    assert kept["kept_from_earlier_run"] and kept["never_ends"] == endless["never_ends"]


def test_an_entry_is_keyed_on_every_module_of_the_rule_sets_class(root, monkeypatch):
    """hog-su20's turn lives in the Feral Hogs kit, built on the swap kit: a change there must
    not read entries made before it. The cache takes the rule set's identity, a plain string
    whose digest covers every module of its class."""
    from hogbench.rules import base, get_rules

    read = []
    real = Path.read_bytes
    base._class_source_digest.cache_clear()
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self.name) or real(self))
    identity = get_rules("hog-su20").identity
    base._class_source_digest.cache_clear()
    assert {"hog_su20.py", "_feral_term.py", "_swap_term.py", "base.py"} <= set(read)
    assert isinstance(identity, str) and identity.startswith("hog-su20:goal=100:")
    made = ("hogbench.simulate",)
    entry = cache.table_entry("x", identity, np.arange(3), made_by=made)
    assert entry == cache.table_entry("x", identity, np.arange(3), made_by=made)
    assert entry != cache.table_entry("x", identity + "0", np.arange(3), made_by=made)


def test_a_large_rule_sets_built_ins_are_made_once(root, monkeypatch):
    """Big Pig's built-in tables (2.3 million calls, 2 s each) are kept: the second load reads
    the same table from the cache and calls the strategy nowhere; a small rule set's are made
    in-process every time, without an entry."""
    from hogbench import loading
    from hogbench.rules import get_rules

    rules = get_rules("big-pig")
    made = loading.load_entrant("hold_at:20", rules).table
    assert list((root / "builtin-tables").iterdir())

    def refuse(*args):
        raise AssertionError("made again")

    monkeypatch.setattr(loading, "tabulate", refuse)
    kept = loading.load_entrant("hold_at:20", rules).table
    assert kept.hash == made.hash and np.array_equal(kept.choices, made.choices)
    with pytest.raises(AssertionError, match="made again"):  # another built-in is made
        loading.load_entrant("hold_at:25", rules)
    with pytest.raises(AssertionError, match="made again"):  # and a small rule set's always
        loading.load_entrant("always_roll:4", get_rules("hog-su21"))
