"""hogbench gui in a real browser: headless Chromium (the system's, through its chromedriver)
plays a scripted game in every rule set by keyboard, steps a watched game, reads a hint and a
cell of the heatmap; each is checked against the engine's numbers for that state, the hint and
the cell against a plain recursion too. Screenshots at 1280 and 390 px; with
HOGBENCH_SCREENSHOTS=docs they are also written, small, to docs/ (the README shows one)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("selenium")
from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import (  # noqa: E402
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from hogbench import exact  # noqa: E402
from hogbench.gui.figures import Library, hint  # noqa: E402
from hogbench.loading import load_entrant  # noqa: E402
from hogbench.rules import get_rules, names  # noqa: E402
from hogbench.simulate import decider  # noqa: E402
from hogbench.watch import play_game  # noqa: E402
from tests.test_gui import reference_hint  # noqa: E402

# Chromium takes some 40 s of CPU in all: a quick run (`pytest -m "not slow"`) leaves these out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Games here are to a goal of 20: a few moves each, so that every rule set plays in seconds.
GOAL = 20
WAIT = 120  # seconds a page may take: the first exact solve of a rule set compiles kernels


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`hogbench gui` as a user starts it; yields its address (with the token)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env["HOGBENCH_CACHE"] = str(tmp_path_factory.getbasetemp() / "cache")
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "hogbench", "gui", "strategies/hog_su21/final.py", "--no-browser"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    line = proc.stdout.readline()
    found = re.match(r"hogbench gui: (http://127\.0\.0\.1:\d+)/\?token=(\S+)", line)
    if not found:
        proc.kill()
        pytest.fail(f"hogbench gui did not start: {line}{proc.stderr.read()}")
    yield found.group(1), found.group(2)
    proc.terminate()
    proc.wait(timeout=30)
    assert "Traceback" not in proc.stderr.read()


@pytest.fixture(scope="module")
def browser(server, tmp_path_factory):
    driver_path = shutil.which("chromedriver")
    if not (os.path.exists(CHROMIUM) and driver_path):
        pytest.skip(
            "Chromium and chromedriver are needed (Debian: apt-get install chromium-driver)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [*CHROMIUM_FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"]:
        options.add_argument(flag)
    try:
        driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(driver_path))
    except WebDriverException as exc:
        pytest.skip(f"Chromium would not start: {exc.msg}")
    width(driver, 1280)
    base, token = server
    driver.get(f"{base}/?token={token}")  # the token becomes a cookie
    assert "hogbench" in driver.title
    yield driver
    driver.quit()


def width(driver, pixels: int) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": pixels, "height": 900 if pixels > 800 else 844, "deviceScaleFactor": 1,
         "mobile": pixels < 800},
    )  # fmt: skip


def navigate(driver, act) -> None:
    """Do ACT, which loads a new page, and wait until the new page is there: the old page's
    window carries a mark that a new document does not."""
    driver.execute_script("window.hogbenchOldPage = true")
    act()
    WebDriverWait(
        driver, WAIT, poll_frequency=0.02, ignored_exceptions=(WebDriverException,)
    ).until(
        lambda d: d.execute_script(
            "return window.hogbenchOldPage === undefined && document.readyState === 'complete'"
        )
    )


def keys(driver, text: str) -> None:
    navigate(driver, lambda: ActionChains(driver).send_keys(text).perform())


def no_overflow(driver) -> None:
    wide = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page is {wide[0]} px wide in a {wide[1]} px window"


def no_problem(driver) -> None:
    problems = driver.find_elements(By.ID, "problem")
    assert not problems, problems[0].text


# -- play -----------------------------------------------------------------------------------------
def start_game(driver, base: str, rules: str, goal: int, seed: int, opponent: str = "") -> None:
    driver.get(f"{base}/play?rules={rules}&goal={goal}")
    if opponent:
        field = driver.find_element(By.ID, "opponent")
        field.clear()
        field.send_keys(opponent)
    driver.find_element(By.ID, "seed").send_keys(str(seed))
    Select(driver.find_element(By.ID, "first")).select_by_value("me")
    navigate(driver, lambda: driver.find_element(By.ID, "start").click())
    no_problem(driver)


def played_turns(driver) -> list[tuple[int, int, tuple[int, int]]]:
    """(player, choice, scores after) of every turn in the page's log, oldest first."""
    rows = driver.find_elements(By.CSS_SELECTOR, "#log > li")
    turns = [
        (
            int(li.get_attribute("data-player")),
            int(li.get_attribute("data-choice")),
            tuple(int(s) for s in li.get_attribute("data-scores").split(",")),
        )
        for li in rows
    ]
    return turns[::-1]


