"""hogbench gui without a browser: the token, the 127.0.0.1 binding, what a page may send, and
the hint's numbers against a plain recursion (tests/test_gui_browser.py drives Chromium)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import warnings
from functools import cache
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

with warnings.catch_warnings():  # starlette asks for httpx2 in place of httpx; both work
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from hogbench.gui.app import COOKIE, cookie_name, create_app  # noqa: E402
from hogbench.gui.figures import Library  # noqa: E402
from hogbench.rules import names  # noqa: E402
from tests.reference import roll_distribution  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FINAL = "strategies/hog_su21/final.py"
TOKEN = "a-token-for-tests"


@pytest.fixture
def library(monkeypatch) -> Library:
    monkeypatch.chdir(ROOT)
    return Library("hog-su21", None, (FINAL,))


def client(library: Library, port: int | None = None, host: str = "127.0.0.1") -> TestClient:
    base = f"http://{host}" + (f":{port}" if port else "")
    return TestClient(create_app(library, TOKEN, port), base_url=base, follow_redirects=False)


def signed_in(library: Library) -> TestClient:
    c = client(library)
    c.cookies.set(COOKIE, TOKEN)
    return c


# -- the token ------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/play", "/watch", "/explore", "/duel", "/explore/cell"])
def test_every_page_needs_the_token(library, path):
    c = client(library)
    assert c.get(path).status_code == 403
    assert c.get(path + "?token=wrong").status_code == 403
    c.cookies.set(COOKIE, "wrong")
    assert c.get(path).status_code == 403
    assert c.post("/play", data={"rules": "hog-su21"}).status_code == 403


def test_the_token_in_the_address_becomes_a_strict_cookie(library):
    c = client(library)
    first = c.get("/watch?rules=pig&token=" + TOKEN)
    assert first.status_code == 303
    assert first.headers["location"] == "/watch?rules=pig"  # the token leaves the address bar
    cookie = first.headers["set-cookie"]
    assert f"{COOKIE}={TOKEN}" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert c.get("/").status_code == 200  # the cookie carries it from then on


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1.evil.example", "0.0.0.0"])
def test_only_a_local_host_name_is_served(library, host):
    """A page elsewhere whose name resolves to 127.0.0.1 (DNS rebinding) is refused."""
    c = client(library, host=host)
    c.cookies.set(COOKIE, TOKEN)
    assert c.get("/").status_code == 421


def test_the_port_in_the_host_header_must_be_the_apps(library):
    c = TestClient(create_app(library, TOKEN, 8123), base_url="http://127.0.0.1:9999")
    c.cookies.set(cookie_name(8123), TOKEN)
    assert c.get("/").status_code == 421
    ok = TestClient(create_app(library, TOKEN, 8123), base_url="http://localhost:8123")
    ok.cookies.set(cookie_name(8123), TOKEN)
    assert ok.get("/").status_code == 200


def test_two_apps_at_once_keep_their_own_cookies(library):
    """Cookies are per host, not per port: each app names its cookie after its port, so a
    browser holds both and neither app's pages stop working when the other is opened."""
    one = TestClient(create_app(library, "one", 8123), base_url="http://127.0.0.1:8123")
    two = TestClient(create_app(library, "two", 8124), base_url="http://127.0.0.1:8124")
    names = []
    for client_, token in ((one, "one"), (two, "two")):
        signed = client_.get(f"/?token={token}", follow_redirects=False)
        names.append(signed.headers["set-cookie"].split("=", 1)[0])
    assert names[0] != names[1]
    for client_ in (one, two):  # one browser's jar: both cookies, sent to both apps
        client_.cookies.clear()
        client_.cookies.set(names[0], "one")
        client_.cookies.set(names[1], "two")
    assert one.get("/").status_code == 200 and two.get("/").status_code == 200


def test_a_form_posted_from_another_origin_is_refused(library):
    c = signed_in(library)
    posted = c.post("/play", data={"rules": "hog-su21"}, headers={"origin": "http://evil.example"})
    assert posted.status_code == 403
    same = c.post("/play", data={"rules": "hog-su21"}, headers={"origin": "http://127.0.0.1"})
    assert same.status_code == 303


