"""A failure in play belongs to the entrant that failed, by identity, never by its name.

The attack: ``vic.py_evil.py`` fails in live play; its spec contains the honest ``vic.py``'s.
Matching names as text would disqualify the victim too.
"""

from __future__ import annotations

import pickle
from pathlib import Path

from hogbench import tournament as tm
from hogbench.errors import StrategyError
from hogbench.rules import get_rules

HONEST = (
    "import random\n\ndef final_strategy(score, opponent_score):\n    return random.randint(3, 6)\n"
)
#: Fails only in play: making a table asks each of hog-su21-to-30's 900 states once a pass.
EVIL = (
    "import random\n\ncalls = 0\n\n"
    "def final_strategy(score, opponent_score):\n"
    "    global calls\n"
    "    calls += 1\n"
    "    if calls > 2500:\n"
    "        raise RuntimeError('fail in play')\n"
    "    return random.randint(3, 6)\n"
)


def _run(folder: Path, specs: list[str], store: Path) -> tm.TournamentResult:
    t = tm.Tournament("t", get_rules("hog-su21", 30), specs, games=4000, seed=5, store=store)
    t.allow_live = True
    return tm.run(t)


def test_a_failure_is_charged_to_the_failing_entrant_not_to_one_whose_name_it_contains(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "vic.py").write_text(HONEST)
    (tmp_path / "vic.py_evil.py").write_text(EVIL)
    specs = ["vic.py", "vic.py_evil.py", "always_roll:5"]
    result = _run(tmp_path, specs, tmp_path / "with.sqlite")
    assert [s.spec for s in result.disqualified] == ["vic.py_evil.py"]
    assert "fail in play" in result.disqualified[0].disqualified
    assert [s.spec for s in result.active] == ["vic.py", "always_roll:5"]
    # The victim's result is the one of a run without the attacker.
    alone = _run(tmp_path, ["vic.py", "always_roll:5"], tmp_path / "without.sqlite")
    assert result.results[0, 1].win_rate == alone.results[0, 1].win_rate


def test_a_strategy_error_keeps_its_identity_across_processes():
    exc = StrategyError("a.py:final_strategy", "raised", (1, 2), "trace", entrant="live-abc")
    back = pickle.loads(pickle.dumps(exc))
    assert (back.where, back.problem, back.state, back.detail, back.entrant) == (
        "a.py:final_strategy",
        "raised",
        (1, 2),
        "trace",
        "live-abc",
    )
    assert str(back) == str(exc)


#: Answers slowly: half a millisecond a call, seconds for the first look's 1,000 game pairs.
SLOW = (
    "import random, time\n\ndef final_strategy(score, opponent_score):\n"
    "    time.sleep(0.0005)\n    return random.randint(3, 6)\n"
)


def _budgeted(specs: list[str], store: Path) -> tm.TournamentResult:
    t = tm.Tournament("t", get_rules("hog-su21", 30), specs, games=4000, seed=5, store=store)
    t.allow_live, t.live_budget = True, 1.0
    return tm.run(t)


def test_a_slow_live_file_spends_its_own_budget_not_its_live_partners(tmp_path, monkeypatch):
    """Both live: the honest file's own answering takes a few hundredths of a second of the
    pair, the slow one's seconds. Only the slow one is over the budget; before, a pair of two
    live files over the budget together disqualified both."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "honest.py").write_text(HONEST)
    (tmp_path / "slow.py").write_text(SLOW)
    for specs in (["slow.py", "honest.py"], ["honest.py", "slow.py"]):  # either seat
        result = _budgeted(specs, tmp_path / f"{specs[0]}.sqlite")
        assert [s.spec for s in result.disqualified] == ["slow.py"], result.failures
        reason = result.disqualified[0].disqualified
        assert "budget of 1 s for one pair" in reason and "of its own answering" in reason
        assert [s.spec for s in result.active] == ["honest.py"]


def test_two_slow_live_files_are_each_charged_for_their_own_time(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "slow.py").write_text(SLOW)
    (tmp_path / "slow_too.py").write_text(SLOW.replace("0.0005", "0.0006"))
    result = _budgeted(["slow.py", "slow_too.py"], tmp_path / "store.sqlite")
    assert sorted(s.spec for s in result.disqualified) == ["slow.py", "slow_too.py"]
    assert "each over it on its own" in result.disqualified[0].disqualified


def test_a_failure_charged_to_two_keeps_both_across_processes():
    exc = StrategyError("played live", "over", entrant="live-a", also=("live-b",))
    back = pickle.loads(pickle.dumps(exc))
    assert (back.entrant, back.also) == ("live-a", ("live-b",))
