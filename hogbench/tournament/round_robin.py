"""The round robin: load the field, play every missing pair, and rank."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

import numpy as np

from hogbench import sandbox
from hogbench.discovery import Entry
from hogbench.errors import UsageError
from hogbench.pairs import decision_z
from hogbench.processes import collector_paused
from hogbench.standings import Standing, standings
from hogbench.stats import UNDECIDED
from hogbench.tournament.config import (
    BACKENDS,
    Tournament,
    check_paths,
    default_store,
    sandbox_settings,
)
from hogbench.tournament.field import Progress, Slot, load_slots
from hogbench.tournament.match import (
    PlaySettings,
    Workers,
    play_pairs,
    solve_best_responses,
)
from hogbench.tournament.schedule import round_robin_pairs
from hogbench.tournament.store import PairResults, Store


@dataclass
class TournamentResult:
    """A finished round robin: entrants (active first in source order), results, standings."""

    tournament: Tournament
    slots: list[Slot]  # every entrant, in source order
    active: list[Slot]  # those in the standings (loaded and not disqualified in play)
    results: PairResults  # [i, j] into active, from i's side, i != j
    standings: list[Standing]
    rates: np.ndarray  # rates[i, j]: active i's win rate against active j
    failures: list[str]  # pairs that could not be played, as messages
    computed: int
    stored: int
    seconds: float
    #: the best response's rate against each table, by entrant key, solved with the pairs
    #: (None: not asked for; a rate of None: past its budget)
    best_responses: dict[str, float | None] | None = None
    best_response_time: float = 0.0  # wall seconds spent solving them
    _modes: dict[int, tuple[int, int]] = field(default_factory=dict, repr=False)

    @property
    def disqualified(self) -> list[Slot]:
        return [s for s in self.slots if s.disqualified is not None]

    def modes(self, i: int) -> tuple[int, int]:
        """How many of active entrant i's pairs were exact, and how many Monte Carlo."""
        if not self._modes:
            for pair, r in self.results.once():
                for a in pair:
                    exact_pairs, mc_pairs = self._modes.get(a, (0, 0))
                    self._modes[a] = (exact_pairs + r.exact, mc_pairs + (not r.exact))
        return self._modes.get(i, (0, 0))


@collector_paused()
def run(
    tournament: Tournament,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Progress | None = None,
    slots: list[Slot] | None = None,
    request: sandbox.Request | None = None,
    best_response_seconds: float = 0.0,
) -> TournamentResult:
    """Load the entrants (unless SLOTS are given), play every missing pair, and rank; and,
    within BEST_RESPONSE_SECONDS (0: not at all), solve the best response to each table that
    has an exact pair (for regret, which only some views show), in the same workers.

    REQUEST is the sandbox request the command line made, its options merged with the
    tournament file's settings; loading and live play use it as it is. Without one (a caller
    of the Python API, with no command line), the tournament's settings are the request."""
    t = tournament
    settings = PlaySettings.of(
        t, jobs=jobs, backend=backend, scheduler=scheduler, batch_size=batch_size
    )
    if backend not in BACKENDS:
        raise UsageError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if batch_size is not None and batch_size < 1:
        raise UsageError(f"--batch-size must be at least 1, got {batch_size}")
    check_paths(t)
    if request is None:
        request = sandbox.Request.of(**sandbox_settings(t))
    if slots is None:
        files = [e for e in t.entrants if isinstance(e, Entry) and e.path and not e.problem]
        if files and sandbox.refuse_without_sandbox("a tournament", request, files):
            # hogbench's own files: nothing else runs unsandboxed
            request = dataclasses.replace(request, bundled_only=True)
        slots = load_slots(t.entrants, t.rules, jobs, progress, t.allow_live, request=request)
    settings = dataclasses.replace(settings, request=request)
    active = [s for s in slots if s.entrant is not None]
    entrants = [s.entrant for s in active]
    wanted = round_robin_pairs(len(active))
    workers = Workers()  # started by the pairs if they are worth it, kept for best responses
    with Store(t.store or default_store(t)) as store:
        played = play_pairs(t.rules, entrants, wanted, settings, store, progress, workers)  # type: ignore[arg-type]
    failures = []
    for (i, j), failure in sorted(played.failures.items()):
        failures.append(f"{active[i].name} vs {active[j].name}: {failure.message}")
        if failure.strategy_error:  # only a live entrant can fail in play: disqualify it
            live = [s for s in (active[i], active[j]) if not s.entrant.tableable]  # type: ignore[union-attr]
            # By identity: the failure carries the failing entrants' keys, never a name to match
            # (a spec can be a substring of another's). Over the time budget, each live entrant
            # is charged for its own time alone: both only when each is over by itself. A
            # failure naming nobody is the live entrant's only where there is one.
            charged = {failure.entrant, *failure.also}
            named = [s for s in live if s.entrant.key in charged]  # type: ignore[union-attr]
            for slot in named or (live if len(live) == 1 else []):
                slot.disqualified = slot.disqualified or failure.message
    keep = [k for k, s in enumerate(active) if s.disqualified is None]
    renumber = {old: new for new, old in enumerate(keep)}
    results = PairResults(
        {
            (renumber[i], renumber[j]): r
            for (i, j), r in played.results.once()
            if i in renumber and j in renumber
        }
    )
    active = [active[k] for k in keep]
    best, solving = None, 0.0
    if best_response_seconds > 0:
        solving = time.perf_counter()
        exact_pairs = {i for pair, r in results.once() if r.exact for i in pair}
        tables = [active[i].entrant for i in sorted(exact_pairs)]
        best = solve_best_responses(
            t.rules,
            tables,  # type: ignore[arg-type]
            best_response_seconds,
            settings,
            progress,
            workers,
        )
        solving = time.perf_counter() - solving
    n = len(active)
    rates = np.full((n, n), np.nan)
    errors = np.zeros((n, n))
    undecided = np.zeros((n, n), dtype=bool)
    for (i, j), r in results.once():
        if r.exact:
            rates[i, j], rates[j, i] = r.win_rate, r.b_win_rate
            continue
        for a, b, seen in ((i, j, r), (j, i, r.flipped())):
            rates[a, b] = seen.win_rate
            errors[a, b] = seen.paired.standard_error
            undecided[a, b] = seen.decision(t.threshold, decision_z(r.key.games)) == UNDECIDED
    return TournamentResult(
        tournament=t,
        slots=slots,
        active=active,
        results=results,
        standings=standings(
            [s.name for s in active], rates, t.threshold, errors, undecided, t.score_undecided
        ),
        rates=rates,
        failures=failures,
        computed=played.computed,
        stored=played.stored,
        seconds=played.seconds,
        best_responses=best,
        best_response_time=solving,
    )