# -- what a page sends is parsed, never run ----------------------------------------------------------
def test_a_page_cannot_name_a_file_to_load(library, monkeypatch):
    from hogbench import loading

    loaded = []
    real = loading.load_entrant
    monkeypatch.setattr(
        loading, "load_entrant", lambda spec, *a, **k: loaded.append(spec) or real(spec, *a, **k)
    )
    c = signed_in(library)
    for spec in [
        "strategies/hog_su21/always_roll_4.py",  # a file not given on the command line
        "/etc/passwd",
        "../hog.py",
        "x.py:final_strategy",
        "__import__('os').system('touch pwned')",
        "always_roll:6; import os",
        "a" * 500,
    ]:
        page = c.get("/duel", params={"a": spec, "b": "always_roll:6"})
        assert page.status_code == 400, spec
        assert "Traceback" not in page.text
    assert loaded == []
    assert not (ROOT / "pwned").exists()
    given = c.get("/duel", params={"a": FINAL, "b": "always_roll:6"})
    assert given.status_code == 200 and loaded[0] == FINAL


def test_unknown_rules_goals_and_numbers_are_refused_clearly(library):
    c = signed_in(library)
    for params in [
        {"rules": "hog-xx99"},
        {"rules": "../../etc"},
        {"goal": "100; drop"},
        {"goal": "0"},
        {"goal": "99999"},
        {"a": "optimal", "seed": "-1"},
        {"a": "optimal", "games": "1e9"},
        {"a": "unknown_builtin"},
    ]:
        page = c.get("/duel", params=params)
        assert page.status_code == 400, params
        assert 'id="problem"' in page.text
    escaped = c.get("/duel", params={"rules": "<script>alert(1)</script>"})
    assert escaped.status_code == 400 and "<script>alert(1)" not in escaped.text


def new_game(c: TestClient, **form: str) -> str:
    started = c.post("/play", data={"rules": "hog-su21", "seed": "11", "first": "me", **form})
    assert started.status_code == 303, started.text
    return started.headers["location"]


def test_a_move_is_a_number_or_a_word_of_the_rule_set(library):
    c = signed_in(library)
    game = new_game(c)
    for bad in ["11", "-1", "4.0", "four", "4; import os", "__import__('os')", "", "r"]:
        moved = c.post(game + "/move", data={"choice": bad})
        assert moved.status_code == 303
        shown = c.get(moved.headers["location"])
        assert 'id="problem"' in shown.text, bad
        assert "<li data-player" not in shown.text  # no move was made
    pig = new_game(c, rules="pig")
    refused = c.get(c.post(pig + "/move", data={"choice": "h"}).headers["location"]).text
    assert "nothing to hold yet" in refused  # the rule set's refusal, as hogbench play says it
    assert "<li data-player" not in refused


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=60), st.text(max_size=60))
def test_fuzzed_fields_are_refused_or_answered_never_a_fault(library, choice, spec):
    c = signed_in(library)
    page = c.get("/watch", params={"a": spec, "b": "always_roll:6", "seed": "1", "turn": choice})
    assert page.status_code in (200, 400), page.text[:300]
    game = new_game(c)
    moved = c.post(game + "/move", data={"choice": choice})
    assert moved.status_code == 303
    assert c.get(moved.headers["location"]).status_code == 200


def test_unknown_games_and_long_forms_are_refused(library):
    c = signed_in(library)
    assert c.get("/play/nope").status_code == 400
    assert c.post("/play/nope/move", data={"choice": "4"}).status_code == 400
    assert c.post("/play", content=b"rules=" + b"x" * 10_000).status_code == 400


@pytest.mark.parametrize("rules_name", names())
def test_every_page_serves_every_rule_set(library, rules_name):
    """The four pages, the watched game's line and a heatmap cell, in every rule set (to a
    goal of 20, so that the largest models take seconds)."""
    c = signed_in(library)
    goal = {"rules": rules_name, "goal": "20"}
    for path, params in [
        ("/", {}),
        ("/play", {}),
        ("/watch", {"a": "optimal", "seed": "1"}),
        ("/watch/line", {"a": "optimal", "seed": "1"}),
        ("/explore", {"strategy": "optimal"}),
        ("/explore/analysis", {"strategy": "optimal"}),
        ("/explore/cell", {"strategy": "optimal", "row": "5", "col": "7"}),
        ("/duel", {"a": "optimal"}),
    ]:
        page = c.get(path, params={**goal, **params})
        assert page.status_code == 200, (path, page.text[-500:])
    assert (
        'id="line-wait"' not in c.get("/watch", params={**goal, "a": "optimal", "seed": "1"}).text
    )
    started = c.post("/play", data={**goal, "first": "me", "seed": "2"})
    assert started.status_code == 303


