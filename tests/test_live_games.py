"""Live strategy files playing whole games: in lockstep, each sandboxed worker answering a
round's decisions at once; failures mid-game charged to the entrant that failed, alone."""

import functools

import pytest

from hogbench import sandbox, simulate
from hogbench.errors import StrategyError
from hogbench.players import LivePlayer
from hogbench.rules import get_rules
from hogbench.tables import DecisionTable
from tests.conftest import FILES


@pytest.fixture
def bwrap(monkeypatch):
    monkeypatch.delenv(sandbox.SANDBOX_ENV, raising=False)
    if sandbox.bwrap_path() is None:
        pytest.skip("bwrap (bubblewrap) is missing or cannot make namespaces here")


def live_file(path, rules, identity, **options):
    opener = functools.partial(sandbox.LiveStrategy, str(path), rules, **options)
    return LivePlayer(opener, identity=identity, takes_seed=True)


def write(path, text):
    path.write_text(text)
    return path


RANDOM_UNTIL = (
    "import random\n\n"
    "def final_strategy(score, opponent_score):\n"
    "    if score >= 20:\n"
    "        {failure}\n"
    "    return random.randint(2, 6)\n"
)


def test_a_live_file_plays_the_same_games_whatever_jobs(bwrap, monkeypatch):
    monkeypatch.setattr(simulate, "BLOCK_GAMES", 2_000)
    rules = get_rules("hog-su21", 40)
    a = live_file(FILES / "randomised.py", rules, "a")
    b = DecisionTable.from_choices(rules, simulate.np.full(40 * 40, 5))
    one = simulate.simulate_pairs(rules, a, b, 5_000, seed=2, jobs=1)
    two = simulate.simulate_pairs(rules, a, b, 5_000, seed=2, jobs=2)
    assert (one == two).all() and one.sum() == 2_500


@pytest.mark.parametrize(
    "failure, reason",
    [
        ("while True: pass", r"timed out: no answer within 0.5 s"),
        ("raise RuntimeError('bad luck')", r"raised RuntimeError: bad luck"),
        ("import os; os._exit(3)", r"exited the interpreter \(exit code 3\)"),
        ("return 11", r"illegal move: returned 11"),
    ],
    ids=["hangs", "raises", "exits", "illegal"],
)
def test_a_live_file_failing_mid_game_is_charged_alone(bwrap, tmp_path, failure, reason):
    """Two live files in lockstep; one fails once its score reaches 20. The failure names that
    file, a state where it happened, and its entrant: never the other one."""
    rules = get_rules("hog-su21", 40)
    (tmp_path / "bad").mkdir()
    (tmp_path / "good").mkdir()
    bad = write(tmp_path / "bad" / "bad.py", RANDOM_UNTIL.format(failure=failure))
    good = write(tmp_path / "good" / "good.py", RANDOM_UNTIL.format(failure="pass"))
    players = [
        live_file(good, rules, "good", decision_time_limit=0.5),
        live_file(bad, rules, "bad", decision_time_limit=0.5),
    ]
    for a, b in (players, players[::-1]):
        with pytest.raises(StrategyError, match=reason) as caught:
            simulate.simulate_pairs(rules, a, b, 2_000, seed=1)
        error = caught.value
        assert error.entrant == "bad" and "bad.py" in str(error)
        assert error.state is not None and error.state[0] >= 20, error.state


def test_two_copies_of_a_random_file_draw_apart(bwrap):
    """Each seat's worker seeds ``random`` on its own: two copies of one random strategy, with
    the dice shared and the seats swapped, would otherwise play mirror games and split every
    game pair 1-1."""
    rules = get_rules("hog-su21", 40)
    copy = live_file(FILES / "randomised.py", rules, "a")
    other = live_file(FILES / "randomised.py", rules, "b")
    joint = simulate.simulate_pairs(rules, copy, other, 2_000, seed=3)
    split = joint[0, 1] + joint[1, 0]  # A won one seating and lost the other
    assert joint.sum() == 1_000 and split < 900, joint


def test_each_block_and_seat_seeds_its_own_worker():
    seeds = [block.seeds for block in simulate.blocks(2 * simulate.BLOCK_GAMES, 7)]
    drawn = {simulate._live_seed(s, seat) for s in seeds for seat in (0, 1)}
    assert len(drawn) == 4
    assert simulate._live_seed(seeds[0], 1) == simulate._live_seed(seeds[0].copy(), 1)


def test_a_live_file_plays_under_the_request_it_was_loaded_under(bwrap, tmp_path):
    """A module the command allowed (--allow-import) is allowed in live play too."""
    from hogbench.duel import run_duel
    from hogbench.loading import load_entrant

    rules = get_rules("hog-su21", 40)
    path = write(
        tmp_path / "allowed.py",
        "import random\nimport rich\n\n"
        "def final_strategy(score, opponent_score):\n    return random.randint(3, 5)\n",
    )
    request = sandbox.Request.of(allow_imports=("rich",))
    mine = load_entrant(str(path), rules, request=request)
    base = load_entrant("always_roll:5", rules, request=request)
    assert not mine.tableable
    result = run_duel(rules, mine, base, 2_000, 1, request=request)
    assert result.to_dict()["games"] == 2_000
