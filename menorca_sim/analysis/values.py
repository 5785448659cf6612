"""A value by random assignment: the price at which holding a thing leaves a seat's
chance to win where it was without it.

The design (issue 41): on common seeds, arm "the designated seat holds X, bought at
price p before the auction" against arm "X out of the game", the auction of the other
legacies the same in both; the response at p is the seat's win share in the first arm
less its win share in the second, game by game. X's value is the p where the response
meets 0. The seat order is the same design: the response is a seat's win share at an
extra starting cash c, and the value is the c at which it meets the fair share 1/N.

How the curve is read, and why:

- Fitted over the whole range as a monotone curve, by isotonic regression
  (`scipy.optimize.isotonic_regression`, pool adjacent violators): paying more can only
  hurt the payer and extra cash can only help its receiver, but nothing says how (a
  logistic or a line imposes a shape the games need not have, and a fit around the
  crossing only lets points far from it decide nothing). The crossing of the monotone
  fit is interpolated between the two points around it, never extrapolated past the
  range.
- Monotone where the data are, not by fiat: before fitting, every pair of points is
  tested for a rise where the response should fall (one-sided paired t tests on the
  common seeds, `scipy.stats`, corrected together by Holm). Where one rises
  significantly the result is "not monotone" with every crossing of the point means,
  and no value.
- A point whose response is the same in every game (the two arms played identically,
  or an outcome fixed by the design) measures nothing about the games: it is left out
  of the fit and named.
- A response whose two ends do not differ significantly (paired t test) is "flat": no
  value is read off it.
- The interval is a percentile bootstrap over games, not rows: a game (its seed, every
  arm and designated seat of it) is resampled whole, so that the arms stay paired.
  Written here rather than with `scipy.stats.bootstrap` because a resample may have no
  crossing at all, and the share of those is itself the verdict: where more than 5 %
  of resamples do not cross within the range, the interval is unbounded.
- "Reproduced": the estimate on an independent seed set lies within the first's
  interval."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import optimize
from scipy import stats as sps

from menorca_sim.analysis.stats import CONFIDENCE, holm

RESAMPLES = 400

IN_RANGE = "in range"
ABOVE, BELOW = "above the range", "below the range"  # the fitted response never meets the target in the range
NOT_MONOTONE = "not monotone"
FLAT = "flat"


@dataclass(frozen=True)
class Value:
    estimate: float  # nan unless status is IN_RANGE
    low: float
    high: float
    status: str
    crossings: tuple[float, ...]  # where the point means cross the target (every one, in order)
    points: int  # points fitted
    games: int  # distinct units (games) resampled
    left_out: tuple[float, ...] = field(default=())  # points whose response is the same in every game

    def holds(self, x: float) -> bool:
        return self.low <= x <= self.high


def value_at_target(x: np.ndarray, y: np.ndarray, game: np.ndarray, target: float, rng: np.random.Generator,
                    increasing: bool, resamples: int = RESAMPLES, confidence: float = CONFIDENCE) -> Value:
    """The x at which the response `y` meets `target` (module docstring): `x` the price
    or cash of each row, `y` its response, `game` the unit a row belongs to (rows of a
    game at one x are averaged); `increasing`: the direction the response must take in x."""
    every, table = _table(np.asarray(x, float), np.asarray(y, float), np.asarray(game))
    fixed = np.nanmax(table, axis=0) == np.nanmin(table, axis=0)
    points, table = every[~fixed], table[:, ~fixed]
    left_out = tuple(float(p) for p in every[fixed])
    means = np.nanmean(table, axis=0)
    crossings = _crossings(points, means, target)
    n_games = table.shape[0]
    if points.size < 2:
        return Value(np.nan, -np.inf, np.inf, FLAT, crossings, int(points.size), n_games, left_out)
    if _rises_against(table, increasing, confidence):
        return Value(np.nan, -np.inf, np.inf, NOT_MONOTONE, crossings, int(points.size), n_games, left_out)
    ends = table[:, [0, -1]]
    ends = ends[~np.isnan(ends).any(axis=1)]
    if ends.shape[0] < 2 or not _significant(sps.ttest_rel(ends[:, 1], ends[:, 0]).pvalue, 1 - confidence):
        return Value(np.nan, -np.inf, np.inf, FLAT, crossings, int(points.size), n_games, left_out)
    estimate, status = _fit_crossing(points, table, target, increasing)
    if status != IN_RANGE:
        return Value(np.nan, -np.inf, np.inf, status, crossings, int(points.size), n_games, left_out)
    roots = np.array([_fit_crossing(points, table[rng.integers(0, n_games, n_games)], target, increasing)[0]
                      for _ in range(resamples)])
    if np.isfinite(roots).mean() < confidence:
        low, high = -np.inf, np.inf
    else:
        low, high = np.nanpercentile(roots, [50 - 50 * confidence, 50 + 50 * confidence])
    return Value(float(estimate), float(low), float(high), IN_RANGE, crossings, int(points.size), n_games, left_out)


def reproduced(first: Value, second: Value) -> bool:
    """The second estimate, on independent seeds, lies within the first's interval."""
    return first.status == second.status == IN_RANGE and first.holds(second.estimate)


