"""Lookup tables built once per ruleset and shared read-only by every game: indices for
companies, vehicles, legacies, offboards and phases, the market grid, and the rules the
engine reads per action as int tables (kinds, abilities and options as the codes of
`codes.py`: the core compares ints, never the ruleset's names)."""
from __future__ import annotations

from array import array

import cython

from menorca_sim.core.market import Market

if not cython.compiled:
    from menorca_sim.core.codes import (ABILITY_NAMES, CART, DOWN, KIND_NAMES, LEFT, RIGHT, SHIP,
                                        UP)
else:
    from menorca_sim.core.codes import ABILITY_NAMES, KIND_NAMES

NEVER = 1 << 30  # a phase index no game reaches (a vehicle that never retires)


def ints(values) -> array:
    """A flat int array (a typed memoryview's buffer once compiled; plain ints in pure mode)."""
    return array("i", values)


def grid(rows: list) -> object:
    """Rows of ints of one length as a 2-D table, read as `table[i][j]`: a 2-D buffer
    for a compiled module's typed memoryview, a list of arrays in pure mode."""
    if not cython.compiled:
        return [ints(row) for row in rows]
    width = len(rows[0]) if rows else 0
    flat = ints([x for row in rows for x in row])
    return memoryview(flat).cast("B").cast("i", (len(rows), width))


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
        self.vehicle_phase = ints(rs.tier_index[v] for v in self.vehicle_ids)
        self.vehicle_retire = ints(rs.phase_index(v.retire) if v.retire else NEVER for v in self.vehicles)
        self.vehicle_is_ship = ints(v.kind == "ship" for v in self.vehicles)
        self.legacy_ids = list(rs.legacies)
        self.legacies = [rs.legacies[l] for l in self.legacy_ids]
        self.legacy_index = {l: i for i, l in enumerate(self.legacy_ids)}
        self.offboards = list(rs.map.offboards)
        self.node_index = {n: i for i, n in enumerate(rs.map.nodes)}  # MapTables' numbering
        self.phases = list(rs.phases)
        self.legacy_purchase_phase = rs.phase_index(rs.operating.company_legacy_purchase_phase)
        # one 10 % of a company's share is this many percent ("each 10 % pays revenue // unit")
        self.share_unit = 100 // rs.operating.dividend_unit
        self.n_companies, self.n_vehicles = len(self.companies), len(self.vehicles)
        self.n_legacies, self.n_offboards = len(self.legacies), len(self.offboards)
        self._companies(rs)
        self._vehicles_and_legacies()
        self._market()
        self._options(rs)

    def _companies(self, rs) -> None:
        cos = self.companies
        self.max_certs = max(len(co.certificates) for co in cos)
        self.co_kind = ints(KIND_NAMES.index(co.kind) for co in cos)
        self.co_certs = ints(len(co.certificates) for co in cos)
        # percent of certificate k of company c (0 past its last certificate)
        self.cert_pct = grid([list(co.certificates) + [0] * (self.max_certs - len(co.certificates)) for co in cos])
        self.co_operate_pct = ints(co.operate_percent for co in cos)
        self.co_marked = ints(co.marked for co in cos)
        self.co_available = ints(co.available_epoch for co in cos)
        self.co_formed = ints(co.formed_epoch or 0 for co in cos)
        self.co_markers = ints(co.markers for co in cos)
        self.co_goods_markers = ints(co.goods_markers for co in cos)
        self.co_stations = ints(co.stations for co in cos)
        self.co_fixed_par = ints(co.par or 0 for co in cos)
        self.co_home = [co.home for co in cos]  # node names: the Board's interface
        self.co_home_node = ints(self.node_index.get(co.home, -1) for co in cos)
        # the cells a player may start c on: any par cell for a major, a minor's fixed par
        m = self.market
        self.start_cells = [m.par_cells if co.kind == "major" else [m.par_cell(co.par)] if co.kind == "minor" else []
                            for co in cos]
        # may company c own vehicle v (its kind among the company's vehicle_kinds)
        self.may_own = grid([[v.kind in co.vehicle_kinds for v in self.vehicles] for co in cos])

    def _vehicles_and_legacies(self) -> None:
        self.veh_price = ints(v.price for v in self.vehicles)
        self.route_vehicle = [(vid, v.kind, v.range) for vid, v in zip(self.vehicle_ids, self.vehicles)]
        self.veh_count = ints(v.count if v.count is not None else -1 for v in self.vehicles)  # -1: unlimited
        legs = self.legacies
        self.leg_min_price = ints(l.price for l in legs)
        self.leg_income_each = ints(l.income for l in legs)
        self.leg_close = ints(l.close_epoch or 0 for l in legs)  # 0: never closes
        self.ability = ints(ABILITY_NAMES.index(l.ability.type) for l in legs)
        self.ab_amount = ints(l.ability.amount for l in legs)
        self.ab_tiles = ints(l.ability.tiles for l in legs)
        self.ab_percent = ints(l.ability.percent for l in legs)
        self.ab_count = ints(l.ability.count for l in legs)
        # vehicle_discount: the kind discounted (SHIP, CART), -1 for both
        self.ab_vehicle_kind = ints(-1 if l.ability.kind is None else (SHIP if l.ability.kind == "ship" else CART)
                                    for l in legs)
        self.ab_node = [l.ability.node for l in legs]  # free_port, revenue_bonus: node names
        self.ab_node_index = ints(self.node_index.get(l.ability.node, -1) for l in legs)
        self.ab_company = ints(self.company_index[l.ability.company] if l.ability.company else -1 for l in legs)
        self.phase_limit = ints(p.limit for p in self.phases)
        self.phase_ors = ints(p.ors for p in self.phases)
        self.phase_epoch = ints(p.epoch for p in self.phases)

    def _market(self) -> None:
        m = self.market
        rows, cols = m.rows, m.cols
        cells = [[m.cells[r][c] for c in range(cols)] for r in range(rows)]
        self.mk_value = grid([[cell.value if cell else 0 for cell in row] for row in cells])
        self.mk_orange = grid([[bool(cell and cell.orange) for cell in row] for row in cells])
        self.mk_yellow = grid([[bool(cell and cell.yellow) for cell in row] for row in cells])
        self.mk_bankrupt = grid([[bool(cell and cell.bankrupt) for cell in row] for row in cells])
        # where each move leads from each cell: row d * rows + r holds direction d's
        # destinations from row r (the Market's edge rules, looked up once)
        moves = (m.up, m.down, m.left, m.right)
        assert (UP, DOWN, LEFT, RIGHT) == (0, 1, 2, 3)
        to = [[moves[d](r, c) if cells[r][c] else (r, c) for c in range(cols)] for d in range(4) for r in range(rows)]
        self.mk_rows = rows
        self.mk_to_row = grid([[rc[0] for rc in row] for row in to])
        self.mk_to_col = grid([[rc[1] for rc in row] for row in to])

    def _options(self, rs) -> None:
        op, st = rs.operating, rs.stock
        self.holding_limit = st.holding_limit
        self.pool_limit = st.pool_limit
        self.first_sr_sales = st.first_sr_sales
        self.trade_any = op.vehicle_trade == "any_with_consent"
        self.trade_min_price = op.vehicle_trade_min_price
        self.next_tier_any_time = op.next_ship_tier == "any_time"
        self.pool_pays_company = op.pool_dividends == "company"
        self.dividend_unit = op.dividend_unit
        self.sells_own = op.company_sells_own
        self.buys_back = op.company_buys_back
        self.legacy_lo_pct, self.legacy_hi_pct = op.company_legacy_price_percent
        self.tile_lays = op.tile_lays
        self.station_cost = op.station_cost
        self.reserve_home_slots = op.reserve_home_slots
        self.goods_skip_minors = rs.markers.goods_pay_before_merger == "none"
        self.offboard_cap = rs.markers.offboard_cap
        self.market_bonus = rs.markers.market_bonus
        self.goods_payment = ints(rs.markers.goods_payment)
        self.free_at_zero_forced = rs.auction.free_at_zero == "forced"
        self.price_drop = rs.auction.price_drop
        self.min_price = rs.auction.min_price
        self.reservation_step = rs.auction.reservation_step
        self.contest_step = rs.auction.contest_step
        self.merger_join = rs.merger.unstarted_minor == "join"
        self.merger_unowned = rs.merger.no_minor_started == "form_unowned"
        self.merger_average = rs.merger.price == "average"
        self.max_ors = rs.end.max_ors
        self.bank_empty_ends_sr = rs.end.bank_empty_in_stock_round == "end_of_round"
        self.keep_last_minor_cert = rs.minor_rules.last_certificate == "keep"
        self.min_distinct_nodes = rs.routes.min_distinct_nodes
        self.no_buy_back_after_sale = rs.company_shares.buy_back_after_sale == "next_or"


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
