"""Named variants set beside the baseline (`menorca-sim compare` makes two: A and B):
every tested fact with its estimate in both and the difference, and what to change in
each variant relative to the baseline. A sweep's points are read off its fair values,
not here."""
from __future__ import annotations

import math

import polars as pl

from menorca_sim.analysis import advice
from menorca_sim.analysis import findings as find
from menorca_sim.analysis.dataset import baseline_variant
from menorca_sim.analysis.pipeline import Analysis
from menorca_sim.analysis.stats import CONFIDENCE, Comparison, z_value


def named_variants(a: Analysis) -> list[str]:
    """The variants other than the baseline that no sweep made."""
    points = find.sweep_points(a)
    base = baseline_variant(a.manifest, a.variants) if a.variants else ""
    return [v for v in a.variants if v != base and v not in points]


def _without_variant(c: Comparison) -> tuple:
    key = find.fact_key(c)
    return (key[0], c.row.get("population", ""), *key[2:])


def side_by_side(a: Analysis) -> pl.DataFrame:
    """Each fact the report tested (seats, seats by draw, legacies' buyers, strategies)
    in the baseline and in each named variant: both estimates and intervals, and the
    difference with an interval from the two intervals as if independent. Common seeds
    make the two arms move together, so this interval is the wider, cautious one; the
    Variants section pairs the games themselves for the per-game measures."""
    schema = {"variant": pl.String, "baseline": pl.String, "population": pl.String, "fact": pl.String,
              "baseline_estimate": pl.Float64, "baseline_estimate_low": pl.Float64,
              "baseline_estimate_high": pl.Float64, "estimate": pl.Float64, "estimate_low": pl.Float64,
              "estimate_high": pl.Float64, "difference": pl.Float64, "difference_low": pl.Float64,
              "difference_high": pl.Float64}
    others = named_variants(a)
    if not others:
        return pl.DataFrame(schema=schema)
    base = baseline_variant(a.manifest, a.variants)
    tested = [c for c in a.comparisons if c.section != "variants"]
    at_base = {_without_variant(c): c for c in tested if c.row.get("variant") == base}
    z = z_value(CONFIDENCE)
    rows = []
    for variant in others:
        for c in (c for c in tested if c.row.get("variant") == variant):
            b = at_base.get(_without_variant(c))
            if b is None:
                continue
            d = c.estimate - b.estimate
            half = z * math.hypot((c.high - c.low) / (2 * z), (b.high - b.low) / (2 * z))
            rows.append((variant, base, c.row.get("population", ""), _subject(c, variant), b.estimate, b.low, b.high,
                         c.estimate, c.low, c.high, d, d - half, d + half))
    return pl.DataFrame(rows, schema=schema, orient="row")


def _subject(c: Comparison, variant: str) -> str:
    subject = c.subject.replace(f"in variant {variant}, ", "")
    population = c.row.get("population")
    return subject.replace(f"among {population} players, ", "") if population else subject


def relative_changes(a: Analysis) -> list[str]:
    """What to change in the baseline, then for each named variant: whether its paired
    measures differ from the baseline's at all, and which of the baseline's changes it
    settles, which it still needs, which it needs the other way and which are new in it."""
    others = named_variants(a)
    if not others:
        return []
    base = baseline_variant(a.manifest, a.variants)
    before = {c.key: c for c in advice.what_to_change(a, base)}
    lines = [f"In {base}: {c.line()}" for c in before.values()] or [f"In {base}: nothing the findings point at."]
    for variant in others:
        lines.append(_differs(a, variant, base))
        after = {c.key: c for c in advice.what_to_change(a, variant)}
        lines += [f"{_kept(before.get(key), c)} in {variant}: {c.line()}" for key, c in after.items()]
        lines += [f"Settled in {variant}: `{key}` (in {base}: {c.evidence})." for key, c in before.items()
                  if key not in after]
        if not before and not after:
            lines.append(f"In {variant}: nothing the findings point at, as in {base}.")
    return lines


def _kept(before: advice.Change | None, after: advice.Change) -> str:
    if before is None:
        return "New"
    return "Still to change" if before.direction == after.direction else "The other way"


def _differs(a: Analysis, variant: str, base: str) -> str:
    """Whether the variant's games differ from the baseline's in any paired measure."""
    paired = [c for c in a.comparisons if c.section == "variants" and c.row.get("variant") == variant]
    if not paired:
        return (f"{variant} against {base}: every paired measure is the same in every game on the same seeds "
                f"(no difference).")
    found = [c for c in paired if c.significant]
    if not found:
        return (f"{variant} against {base}: no paired measure differs significantly ({len(paired)} tested on the "
                f"same seeds).")
    return (f"{variant} against {base}: {len(found)} of {len(paired)} paired measures differ (see Findings and "
            f"Side by side).")
