"""What to change first: the rules keys the findings point at, at most `MOST` of them,
ranked by size x confidence x stability with strength.

- size: the effect in win-share points (a seat against its fair share, a legacy's
  buyer against players of the same policy, seat and draw); a legacy nobody bids
  above its minimum at the strongest rung counts as `DEAD_SIZE`;
- confidence: 1 - the Holm-adjusted p-value (1 for dead content, judged on 100 sales
  or more);
- stability: how far the finding can be trusted to hold for better players (its
  strength label: `STABILITY`).

Each item names the key as the ruleset TOML spells it, the direction, one line of
evidence and, where a sweep of a seat's cash found one, the cash that evens the seats
(`value_tables`; never a legacy's price from a sweep: analysis/sweeps.py says why)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from menorca_sim.analysis import findings as find
from menorca_sim.analysis import strength, values
from menorca_sim.analysis.pipeline import Analysis

MOST = 5
DEAD_SIZE = 0.2
STABILITY = {strength.STABLE: 1.0, strength.GROWS: 1.0, strength.FADES: 0.5, strength.WEAK_ONLY: 0.2,
             strength.REVERSES: 0.0}
UNLABELLED = 0.7  # a finding of one population, or of populations that are not rungs


@dataclass(frozen=True)
class Change:
    key: str  # the rules key (ruleset TOML)
    direction: str
    evidence: str  # one line
    suggested: str  # the fair value a sweep found, or ""
    score: float

    def line(self) -> str:
        value = f" Suggested value: {self.suggested}." if self.suggested else ""
        return f"`{self.key}`: {self.direction}. {self.evidence}.{value}"


def what_to_change(a: Analysis, variant: str | None = None) -> list[Change]:
    """The ranked changes (at most `MOST`; one per key, the strongest evidence kept; a
    finding that reverses with strength suggests no change); with `variant`, those its
    games point at alone (`side_by_side.relative_changes` sets variants against the baseline)."""
    changes = [*_seat_changes(a, variant), *_value_changes(a, variant), *_legacy_changes(a, variant),
               *_dead_changes(a, variant)]
    best: dict[str, Change] = {}
    for c in sorted((c for c in changes if c.score > 0), key=lambda c: -c.score):
        best.setdefault(c.key, c)
    return sorted(best.values(), key=lambda c: -c.score)[:MOST]


def _stability(a: Analysis, by_pop: dict) -> tuple[float, str]:
    labelled = find.label(a, by_pop)
    shape = next((s for s in STABILITY if s in labelled), None)
    return (STABILITY[shape], f" [{labelled}]") if shape else (UNLABELLED, f" [{labelled}]" if labelled else "")


def _strongest(a: Analysis, by_pop: dict):
    """The significant comparison of the strongest population that found the fact."""
    order = [*reversed(a.roles.rungs), *a.roles.styles, *a.populations]
    return next(by_pop[p] for p in order if p in by_pop and by_pop[p].significant)


def _seat_value(a: Analysis, players: int) -> str:
    """The extra starting cash that evens the seats, where a sweep of it found one
    (`value_tables.seat_values`), with whether it reproduced."""
    found = a.tables.get("values", pl.DataFrame())
    if found.is_empty():
        return ""
    rows = found.filter((pl.col("players") == players) & (pl.col("status") == values.IN_RANGE))
    return "; ".join(f"{r['key']} = {r['value']:.3g} ({r['low']:.3g} to {r['high']:.3g}"
                     f"{'' if r['reproduced'] else ', not reproduced'})" for r in rows.iter_rows(named=True))


def _facts(a: Analysis, variant: str | None) -> dict:
    """The facts of `variant` (of every variant with None), a sweep's points left out as
    the findings leave them: each point is another rule, read off the sweep's values."""
    points = find.sweep_points(a)
    return {k: v for k, v in find.facts(a).items() if (variant is None or k[1] == variant) and k[1] not in points}


