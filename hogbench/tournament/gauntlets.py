"""The gauntlet: one strategy against a field, as the Greed course's testStrat."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hogbench import sandbox
from hogbench.discovery import Entry, discover
from hogbench.entrants import Entrant, clean_name, parse_spec
from hogbench.errors import StrategyError
from hogbench.loading import load_entrant
from hogbench.pairs import decision_z
from hogbench.rules.base import RuleSet
from hogbench.standings import DEFAULT_THRESHOLD
from hogbench.stats import ABOVE
from hogbench.tournament.config import DEFAULT_GAMES
from hogbench.tournament.field import Progress, Slot, live_policy, load_slots
from hogbench.tournament.match import PlaySettings, play_pairs
from hogbench.tournament.schedule import gauntlet_pairs
from hogbench.tournament.store import PairResult


@dataclass
class GauntletRow:
    opponent: Slot
    result: PairResult | None  # from the challenger's side; None if not played
    beats: bool
    problem: str | None = None
    decision: str | None = None  # above / below / undecided the threshold (None: not played)


def gauntlet(
    rules: RuleSet,
    challenger: str,
    field_specs: list[str],
    threshold: float = DEFAULT_THRESHOLD,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
    allow_live: bool = False,
    sprt: tuple[float, float] | None = None,
    **sandbox_options: Any,
) -> tuple[Slot, list[GauntletRow]]:
    """One strategy against a field, as the Greed course's testStrat: win rate and beats-or-not.

    Live pairs play by Monte Carlo until decided against THRESHOLD, or with SPRT (P0, P1)
    until the sequential test accepts one of the two win rates; GAMES is the cap.

    The challenger failing to load is an error (StrategyError); an opponent failing is reported
    in its row. The field's files run in the sandbox, which must work (see
    ``sandbox.refuse_without_sandbox``); the policies are the tournament's.
    """
    field = discover(field_specs, Path.cwd())
    files = [e for e in field if e.path is not None and not e.problem]
    mine = parse_spec(challenger)
    if files and mine.is_file:  # without bwrap, bundled files may go on only all together
        files.append(mine)
    if files and sandbox.refuse_without_sandbox(
        "a gauntlet", sandbox.Request.of(**sandbox_options), files
    ):
        sandbox_options = {**sandbox_options, "bundled_only": True}
    me = load_entrant(challenger, rules, **sandbox_options)
    if me.live_reason and rules.requires_deterministic and not allow_live:
        raise StrategyError(challenger, live_policy(me.live_reason))
    specs = [e for e in field if not _same_file(e, me)]
    opponents = load_slots(specs, rules, jobs, progress, allow_live, **sandbox_options)
    playing = [s for s in opponents if s.entrant is not None]
    entrants = [me] + [s.entrant for s in playing]
    settings = PlaySettings(
        "exact",
        games,
        seed,
        threshold,
        sprt,
        jobs=jobs,
        request=sandbox.Request.of(**sandbox_options),
    )
    played = play_pairs(rules, entrants, gauntlet_pairs(len(playing)), settings, None, progress)
    rows = []
    position = {id(slot): k + 1 for k, slot in enumerate(playing)}
    for slot in opponents:
        if slot.entrant is None:
            rows.append(GauntletRow(slot, None, False, slot.disqualified))
            continue
        ij = (0, position[id(slot)])
        result = played.results.get(ij)
        failure = played.failures.get(ij)
        decision = None
        if result is not None:
            decision = result.decision(threshold, decision_z(result.key.games))
        rows.append(
            GauntletRow(
                slot,
                result,
                decision == ABOVE,
                failure.message if failure else None,
                decision,
            )
        )
    return Slot(challenger, clean_name(me.name), entrant=me), rows


def _same_file(entry: Entry, entrant: Entrant) -> bool:
    """Whether ENTRY is the challenger's own file: a glob of the field often includes it, and
    a strategy played against itself says nothing."""
    if entrant.spec.path is None or entry.path is None:
        return entry.spec == entrant.spec.text
    try:
        return entry.path.resolve() == entrant.spec.path.resolve()
    except OSError:
        return False
