"""The local web app: Starlette, server-rendered pages (Jinja2), a little script.

It serves 127.0.0.1 only, and every request must carry the access token: in the URL the
command prints (``?token=...``), after which a cookie holds it (HttpOnly, SameSite=Strict). A
request for another host name is refused too, so a web page elsewhere cannot reach the app
through a name that resolves to 127.0.0.1. What a page sends is parsed as names and numbers
(``figures.Library.spec``, ``RuleSet.parse_choice``); nothing it sends is run.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from hogbench.entrants import Entrant
from hogbench.errors import HogbenchError, IllegalChoice, UsageError
from hogbench.gui import figures
from hogbench.gui.figures import Library
from hogbench.gui.games import Games, watch
from hogbench.gui.games import chances as chances_of
from hogbench.rules import names as rule_names
from hogbench.rules.base import RuleSet

if TYPE_CHECKING:
    from hogbench.solve import Analysis

TEMPLATES = Path(__file__).parent / "templates"
#: The token's cookie; an app that knows its port names the cookie after it, since cookies are
#: kept per host, not per port: two apps at once would each overwrite the other's.
COOKIE = "hogbench_token"
#: Seeds a page may ask for, as the commands take them.
MAX_SEED = 2**63 - 1
#: Monte Carlo games a page may ask a duel for: a live strategy plays a few hundred a second.
MAX_DUEL_GAMES = 200_000
#: Models up to this many states are analysed before the Explore page is sent (a fraction of
#: a second); larger ones after, the page reloading when the numbers are there.
QUICK_STATES = 50_000
#: What a page sends is short; anything longer is refused before it is parsed.
MAX_FIELD = 200


def create_app(library: Library, token: str, port: int | None = None) -> Starlette:
    """The app for LIBRARY; every request needs TOKEN. PORT, when known, is the only port a
    Host header may name."""
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape())
    games = Games()
    watched = figures.Kept()

    def page(request: Request, template: str, status: int = 200, **data: Any) -> HTMLResponse:
        rules_name = data.get("rules").name if data.get("rules") else library.rules_name
        html = env.get_template(template).render(
            request=request, rule_names=rule_names(), rules_name=rules_name, **data
        )
        return HTMLResponse(html, status)

    def rules_of(request: Request) -> RuleSet:
        return library.rules(field(request, "rules"), field(request, "goal"))

    def index(request: Request) -> Response:
        rules = rules_of(request)
        return page(request, "index.html", rules=rules, offered=library.choices_offered(rules))

    def play_form(request: Request) -> Response:
        rules = rules_of(request)
        return page(request, "play_new.html", rules=rules, offered=library.choices_offered(rules))

    async def play_start(request: Request) -> Response:
        form = await read_form(request)
        return await run_in_threadpool(start_game, form)

    def start_game(form: dict[str, str]) -> Response:
        rules = library.rules(form_field(form, "rules"), form_field(form, "goal"))
        bot = library.entrant(form_field(form, "opponent") or rules.baseline, rules)
        me = 1 if form_field(form, "first") == "them" else 0
        seed = number(form_field(form, "seed"), 0, MAX_SEED, "seed")
        seed = random.randrange(2**32) if seed is None else seed
        game = games.new(rules, bot, library, seed, me)
        return RedirectResponse(f"/play/{game.id}", 303)

    def play_game(request: Request) -> Response:
        game = games.get(request.path_params["game"])
        with game.lock:
            show_hint = field(request, "hint") == "1" and not game.over
            advice = game.hint_at(game.waiting) if show_hint else None
            summary = game.summary() if game.over else None
            buttons = choice_buttons(game.rules)
            return page(
                request, "play.html", rules=game.rules, game=game, hint=advice,
                summary=summary, problem=field(request, "problem"), buttons=buttons,
                words=any(not value.lstrip("-").isdigit() for value, _ in buttons),
            )  # fmt: skip

    async def play_move(request: Request) -> Response:
        form = await read_form(request)
        return await run_in_threadpool(move, request, form)

    def move(request: Request, form: dict[str, str]) -> Response:
        game = games.get(request.path_params["game"])
        with game.lock:
            try:
                game.move(form_field(form, "choice"))
            except UsageError as exc:
                from urllib.parse import quote

                return RedirectResponse(f"/play/{game.id}?problem={quote(str(exc))}", 303)
        return RedirectResponse(f"/play/{game.id}", 303)

    def play_hint(request: Request) -> Response:
        game = games.get(request.path_params["game"])
        with game.lock:
            if game.over:
                raise UsageError("the game is over")
            advice = game.hint_at(game.waiting)
        if advice is None:
            raise UsageError(f"{game.bot.name} is played live: no exact values against it")
        return JSONResponse(advice.to_dict())

    def watched_game(request: Request) -> tuple:
        rules = rules_of(request)
        a_text = field(request, "a") or (library.files[0] if library.files else figures.OPTIMAL)
        b_text = field(request, "b") or rules.baseline
        seed = number(field(request, "seed"), 0, MAX_SEED, "seed")
        seed = 0 if seed is None else seed
        a, b = library.entrant(a_text, rules), library.entrant(b_text, rules)
        key = (rules.key, a_text, b_text, seed)
        game = watched.get(("game", *key), lambda: watch(rules, a, b, seed))
        return rules, a, b, a_text, b_text, game, key

    def watch_page(request: Request) -> Response:
        rules, _, _, a_text, b_text, game, key = watched_game(request)
        at = number(field(request, "turn"), 0, len(game.turns), "turn")
        at = len(game.turns) if at is None else at
        chances = watched.peek(("chances", *key))
        return page(
            request, "watch.html", rules=rules, offered=library.choices_offered(rules),
            game=game, at=at, a_text=a_text, b_text=b_text, chances=chances,
            line=chance_line(chances),
        )  # fmt: skip

    def watch_line(request: Request) -> Response:
        rules, a, b, _, _, game, key = watched_game(request)
        if game.why_no_chances:
            raise UsageError(f"no exact values: {game.why_no_chances}")
        made = watched.get(("chances", *key), lambda: chances_of(rules, a, b, game.turns))
        return JSONResponse({"chances": made})

    def explored(request: Request) -> tuple[RuleSet, str, Entrant, str]:
        """The strategy explored, and ``analyze``'s result once it is there (None before)."""
        rules = rules_of(request)
        mine_text = field(request, "strategy") or (library.files[0] if library.files else "optimal")
        against = field(request, "against") or figures.OPTIMAL
        mine = library.entrant(mine_text, rules)
        figures.require_table(mine)
        return rules, mine_text, mine, against

    def explore_page(request: Request) -> Response:
        rules, mine_text, mine, against = explored(request)
        depth = rules.obs_shape[2] if len(rules.obs_shape) > 2 else 1
        z = number(field(request, "z"), 0, depth - 1, "slice")
        if z is None:  # a count (Pig's turn total) at 0 says nothing: the turn starts with a roll
            z = min(10, depth - 1) if depth > 2 else 0
        analysis = None
        if rules.model.n_states <= QUICK_STATES or field(request, "wait") == "1":
            analysis = library.analysis(rules, mine, library.entrant(against, rules))
        else:  # seconds to a minute for the largest models: the page asks for it apart
            analysis = library.analysis_kept(rules, mine, against)
        data = explore_data(rules, mine, z, analysis)
        return page(
            request, "explore.html", rules=rules, offered=library.choices_offered(rules),
            strategy_text=mine_text, against_text=against, data=data,
            data_json=json.dumps(data["grid"]),
        )  # fmt: skip

    def explore_analysis(request: Request) -> Response:
        rules, _, mine, against = explored(request)
        analysis = library.analysis(rules, mine, library.entrant(against, rules))
        return JSONResponse({"total": analysis.total})

    def explore_cell(request: Request) -> Response:
        rules = rules_of(request)
        mine = library.entrant(field(request, "strategy"), rules)
        opponent = library.entrant(field(request, "against") or figures.OPTIMAL, rules)
        shape = rules.obs_shape
        where = [
            number(field(request, key), 0, size - 1, key)
            for key, size in zip(("row", "col", "z"), shape, strict=False)
        ]
        where = [0 if w is None else w for w in where]
        return JSONResponse(cell(library, rules, mine, opponent, tuple(where)))

    def duel_page(request: Request) -> Response:
        rules = rules_of(request)
        offered = library.choices_offered(rules)
        result = None
        if field(request, "a"):
            from hogbench.duel import run_duel

            a = library.entrant(field(request, "a"), rules)
            b = library.entrant(field(request, "b") or rules.baseline, rules)
            games_asked = number(field(request, "games"), 2, MAX_DUEL_GAMES, "games") or 10_000
            seed = number(field(request, "seed"), 0, MAX_SEED, "seed") or 0
            exact = a.table is not None and b.table is not None
            result = run_duel(rules, a, b, games_asked, None if exact else seed, 1, exact)
        return page(request, "duel.html", rules=rules, offered=offered, result=result)

    routes = [
        Route(r.path, guarded(r.endpoint), methods=sorted(r.methods or ()))
        for r in [
            Route("/", index),
            Route("/play", play_form),
            Route("/play", play_start, methods=["POST"]),
            Route("/play/{game}", play_game),
            Route("/play/{game}/move", play_move, methods=["POST"]),
            Route("/play/{game}/hint", play_hint),
            Route("/watch", watch_page),
            Route("/watch/line", watch_line),
            Route("/explore", explore_page),
            Route("/explore/cell", explore_cell),
            Route("/explore/analysis", explore_analysis),
            Route("/duel", duel_page),
        ]
    ]

    async def refused(request: Request, exc: Exception) -> Response:
        status = 400 if isinstance(exc, UsageError | IllegalChoice) else 422
        if isinstance(exc, Fault):
            status = 500
        if request.url.path.endswith(("/hint", "/cell", "/line", "/analysis")):
            return JSONResponse({"error": str(exc)}, status)
        return page(request, "error.html", status, message=str(exc))

    app = Starlette(
        routes=routes, exception_handlers={HogbenchError: refused, IllegalChoice: refused}
    )
    return TokenGate(app, token, port)


