"""Lookup tables built once per ruleset and shared read-only by every game: indices for
companies, vehicles, legacies, offboards and phases, and the market grid."""
from __future__ import annotations

from menorca_sim.core.market import Market

NEVER = 1 << 30  # a phase index no game reaches (a vehicle that never retires)


class Tables:
    def __init__(self, rs) -> None:
        self.rs = rs
        self.market = Market(rs.market)
        self.company_ids = list(rs.companies)
        self.companies = [rs.companies[c] for c in self.company_ids]
        self.company_index = {c: i for i, c in enumerate(self.company_ids)}
        self.minors = [i for i, c in enumerate(self.companies) if c.kind == "minor"]
        merged = [i for i, c in enumerate(self.companies) if c.kind == "merged"]
        self.merged = merged[0] if merged else -1
        self.vehicle_ids = list(rs.vehicles)
        self.vehicles = [rs.vehicles[v] for v in self.vehicle_ids]
        self.vehicle_index = {v: i for i, v in enumerate(self.vehicle_ids)}
        self.vehicle_phase = [rs.tier_index[v] for v in self.vehicle_ids]
        self.vehicle_retire = [rs.phase_index(v.retire) if v.retire else NEVER for v in self.vehicles]
        self.vehicle_is_ship = [v.kind == "ship" for v in self.vehicles]
        self.legacy_ids = list(rs.legacies)
        self.legacies = [rs.legacies[l] for l in self.legacy_ids]
        self.legacy_index = {l: i for i, l in enumerate(self.legacy_ids)}
        self.offboards = list(rs.map.offboards)
        self.phases = list(rs.phases)
        self.legacy_purchase_phase = rs.phase_index(rs.operating.company_legacy_purchase_phase)
        # one 10 % of a company's share is this many percent ("each 10 % pays revenue // unit")
        self.share_unit = 100 // rs.operating.dividend_unit


_CACHE: dict[tuple[str, str], object] = {}


def per_ruleset(build, rs):
    """`build(rs)`, made once per ruleset (keyed by its sha256) and shared read-only by
    every game in this process."""
    key = (build.__name__, rs.sha256)
    made = _CACHE.get(key)
    if made is None:
        made = build(rs)
        _CACHE[key] = made
    return made


def tables_for(rs) -> Tables:
    """The tables of `rs`, built once per ruleset."""
    return per_ruleset(Tables, rs)
