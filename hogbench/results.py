"""One typed model of a finished tournament, which every view reads: the terminal, the CSV
files, results.json, the HTML leaderboard and the pictures.

``build`` turns a ``TournamentResult`` into a ``Report``: the entrants in standings order with
their records against the field, every pair once with its rates, W/L/T, decision, Elo
difference and likelihood of superiority, the matrices the views draw, and the notes. Nothing
is computed in a view: a view that needs a number finds it here, so that every output says the
same (tests/test_results.py checks it).
"""

from __future__ import annotations

import math
import platform
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

import numpy as np

from hogbench import stats
from hogbench.names import login_anchor
from hogbench.pairs import decision_z
from hogbench.processes import collector_paused
from hogbench.stats import ABOVE, BELOW, UNDECIDED
from hogbench.tournament.round_robin import TournamentResult
from hogbench.tournament.store import PairResult

#: Seconds spent at most on best responses (one per opponent table) for regret;
#: opponents past it go without, and the report says so.
BEST_RESPONSE_SECONDS = 60.0
#: Digits kept in results.json: exact rates to 1e-9, Monte Carlo ones to 1e-4 (well below their
#: standard error, which is at least 1e-3 at the games cap of a class tournament).
EXACT_DIGITS = 9
MC_DIGITS = 4
#: The tie-break after match points: it orders entrants level on points; their rank is shared.
TIE_BREAK = "average win rate"


@dataclass(frozen=True)
class Member:
    """A student the roster names for an entry: their login and name. "The contest may be
    entered individually or in pairs", so an entry has one or more."""

    login: str
    name: str


class _Entry:
    """What an entry's record says of its students (``name`` and ``students`` are fields)."""

    name: str
    students: tuple[Member, ...]

    @property
    def logins(self) -> list[str]:
        return [m.login for m in self.students]

    @property
    def logins_beside_name(self) -> list[str]:
        """The logins a view shows beside the name: none where the one login is the name itself
        (a student's folder named after them, and no TEAM_NAME)."""
        logins = self.logins
        return [] if logins == [self.name] else logins


@dataclass(frozen=True)
class EntrantRecord(_Entry):
    """One line of the standings. ``position`` is its place in standings order (0 = first);
    ``rank`` is shared by entrants level on match points (the contest's rule)."""

    position: int
    rank: int
    name: str  # the full TEAM_NAME (views shorten it)
    spec: str
    key: str | None
    live: bool
    same_table_as: list[str]
    points: int
    #: The record against the field, pair by pair under the contest's rule: won (took the match
    #: point), lost (the opponent took it), tied (neither did).
    wins: int
    losses: int
    ties: int
    win_rate: float | None  # the average over its opponents: the tie-break after points
    rating: float | None
    rating_error: float | None
    undecided: int  # Monte Carlo pairs still undecided: points that hang on them
    exact_pairs: int
    mc_pairs: int
    best_response_win_rate: float | None
    #: Win rate given up against the best response to each opponent, averaged over every
    #: opponent; None where that cannot be said of every opponent (``regret_note`` says why).
    regret: float | None
    regret_max: float | None
    regret_max_against: int | None
    regret_note: str
    notes: list[str]  # what checking the file noticed (output, a constant answer, ...)
    students: tuple[Member, ...] = ()  # from the roster: the entry's student, or the pair


@dataclass(frozen=True)
class DisqualifiedRecord(_Entry):
    name: str
    spec: str
    reason: str
    students: tuple[Member, ...] = ()  # from the roster


class PairRecord(NamedTuple):
    """A played pair once, from the side of A (ranked above B); positions in the standings.

    ``wins``, ``losses`` and ``ties`` are games for a Monte Carlo pair, and probabilities for an
    exact one, averaged over both seatings: a tie is an end on equal scores (Greed, Big Pig) or
    a game that never ends (hog-sp22), which the rate counts half (None only for a pair kept
    without its ties). ``games`` is the games played (None when exact), ``cap`` the most it
    could have played. A named tuple: a 1000-entrant report makes 499,500 of them."""

    a: int
    b: int
    mode: str  # "exact", "mc", or "sprt:P0,P1"
    win_rate: float
    first: float | None  # A's rate moving first
    second: float | None
    ci_low: float | None
    ci_high: float | None
    decision: str  # above / below / undecided the threshold
    point: str | None  # "a", "b", or None: who took the match point
    wins: float | None
    losses: float | None
    ties: float | None
    games: int | None
    cap: int | None
    elo: float  # A's Elo difference over B
    elo_low: float | None
    elo_high: float | None
    los: float  # likelihood that A is the stronger
    joint: list[int] | None  # Monte Carlo: joint counts of game pairs (see PairResult)

    @property
    def exact(self) -> bool:
        return self.mode == "exact"


