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
