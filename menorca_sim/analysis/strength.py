"""Strength of play. Each population is one of three roles:

- a **rung**: one policy spec in every seat; rungs are ordered by their measured
  strength (the Bradley-Terry ratings of a cross-rung pool: a population seating the
  rungs' players together), weakest first, or in the experiment file's order where no
  pool rates them;
- a **style**: several policies of one strength at a table (or one policy the pool
  does not rate), so that a finding can be checked across playing styles;
- **mixed strength**: policies whose ratings differ by more than `STRENGTH_GAP`;
  such a population feeds the strategy comparisons (ratings, head to head) only,
  never an effect of a rule: who sits beside whom would be part of the effect.

A fact tested in every rung gets one label for how it moves with strength, and one
for whether it holds across styles."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl
import scipy.stats as sps

from menorca_sim.analysis import stats
from menorca_sim.analysis.dataset import Dataset, planned_populations

STRENGTH_GAP = 0.5  # log-odds (about 1.65 x the odds): policies further apart than this mix strengths
STABLE, GROWS, FADES = "stable with strength", "grows with strength", "fades with strength"
REVERSES, WEAK_ONLY = "reverses with strength", "weak play only"
ACROSS_STYLES, STYLE_DEPENDENT = "holds across styles", "style-dependent"
RUNG, STYLE, MIXED = "rung", "style", "mixed strength"


@dataclass(frozen=True)
class Roles:
    rungs: tuple[str, ...] = ()  # weakest first
    styles: tuple[str, ...] = ()
    mixed: tuple[str, ...] = ()
    strength: dict[str, float] = field(default_factory=dict)  # a rung's rating in the cross-rung pool
    policy: dict[str, str] = field(default_factory=dict)  # a rung's policy spec

    @property
    def of_one_strength(self) -> list[str]:
        """The populations whose games measure the rules: rungs and styles."""
        return [*self.rungs, *self.styles]

    @property
    def top(self) -> str | None:
        return self.rungs[-1] if self.rungs else None

    def table(self) -> pl.DataFrame:
        rows = ([(p, RUNG, k + 1, self.policy.get(p, ""), self.strength.get(p, np.nan))
                 for k, p in enumerate(self.rungs)]
                + [(p, STYLE, None, "", np.nan) for p in self.styles]
                + [(p, MIXED, None, "", np.nan) for p in self.mixed])
        return pl.DataFrame(rows, schema={"population": pl.String, "role": pl.String, "rung": pl.Int64,
                                          "policy": pl.String, "strength": pl.Float64}, orient="row")


def roles(ds: Dataset, ratings: pl.DataFrame, column: str) -> Roles:
    """Each population's role, from its players and the ratings by `column` (policy, or
    the auction strategy where it names the players one to one)."""
    order = planned_populations(ds)
    lineups = {p: sorted(g["policy"].unique().to_list())
               for (p,), g in ds.players.select("population", "policy").unique().group_by("population")}
    to_policy = {} if column == "policy" else dict(ds.players.select(column, "policy").unique().iter_rows())
    rated: dict[str, dict[str, float]] = {}  # population -> policy -> mean strength over variants
    for (pop, name), g in ratings.group_by("population", column):
        rated.setdefault(pop, {})[to_policy.get(name, name)] = float(g["strength"].mean())
    homogeneous = {p: lineups[p][0] for p in order if len(lineups.get(p, [])) == 1}
    mixed = tuple(p for p in order if len(lineups.get(p, [])) > 1 and _spread(rated.get(p, {})) > STRENGTH_GAP)
    pools = [p for p in mixed if len(set(homogeneous.values()) & set(rated.get(p, {}))) >= 2]
    if pools:  # the first pool's ratings order the rungs it rates
        scale = rated[pools[0]]
        strength = {p: scale[spec] for p, spec in homogeneous.items() if spec in scale}
        rungs = tuple(sorted(strength, key=strength.get))
    else:
        strength, rungs = {}, tuple(homogeneous)
    styles = tuple(p for p in order if p not in rungs and p not in mixed)
    return Roles(rungs, styles, mixed, strength, {p: homogeneous[p] for p in rungs})


def _spread(strengths: dict[str, float]) -> float:
    values = np.array(list(strengths.values()), dtype=float)
    values = values[~np.isnan(values)]
    return float(values.max() - values.min()) if values.size > 1 else 0.0


def _effect(c: stats.Comparison) -> tuple[float, float]:
    """A comparison's effect (estimate - reference) and its standard error, from its
    raw interval (a normal approximation is all the trend test needs)."""
    se = (c.high - c.low) / (2 * sps.norm.ppf(0.5 + stats.CONFIDENCE / 2))
    return c.estimate - c.reference, se


def strength_label(by_population: dict[str, stats.Comparison], r: Roles) -> str | None:
    """How a fact moves with strength, from its Holm-corrected tests in each rung: None
    where fewer than two rungs tested it or none found it. Significant in opposite
    directions: REVERSES; only at the lowest rung: WEAK_ONLY; else the trend of the
    effect (in the direction found) over the rungs, a weighted least-squares slope on
    the rung's place tested at 5 %: GROWS or FADES, and STABLE where it is flat."""
    tested = [(k, by_population[p]) for k, p in enumerate(r.rungs) if p in by_population]
    found = [c for _, c in tested if c.significant]
    if len(tested) < 2 or not found:
        return None
    signs = {np.sign(c.estimate - c.reference) for c in found}
    if len(signs) > 1:
        return REVERSES
    if tested[0][0] == 0 and len(found) == 1 and found[0] is tested[0][1]:
        return WEAK_ONLY
    sign = signs.pop()
    x = np.array([k for k, _ in tested], dtype=float)
    effect, se = np.array([_effect(c) for _, c in tested]).T
    usable = np.isfinite(effect) & np.isfinite(se) & (se > 0)
    if usable.sum() < 2:
        return STABLE
    x, y, w = x[usable], sign * effect[usable], 1 / se[usable] ** 2
    centred = x - np.average(x, weights=w)
    slope = float(np.sum(w * centred * y) / np.sum(w * centred ** 2))
    p = float(2 * sps.norm.sf(abs(slope) * np.sqrt(np.sum(w * centred ** 2))))
    if p >= stats.ALPHA:
        return STABLE
    return GROWS if slope > 0 else FADES


def style_label(by_population: dict[str, stats.Comparison], r: Roles) -> str | None:
    """ACROSS_STYLES where the fact is significant, one way, in every style population
    that tested it; STYLE_DEPENDENT where only in some, or both ways; None where no
    style population tested it or none found it."""
    tested = [by_population[p] for p in r.styles if p in by_population]
    found = [c for c in tested if c.significant]
    if not found:
        return None
    one_way = len({np.sign(c.estimate - c.reference) for c in found}) == 1
    return ACROSS_STYLES if len(found) == len(tested) and one_way else STYLE_DEPENDENT


def per_rung(by_population: dict[str, stats.Comparison], r: Roles) -> pl.DataFrame:
    """A fact's estimate in each rung that tested it, weakest first, with the interval
    printed beside its label (Holm-adjusted, as the label is)."""
    rows = [(k + 1, p, by_population[p].estimate, by_population[p].holm_low, by_population[p].holm_high,
             by_population[p].reference, by_population[p].significant)
            for k, p in enumerate(r.rungs) if p in by_population]
    return pl.DataFrame(rows, schema={"rung": pl.Int64, "population": pl.String, "estimate": pl.Float64,
                                      "low": pl.Float64, "high": pl.Float64, "reference": pl.Float64,
                                      "significant": pl.Boolean}, orient="row")