@dataclass
class Report:
    """A finished tournament as every view shows it, entrants in standings order."""

    title: str
    rules_name: str
    rules_key: str
    goal: int
    options: dict[str, Any]
    mode: str
    seed: int
    games: int
    threshold: float
    score_undecided: bool
    sprt: tuple[float, float] | None
    can_tie: bool
    versions: dict[str, str]
    best_note: str
    entrants: list[EntrantRecord]
    disqualified: list[DisqualifiedRecord]
    not_played: list[str]
    pairs: list[PairRecord]
    # Matrices in standings order, [p, q] from p's side against q.
    rates: np.ndarray = field(repr=False)  # NaN without a result
    scored: np.ndarray = field(repr=False)  # p took the match point from q
    exact: np.ndarray = field(repr=False)
    undecided: np.ndarray = field(repr=False)
    low: np.ndarray = field(repr=False)  # Monte Carlo interval, NaN where exact
    high: np.ndarray = field(repr=False)
    wins: np.ndarray = field(repr=False)  # games (Monte Carlo) or probabilities (exact), NaN
    losses: np.ndarray = field(repr=False)
    ties: np.ndarray = field(repr=False)
    best: np.ndarray = field(repr=False)  # [q]: the best response's win rate against q
    unmatched: list[str] = field(default_factory=list)  # roster: submissions with no login
    missing: list[dict[str, str]] = field(default_factory=list)  # roster logins, no submission

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.entrants]

    @property
    def regret(self) -> np.ndarray:
        """[p, q]: the win rate p leaves against q compared with the best response to q
        (exact pairs only, NaN elsewhere)."""
        with np.errstate(invalid="ignore"):
            gap = np.maximum(self.best[None, :] - self.rates, 0.0)
        return np.where(self.exact, gap, np.nan)

    def to_dict(self) -> dict[str, Any]:
        """results.json: everything here as JSON-ready data.

        Pairs are rows (see EXACT_COLUMNS and MC_COLUMNS) whose a and b are positions in
        "standings" (0 = first), so that 300 entrants fit in a few megabytes. A Monte Carlo row
        keeps the joint counts of its game pairs, ``joint[3 * r1 + r2]``: pairs in which a's
        game moving first ended r1 and its game moving second r2 (0 won, 1 lost, 2 tied): its
        games won, lost and tied, and the games played (twice the pairs), follow from them, and
        are in pairs.csv. ``elo`` is a's Elo difference over b, ``los`` the likelihood that a is
        the stronger. An exact row's wins, losses and ties are A's chances of each, averaged
        over both seatings: its rate and 1 - rate where the rule set's games cannot tie
        (``can_tie``); where they can end tied on equal scores (Greed, Big Pig) or never end
        (hog-sp22), the tie's chance apart, the rate counting it half.
        """
        exact_rows, mc_rows = [], []
        for r in self.pairs:
            if r.exact:
                exact_rows.append(
                    [r.a, r.b, *(_round(x, EXACT_DIGITS) for x in (r.first, r.second, r.win_rate))]
                    + [_round(r.elo, 1)]
                    + [_round(x, EXACT_DIGITS) for x in (r.wins, r.losses, r.ties)]
                )
            else:
                mc_rows.append(
                    [r.a, r.b, *(_round(x, MC_DIGITS) for x in (r.win_rate, r.ci_low, r.ci_high))]
                    + [r.decision, _round(r.elo, 1), _round(r.los, 3), r.joint]
                )
        standings = []
        for e in self.entrants:
            row = asdict(e)
            for key in ("win_rate", "rating", "rating_error", "regret", "regret_max"):
                row[key] = _num(row[key])
            row["best_response_win_rate"] = _num(row["best_response_win_rate"])
            standings.append(_linked(row))
        return {
            "tournament": self.title,
            "rules": self.rules_name,
            "rules_key": self.rules_key,
            "goal": self.goal,
            "options": self.options,
            "mode": self.mode,
            "seed": self.seed,
            "games": self.games,
            "threshold": self.threshold,
            "score_undecided": self.score_undecided,
            "sprt": list(self.sprt) if self.sprt else None,
            "can_tie": self.can_tie,
            "tie_break": TIE_BREAK,
            "versions": self.versions,
            "best_response": self.best_note,
            "standings": standings,
            "disqualified": [_linked(asdict(d)) for d in self.disqualified],
            "not_played": self.not_played,
            "roster": {"not_on_roster": self.unmatched, "no_submission": self.missing},
            "pairs": {
                "exact_columns": EXACT_COLUMNS,
                "mc_columns": MC_COLUMNS,
                "exact": exact_rows,
                "mc": mc_rows,
            },
        }


