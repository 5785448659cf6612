"""Honest statistics for balance reports: intervals for rates and means, paired
differences between rule variants, Bradley-Terry ratings for strategies, and the Holm
correction over every comparison a report makes.

All intervals are two-sided at `CONFIDENCE` unless asked otherwise. Sample sizes are
whatever the experiment fixed in advance: nothing here looks at the data to decide
when to stop."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
from scipy import stats as sps

CONFIDENCE = 0.95
ALPHA = 0.05  # family-wise error rate the Holm correction controls


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float


def z_value(confidence: float) -> float:
    """The normal quantile of a two-sided interval at `confidence`."""
    return float(sps.norm.ppf(0.5 + confidence / 2))


def wilson_interval(successes: np.ndarray | float, n: np.ndarray | float,
                    confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval (low, high) for a rate, element-wise.

    `successes` may be fractional: a shared win counts 1/k for each of the k tied
    winners, so the successes of a seat are the sum of its win shares."""
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = z_value(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = s / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z / denom * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        # At p = 0 or 1 the bound equals p exactly but rounding can put it a hair past p.
        low, high = np.minimum(centre - half, p), np.maximum(centre + half, p)
    return np.clip(low, 0, 1), np.clip(high, 0, 1)


def rate_test(successes: np.ndarray | float, n: np.ndarray | float,
              expected: np.ndarray | float) -> np.ndarray:
    """Two-sided score test of a rate against `expected`, element-wise.

    This is the test the Wilson interval inverts (p < 1 - confidence exactly when
    `expected` lies outside the interval), and equals Pearson's chi-square on the
    two cells (successes, failures). Fractional win shares have a smaller variance
    than whole wins, so on tied games the test is slightly conservative."""
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    p0 = np.asarray(expected, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (s / n - p0) / np.sqrt(p0 * (1 - p0) / n)
    return 2 * sps.norm.sf(np.abs(z))


def mean_t_interval(mean: np.ndarray, sd: np.ndarray, n: np.ndarray,
                    confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """Student-t interval (low, high) for means from their summaries, element-wise
    (NaN where n < 2; a zero spread gives a zero-width interval)."""
    mean, sd, n = (np.asarray(a, dtype=float) for a in (mean, sd, n))
    with np.errstate(invalid="ignore", divide="ignore"):
        half = sps.t.ppf(0.5 + confidence / 2, n - 1) * sd / np.sqrt(n)
    half = np.where(n >= 2, half, np.nan)
    return mean - half, mean + half


def excess_rate(observed: np.ndarray, expected: np.ndarray, variance: np.ndarray, n: np.ndarray,
                confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """How much more often a group wins than each member's own stratum would predict:
    (observed - expected) / n with its interval and the score test's p-value, where
    `expected` sums each member's stratum rate p and `variance` sums p (1 - p), all
    element-wise (`n`, `variance` already scaled to the distinct games). A stratified
    score test (as Mantel-Haenszel's): it stays honest for rare wins and small groups,
    where a t test on the 0/1 outcomes would not."""
    o, e, v, n = (np.asarray(a, dtype=float) for a in (observed, expected, variance, n))
    with np.errstate(invalid="ignore", divide="ignore"):
        excess = (o - e) / n
        half = z_value(confidence) * np.sqrt(v) / n
        p = 2 * sps.norm.sf(np.abs(o - e) / np.sqrt(v))
    p = np.where(v > 0, p, np.where(o == e, 1.0, 0.0))
    return excess, excess - half, excess + half, p


def mean_interval(values: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE,
                  method: str = "t", rng: np.random.Generator | None = None,
                  resamples: int = 2000) -> Interval:
    """Mean with a Student-t interval, or a percentile bootstrap interval drawn with
    the caller's seeded generator (`method="bootstrap"`, `rng` required)."""
    if method not in ("t", "bootstrap"):
        raise ValueError(f"unknown interval method {method!r} (t | bootstrap)")
    if method == "bootstrap" and rng is None:
        raise ValueError("a bootstrap interval needs an explicit seeded generator (rng)")
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return Interval(np.nan, np.nan, np.nan)
    mean = float(x.mean())
    if method == "t" or x.size < 2 or np.all(x == x[0]):
        low, high = mean_t_interval(mean, x.std(ddof=1) if x.size > 1 else np.nan, x.size, confidence)
    else:
        res = sps.bootstrap((x,), np.mean, n_resamples=resamples, confidence_level=confidence,
                            method="percentile", rng=rng, vectorized=True)
        low, high = res.confidence_interval
    return Interval(mean, float(low), float(high))


@dataclass(frozen=True)
class PairedDifference:
    mean: float  # mean of (a - b) over the pairs
    low: float
    high: float
    p_value: float
    n: int


def paired_difference(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray,
                      confidence: float = CONFIDENCE, units: float | None = None) -> PairedDifference:
    """Mean difference a - b over pairs (the same seed under two variants), its t
    interval and the paired t test's p-value. `units`: how many independent pairs the
    evidence holds (the distinct ones, where pairs repeat; default: every pair)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    d = a - b
    n = int(d.size)
    m = float(n if units is None else units)
    if n < 2 or m < 2:
        return PairedDifference(float(d.mean()) if n else np.nan, np.nan, np.nan, np.nan, n)
    mean = float(d.mean())
    if np.all(d == d[0]):
        # No spread: the difference is known exactly (a t test would divide by zero).
        return PairedDifference(mean, mean, mean, 1.0 if mean == 0 else 0.0, n)
    se = float(d.std(ddof=1)) / np.sqrt(m)
    half = float(sps.t.ppf(0.5 + confidence / 2, m - 1)) * se
    p = float(2 * sps.t.sf(abs(mean) / se, m - 1))
    return PairedDifference(mean, mean - half, mean + half, p, n)


def design_factor(distinct: np.ndarray | float, games: np.ndarray | float) -> np.ndarray:
    """The share of a group's games that are distinct games (1 where every game differs).
    A game played again identically (same setup, same actions) adds no evidence: counts
    multiplied by this factor are the counts of independent games behind an estimate,
    so intervals and tests computed from them are as wide as the evidence (Kish's
    effective sample size for exact replicates)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.asarray(distinct, dtype=float) / np.asarray(games, dtype=float)
    return np.where(np.isfinite(f) & (f > 0), f, 1.0)


def holm(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm step-down adjusted p-values (NaN stays NaN and does not count as a test).
    A comparison is significant at family-wise level alpha when its adjusted p < alpha."""
    p = np.asarray(p_values, dtype=float)
    adjusted = np.full(p.shape, np.nan)
    tested = np.flatnonzero(~np.isnan(p))
    m = tested.size
    if m == 0:
        return adjusted
    order = tested[np.argsort(p[tested], kind="stable")]
    scaled = p[order] * (m - np.arange(m))
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return adjusted


@dataclass
class Comparison:
    """One significance test in a report. `sentence` states the result in plain words;
    `p_holm` and `significant` are filled in by `apply_holm` over the whole report."""
    section: str
    subject: str  # what is compared, e.g. "3 players, seat 1"
    estimate: float
    low: float
    high: float
    reference: float  # the value a balanced game would show (fair share, or 0 difference)
    p_value: float
    sentence: str
    p_holm: float = np.nan
    significant: bool = False
    row: dict = field(default_factory=dict)  # the table row it tests: its keys name the fact (players, seat, ...)
    holm_low: float = np.nan  # the interval at Holm's level for this test (`apply_holm`)
    holm_high: float = np.nan
    bounds: tuple[float, float] = (-np.inf, np.inf)  # what the estimate can be (a share: 0 to 1)


def apply_holm(comparisons: list[Comparison], alpha: float = ALPHA) -> None:
    """Correct every comparison of a report together (one family), and widen each
    interval to Holm's level for its test (alpha / (m - rank)): each side of the raw
    interval scaled by the ratio of the normal quantiles, so that an interval printed
    beside a Holm-based label excludes the reference when the label says it does
    (exactly for the normal-approximation tests, closely for the others)."""
    adjusted = holm([c.p_value for c in comparisons])
    order = sorted(range(len(comparisons)), key=lambda i: comparisons[i].p_value)
    z = z_value(1 - alpha)
    for rank, i in enumerate(order):
        c = comparisons[i]
        c.p_holm = float(adjusted[i])
        c.significant = bool(adjusted[i] < alpha)
        widen = z_value(1 - alpha / (len(comparisons) - rank)) / z
        c.holm_low = max(c.bounds[0], c.estimate - (c.estimate - c.low) * widen)
        c.holm_high = min(c.bounds[1], c.estimate + (c.high - c.estimate) * widen)


@dataclass(frozen=True)
class Ratings:
    names: list[str]
    strength: np.ndarray  # log-strength, mean 0 over the names
    low: np.ndarray
    high: np.ndarray
    games: int


MM_ITERATIONS = 5000  # at most, per Bradley-Terry fit
MM_TOL = 1e-9  # converged when no strength moves by more


def _mm_fit(wins: np.ndarray, iterations: int, tol: float) -> np.ndarray:
    """Hunter's MM algorithm on a stack of win matrices (r, k, k) in which every
    strategy both won and lost; each matrix stops at its own convergence, so a stack
    gives the same strengths as fitting the matrices one by one."""
    total = wins + wins.transpose(0, 2, 1)
    won = wins.sum(axis=2)
    p = np.ones(won.shape)
    active = np.arange(won.shape[0])
    for _ in range(iterations):
        if active.size == 0:
            break
        q = p[active]
        new = won[active] / (total[active] / (q[:, :, None] + q[:, None, :])).sum(axis=2)
        new /= np.exp(np.mean(np.log(new), axis=1, keepdims=True))
        done = np.max(np.abs(new - q), axis=1) < tol
        p[active] = new
        active = active[~done]
    return np.log(p)


def _fit_bradley_terry(wins: np.ndarray, iterations: int = MM_ITERATIONS, tol: float = MM_TOL) -> np.ndarray:
    """Log-strengths (mean 0) maximising the Bradley-Terry likelihood, by Hunter's MM
    algorithm. wins[i, j] = (possibly fractional) wins of i over j. A strategy that
    never won gets -inf, one that never lost +inf, one that never played NaN; the
    others are fitted among themselves."""
    won, lost = wins.sum(axis=1), wins.sum(axis=0)
    result = np.full(wins.shape[0], np.nan)
    result[(won == 0) & (lost > 0)] = -np.inf
    result[(lost == 0) & (won > 0)] = np.inf
    fit = np.flatnonzero((won > 0) & (lost > 0))
    if 0 < fit.size < wins.shape[0]:
        # Without the degenerate ones, others may become degenerate: recurse.
        result[fit] = _fit_bradley_terry(wins[np.ix_(fit, fit)], iterations, tol)
    if fit.size < wins.shape[0]:
        return result
    return _mm_fit(wins[None], iterations, tol)[0]


def _fit_many(wins: np.ndarray) -> np.ndarray:
    """`_fit_bradley_terry` of each matrix of a stack (r, k, k): the regular ones
    together, the rare ones with a degenerate strategy one by one."""
    regular = ((wins.sum(axis=2) > 0) & (wins.sum(axis=1) > 0)).all(axis=1)
    result = np.empty(wins.shape[:2])
    result[regular] = _mm_fit(wins[regular], MM_ITERATIONS, MM_TOL)
    for r in np.flatnonzero(~regular):
        result[r] = _fit_bradley_terry(wins[r])
    return result


def _game_patterns(game: np.ndarray, i: np.ndarray, j: np.ndarray, score: np.ndarray, copies: np.ndarray,
                   k: int) -> tuple[np.ndarray, np.ndarray]:
    """The sufficient statistics of the pair rows: every distinct game outcome (its
    multiset of (i, j, score) pairs) as its (k, k) win matrix, and how many games had it
    (each game counting its `copies`).
    Games with the same pattern are interchangeable for the fit and the bootstrap."""
    scores, s_index = np.unique(score, return_inverse=True)
    code = (i * k + j) * scores.size + s_index
    g_index = np.unique(game, return_inverse=True)[1]
    order = np.lexsort((code, g_index))
    g_sorted = g_index[order]
    starts = np.flatnonzero(np.diff(g_sorted, prepend=-1))
    position = np.arange(g_sorted.size) - starts[g_sorted]  # of the pair within its game
    keys = np.full((starts.size, position.max(initial=-1) + 1), -1)
    keys[g_sorted, position] = code[order]
    # One integer per game naming its row of keys, renumbered densely after each column
    # so it never overflows (np.unique(keys, axis=0) sorts rows as bytes, many times slower).
    row_id = np.zeros(keys.shape[0], dtype=np.int64)
    for column in keys.T:
        row_id = np.unique(row_id * (k * k * scores.size + 1) + column + 1, return_inverse=True)[1]
    _, first = np.unique(row_id, return_index=True)
    patterns = keys[first]
    counts = np.bincount(row_id, copies[order][starts], first.size).astype(np.int64)
    wins = np.zeros((patterns.shape[0], k * k))
    rows = np.broadcast_to(np.arange(patterns.shape[0])[:, None], patterns.shape)
    played = patterns >= 0
    pair, s = np.divmod(patterns[played], scores.size)
    a, b = np.divmod(pair, k)
    np.add.at(wins, (rows[played], a * k + b), scores[s])
    np.add.at(wins, (rows[played], b * k + a), 1 - scores[s])
    return wins.reshape(-1, k, k), counts


def bradley_terry(names: Sequence[str], game: np.ndarray, i: np.ndarray, j: np.ndarray,
                  score: np.ndarray, rng: np.random.Generator, resamples: int = 200,
                  confidence: float = CONFIDENCE, copies: np.ndarray | None = None) -> Ratings:
    """Bradley-Terry ratings of strategies from pairwise results, with percentile
    intervals from a bootstrap over whole games.

    A game with k players is decomposed by the caller into its pairs of different
    strategies: one row (game, i, j, score) per pair, score 1 if i finished ahead of j,
    0.5 on a tie, 0 if behind; `copies` (per row, default 1) says how many identical
    games the row's game stands for. The pairs of one game are not independent, so the
    bootstrap resamples games, not pairs: it draws how many times each distinct game
    pattern is resampled (multinomial), which is resampling the games themselves. A
    strategy that never lost (never won) has strength +inf (-inf) and no interval."""
    k = len(names)
    game = np.asarray(game)
    copies = np.ones(game.size, dtype=np.int64) if copies is None else np.asarray(copies)
    patterns, counts = _game_patterns(game, np.asarray(i), np.asarray(j), np.asarray(score, dtype=float),
                                      copies, k)
    games = int(counts.sum())
    strength = _fit_bradley_terry(np.tensordot(counts.astype(float), patterns, axes=1))
    low, high = np.full(k, np.nan), np.full(k, np.nan)
    if games:
        weights = rng.multinomial(games, counts / games, size=resamples).astype(float)
        draws = _fit_many(np.tensordot(weights, patterns, axes=1))
        draws[~np.isfinite(draws)] = np.nan
        tail = (1 - confidence) / 2 * 100
        for col in np.flatnonzero(np.isfinite(strength)):
            if np.isfinite(draws[:, col]).any():
                low[col], high[col] = np.nanpercentile(draws[:, col], [tail, 100 - tail])
    return Ratings(list(names), strength, low, high, games)


@dataclass(frozen=True)
class FairValue:
    estimate: float  # the swept value at which the fitted curve meets the target
    low: float  # bootstrap percentile interval (may reach past the range, or be infinite)
    high: float
    status: str  # "in range" | "below the range" | "above the range" | "no trend"


def _logistic_fit(x: np.ndarray, y: np.ndarray, iterations: int = 25) -> tuple[float, float]:
    """Intercept and slope of logit(E[y]) = a + b x, y in [0, 1] (fractional wins
    allowed: the quasi-binomial fit), by iteratively reweighted least squares."""
    a, b = 0.0, 0.0
    X = np.column_stack([np.ones_like(x), x])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(a + b * x)))
        w = np.clip(p * (1 - p), 1e-9, None)
        z = a + b * x + (y - p) / w
        XtW = X.T * w
        try:
            a_new, b_new = np.linalg.solve(XtW @ X, XtW @ z)
        except np.linalg.LinAlgError:
            return np.nan, np.nan
        if abs(a_new - a) + abs(b_new - b) < 1e-10:
            return float(a_new), float(b_new)
        a, b = a_new, b_new
    return float(a), float(b)


def _root(x: np.ndarray, y: np.ndarray, target: float) -> float:
    """Where the curve fitted to the two swept values whose means bracket the target
    crosses it (a response that bends, as most do, is only trusted locally); the
    curve over all values where none bracket it (the crossing then lies outside)."""
    values = np.unique(x)
    means = np.array([y[x == v].mean() for v in values])
    side = np.sign(means - target)
    brackets = np.flatnonzero(side[:-1] * side[1:] <= 0)
    if brackets.size:
        i = brackets[0]
        near = (x == values[i]) | (x == values[i + 1])
        x, y = x[near], y[near]
    a, b = _logistic_fit(x, y)
    level = np.log(target / (1 - target))
    return (level - a) / b if b != 0 and np.isfinite(b) else np.nan


def fair_value(x: Sequence[float], y: Sequence[float], target: float, rng: np.random.Generator,
               resamples: int = 400, confidence: float = CONFIDENCE) -> FairValue:
    """The value of a swept rule at which a win share or a rate meets its target: a
    logistic curve fitted to the games around the crossing and solved for the target (see
    `_root`), with a bootstrap interval
    over the games (resampled with the caller's seeded generator). Where the fitted
    trend is too flat to cross the target reliably, the interval is infinite and the
    status says so; a crossing outside the swept range is never extrapolated silently."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    estimate = _root(x, y, target)
    roots = np.array([_root(x[i], y[i], target)
                      for i in (rng.integers(0, x.size, x.size) for _ in range(resamples))])
    lo, hi = np.nanpercentile(roots, [50 - confidence * 50, 50 + confidence * 50]) if np.isfinite(roots).any() \
        else (np.nan, np.nan)
    span = x.max() - x.min()
    # a crossing whose interval reaches more than a range's width past the range is no
    # estimate: the curve is too flat for the games to place it
    reliable = np.isfinite(roots) & (roots > x.min() - span) & (roots < x.max() + span)
    if not np.isfinite(estimate) or reliable.mean() < confidence:
        return FairValue(float(estimate), -np.inf, np.inf, "no trend")
    status = ("below the range" if estimate < x.min() else "above the range" if estimate > x.max()
              else "in range")
    return FairValue(float(estimate), float(lo), float(hi), status)