class Fault(HogbenchError):
    """A fault of hogbench's own while answering: said on the page, not as a traceback."""


def guarded(endpoint: Callable) -> Callable:
    """ENDPOINT, with any exception other than hogbench's own errors turned into a Fault."""
    import functools
    import inspect

    def fault(exc: Exception) -> Fault:
        return Fault(f"hogbench failed: {type(exc).__name__}: {exc}")

    if inspect.iscoroutinefunction(endpoint):

        @functools.wraps(endpoint)
        async def run_async(request: Request) -> Response:
            try:
                return await endpoint(request)
            except (HogbenchError, IllegalChoice):
                raise
            except Exception as exc:
                raise fault(exc) from exc

        return run_async

    @functools.wraps(endpoint)
    def run(request: Request) -> Response:
        try:
            return endpoint(request)
        except (HogbenchError, IllegalChoice):
            raise
        except Exception as exc:
            raise fault(exc) from exc

    return run


def cookie_name(port: int | None) -> str:
    return COOKIE if port is None else f"{COOKIE}_{port}"


class TokenGate:
    """ASGI middleware: the token on every request (query or cookie), a local Host only, and
    no form posted from another origin."""

    def __init__(self, app, token: str, port: int | None) -> None:
        self.app, self.token, self.port = app, token, port
        self.cookie = cookie_name(port)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        if not self.local_host(request.headers.get("host", "")):
            await Response("unknown host", 421, media_type="text/plain")(scope, receive, send)
            return
        given = request.query_params.get("token")
        held = request.cookies.get(self.cookie)
        good = any(t and secrets.compare_digest(t, self.token) for t in (given, held))
        if not good:
            await Response(
                "hogbench gui: open the address with the token that the command printed",
                403,
                media_type="text/plain",
            )(scope, receive, send)
            return
        origin = request.headers.get("origin")
        if request.method != "GET" and origin and not self.local_host(origin.split("//")[-1]):
            await Response("cross-origin request refused", 403)(scope, receive, send)
            return
        if given and request.method == "GET" and not held:
            # Once in the cookie, the token leaves the address bar and the history.
            query = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
            from urllib.parse import urlencode

            target = request.url.path + (f"?{urlencode(query)}" if query else "")
            response = RedirectResponse(target, 303)
            response.set_cookie(self.cookie, self.token, httponly=True, samesite="strict")
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def local_host(self, host: str) -> bool:
        name, _, port = host.rpartition(":") if ":" in host else (host, "", "")
        if name not in ("127.0.0.1", "localhost"):
            return False
        return self.port is None or port == str(self.port)