#: The scripted player: these moves in turn, typed as a person types them.
DICE_SCRIPT = ["4", "0", "6", "2"]
WORD_SCRIPT = ["r"]  # in roll-or-hold games, see below


@pytest.mark.parametrize("rules_name", names())
def test_a_scripted_game_in_every_rule_set(browser, server, rules_name):
    base, _ = server
    seed = 7
    start_game(browser, base, rules_name, GOAL, seed)
    words = bool(browser.find_elements(By.CSS_SELECTOR, 'button[data-choice="r"]')) or bool(
        browser.find_elements(By.CSS_SELECTOR, 'button[data-choice="roll"]')
    )
    script = WORD_SCRIPT if words else DICE_SCRIPT
    typed = []
    while not browser.find_elements(By.ID, "result"):
        move = script[len(typed) % len(script)]
        if words:  # roll to a turn total of 8, then hold (a hold at 0 is refused)
            where = browser.find_element(By.ID, "state").text
            move = "h" if int(re.search(r"turn_total=(\d+)", where).group(1)) >= 8 else "r"
        keys(browser, move if words else move + Keys.ENTER)  # r/h act at once; digits + Enter
        no_problem(browser)
        typed.append(move)
        assert len(typed) < 400, "the game does not end"

    # The same game, played by the engine: same seed, same moves, the baseline's table.
    rules = get_rules(rules_name, GOAL)
    bot = load_entrant(rules.baseline, rules)
    moves = iter(rules.parse_choice(m) for m in typed)
    states = []

    def me(state):
        states.append(state)
        return next(moves)

    with ExitStack() as stack:
        from hogbench.pairs import player_of

        them = decider(rules, player_of(bot, rules), stack)
        expected = [
            (t.player, t.choice, tuple(map(int, t.scores)))
            for t in play_game(rules, (me, them), seed)
        ]
    assert played_turns(browser) == expected
    assert len(states) == len(typed)

    # What each move gave up: the engine's value of each choice at that state.
    library = Library(rules_name, GOAL)
    shown = [
        float(td.get_attribute("data-loss"))
        for td in browser.find_elements(By.CSS_SELECTOR, "#summary td[data-loss]")
    ]
    want = [
        hint(library, rules, bot, x).loss(rules.parse_choice(m))
        for x, m in zip(states, typed, strict=True)
    ]
    assert shown == pytest.approx(want, abs=1e-12)


def test_a_hint_read_in_the_page_is_the_exact_chance(browser, server):
    base, _ = server
    start_game(browser, base, "hog-su21", 30, 3, opponent="always_roll:6")
    keys(browser, "3" + Keys.ENTER)
    keys(browser, "?")
    where = browser.find_element(By.CSS_SELECTOR, "#hint-where").text
    score, opponent = map(int, re.fullmatch(r"score=(\d+), opponent_score=(\d+)", where).groups())
    assert (score, opponent) != (0, 0)
    rows = browser.find_elements(By.CSS_SELECTOR, "#hint tbody tr")
    wins = [float(r.get_attribute("data-win")) for r in rows]
    expected = reference_hint(score, opponent, 6)
    assert wins == pytest.approx(expected, abs=1e-12)
    best = browser.find_element(By.CSS_SELECTOR, "#hint tr.best")
    assert int(best.get_attribute("data-choice")) == expected.index(max(expected))
    assert "★ best" in best.text  # not by its colour alone
    shoot(browser, "play", 1280)
    width(browser, 390)
    try:
        browser.refresh()
        no_overflow(browser)
        shoot(browser, "play", 390)
    finally:
        width(browser, 1280)


