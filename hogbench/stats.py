"""What a Monte Carlo match knows: paired estimates, sequential decisions, SPRT.

The unit of sampling is a *game pair*: two games on one dice stream with the seats swapped
(``simulate.simulate_pairs``). Its score for A is 0, ½, 1, 1½ or 2 points, the *pentanomial*
outcome that fastchess and cutechess-cli report for chess engine matches. The two games of a pair
are correlated (the same luck falls to each seat in turn), so the games are not independent
trials and an interval on single games (Wilson) is wrong, usually too wide. Pairs are
independent: the mean of their scores and its standard error give an honest interval.

Two ways to stop a match once it is decided, both checked against exact values in the tests:

* ``sequential_interval``: blocks of pairs until the interval excludes the threshold. Looking
  after every block would spend the error rate many times over, so each look uses the z that
  splits the error between the looks (Bonferroni over the planned number of looks).
* ``Sprt``: Wald's sequential probability ratio test between win rates P0 and P1, in the
  generalised (normal) form fastchess and OpenBench use, on the pair scores.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

#: A pair's score for A, as a fraction of its two games, by pentanomial outcome.
PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
CONFIDENCE = 0.95


def pentanomial(joint: np.ndarray) -> np.ndarray:
    """Joint pair counts [A-first result, A-second result] with results (A won, A lost, tie)
    -> the number of pairs in which A scored 0, ½, 1, 1½ and 2 points."""
    points = np.array([2, 0, 1])  # half-points of one game, by result
    counts = np.zeros(5, dtype=np.int64)
    for first in range(3):
        for second in range(3):
            counts[points[first] + points[second]] += int(joint[first, second])
    return counts


def z_for(confidence: float) -> float:
    """The two-sided normal quantile for CONFIDENCE (1.96 for 0.95)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


@dataclass(frozen=True)
class PairedEstimate:
    """A's win rate from pentanomial pair counts: the mean pair score, with its error."""

    counts: tuple[int, ...]  # pairs with 0, ½, 1, 1½, 2 points for A

    @classmethod
    def from_joint(cls, joint: np.ndarray) -> PairedEstimate:
        return cls(tuple(int(c) for c in pentanomial(joint)))

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def win_rate(self) -> float:
        """The mean score per game (a tie counts half)."""
        if not self.pairs:
            return float("nan")
        return float(np.dot(self.counts, PAIR_SCORES) / self.pairs)

    @property
    def variance(self) -> float:
        """The variance of one pair's score (per game), from the observed outcomes."""
        if not self.pairs:
            return float("nan")
        p = np.asarray(self.counts) / self.pairs
        mean = float(np.dot(p, PAIR_SCORES))
        return max(0.0, float(np.dot(p, PAIR_SCORES**2)) - mean * mean)

    @property
    def standard_error(self) -> float:
        return math.sqrt(self.variance / self.pairs) if self.pairs else float("nan")

    def interval(self, confidence: float = CONFIDENCE) -> tuple[float, float]:
        """The normal interval on the mean pair score, clipped to [0, 1]."""
        half = z_for(confidence) * self.standard_error
        return max(0.0, self.win_rate - half), min(1.0, self.win_rate + half)

    def to_dict(self, confidence: float = CONFIDENCE) -> dict:
        low, high = self.interval(confidence)
        return {
            "pairs": self.pairs,
            "pentanomial": list(self.counts),
            "win_rate": self.win_rate,
            "standard_error": self.standard_error,
            "confidence": confidence,
            "ci_low": low,
            "ci_high": high,
        }


