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
    grid = sandbox.Grid
    probes = {
        "free_bacon": [grid(((0, 47, 90),))],
        "roll": [grid(((3,), ({"dice": [2, 5]},))), grid(((4,), ({"dice": [6]},)))],
        "bad": [grid(((1, 0),))],
        "shout": [grid(((1,),))],
        "NOT_A_FUNCTION": [grid(((1,),))],
        "absent": [grid(((1,),))],
        "every_third": [grid((range(10), range(10)), stride=3)],
    }
    path.write_text(path.read_text() + "def every_third(a, b):\n    return 10 * a + b\n")
    found = sandbox.probe_functions(parse_spec(str(path)), get_rules("hog-su21"), probes)
    assert found["free_bacon"] == [10, 6, 10]
    assert found["roll"] == [2 + 5 + 2, 24]  # the test dice cycle, fresh for every call
    assert found["every_third"] == list(range(0, 100, 3))
    assert found["bad"] == [1, sandbox.Raised("ZeroDivisionError")]
    assert repr(found["shout"][0]).startswith("[1, 1")  # a short repr, not a megabyte
    assert set(found) == {"free_bacon", "roll", "bad", "shout", "every_third"}