def _table(x: np.ndarray, y: np.ndarray, game: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points in order and a games x points table of mean responses (nan: not played)."""
    points, column = np.unique(x, return_inverse=True)
    games, row = np.unique(game, return_inverse=True)
    sums = np.zeros((games.size, points.size))
    counts = np.zeros_like(sums)
    np.add.at(sums, (row, column), y)
    np.add.at(counts, (row, column), 1)
    with np.errstate(invalid="ignore"):
        return points, sums / counts


def _significant(p: float, alpha: float) -> bool:
    return bool(np.isfinite(p) and p < alpha)


def _rises_against(table: np.ndarray, increasing: bool, confidence: float) -> bool:
    """Whether any later point's response lies beyond an earlier one's against the
    expected direction, significantly after Holm over every pair."""
    sign = -1.0 if increasing else 1.0  # the direction a violation takes
    p_values = []
    for i in range(table.shape[1]):
        for j in range(i + 1, table.shape[1]):
            d = sign * (table[:, j] - table[:, i])
            d = d[~np.isnan(d)]
            if d.size < 2:
                continue
            if np.all(d == d[0]):  # no spread: a rise in every game is certain, none is no evidence
                p_values.append(0.0 if d[0] > 0 else 1.0)
            else:
                p_values.append(float(sps.ttest_1samp(d, 0.0, alternative="greater").pvalue))
    return bool(p_values) and bool((holm(p_values) < 1 - confidence).any())


def _fit_crossing(points: np.ndarray, table: np.ndarray, target: float, increasing: bool) -> tuple[float, str]:
    """The crossing of the monotone least-squares fit of the point means (weighted by
    the games at each point) with the target, and IN_RANGE, ABOVE or BELOW."""
    counts = (~np.isnan(table)).sum(axis=0)
    kept = counts > 0
    if kept.sum() < 2:
        return np.nan, BELOW
    means = np.nansum(table[:, kept], axis=0) / counts[kept]
    fit = optimize.isotonic_regression(means, weights=counts[kept], increasing=increasing).x - target
    xs = points[kept]
    if np.all(fit > 0) or np.all(fit < 0):
        # wholly on one side: where the crossing lies, in terms of the rule's value
        above = (fit[0] > 0) != increasing
        return np.nan, ABOVE if above else BELOW
    at = np.flatnonzero(fit == 0)
    if at.size:  # the fit sits on the target over a stretch: its middle
        return float((xs[at[0]] + xs[at[-1]]) / 2), IN_RANGE
    i = int(np.flatnonzero(np.sign(fit[:-1]) != np.sign(fit[1:]))[0])
    return float(xs[i] + (xs[i + 1] - xs[i]) * fit[i] / (fit[i] - fit[i + 1])), IN_RANGE


def _crossings(points: np.ndarray, means: np.ndarray, target: float) -> tuple[float, ...]:
    """Every place the piecewise-linear path through the point means meets the target."""
    d = means - target
    out = [float(points[i]) for i in range(points.size) if d[i] == 0]
    for i in range(points.size - 1):
        if d[i] * d[i + 1] < 0:
            out.append(float(points[i] + (points[i + 1] - points[i]) * d[i] / (d[i] - d[i + 1])))
    return tuple(sorted(out))