# -- what a page sends --------------------------------------------------------------------------
def field(request: Request, name: str) -> str:
    value = request.query_params.get(name, "")
    if len(value) > MAX_FIELD:
        raise UsageError(f"{name}: too long")
    return value


#: A form's body is a few short fields.
MAX_FORM_BYTES = 4096


async def read_form(request: Request) -> dict[str, str]:
    """A posted form (application/x-www-form-urlencoded), short fields only."""
    from urllib.parse import parse_qsl

    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            raise UsageError("the form is too long")
    try:
        pairs = parse_qsl(body.decode("utf-8"), max_num_fields=20)
    except (UnicodeDecodeError, ValueError):
        raise UsageError("the form could not be read") from None
    return dict(pairs)


def form_field(form: dict[str, str], name: str) -> str:
    value = form.get(name, "")
    if len(value) > MAX_FIELD:
        raise UsageError(f"{name}: too long")
    return value


def number(text: str, low: int, high: int, what: str) -> int | None:
    """A whole number from LOW to HIGH, or None when not given."""
    text = (text or "").strip()
    if not text:
        return None
    if not text.isdigit() or len(text) > 20:
        raise UsageError(f"{what} must be a whole number from {low} to {high}")
    value = int(text)
    if not low <= value <= high:
        raise UsageError(f"{what} must be from {low} to {high}, got {value}")
    return value


