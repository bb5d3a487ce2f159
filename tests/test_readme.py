"""Every hogbench command the README shows runs, as shown, and prints what the README says.

Each command has one fact of its output checked (``FACTS``): a line the README's sample output
shows, or the result the text around it promises. The commands run in a copy of the bundled
strategies and tournaments, so the files they write (reports, exported strategies, plots) land
in a temporary folder. The tables of the README are compared with the code: the tournament
file's keys with its one settings schema, the rule sets with the registry.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hogbench import sandbox

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
#: Commands inside the README's code blocks; comments after them are cut.
COMMANDS = [
    re.split(r"\s+#", line)[0].strip()
    for block in re.findall(r"```[a-z]*\n(.*?)```", README, flags=re.S)
    for line in block.splitlines()
    if line.startswith("hogbench ")
]
#: The README's first command: it must run where bubblewrap is missing (macOS, a bare Linux).
FIRST = "hogbench tournament tournaments/demo.toml"
#: The demo's planted faults, each disqualified with its reason.
PLANTED = {
    "buggy_eleven.py": "returned 11",
    "crashes.py": "ZeroDivisionError",
    "forgot_return.py": "returned None",
    "slowpoke.py": "timed out",
}


def _json(key: str, check: Callable[[Any], bool]) -> Callable[[str], bool]:
    """A fact about the JSON document a command prints: CHECK(document[KEY])."""

    def fact(stdout: str) -> bool:
        return check(json.loads(stdout)[key])

    fact.__doc__ = f"its JSON's {key}"
    return fact


def _holds(*texts: str) -> Callable[[str], bool]:
    """Facts that go together: stdout holds each of TEXTS."""

    def fact(stdout: str) -> bool:
        return all(text in stdout for text in texts)

    fact.__doc__ = f"stdout holds each of {texts}"
    return fact


#: Command -> the one fact of its output that is checked: text its stdout and stderr must hold,
#: or a function of its stdout. Exit codes other than 0 are in EXIT.
FACTS: dict[str, str | Callable[[str], bool]] = {
    # For students
    "hogbench check strategies/hog_su21/final.py": (
        "valid: strategies/hog_su21/final.py:final_strategy answers all 10000 states"
    ),
    "hogbench duel strategies/hog_su21/final.py --exact": "│ average  │ 59.6925% │",
    "hogbench gauntlet strategies/hog_su21/final.py --against 'strategies/hog_su21/*.py'": (
        "crashes: at (40, 50): raised ZeroDivisionError"
    ),
    # For TAs
    "hogbench tournament tournaments/example_class/subs --rules hog-su21 --roster"
    " tournaments/example_class/roster.csv --out results/class": _holds(
        "More Boar 8/6 (bob, hana)", "on the roster with no submission: grace"
    ),
    "hogbench tournament strategies/hog_contest/ --rules hog-contest --backend dask --jobs 2"
    " --out results/dask": "reports: results/dask/standings.csv",
    "hogbench tournament strategies/hog_contest/ --rules hog-contest --roster"
    " tournaments/contest_roster.csv --out results/contest --matrix wlt": (
        "wins/losses/ties of the row against the column"
    ),
    "hogbench gauntlet always_roll:6 --against strategies/hog_su21/random_roller.py --allow-live"
    " --sprt 0.45,0.55 -n 20000": "beats 1 of 1",
    # Untrusted code
    "hogbench check strategies/hog_su21/random_roller.py --rules hog-contest": (
        "is not deterministic"
    ),
    "hogbench check strategies/hog_su21/final.py --require-sandbox": "valid:",
    # Duels
    "hogbench duel strategies/hog_su21/final.py always_roll:6 -n 100000": "│ total    │ 100,000 │",
    "hogbench duel always_roll:4 always_roll:6 --rules hog-su20 -n 1000000 --seed 7 --jobs 2"
    " --json": _json("games", lambda games: games == 1_000_000),
    "hogbench duel always_roll:5 always_roll:6 --until-decided -n 2000000": "decided: above",
    "hogbench duel always_roll:5 always_roll:6 --sprt 0.5,0.52 -n 2000000": "SPRT accepts",
    # Watch, play
    "hogbench watch strategies/hog_su21/final.py always_roll:6 --seed 3": "· seed 3",
    "hogbench play strategies/hog_su21/final.py --rules hog-contest": "rules: hog-contest",
    "hogbench play hold_at:20 --rules pig": "hold",
    # Optimal play
    "hogbench solve --export optimal.py": "strategy written to optimal.py",
    "hogbench solve --rules hog-su20 --against swap_strategy": "best response to swap_strategy",
    "hogbench analyze strategies/hog_su21/final.py --against always_roll:6 --png loss.png": (
        "heatmap written to loss.png"
    ),
    "hogbench show optimal.py --png optimal.png": "optimal.png",
    # Experiments, cache
    "hogbench experiment max-scoring-num-rolls --dice four -n 10000": "max_scoring_num_rolls: 4",
    "hogbench experiment win-rate strategies/hog_su21/final.py --baseline always_roll:6": (
        "average_win_rate(Boar Necessities, baseline=always_roll:6)"
    ),
    "hogbench new --rules hog-contest my_hog.py": "wrote my_hog.py",
    "hogbench experiment test-strat strategies/greed/test06_half_the_room.py": "test strategies",
    "hogbench cache info": "least recently used entries go first",
}
#: Exit codes other than 0 (check exits 1 for an invalid file, as documented).
EXIT = {"hogbench check strategies/hog_su21/random_roller.py --rules hog-contest": 1}
#: Commands that read what an earlier one writes. Tests run on several workers, in any order, so
#: where the earlier one has not run in this worker's folder, it runs first.
NEEDS = {"hogbench show optimal.py --png optimal.png": "hogbench solve --export optimal.py"}
#: Commands that need a working bubblewrap (a class's submissions, or asking for it).
NEED_BWRAP = {"hogbench check strategies/hog_su21/final.py --require-sandbox"}


def test_every_command_shown_has_a_fact_checked():
    shown = set(COMMANDS) - {FIRST}
    assert not shown - set(FACTS), f"commands without a fact checked: {shown - set(FACTS)}"
    assert not set(FACTS) - shown, f"facts of commands no longer shown: {set(FACTS) - shown}"


@pytest.fixture(scope="session")
def workdir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("readme")
    for name in ("strategies", "tournaments"):
        shutil.copytree(ROOT / name, folder / name)
    return folder


def _run(command: str, workdir: Path, hide_bwrap: bool = False) -> subprocess.CompletedProcess:
    args = shlex.split(command)[1:]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    if hide_bwrap:  # a PATH with nothing on it: hogbench runs as sys.executable anyway
        empty = workdir / "empty-path"
        empty.mkdir(exist_ok=True)
        env["PATH"] = str(empty)
    return subprocess.run(
        [sys.executable, "-m", "hogbench", *args],
        cwd=workdir,
        env=env,
        input="y\n" + "4\nr\nh\n" * 60,  # for play: go first, then moves (EOF ends a game)
        capture_output=True,
        text=True,
        timeout=900,  # the demo, cold, on a 2-core machine busy with other work: 6 minutes seen
    )


@pytest.mark.slow  # 16 s CPU: the whole demo tournament
def test_the_first_command_runs_without_bubblewrap(workdir):
    """Every planted fault is still disqualified with its reason, and one line says why the
    demo may run without the sandbox."""
    first_block = re.search(r"```[a-z]*\n(.*?)```", README, flags=re.S).group(1)
    assert first_block.strip().endswith(f"&& {FIRST}")
    done = _run(FIRST, workdir, hide_bwrap=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "hogbench's own bundled strategy files" in done.stderr
    assert "warning" not in done.stderr
    rows = {line.split("│")[1].strip(): line for line in done.stdout.splitlines() if "│" in line}
    for name, why in PLANTED.items():
        row = rows.get(name.removesuffix(".py"), "")  # an entrant is named by its file's stem
        assert why in row, f"{name}: {row!r}"


_ran: set[str] = set()  # in this worker's folder


#: Commands of 2 to 9 s of CPU each (measured with --cpu-times), left to CI and the full run:
#: the quick run keeps one tournament (the class's, with its roster) and the cheap commands.
SLOW = {
    "hogbench gauntlet strategies/hog_su21/final.py --against 'strategies/hog_su21/*.py'",
    "hogbench duel always_roll:4 always_roll:6 --rules hog-su20 -n 1000000 --seed 7 --jobs 2"
    " --json",
    "hogbench solve --rules hog-su20 --against swap_strategy",
    "hogbench analyze strategies/hog_su21/final.py --against always_roll:6 --png loss.png",
    "hogbench experiment test-strat strategies/greed/test06_half_the_room.py",
}


def _marked(command: str) -> Any:
    slow = command in SLOW or command.startswith("hogbench tournament strategies/hog_contest/")
    return pytest.param(command, marks=pytest.mark.slow) if slow else command


def test_the_slow_commands_are_shown():
    assert SLOW <= set(COMMANDS)


@pytest.mark.parametrize("command", [_marked(c) for c in COMMANDS if c != FIRST])
def test_readme_command_runs_and_says_what_the_readme_says(command, workdir):
    if command in NEED_BWRAP and sandbox.bwrap_path() is None:
        pytest.skip("bubblewrap does not work here")
    if command in NEEDS and NEEDS[command] not in _ran:
        assert _run(NEEDS[command], workdir).returncode == 0
    done = _run(command, workdir)
    _ran.add(command)
    output = done.stdout + done.stderr
    assert done.returncode == EXIT.get(command, 0), output
    assert "Traceback" not in output
    fact = FACTS[command]
    if callable(fact):
        assert fact(done.stdout), f"{fact.__doc__}: {done.stdout[:2000]}"
    else:
        assert fact in output, output[-3000:]


def _section(title: str) -> str:
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _shown_default(value: Any) -> str:
    """A default as the README's key table writes it."""
    if value is None:
        return "—"
    if value in ((), [], {}):
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'`"{value}"`' if isinstance(value, str) else f"`{value}`"