# -- watch ----------------------------------------------------------------------------------------
def test_a_watched_game_steps_forward_and_back(browser, server):
    base, _ = server
    rules = get_rules("hog-su21")
    browser.get(f"{base}/watch?rules=hog-su21&a=optimal&b=always_roll:6&seed=5&turn=0")
    # The line is computed apart; the page reloads with it.
    WebDriverWait(browser, WAIT, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.find_elements(By.ID, "chance0")
    )
    for _ in range(3):
        keys(browser, Keys.ARROW_RIGHT)
    keys(browser, Keys.ARROW_LEFT)
    at = browser.find_element(By.ID, "at").text
    assert at.startswith("Turn 2 of ")

    from hogbench import solve

    optimal = solve.solve_rules(rules).table
    baseline = load_entrant("always_roll:6", rules).table.choices
    m = rules.model
    turns = list(play_game(rules, (table_decider(m, optimal), table_decider(m, baseline)), 5))
    assert at == f"Turn 2 of {len(turns)}"
    shown = [int(browser.find_element(By.ID, f"score{i}").text) for i in (0, 1)]
    assert tuple(shown) == tuple(turns[1].scores)

    values = exact.evaluate_policies(
        rules, exact.table_policy(m, optimal), exact.table_policy(m, baseline), values=True
    )
    step = turns[1].step
    kind, state = step.code & 7, step.code >> 3
    after = turns[1].player if kind == 2 else 1 - turns[1].player  # SAME: an extra turn
    chance = values.v_a[state] if after == 0 else 1 - values.v_b[state]
    got = float(browser.find_element(By.ID, "chance0").get_attribute("data-value"))
    assert got == pytest.approx(chance, abs=1e-12)
    keys(browser, Keys.ARROW_LEFT)
    keys(browser, Keys.ARROW_LEFT)
    start = float(browser.find_element(By.ID, "chance0").get_attribute("data-value"))
    assert start == pytest.approx(exact.evaluate(rules, optimal, baseline).first, abs=1e-12)
    assert browser.find_element(By.CSS_SELECTOR, "svg#chances polyline")
    browser.get(f"{base}/watch?rules=hog-su21&a=optimal&b=always_roll:6&seed=5&turn=9")
    shoot(browser, "watch", 1280)


def table_decider(model, table):
    return lambda x: int(table[model.observation[x]])


# -- explore and duel -------------------------------------------------------------------------------
def test_explore_a_cell_by_tapping_the_heatmap(browser, server):
    base, _ = server
    browser.get(
        f"{base}/explore?rules=hog-su21&goal=30&strategy=always_roll:4&against=always_roll:6"
    )
    canvas = browser.find_element(By.ID, "heat")
    size = canvas.size
    row, col = 23, 17
    dx = (col + 0.5) * size["width"] / 30 - size["width"] / 2
    dy = (row + 0.5) * size["height"] / 30 - size["height"] / 2
    ActionChains(browser).move_to_element_with_offset(canvas, int(dx), int(dy)).click().perform()
    WebDriverWait(browser, WAIT, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: "score=23, opponent_score=17" in d.find_element(By.ID, "cell").text
    )
    rows = browser.find_elements(By.CSS_SELECTOR, "#cell-values tbody tr")
    wins = [float(r.get_attribute("data-win")) for r in rows]
    assert wins == pytest.approx(reference_hint(23, 17, 6), abs=1e-12)
    assert "Piggy Points" in rows[0].text and "its choice" in rows[4].text
    worst = browser.find_elements(By.CSS_SELECTOR, "#worst tbody tr")
    assert len(worst) == 15
    # The picture: a real strategy against optimal play, its regret, one state open.
    browser.get(f"{base}/explore?rules=hog-su21&strategy=strategies/hog_su21/final.py")
    no_problem(browser)
    browser.find_element(By.CSS_SELECTOR, "input[value=regret]").click()
    browser.execute_script("window.hogbenchShow(38, 61)")
    WebDriverWait(browser, WAIT, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: "score=38" in d.find_element(By.ID, "cell").text
    )
    shoot(browser, "explore", 1280)
    width(browser, 390)
    try:
        browser.refresh()
        no_overflow(browser)
        shoot(browser, "explore", 390)
    finally:
        width(browser, 1280)


def test_every_page_fits_a_phone(browser, server):
    base, _ = server
    width(browser, 390)
    try:
        for path in ["/", "/play?rules=big-pig", "/watch?rules=greed&a=sample1&b=sample2",
                     "/explore?rules=pig&goal=30&strategy=hold_at:10",
                     "/duel?a=optimal&b=always_roll:6"]:  # fmt: skip
            browser.get(base + path)
            no_problem(browser)
            no_overflow(browser)
    finally:
        width(browser, 1280)


def shoot(driver, name: str, pixels: int) -> None:
    """A screenshot of the page; with HOGBENCH_SCREENSHOTS=docs also a small PNG in docs/."""
    png = driver.get_screenshot_as_png()
    assert png.startswith(b"\x89PNG")
    if os.environ.get("HOGBENCH_SCREENSHOTS") != "docs":
        return
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    (ROOT / "docs").mkdir(exist_ok=True)
    small.save(ROOT / "docs" / f"gui-{name}-{pixels}.png", optimize=True)
