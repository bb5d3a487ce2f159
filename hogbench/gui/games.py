"""Games in the app: a person against a strategy (Play) and two strategies (Watch), turn by
turn with real dice, through ``watch.play_game``, the generator ``hogbench watch`` and
``hogbench play`` use, so a game here is the same game, seed for seed."""

from __future__ import annotations

import secrets
import threading
from contextlib import ExitStack
from dataclasses import dataclass, field

from hogbench.entrants import Entrant
from hogbench.errors import IllegalChoice, UsageError
from hogbench.gui.figures import Hint, Library, hint, win_chances
from hogbench.rules.base import OTHER, SAME, RuleSet
from hogbench.watch import Turn, play_game

#: Games kept at once; the oldest is dropped past this (a live file's game holds a worker).
MAX_GAMES = 16


def next_mover(turn: Turn) -> int | None:
    """Who moves after TURN: the same player after an extra turn, else the other."""
    if turn.over:
        return None
    return turn.player if turn.step.code & 7 == SAME else 1 - turn.player


def next_state(turn: Turn) -> int | None:
    kind = turn.step.code & 7
    return turn.step.code >> 3 if kind in (OTHER, SAME) and not turn.over else None


@dataclass
class Move:
    """A person's decision: where, what, and (when the opponent is a table) its cost."""

    state: int
    where: str
    choice: int
    hint: Hint | None = None

    @property
    def loss(self) -> float | None:
        return None if self.hint is None else self.hint.loss(self.choice)


@dataclass
class PlayGame:
    """A person (``me``) against a strategy. The person's decisions come one request at a
    time: the game's generator is advanced only when the next decision is the bot's, or when
    the person's choice is in hand."""

    id: str
    rules: RuleSet
    bot: Entrant
    library: Library
    seed: int
    me: int  # 0: the person moves first
    turns: list[Turn] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    waiting: int | None = None  # the state the person is to move at
    lock: threading.Lock = field(default_factory=threading.Lock)
    _pending: list[int] = field(default_factory=list)
    _stack: ExitStack = field(default_factory=ExitStack)

    def __post_init__(self) -> None:
        from hogbench.pairs import player_of
        from hogbench.simulate import decider

        bot = decider(self.rules, player_of(self.bot, self.rules), self._stack)
        deciders = (self._person, bot) if self.me == 0 else (bot, self._person)
        self._game = play_game(self.rules, deciders, self.seed)
        self._mover = 0
        self._run_bot()

    @property
    def names(self) -> list[str]:
        return ["You", self.bot.name] if self.me == 0 else [self.bot.name, "You"]

    @property
    def over(self) -> bool:
        return bool(self.turns) and self.turns[-1].over

    @property
    def scores(self) -> tuple[int, int]:
        return self.turns[-1].scores if self.turns else (0, 0)

    def _person(self, state: int) -> int:
        self.waiting = state
        return self._pending.pop()

    def _advance(self) -> None:
        turn = next(self._game)
        self.turns.append(turn)
        mover = next_mover(turn)
        if mover is None:
            self._stack.close()
        else:
            self._mover = mover

    def _run_bot(self) -> None:
        while not self.over and self._mover != self.me:
            self._advance()
        if not self.over:
            self.waiting = _peek_state(self)

    def move(self, text: str) -> None:
        """The person's choice, as typed: parsed by the rule set (numbers or roll/hold)."""
        if self.over:
            raise UsageError("the game is over: start a new one")
        try:
            choice = self.rules.parse_choice(str(text)[:20])
        except IllegalChoice as exc:
            raise UsageError(str(exc).replace("returned ", "", 1)) from None
        state = self.waiting
        refused = self.rules.refusal(state, choice)  # as hogbench play asks again
        if refused is not None:
            raise UsageError(refused)
        self.moves.append(Move(state, self.rules.describe_state(state), choice))
        self._pending.append(choice)
        self._advance()
        self._run_bot()

    def hint_at(self, state: int) -> Hint | None:
        """Each choice's exact chance at STATE against the bot; None for a live bot."""
        if self.bot.table is None:
            return None
        return hint(self.library, self.rules, self.bot, state)

    def summary(self) -> list[Move]:
        """The person's moves, each with what it gave up against the best choice there (the
        best response to the bot; none against a live bot)."""
        for move in self.moves:
            if move.hint is None:
                move.hint = self.hint_at(move.state)
        return self.moves

    def close(self) -> None:
        self._stack.close()


def _peek_state(game: PlayGame) -> int:
    """The state the person moves at next: after the last turn, or the start."""
    if not game.turns:
        return game.rules.model.start
    state = next_state(game.turns[-1])
    return game.rules.model.start if state is None else state


class Games:
    """The games being played, by id (a random token), the oldest dropped past MAX_GAMES."""

    def __init__(self) -> None:
        self.games: dict[str, PlayGame] = {}
        self.lock = threading.Lock()

    def new(self, rules: RuleSet, bot: Entrant, library: Library, seed: int, me: int) -> PlayGame:
        game = PlayGame(secrets.token_urlsafe(8), rules, bot, library, seed, me)
        with self.lock:
            self.games[game.id] = game
            while len(self.games) > MAX_GAMES:
                old = self.games.pop(next(iter(self.games)))
                old.close()
        return game

    def get(self, game_id: str) -> PlayGame:
        with self.lock:
            game = self.games.get(str(game_id))
        if game is None:
            raise UsageError("no such game (it may have ended long ago): start a new one")
        return game


# -- Watch ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Watched:
    """A watched game: who played, with which seed, turn by turn."""

    rules: RuleSet
    names: list[str]
    seed: int
    turns: list[Turn]
    why_no_chances: str = ""  # set when a strategy is live: no exact values


def watch(rules: RuleSet, a: Entrant, b: Entrant, seed: int) -> Watched:
    """A whole game of A (moving first) against B, as ``hogbench watch`` plays it."""
    from hogbench.pairs import player_of
    from hogbench.simulate import decider

    names = [a.name, b.name]
    if names[0] == names[1]:
        names = [f"{n} (player {i})" for i, n in enumerate(names)]
    with ExitStack() as stack:
        deciders = tuple(decider(rules, player_of(e, rules), stack) for e in (a, b))
        turns = list(play_game(rules, deciders, seed))
    live = next((e for e in (a, b) if e.table is None), None)
    return Watched(rules, names, seed, turns, f"{live.name} is played live" if live else "")


def chances(rules: RuleSet, a: Entrant, b: Entrant, turns: list[Turn]) -> list[float]:
    """Player 0's exact chance of winning before the first turn and after each one, from both
    decision tables (``exact.evaluate_policies``): seconds for the largest models, so the page
    asks for it apart."""
    values = win_chances(rules, a, b)
    return [float(values.v_a[rules.model.start])] + [chance_of_first(values, t) for t in turns]


def chance_of_first(values, turn: Turn) -> float:
    """Player 0's chance of winning after TURN: the game's result when it is over, else the
    value of the state reached for whoever moves there."""
    if turn.over:
        return 0.5 if turn.winner is None else float(turn.winner == 0)
    state, mover = next_state(turn), next_mover(turn)
    return float(values.v_a[state]) if mover == 0 else float(1.0 - values.v_b[state])
