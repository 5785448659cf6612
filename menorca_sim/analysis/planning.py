"""How many games a study needs: the sample size for a target effect at a given power,
before the games are played (closed forms for a score test of a rate and a paired t
test of a difference), the gain of pairing measured on a pilot dataset, and the games
a value by random assignment needs for an interval of a given width, scaled from a
pilot's intervals."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import stats as sps

from menorca_sim.analysis.dataset import Dataset, baseline_variant
from menorca_sim.run.parquet_store import CheckedDataset


class PlanError(ValueError):
    """A plan that cannot be made (one line naming the option or the pilot)."""


def _games(root: float, what: str) -> int:
    """`root` squared, games rounded up; a count no study can play (an effect or level so
    small that the closed form would overflow) is a PlanError naming `what`."""
    if not abs(root) < 3e7:  # 10^15 games; also inf and nan
        raise PlanError(f"{what} needs more than 10^15 games: no study can find it")
    return math.ceil(root ** 2)


def _z(p: float) -> float:
    """The standard normal quantile, as a Python float (inf, not a numpy warning, at p = 1)."""
    return float(sps.norm.ppf(p))


def games_for_rate(p0: float, effect: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games for a two-sided test of a rate against `p0` (a seat's fair share) to find
    a true rate `p0 + effect` with probability `power`: the normal-approximation closed
    form n = ((z(1-alpha/2) sqrt(p0 q0) + z(power) sqrt(p1 q1)) / effect)^2."""
    p1 = p0 + effect
    if not 0 < p0 < 1 or not 0 < p1 < 1 or effect == 0:
        raise PlanError(f"effect {effect:g}: a seat's fair share {p0:.3g} plus the effect must be within (0, 1), "
                        f"and the effect non-zero")
    z_a, z_b = _z(1 - alpha / 2), _z(power)
    return _games((z_a * math.sqrt(p0 * (1 - p0)) + z_b * math.sqrt(p1 * (1 - p1))) / effect,
                  f"effect {effect:g} at level {alpha:.3g} (alpha / tests)")


def games_for_paired(sd_difference: float, effect: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Pairs (games per variant, on common seeds) for a two-sided paired test to find a
    mean difference `effect` when the per-pair differences spread `sd_difference`."""
    if effect == 0:
        raise PlanError("effect: expected a non-zero difference, got 0")
    if not sd_difference > 0:
        raise PlanError("the pilot's pairs do not differ at all in the metric: no spread to plan from "
                        "(choose another --metric, or a larger pilot)")
    z_a, z_b = _z(1 - alpha / 2), _z(power)
    return _games((z_a + z_b) * sd_difference / effect, f"effect {effect:g} at level {alpha:.3g} (alpha / tests)")


@dataclass(frozen=True)
class Pairing:
    metric: str
    pairs: int
    sd_difference: float  # spread of the per-seed differences between the two variants
    sd_unpaired: float  # spread of a difference between two independent games
    gain: float  # games saved by pairing: unpaired variance / paired variance


def pilot_pairing(data_dir: str, metric: str = "ors") -> Pairing:
    """The spread of a games-table metric's per-seed difference between a pilot's first
    two variants, against two independent games': how much pairing on common seeds
    saves (a study needs `gain` times fewer games than with independent seeds)."""
    ds = Dataset(CheckedDataset(data_dir).path)  # a damaged pilot is refused, as by `report`
    if metric not in ds.games.columns or not ds.games[metric].dtype.is_numeric():
        numeric = sorted(c for c, t in ds.games.schema.items() if t.is_numeric() and c not in ("game_id", "seed"))
        raise PlanError(f"--metric {metric!r}: not a numeric column of the games table (one of: {', '.join(numeric)})")
    variants = ds.games["variant"].unique().to_list()
    if len(variants) < 2:
        raise PlanError(f"{data_dir}: a pilot needs two variants on common seeds to measure pairing, it has "
                        f"{len(variants)}")
    base = baseline_variant(ds.manifest, variants)
    other = next(v for v in sorted(variants) if v != base)
    games = ds.games.select("variant", "population", "cell", "seed", pl.col(metric).cast(pl.Float64))
    both = games.filter(pl.col("variant") == other).join(games.filter(pl.col("variant") == base),
                                                         on=["population", "cell", "seed"], suffix="_base")
    a, b = both[metric].to_numpy(), both[f"{metric}_base"].to_numpy()
    sd_d = float(np.std(a - b, ddof=1))
    sd_u = float(math.sqrt(np.var(a, ddof=1) + np.var(b, ddof=1)))
    return Pairing(metric, len(a), sd_d, sd_u, sd_u ** 2 / sd_d ** 2 if sd_d > 0 else math.inf)


def seat_plan(exp, effect: float, power: float, level: float) -> list[str]:
    """One line per player count of experiment `exp`: the games a seat test needs to find
    a seat winning `effect` more than its fair share, against what the study plays."""
    lines = []
    for players in sorted({c.players for c in exp.cells}):
        need = games_for_rate(1 / players, effect, level, power)
        cells = sum(1 for c in exp.cells if c.players == players)
        lines.append(f"{exp.name}, {players} players: a seat winning {100 * (1 / players + effect):.1f} % instead of "
                     f"{100 / players:.1f} % is found with power {power:g} at level {level:.3g} in {need} games per "
                     f"seat test ({math.ceil(need / cells)} per cell of {cells}); this study plays {exp.games} per "
                     "cell and population.")
    return lines


def value_plan(data_dir: str, halfwidth: float) -> list[str]:
    """One line per value the pilot in `data_dir` reads by random assignment (seat order,
    legacies: analysis/value_tables.py): the games per cell and variant it needs for an
    interval of at most +-`halfwidth`, against the pilot's games. A bootstrap interval
    narrows as 1 / sqrt(games) (the spread of a mean of paired differences), so the
    pilot's half-width h needs games x (h / halfwidth)^2; a pilot value with no finite
    interval cannot be scaled and is named (widen its range or play a larger pilot).
    The last line is the study's size: the largest of them."""
    from menorca_sim.analysis import sweeps, value_tables

    ds = Dataset(CheckedDataset(data_dir).path)
    games = int(ds.manifest["experiment"]["games"])
    points = sweeps.sweep_points(ds)
    rng = np.random.default_rng(0)
    found = pl.concat([value_tables.seat_values(ds, points, rng), value_tables.legacy_values(ds, points, rng)])
    if found.is_empty():
        raise PlanError(f"{data_dir}: the pilot has no values by random assignment (a sweep of a seat's cash or of "
                        f"setup.assigned_price)")
    lines, need = [], []
    for r in found.iter_rows(named=True):
        what = f"{r['legacy'] or r['key']}, {r['players']} players, {r['population']}"
        half = (r["high"] - r["low"]) / 2
        if not math.isfinite(half):
            lines.append(f"{what}: {r['status']}, no finite interval in the pilot: cannot be scaled")
            continue
        need.append(max(games, math.ceil(games * (half / halfwidth) ** 2)))
        lines.append(f"{what}: +-{half:.3g} in {games} games -> {need[-1]} games per cell and variant")
    if need:
        lines.append(f"an interval of at most +-{halfwidth:g} for every finite value: {max(need)} games per cell "
                     f"and variant (half of them estimate each value, the other half reproduces it)")
    return lines
