"""Standings from pairwise win rates: match points, shared ranks and Bradley–Terry ratings.

Everything here works on a square matrix ``rates[i, j]``: entrant i's win rate against entrant j
over both seatings (a tied game counts half), NaN where there is no result (the diagonal, or a
pair that could not be played).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from hogbench.rules import DEFAULT_THRESHOLD  # noqa: F401  (re-exported for the reports)

#: Bradley–Terry ratings are on Elo's scale: the average entrant is 1500 and a gap of 400
#: points means 10:1 odds, so i beats j with probability 1 / (1 + 10 ** ((R_j - R_i) / 400)).
RATING_MEAN = 1500.0
RATING_SCALE = 400.0
#: Win rates are clipped into [CLIP, 1 - CLIP] for the fit, so ratings stay finite.
CLIP = 1e-6


def match_points(
    rates: np.ndarray,
    threshold: float = DEFAULT_THRESHOLD,
    undecided: np.ndarray | None = None,
    score_undecided: bool = True,
) -> np.ndarray:
    """One point per opponent beaten with a win rate above THRESHOLD.

    A tied match (neither side above the threshold) scores nothing for either side: ties count
    as losses, as in the contest. UNDECIDED marks Monte Carlo pairs whose interval still holds
    the threshold: they score by their estimate, or (SCORE_UNDECIDED false) for nobody.
    """
    with np.errstate(invalid="ignore"):
        wins = np.nan_to_num(rates, nan=0.0) > threshold
    if undecided is not None and not score_undecided:
        wins &= ~undecided
    return np.sum(wins, axis=1).astype(int)


def average_win_rates(rates: np.ndarray) -> np.ndarray:
    """Each entrant's mean win rate over the opponents it has a result against (NaN if none)."""
    played = ~np.isnan(rates)
    count = played.sum(axis=1)
    total = np.where(played, rates, 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def shared_ranks(points: list[int] | np.ndarray) -> list[int]:
    """Competition ranks ("1, 2, 2, 4") for POINTS already sorted best first."""
    ranks: list[int] = []
    for i, p in enumerate(points):
        ranks.append(ranks[-1] if i and p == points[i - 1] else i + 1)
    return ranks


def _played(rates: np.ndarray) -> np.ndarray:
    """Where two entrants have a result against each other (never an entrant against itself)."""
    played = ~np.isnan(rates)
    np.fill_diagonal(played, False)
    return played


def bradley_terry(rates: np.ndarray, tolerance: float = 1e-10) -> np.ndarray:
    """Bradley–Terry ratings fitted to the win rates, on Elo's scale (see RATING_SCALE).

    Each played pair is one match that i wins in part: i scores rates[i, j], j the rest. The
    strengths theta maximise the likelihood of P(i beats j) = 1 / (1 + exp(theta_j - theta_i))
    (a logistic fit), found by Newton's method with step halving; the mean theta is 0. Rates are
    clipped into [CLIP, 1 - CLIP] so that a strategy that never wins (or never loses) still gets a
    finite rating. Entrants without any result get NaN.
    """
    n = len(rates)
    played = _played(rates)
    active = played.any(axis=1)
    ratings = np.full(n, np.nan)
    if not active.any():
        return ratings
    idx = np.flatnonzero(active)
    mask = played[np.ix_(idx, idx)]
    won = np.where(mask, np.clip(np.nan_to_num(rates[np.ix_(idx, idx)]), CLIP, 1 - CLIP), 0.0)
    # Start from the logit of each average win rate: close to the answer, so few steps.
    average = won.sum(axis=1) / mask.sum(axis=1)
    theta = np.log(average / (1 - average))
    theta -= theta.mean()

    def fit(theta: np.ndarray) -> tuple[float, np.ndarray]:
        """Log-likelihood and P(i beats j) at THETA."""
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
        return float(np.sum(won * np.log(np.where(mask, p, 1.0)))), p

    likelihood, p = fit(theta)
    ones = np.ones((len(idx), len(idx)))
    for _iteration in range(100):
        gradient = (won - np.where(mask, p, 0.0)).sum(axis=1)
        weights = np.where(mask, p * p.T, 0.0)
        laplacian = np.diag(weights.sum(axis=1)) - weights
        # The likelihood does not change when every theta moves together; adding ones fixes
        # that direction (mean 0) so the Newton system has one solution.
        try:
            step = np.linalg.solve(laplacian + ones, gradient)
        except np.linalg.LinAlgError:  # entrants in separate groups that never met
            step = np.linalg.lstsq(laplacian + ones, gradient, rcond=None)[0]
        step -= step.mean()
        for _ in range(60):
            new_likelihood, new_p = fit(theta + step)
            if new_likelihood >= likelihood:
                break
            step /= 2
        theta, likelihood, p = theta + step, new_likelihood, new_p
        if np.max(np.abs(step)) < tolerance:
            break
    ratings[idx] = RATING_MEAN + RATING_SCALE * (theta - theta.mean()) / math.log(10)
    return ratings


def rating_errors(
    rates: np.ndarray, errors: np.ndarray, draws: int = 64, seed: int = 0
) -> np.ndarray:
    """Standard errors of the Bradley–Terry ratings from the Monte Carlo noise of the rates.

    ERRORS[i, j] is the standard error of rates[i, j] (0 where exact). The ratings are refitted
    to DRAWS matrices whose Monte Carlo rates are redrawn from their sampling distribution (a
    parametric bootstrap); the spread of each rating is its error. Exact results carry no
    sampling error, so a tournament of exact pairs gets zeros.
    """
    n = len(rates)
    noisy = np.triu(np.nan_to_num(errors) > 0, 1)
    if not noisy.any():  # no error, and no rating (NaN) where bradley_terry gives none
        return np.where(_played(rates).any(axis=1), 0.0, np.nan)
    rng = np.random.default_rng(seed)
    fits = []
    for _ in range(draws):
        draw = rates.copy()
        shift = rng.standard_normal((n, n)) * np.nan_to_num(errors)
        upper = np.clip(rates + shift, 0.0, 1.0)
        draw[noisy] = upper[noisy]
        draw.T[noisy] = 1.0 - upper[noisy]
        fits.append(bradley_terry(draw, tolerance=1e-6))
    return np.std(fits, axis=0, ddof=1)


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``index`` is the entrant's position in the rates matrix."""

    rank: int
    index: int
    name: str
    points: int
    win_rate: float
    rating: float
    opponents: int  # opponents with a result
    rating_error: float = 0.0  # standard error of the rating from Monte Carlo noise
    undecided: int = 0  # Monte Carlo pairs still undecided at their cap: points that hang


def standings(
    names: list[str],
    rates: np.ndarray,
    threshold: float = DEFAULT_THRESHOLD,
    errors: np.ndarray | None = None,
    undecided: np.ndarray | None = None,
    score_undecided: bool = True,
) -> list[Standing]:
    """The standings, best first: by match points, then average win rate, rating and name.

    Rank depends on match points alone (the contest's rule), so entrants level on points share a
    rank; the other keys only order the lines within a rank. ERRORS (standard errors of the
    rates, 0 where exact) give the ratings' error bars; UNDECIDED marks the pairs whose point
    hangs (see ``match_points``).
    """
    points = match_points(rates, threshold, undecided, score_undecided)
    averages = average_win_rates(rates)
    ratings = bradley_terry(rates)
    spread = np.zeros(len(names)) if errors is None else rating_errors(rates, errors)
    hanging = np.zeros(len(names), int) if undecided is None else undecided.sum(axis=1)
    opponents = (~np.isnan(rates)).sum(axis=1)

    def order(i: int) -> tuple:
        avg = averages[i] if not np.isnan(averages[i]) else -1.0
        rating = ratings[i] if not np.isnan(ratings[i]) else -math.inf
        return (-points[i], -avg, -rating, names[i], i)

    ordered = sorted(range(len(names)), key=order)
    ranks = shared_ranks([int(points[i]) for i in ordered])
    return [
        Standing(
            rank,
            i,
            names[i],
            int(points[i]),
            float(averages[i]),
            float(ratings[i]),
            int(opponents[i]),
            float(spread[i]),
            int(hanging[i]),
        )
        for rank, i in zip(ranks, ordered, strict=True)
    ]