def elo_difference(score: float) -> float:
    """The Elo difference that expects SCORE (a win rate, ties half): -400 log10(1/score - 1),
    the logistic model chess-engine testers (fastchess, cutechess-cli) report. Infinite at a
    score of 0 or 1, where no finite rating gap predicts it."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def likelihood_of_superiority(estimate: PairedEstimate) -> float:
    """The chance that A is truly the stronger (its win rate above 50%) given the pairs
    played: the normal approximation on the mean pair score, Phi((score - 1/2) / SE), as
    fastchess computes it from pentanomial counts. 1/2 when nothing tells the sides apart."""
    error = estimate.standard_error
    if not estimate.pairs or math.isnan(error):
        return 0.5
    if error == 0.0:
        return 0.5 if estimate.win_rate == 0.5 else float(estimate.win_rate > 0.5)
    return NormalDist().cdf((estimate.win_rate - 0.5) / error)


def seat_correlation(joint: np.ndarray) -> float:
    """The correlation between A's scores in the two games of a pair (NaN if one is constant)."""
    score = np.array([1.0, 0.0, 0.5])
    n = joint.sum()
    p = joint / n
    first, second = p.sum(axis=1), p.sum(axis=0)
    m1, m2 = float(first @ score), float(second @ score)
    v1 = float(first @ score**2) - m1 * m1
    v2 = float(second @ score**2) - m2 * m2
    cov = float(score @ p @ score) - m1 * m2
    if v1 <= 0 or v2 <= 0:
        return float("nan")
    return cov / math.sqrt(v1 * v2)


# -- deciding: play until the interval excludes the threshold -----------------------------------
ABOVE, BELOW, UNDECIDED = "above", "below", "undecided"


def looks(first_pairs: int, max_pairs: int) -> list[int]:
    """The planned totals of pairs at which a sequential match looks: doubling from FIRST_PAIRS
    up to MAX_PAIRS (the last look is the cap itself)."""
    totals = []
    n = max(1, first_pairs)
    while n < max_pairs:
        totals.append(n)
        n *= 2
    totals.append(max_pairs)
    return totals


def sequential_z(n_looks: int, confidence: float = CONFIDENCE) -> float:
    """The z each of N_LOOKS looks uses so that the chance of any wrong decision stays within
    1 - CONFIDENCE (Bonferroni: each look may spend 1/N_LOOKS of the error)."""
    return NormalDist().inv_cdf(1 - (1 - confidence) / (2 * n_looks))


def decision(estimate: PairedEstimate, threshold: float, z: float) -> str:
    """ABOVE or BELOW when the interval of half-width z * SE excludes THRESHOLD, else UNDECIDED.

    A match with no variance (every pair scored the same) is decided by its mean.
    """
    se = estimate.standard_error
    if estimate.win_rate - z * se > threshold:
        return ABOVE
    if estimate.win_rate + z * se < threshold:
        return BELOW
    return UNDECIDED


# -- SPRT -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Sprt:
    """Wald's SPRT of H0: win rate P0 against H1: win rate P1, on pair scores.

    The log-likelihood ratio is the generalised one for a normal mean with the variance
    estimated from the pairs so far: LLR = N (P1 - P0) (2 x̄ - P0 - P1) / (2 s²). The test
    accepts H1 when LLR reaches log((1 - beta) / alpha), H0 when it falls to
    log(beta / (1 - alpha)).
    """

    p0: float
    p1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not 0 <= self.p0 < self.p1 <= 1:
            raise ValueError(f"SPRT needs 0 <= P0 < P1 <= 1, got {self.p0}, {self.p1}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("alpha and beta must lie between 0 and 0.5")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, estimate: PairedEstimate) -> float:
        n, var = estimate.pairs, estimate.variance
        if n == 0:
            return 0.0
        var = max(var, 1e-12)  # every pair alike so far: the evidence is as strong as it gets
        mean = estimate.win_rate
        return n * (self.p1 - self.p0) * (2 * mean - self.p0 - self.p1) / (2 * var)

    def verdict(self, estimate: PairedEstimate) -> str | None:
        """'H1' (accept P1), 'H0' (accept P0), or None to go on."""
        llr = self.llr(estimate)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def fixed_pairs(self, variance: float) -> int:
        """Pairs a one-sided fixed-sample test of the same alpha and beta needs, for a pair-score
        VARIANCE: ((z_alpha + z_beta) sigma / (P1 - P0))^2."""
        z = NormalDist().inv_cdf(1 - self.alpha) + NormalDist().inv_cdf(1 - self.beta)
        return math.ceil((z * math.sqrt(variance) / (self.p1 - self.p0)) ** 2)