#: The columns of results.json's pair rows. a and b are positions in "standings" (0 = first).
EXACT_COLUMNS = ["a", "b", "first", "second", "win_rate", "elo", "wins", "losses", "ties"]
MC_COLUMNS = ["a", "b", "win_rate", "ci_low", "ci_high", "decision", "elo", "los", "joint"]


def _linked(row: dict[str, Any]) -> dict[str, Any]:
    """ROW with each student's link to their row on the page written beside results.json
    (index.html, ``#e-LOGIN``), as links.csv gives it."""
    for student in row["students"]:
        student["link"] = f"index.html#{login_anchor(student['login'])}"
    return row


def _num(x: float | None) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def _round(x: float | None, digits: int) -> float | None:
    x = _num(x)
    return None if x is None else round(x, digits)


def versions() -> dict[str, str]:
    import numba

    import hogbench

    return {
        "hogbench": hogbench.__version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
    }


#: Elo differences are given for win rates clipped this far from 0 and 1, where they are
#: infinite (and JSON has no infinity).
ELO_CLIP = 1e-6


def elo(win_rate: float) -> float:
    """The Elo difference of WIN_RATE (``stats.elo_difference``), finite: the rate is clipped
    into [ELO_CLIP, 1 - ELO_CLIP]."""
    return stats.elo_difference(min(max(win_rate, ELO_CLIP), 1 - ELO_CLIP))


def can_tie(rules: Any) -> bool:
    """Whether a game under RULES can end tied (equal scores, or a game that never ends)."""
    return bool(getattr(rules, "can_tie", False)) or rules.turn_cap() is not None


def file_notes(result: TournamentResult, index: int) -> list[str]:
    """What checking active entrant INDEX's file noticed, as ``hogbench check`` says it."""
    entrant = result.active[index].entrant
    if entrant is None:
        return []
    notes = list(entrant.notes)
    # A built-in such as always_roll:4 answers one number by design; a submission that does is
    # likely the course's unfinished skeleton.
    if entrant.table is not None and entrant.spec.path is not None:
        answers = np.unique(entrant.table.choices)
        if len(answers) == 1:
            notes.append(
                f"it answers {int(answers[0])} at every state (as an unfinished skeleton does)"
            )
    return notes


