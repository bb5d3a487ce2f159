"""One game, decision by decision, with real dice and the course's commentary.

Used by ``hogbench watch`` (two strategies) and ``hogbench play`` (a person and a strategy).
"""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from hogbench.commentary import announce_lead_changes, both, make_announce_highest
from hogbench.rules.base import OTHER, SAME, TIE, WIN, RuleSet, Step

Decide = Callable[[int], int]  # engine state -> choice


@dataclass(frozen=True)
class Turn:
    player: int  # who moved: 0 moved first
    choice: int
    step: Step
    scores: tuple[int, int]  # player 0's and player 1's scores afterwards
    commentary: list[str]
    winner: int | None = None  # set on the last turn: 0, 1, or None for a tie
    over: bool = False


def commentary_for(rules: RuleSet):
    """The course's commentary: lead changes and each player's biggest gain so far."""
    highest = rules.announce_highest or make_announce_highest(
        "{gain} point(s)! The most yet for Player {who}"
    )
    return both(highest(0), both(highest(1), announce_lead_changes()))


def play_game(rules: RuleSet, deciders: tuple[Decide, Decide], seed: int) -> Iterator[Turn]:
    """Yield each decision of one game between two deciders; player 0 moves first. Where a game
    may never end, it is over and tied after the rules' ``turn_cap()`` turns."""
    rng = random.Random(seed)
    say = commentary_for(rules)
    state, mover = rules.model.start, 0
    cap = rules.turn_cap()
    turns = 0
    while True:
        turns += 1
        asked = deciders[mover](state)
        step = rules.play_step(state, asked, rng)
        choice = rules.move_taken(state, asked)  # what happened: a hold with nothing rolls
        kind, next_state = step.code & 7, step.code >> 3
        if kind in (OTHER, SAME):
            mine, theirs = rules.scores(next_state)
            if kind == OTHER:
                mine, theirs = theirs, mine
        else:
            mine, theirs = step.final or rules.scores(state)
        scores = (mine, theirs) if mover == 0 else (theirs, mine)
        heard = io.StringIO()
        with contextlib.redirect_stdout(heard):
            say = say(*scores)
        lines = heard.getvalue().splitlines()
        if kind in (OTHER, SAME) and turns == cap:
            step.events.append(f"no end after {cap} turns: a tie")
            yield Turn(mover, choice, step, scores, lines, None, over=True)
            return
        if kind in (OTHER, SAME):
            yield Turn(mover, choice, step, scores, lines)
            state = next_state
            mover = 1 - mover if kind == OTHER else mover
            continue
        winner = None if kind == TIE else (mover if kind == WIN else 1 - mover)
        yield Turn(mover, choice, step, scores, consistent(lines, winner), winner, over=True)
        return


def consistent(lines: list[str], winner: int | None) -> list[str]:
    """The last turn's commentary without a lead change the outcome contradicts: in Greed a
    player who goes over the goal has the higher score and loses, so "Player 1 takes the lead"
    is dropped there; so is any lead in a tied game."""
    wrong = [f"Player {p} takes the lead" for p in (0, 1) if p != winner]
    return [line for line in lines if not line.startswith(tuple(wrong))]


@dataclass(frozen=True)
class Transcript:
    """One watched game: who played, with which seed, turn by turn."""

    rules: str  # the rule set's key
    seed: int
    players: list[str]
    turns: list[Turn]

    def to_dict(self) -> dict:
        last = self.turns[-1]
        return {
            "rules": self.rules,
            "seed": self.seed,
            "players": self.players,
            "winner": last.winner,
            "scores": last.scores,
            "turns": [
                {
                    "player": t.player,
                    "choice": t.choice,
                    "dice": t.step.dice,
                    "events": t.step.events,
                    "scores": t.scores,
                    "commentary": t.commentary,
                }
                for t in self.turns
            ],
        }