def choice_buttons(rules) -> list[tuple[str, str]]:
    """A button per choice (value as a person types it, label), where there are few."""
    if len(rules.model.choices) > 12:
        return []
    buttons = []
    for c in map(int, rules.model.choices):
        label = rules.describe_choice(c)
        try:
            typed = str(c) if rules.parse_choice(str(c)) == c else label
        except IllegalChoice:
            typed = label
        buttons.append((typed, label))
    return buttons


# -- pictures -----------------------------------------------------------------------------------
def chance_line(chances: list[float] | None, width: int = 600, height: int = 160) -> dict | None:
    """Player 0's chance of winning after each turn as an SVG polyline's points."""
    if not chances:
        return None
    n = max(len(chances) - 1, 1)
    points = [(round(i * width / n, 1), round((1 - c) * height, 1)) for i, c in enumerate(chances)]
    return {
        "width": width,
        "height": height,
        "points": " ".join(f"{x},{y}" for x, y in points),
        "other": " ".join(f"{x},{round(height - y, 1)}" for x, y in points),
        "xy": points,
    }


def explore_data(rules: RuleSet, mine: Entrant, z: int, analysis: Analysis | None = None) -> dict:
    """The decision table as a grid, as ``show`` draws it; with ANALYSIS (``analyze``'s) the
    regret per cell and the worst states too."""
    from hogbench import plots, solve

    figures.require_table(mine)
    view = plots.table_view(rules, mine.table.choices, z)
    grid = np.asarray(view.grid)
    top = max(int(rules.model.choices[-1]), 1)
    regret = worst = None
    if analysis is not None:
        _, largest = solve.loss_by_observation(analysis)
        if largest.ndim == 3:
            largest = largest.max(axis=2)
        regret = np.round(largest, 6).tolist()
        worst = solve.worst_states(analysis, 15, "expected")
    return {
        "strategy": mine.name,
        "view": view,
        "grid": {
            "kind": view.kind,
            "cells": grid.tolist(),
            "regret": regret,
            "top": top if view.kind == "choice" else int(grid.max() or 1),
            "labels": {int(c): rules.describe_choice(int(c)) for c in rules.model.choices},
            "rows": view.y_label,
            "cols": view.x_label,
            "z": z,
        },
        "analysis": analysis,
        "worst": worst,
        "describe": rules.describe_choice,
    }


def cell(
    library: Library, rules: RuleSet, mine: Entrant, opponent: Entrant, where: tuple[int, ...]
) -> dict:
    """At one observation: the strategy's choice, each choice's exact chance of winning against
    OPPONENT (best play afterwards), its regret, and the rules that fire there."""
    m = rules.model
    shape = rules.obs_shape
    full = tuple(where) + (0,) * (len(shape) - len(where))
    o = int(np.ravel_multi_index(full, shape))
    analysis = library.analysis(rules, mine, opponent)
    states = np.flatnonzero(m.observation == o)
    if len(states) == 0:
        raise UsageError("no game state shows a strategy these arguments")
    weight = np.zeros(m.n_states)
    reach = analysis.reach[states]
    if reach.sum() > 0:
        weight[states] = reach / reach.sum()
        weighted = "weighted by how often play reaches each hidden state" if len(states) > 1 else ""
    else:
        x = int(m.canonical[o]) if m.canonical is not None else int(states[0])
        weight[x] = 1.0
        weighted = "play does not reach it: the values at its representative state"
        weighted = weighted if len(states) > 1 else ""
    values = figures.state_values(rules, analysis.best, weight)
    choice = int(mine.table.choices[o])
    best = float(values.max())
    mine_value = float(values[list(m.choices).index(choice)])
    example = int(states[np.argmax(weight[states])])
    return {
        "args": dict(zip(rules.strategy_args, map(int, full), strict=True)),
        "state": rules.describe_state(example),
        "choice": choice,
        "choice_label": rules.describe_choice(choice),
        "best": int(m.choices[int(np.argmax(values >= best - 1e-12))]),
        "regret": max(best - mine_value, 0.0),
        "note": weighted,
        "values": [
            {"choice": int(c), "label": rules.describe_choice(int(c)), "win": float(v)}
            for c, v in zip(m.choices, values, strict=True)
        ],
        "rules": figures.rules_here(rules, example),
        "rolls_tried": figures.ROLLS_TRIED,
    }