@collector_paused()
def build(
    result: TournamentResult, budget: float = BEST_RESPONSE_SECONDS, progress: Any = None
) -> Report:
    """The report of RESULT; best responses (for regret) within BUDGET seconds (0: none):
    those the tournament solved with its pairs (``run``'s best_response_seconds), else solved
    here, shown as a phase of PROGRESS if given."""
    from hogbench.solve import best_response_rates

    t = result.tournament
    order = [s.index for s in result.standings]
    position = {i: p for p, i in enumerate(order)}
    n = len(order)
    rates = np.full((n, n), np.nan)
    scored = np.zeros((n, n), bool)
    exact = np.zeros((n, n), bool)
    undecided = np.zeros((n, n), bool)
    low, high = np.full((n, n), np.nan), np.full((n, n), np.nan)
    wins, losses, ties = (np.full((n, n), np.nan) for _ in range(3))
    tie_free = not can_tie(t.rules)
    cells = Cells(rates, scored, exact, wins, losses, ties)
    exact_pairs, mc_pairs = [], []
    for (i, j), r in result.results.once():
        (exact_pairs if r.exact else mc_pairs).append((i, j, r))
    if exact_pairs:
        at = np.array([(position[i], position[j]) for i, j, _ in exact_pairs], dtype=np.intp)
        first = np.array([r.first for _, _, r in exact_pairs])
        second = np.array([r.second for _, _, r in exact_pairs])
        tied = np.array([r.ties or (np.nan, np.nan) for _, _, r in exact_pairs], dtype=float)
        cells.fill_exact(at[:, 0], at[:, 1], first, second, tied, t.threshold, tie_free)
        # B's side, as PairResult.flipped sees it: B first is A second
        cells.fill_exact(
            at[:, 1], at[:, 0], 1.0 - second, 1.0 - first, tied[:, ::-1], t.threshold, tie_free
        )
    decisions: dict[tuple[int, int], str] = {}  # of Monte Carlo cells (an exact one scored or not)
    for i, j, r in mc_pairs:
        for (a, b), seen in (((i, j), r), ((j, i), r.flipped())):
            p, q = position[a], position[b]
            # The paired estimate once per cell: at 300 entrants there are 89,700 of them.
            estimate = seen.paired
            rates[p, q] = estimate.win_rate
            low[p, q], high[p, q] = estimate.interval()
            decided = seen.decision(t.threshold, decision_z(seen.key.games))
            undecided[p, q] = decided == UNDECIDED
            scored[p, q] = rates[p, q] > t.threshold and (
                decided == ABOVE or (decided == UNDECIDED and t.score_undecided)
            )
            wins[p, q], losses[p, q], ties[p, q] = seen.totals
            decisions[p, q] = decided
    entrants_in_order = [result.active[i].entrant for i in order]
    needed = [e if exact[:, p].any() else None for p, e in enumerate(entrants_in_order)]
    if budget > 0 and exact.any():
        known = result.best_responses  # solved with the pairs, in the workers
        best, best_note = best_response_rates(t.rules, needed, budget, progress, known)
    else:
        best = np.full(n, np.nan)
        best_note = (
            "not computed: no pair is exact (regret needs exact win rates)"
            if budget > 0
            else "not computed: no view asked for it"
        )
    report = Report(
        title=t.name,
        rules_name=t.rules.name,
        rules_key=t.rules.key,
        goal=t.rules.goal,
        options=dict(t.rules.options),
        mode=t.mode,
        seed=t.seed,
        games=t.games,
        threshold=t.threshold,
        score_undecided=t.score_undecided,
        sprt=t.sprt,
        can_tie=not tie_free,
        versions=versions(),
        best_note=best_note,
        entrants=[],
        disqualified=[
            DisqualifiedRecord(s.name, s.spec, s.disqualified or "") for s in result.disqualified
        ],
        not_played=list(result.failures),
        pairs=[],
        rates=rates,
        scored=scored,
        exact=exact,
        undecided=undecided,
        low=low,
        high=high,
        wins=wins,
        losses=losses,
        ties=ties,
        best=best,
    )
    regret = report.regret
    for p, s in enumerate(result.standings):
        slot = result.active[s.index]
        e = slot.entrant
        played = ~np.isnan(rates[p])
        played[p] = False
        won, lost = int(scored[p].sum()), int(scored[:, p].sum())
        row = regret[p]
        counted = ~np.isnan(row)
        against = int(played.sum())
        if against and counted[played].all():
            worst = int(np.nanargmax(row))
            mean, top, note = float(np.nanmean(row)), float(row[worst]), ""
        else:
            worst, mean, top = None, None, None
            missing = against - int(counted[played].sum())
            if not (exact[p] & played).any():
                note = "none: only exact pairs have one, and all of its pairs are Monte Carlo"
            else:
                note = (
                    f"not computed: {missing} of its {against} opponents are not exact pairs"
                    " with a best response (regret is said only where it is known against"
                    " every opponent)"
                )
        report.entrants.append(
            EntrantRecord(
                position=p,
                rank=s.rank,
                name=slot.name,
                spec=slot.spec,
                key=e.key if e is not None else None,
                live=e is not None and not e.tableable,
                same_table_as=list(slot.same_as),
                points=s.points,
                wins=won,
                losses=lost,
                ties=against - won - lost,
                win_rate=_num(s.win_rate),
                rating=_num(s.rating),
                rating_error=_num(s.rating_error),
                undecided=s.undecided,
                exact_pairs=int((exact[p] & played).sum()),
                mc_pairs=int((~exact[p] & played).sum()),
                best_response_win_rate=_num(best[p]),
                regret=mean,
                regret_max=top,
                regret_max_against=worst,
                regret_note=note,
                notes=file_notes(result, s.index),
            )
        )
    if exact_pairs:
        report.pairs += _exact_pairs(report, at, first, second)
    for i, j, _ in mc_pairs:
        p, q = sorted((position[i], position[j]))
        seen = result.results[order[p], order[q]]
        report.pairs.append(_pair(report, p, q, seen, decisions[p, q]))
    if mc_pairs:  # Monte Carlo pairs come in the order they were played
        report.pairs.sort(key=lambda record: (record.a, record.b))
    return report