def _seat_changes(a: Analysis, variant: str | None) -> list[Change]:
    out = []
    for key, by_pop in _facts(a, variant).items():  # seat 2 of 2 is seat 1's complement: one change
        if key[0] != "seat" or find.label(a, by_pop) == find.NOT_FOUND or (key[2] == 2 and key[3] != 1):
            continue
        c = _strongest(a, by_pop)
        stable, label = _stability(a, by_pop)
        behind = c.estimate < c.reference
        # seat_cash adds to a seat's starting cash: raise the seat behind, or the others
        seats = [key[3]] if behind else [s for s in range(1, key[2] + 1) if s != key[3]]
        out.append(Change(
            f"[[player_counts]] players = {key[2]}: seat_cash[{', '.join(str(s - 1) for s in seats)}]",
            f"raise it: more starting cash for seat {' and '.join(map(str, seats))}",
            f"In {key[2]}-player games seat {key[3]} wins {100 * c.estimate:.0f} % against a fair "
            f"{100 * c.reference:.0f} % ({c.row.get('population') or 'all games'}){label}",
            _seat_value(a, key[2]),
            abs(c.estimate - c.reference) * (1 - c.p_holm) * stable))
    return out


def _legacy_changes(a: Analysis, variant: str | None) -> list[Change]:
    out = []
    for key, by_pop in _facts(a, variant).items():
        if key[0] != "legacy" or find.label(a, by_pop) == find.NOT_FOUND:
            continue
        c = _strongest(a, by_pop)
        stable, label = _stability(a, by_pop)
        out.append(Change(
            f"legacies.{key[3]}.price", "raise it" if c.estimate > 0 else "lower it",
            f"In {key[2]}-player games its buyer wins {abs(100 * c.estimate):.0f} points "
            f"{'more' if c.estimate > 0 else 'less'} often than players of the same policy, seat and draw "
            f"({c.row.get('population') or 'all games'}){label}",
            "", abs(c.estimate) * (1 - c.p_holm) * stable))
    return out


def _value_changes(a: Analysis, variant: str | None) -> list[Change]:
    """A legacy whose list price lies outside its value's interval (random assignment:
    `value_tables.legacy_values`), per player count and population. This is the
    unconfounded answer, so it outranks a buyer's edge on the same key; where the counts
    ask for opposite moves, no one price fits them and the change says so."""
    found = a.tables.get("values", pl.DataFrame())
    if variant is not None or found.is_empty():
        return []
    listed = {k: int(v) for k, v in
              a.tables["auction_prices"].group_by("legacy").agg(pl.col("min_price").first()).iter_rows()}
    out = []
    for (legacy,), rows in found.filter(pl.col("legacy") != "").group_by("legacy", maintain_order=True):
        price = listed.get(legacy)
        apart = [r for r in rows.iter_rows(named=True) if price is not None and r["status"] == values.IN_RANGE
                 and np.isfinite(r["low"]) and np.isfinite(r["high"]) and not r["low"] <= price <= r["high"]]
        if not apart:
            continue
        ways = {"lower it" if price > r["high"] else "raise it" for r in apart}
        said = "; ".join(f"{r['players']} players ({r['population']}): {r['value']:.0f} ({r['low']:.0f} to "
                         f"{r['high']:.0f}{'' if r['reproduced'] else ', not reproduced'})" for r in apart)
        out.append(Change(f"legacies.{legacy}.price", ways.pop() if len(ways) == 1 else
                          "no one price fits every player count", f"Listed at {price} R., its holder wins as often "
                          f"as without it at a price of {said}",
                          ", ".join(f"about {r['value']:.0f} with {r['players']} players" for r in apart),
                          1 + max(abs(price - r["value"]) for r in apart) / 1000))
    return out


def _dead_changes(a: Analysis, variant: str | None) -> list[Change]:
    """Legacies that never sell above their minimum under the strongest play (judged as
    Dead content judges them). Late phases the strongest rung never reaches are a
    finding, not an item here: no key is known to bring them back (a bigger bank does
    not: experiments/strong_endgame.toml)."""
    top = a.roles.top
    if top is None:
        return []
    out = []
    prices = a.tables["auction_prices"].filter(pl.col("population") == top)
    for (legacy,), g in prices.filter(pl.col("variant") == variant if variant is not None else True).group_by(
            "legacy", maintain_order=True):
        for _, r in (r for r in find.dead_in(a, g, "above_min_rate") if r[1][3] >= find.MIN_GAMES):
            out.append(Change(f"legacies.{legacy}.price", "lower it",
                              f"Under the strongest play ({top}) it sells above its minimum in {find.rate_text(r)} "
                              f"of {r[3]} sales", "", DEAD_SIZE))
    return out