# -- numbers --------------------------------------------------------------------------------------
GOAL = 30


def sow_sad_roll(num_rolls, dice):
    outcomes = [dice() for _ in range(num_rolls)]
    return 1 if 1 in outcomes else sum(outcomes)


def reference_hint(score: int, opponent: int, their_dice: int) -> list[float]:
    """Each number of dice's chance of winning at (score, opponent) in hog-su21 to GOAL against
    always_roll(their_dice), best play afterwards: a plain memoised recursion over the course's
    rules (Sow Sad, Piggy Points, More Boar), nothing of hogbench's engine."""
    sys.setrecursionlimit(100_000)

    def piggy(s):
        return abs((s // 10) % 10 - s % 10) + 4

    def boar(player, other):
        p, o = [int(d) for d in str(player)], [int(d) for d in str(other)]
        return min(p) < min(o) and max(p) > max(o)

    def outcomes(n, other):
        return {piggy(other): 1.0} if n == 0 else roll_distribution(sow_sad_roll, n, 6)

    @cache
    def q(me, other, n):  # I move at (me, other) and roll n
        total = 0.0
        for points, p in outcomes(n, other).items():
            new = me + points
            if new >= GOAL:
                total += p
            elif boar(new, other):
                total += p * best(new, other)
            else:
                total += p * (1.0 - them(other, new))
        return total

    @cache
    def best(me, other):
        return max(q(me, other, n) for n in range(11))

    @cache
    def them(me, other):  # the opponent moves at (me, other): its chance
        total = 0.0
        for points, p in outcomes(their_dice, other).items():
            new = me + points
            if new >= GOAL:
                total += p
            elif boar(new, other):
                total += p * them(new, other)
            else:
                total += p * (1.0 - best(other, new))
        return total

    return [q(score, opponent, n) for n in range(11)]


def test_the_hint_is_each_choices_exact_chance_against_this_opponent(library):
    c = signed_in(library)
    game = new_game(c, goal=str(GOAL), opponent="always_roll:6")
    hint = c.get(game + "/hint").json()
    assert hint["state"] == "score=0, opponent_score=0"
    expected = reference_hint(0, 0, 6)
    got = [v["win"] for v in hint["values"]]
    assert got == pytest.approx(expected, abs=1e-12)
    assert hint["best"] == max(range(11), key=lambda n: (expected[n], -n))
    page = c.get(game + "?hint=1").text
    assert f"{100 * expected[hint['best']]:.4f}%" in page and "★ best" in page


def test_explore_gives_a_cells_values_and_the_rules_there(library):
    c = signed_in(library)
    cell = c.get(
        "/explore/cell",
        params={"rules": "hog-su21", "goal": GOAL, "strategy": "always_roll:4",
                "against": "always_roll:6", "row": 23, "col": 17},
    ).json()  # fmt: skip
    assert cell["state"] == "score=23, opponent_score=17" and cell["choice"] == 4
    values = [v["win"] for v in cell["values"]]
    assert values == pytest.approx(reference_hint(23, 17, 6), abs=1e-12)
    assert cell["regret"] == pytest.approx(max(values) - values[4], abs=1e-12)
    zero = cell["rules"][0]
    assert zero["events"] == [{"event": "Piggy Points: 10 points", "rolls": 36}]  # |1 - 7| + 4
    assert any(e["event"].startswith("Sow Sad") for e in cell["rules"][5]["events"])


def test_duel_page_shows_the_duel_commands_numbers(library):
    from hogbench.duel import run_duel
    from hogbench.loading import load_entrant

    c = signed_in(library)
    page = c.get("/duel", params={"a": FINAL, "b": "always_roll:6"}).text
    rules = library.rules("hog-su21")
    expected = run_duel(
        rules, load_entrant(FINAL, rules), load_entrant("always_roll:6", rules), exact_mode=True
    ).to_dict()
    shown = [float(x) for x in re.findall(r'data-value="([^"]+)"', page)]
    assert shown == [expected["first"]["win_rate"], expected["second"]["win_rate"],
                     expected["win_rate"]]  # fmt: skip


# -- the command -----------------------------------------------------------------------------------
def test_the_command_serves_127_0_0_1_with_a_token_in_the_address(tmp_path):
    """The command as the README shows it."""
    assert f"`hogbench gui {FINAL}`" in (ROOT / "README.md").read_text()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "hogbench", "gui", FINAL],  # as the README shows it; no screen
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        line = proc.stdout.readline()
        found = re.fullmatch(
            r"hogbench gui: http://127\.0\.0\.1:(\d+)/\?token=([\w-]{20,})\n", line
        )
        assert found, line + proc.stderr.read() if proc.poll() is not None else line
        port = int(found.group(1))
        listening = _listening(port)
        assert listening == {"127.0.0.1"}, listening
        import httpx

        base = f"http://127.0.0.1:{port}"
        assert httpx.get(base + "/", timeout=30).status_code == 403
        signed = httpx.get(f"{base}/?token={found.group(2)}", timeout=30)
        assert signed.status_code == 303
        # A page asks for the file given on the command line: loaded as the command loads it.
        duel = httpx.get(f"{base}/duel", params={"a": FINAL}, cookies=signed.cookies, timeout=120)
        assert duel.status_code == 200 and 'id="verdict"' in duel.text, duel.text[-400:]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert "Traceback" not in proc.stderr.read()


def _listening(port: int) -> set[str]:
    """The local addresses listening on PORT, from /proc/net/tcp and tcp6."""
    addresses = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            pytest.skip("no /proc/net/tcp here")
        for row in Path(table).read_text().splitlines()[1:]:
            local, state = row.split()[1], row.split()[3]
            address, hex_port = local.split(":")
            if int(hex_port, 16) == port and state == "0A":  # LISTEN
                if len(address) == 8:
                    addresses.add(".".join(str(int(address[i : i + 2], 16)) for i in (6, 4, 2, 0)))
                else:
                    addresses.add(f"ipv6:{address}")
    return addresses


def test_without_the_extra_the_command_says_how_to_install_it():
    probe = (
        "import importlib.util, sys\n"
        "real = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda n, *a: None if n == 'starlette' else real(n, *a)\n"
        "sys.argv = ['hogbench', 'gui', '--no-browser']\n"
        "from hogbench.cli import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert "pip install 'hogbench[gui]'" in done.stderr and "Traceback" not in done.stderr


def test_a_bad_file_is_refused_before_serving(tmp_path):
    bad = tmp_path / "broken.py"
    bad.write_text("def final_strategy(score, opponent_score):\n    return (\n")
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "hogbench", "gui", str(bad), "--no-browser"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode != 0 and "broken.py" in done.stderr and "Traceback" not in done.stderr
    assert time.perf_counter() - start < 60


def test_the_commands_options_hold_for_its_rule_set_only():
    from hogbench.rules import parse_options

    library = Library("hog-su20", None, (), None, parse_options(["feral_hogs=false"]))
    c = signed_in(library)
    page = c.get("/", params={"rules": "hog-su20"}).text
    assert "hog-su20:goal=100:feral_hogs=False" in page
    assert library.rules("hog-su21", "50").key == "hog-su21:goal=50"


def test_a_live_strategys_duel_is_monte_carlo_with_the_duel_commands_numbers(monkeypatch):
    """A strategy that is not a table is played live, by Monte Carlo, with the interval."""
    from hogbench.duel import run_duel
    from hogbench.loading import load_entrant

    monkeypatch.chdir(ROOT)
    live = "strategies/hog_su21/random_roller.py"
    library = Library("hog-su21", None, (live,))
    c = signed_in(library)
    page = c.get("/duel", params={"a": live, "b": "always_roll:6", "games": "400", "seed": "3"})
    assert page.status_code == 200, page.text[-300:]
    rules = library.rules("hog-su21")
    a, b = load_entrant(live, rules), load_entrant("always_roll:6", rules)
    assert a.table is None  # it is random: played live
    expected = run_duel(rules, a, b, 400, 3).to_dict()
    verdict = re.search(r'id="verdict">([^<]*)', page.text).group(1)
    assert f"{100 * expected['win_rate']:.4f}%" in verdict
    assert f"{100 * expected['ci_low']:.4f}% to {100 * expected['ci_high']:.4f}%" in verdict
    assert f">{expected['wins']}<" in page.text and f">{expected['losses']}<" in page.text