def test_the_key_table_is_the_settings_schema():
    """Every tournament-file key, its command-line option and its default, as the code has them;
    and every option it names is one the tournament command takes."""
    import typer

    from hogbench.cli import app
    from hogbench.tournament.config import SETTINGS

    rows = re.findall(
        r"^\| `(\w+)` \| ([^|]*) \| ([^|]*) \|", _section("The tournament file"), flags=re.M
    )
    shown = {key: re.findall(r"`(-[\w-]+)`", options) for key, options, _ in rows}
    assert shown == {s.key: list(s.flags) for s in SETTINGS}
    defaults = {key: default.strip() for key, _, default in rows}
    assert defaults == {s.key: _shown_default(s.default) for s in SETTINGS}
    command = typer.main.get_command(app).commands["tournament"]
    taken = {flag for param in command.params for flag in param.opts}
    missing = {flag for flags in shown.values() for flag in flags} - taken
    assert not missing, f"options the README names that `tournament` does not take: {missing}"


def test_the_readme_names_every_rule_set_and_the_default():
    """The table of rule sets is where a student looks for their term: none may be missing, and
    the default is the one the code falls back on."""
    from hogbench.rules import DEFAULT_RULES, names

    table = _section("Rule sets")
    missing = [name for name in names() if f"`{name}`" not in table]
    assert not missing, f"rule sets missing from the README's table: {missing}"
    default_rows = [row for row in table.splitlines() if "(default" in row]
    assert len(default_rows) == 1 and f"`{DEFAULT_RULES}`" in default_rows[0]


def _anchor(title: str) -> str:
    """A heading's anchor as GitHub makes it."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def test_the_readme_s_links_lead_somewhere():
    """Internals moved to docs/ARCHITECTURE.md: every link to it, or within the README, lands
    on a heading that exists."""
    for target, anchor in re.findall(r"\]\(([^)#\s]*)(?:#([\w-]+))?\)", README):
        if target.startswith("http"):
            continue
        path = ROOT / target if target else ROOT / "README.md"
        assert path.exists(), target
        if anchor:
            headings = re.findall(r"^#+ (.+)$", path.read_text(), flags=re.M)
            assert anchor in {_anchor(h) for h in headings}, f"{target}#{anchor}"