@dataclass(frozen=True)
class Cells:
    """The matrices a report fills pair by pair, [p, q] from p's side (see Report)."""

    rates: np.ndarray
    scored: np.ndarray
    exact: np.ndarray
    wins: np.ndarray
    losses: np.ndarray
    ties: np.ndarray

    def fill_exact(
        self,
        p: np.ndarray,
        q: np.ndarray,
        first: np.ndarray,
        second: np.ndarray,
        tied: np.ndarray,
        threshold: float,
        tie_free: bool,
    ) -> None:
        """Cells [p, q] of exact pairs, P's rates moving FIRST and SECOND and its chances of a
        tie (TIED, NaN where not kept), as ``PairResult.win_rate`` and ``split`` compute
        them one pair at a time: the rate counts a tie half, the split takes it out of wins.
        An exact pair is decided: P takes the match point when its rate is above THRESHOLD."""
        rate = (first + second) / 2
        self.exact[p, q] = True
        self.rates[p, q] = rate
        self.scored[p, q] = rate > threshold
        tie = (tied[:, 0] + tied[:, 1]) / 2
        win = np.maximum(0.0, rate - tie / 2)
        split = ~np.isnan(tie)
        # Without kept ties, a rule set whose games cannot tie has none (else: not known).
        no_tie = np.nan if not tie_free else 0.0
        self.wins[p, q] = np.where(split, win, rate if tie_free else np.nan)
        self.losses[p, q] = np.where(
            split, np.maximum(0.0, 1.0 - win - tie), 1 - rate if tie_free else np.nan
        )
        self.ties[p, q] = np.where(split, tie, no_tie)


def _exact_pairs(
    report: Report, at: np.ndarray, first: np.ndarray, second: np.ndarray
) -> list[PairRecord]:
    """The records of the exact pairs at AT (positions of A and B, A's rates FIRST and
    SECOND), each from the side of the one ranked above, in standings order (as ``_pair``
    makes them one at a time, 499,500 of them at 1000 entrants)."""
    swap = at[:, 0] > at[:, 1]
    p, q = np.where(swap, at[:, 1], at[:, 0]), np.where(swap, at[:, 0], at[:, 1])
    upper_first = np.where(swap, 1.0 - second, first)
    upper_second = np.where(swap, 1.0 - first, second)
    order = np.lexsort((q, p))
    p, q, upper_first, upper_second = p[order], q[order], upper_first[order], upper_second[order]
    scored = report.scored[p, q]
    point = np.where(scored, "a", np.where(report.scored[q, p], "b", ""))
    rate = report.rates[p, q]
    counts = (
        np.where(np.isnan(m[p, q]), None, m[p, q])
        for m in (report.wins, report.losses, report.ties)
    )
    columns = zip(
        p.tolist(),
        q.tolist(),
        rate.tolist(),
        upper_first.tolist(),
        upper_second.tolist(),
        scored.tolist(),
        point.tolist(),
        *(c.tolist() for c in counts),
        strict=True,
    )
    return [
        PairRecord(
            a,
            b,
            "exact",
            r,
            f,
            s,
            None,
            None,
            ABOVE if up else BELOW,
            pt or None,
            w,
            lo,
            t,
            None,
            None,
            elo(r),
            None,
            None,
            0.5 if r == 0.5 else float(r > 0.5),
            None,
        )  # fmt: skip
        for a, b, r, f, s, up, pt, w, lo, t in columns
    ]


def _pair(report: Report, p: int, q: int, r: PairResult, decision: str) -> PairRecord:
    """The record of a Monte Carlo pair, from the side of P (ranked above Q)."""
    rate = float(report.rates[p, q])
    point = "a" if report.scored[p, q] else "b" if report.scored[q, p] else None
    counts = [report.wins[p, q], report.losses[p, q], report.ties[p, q]]
    w, lo, t = (None if math.isnan(x) else x for x in counts)
    estimate = r.paired
    low, high = float(report.low[p, q]), float(report.high[p, q])
    seats = r.seat_counts()
    first = _seat_rate(seats[0])
    second = _seat_rate(seats[1])
    return PairRecord(
        p, q, r.key.mode, rate, first, second, low, high, decision, point,
        int(w or 0), int(lo or 0), int(t or 0), 2 * estimate.pairs, r.key.games,
        elo(rate), elo(low), elo(high),
        stats.likelihood_of_superiority(estimate), list(r.counts or ()),
    )  # fmt: skip


def _seat_rate(counts: np.ndarray) -> float | None:
    """A seat's win rate from its (won, lost, tied) games, a tie counting half."""
    total = int(counts.sum())
    return None if total == 0 else float((counts[0] + counts[2] / 2) / total)
