"""A file's term from what its course functions do, and a check of those functions."""

from __future__ import annotations

from hogbench import sandbox
from hogbench.entrants import parse_spec
from hogbench.rules import get_rules


def test_the_worker_probes_named_functions_and_returns_bounded_data(tmp_path):
    """Probing calls only what was named, passes test dice, and reports what raised as data."""
    path = tmp_path / "hog.py"
    path.write_text(
        "def free_bacon(score):\n    return 10 - min(score % 10, score // 10 % 10)\n\n"
        "def roll(n, dice):\n    return sum(dice() for _ in range(n))\n\n"
        "def bad(x):\n    return 1 // x\n\n"
        "def shout(x):\n    return [x] * 10**6\n\n"
        "NOT_A_FUNCTION = 3\n"
    )
    probes = {
        "free_bacon": [[0], [47], [90]],
        "roll": [[3, {"dice": [2, 5]}], [4, {"dice": [6]}]],
        "bad": [[1], [0]],
        "shout": [[1]],
        "NOT_A_FUNCTION": [[1]],
        "absent": [[1]],
    }
    found = sandbox.probe_functions(parse_spec(str(path)), get_rules("hog-su21"), probes)
    assert found["free_bacon"] == [10, 6, 10]
    assert found["roll"] == [2 + 5 + 2, 24]  # the test dice cycle, fresh for every call
    assert found["bad"] == [1, sandbox.Raised("ZeroDivisionError")]
    assert repr(found["shout"][0]).startswith("[1, 1")  # a short repr, not a megabyte
    assert set(found) == {"free_bacon", "roll", "bad", "shout"}
