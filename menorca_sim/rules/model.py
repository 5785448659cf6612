"""The ruleset as frozen, picklable records. Everything the engine plays comes from
here; every [D] default and [A] option of RULES.md is a field, never a constant in
code. Field comments name the TOML key that sets them."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

NODE = 6
"""In a tile path, 6 stands for the tile's node; 0-5 are hex edges (0 = S, then clockwise)."""

COLOURS = ("yellow", "green", "brown", "grey")


@dataclass(frozen=True)
class PlayerCount:
    players: int  # player_counts[].players
    cash: int  # starting cash per player, paid out of the bank
    cert_limit: int  # certificates a player may hold (orange-zone ones do not count)
    seat_cash: tuple[int, ...]  # [D] added to each seat's starting cash (a knob for seat balance; 0 by default)


@dataclass(frozen=True)
class Company:
    id: str  # key under [companies]
    name: str
    kind: str  # "major" | "minor" | "merged" (RADM)
    home: str | None  # node name of the home station (None for RADM)
    stations: int  # ports/manufactories in supply, home included (merged: besides the inherited homes)
    available_epoch: int  # players may start it from this epoch (majors, minors); merged: formed_epoch
    operate_percent: int  # percent that must be sold before it operates
    certificates: tuple[int, ...]  # percent of each certificate; index 0 is the Trust Family one for majors
    marked: int = 0  # majors: how many 10 % certificates carry a market marker
    markers: int = 0  # majors: market markers in supply
    goods: str | None = None  # minors: the goods they ship
    goods_markers: int = 0  # minors: goods markers in supply
    par: int | None = None  # minors: fixed par value
    formed_epoch: int | None = None  # merged: epoch at whose start it is formed
    vehicle_kinds: tuple[str, ...] = ("ship", "cart")  # vehicles.*.kind it may own (key vehicle_kinds)


@dataclass(frozen=True)
class Phase:
    name: str  # e.g. "4H"
    epoch: int  # epoch this phase belongs to
    tiles: tuple[str, ...]  # tile colours that may be laid
    limit: int  # vehicles per kind (ships and carts counted apart)
    ors: int  # ORs in a set that starts in this phase


@dataclass(frozen=True)
class Effect:
    type: str  # none | revenue_bonus | close_legacies | end_after_set
    node: str | None = None  # revenue_bonus: the node
    amount: int = 0  # revenue_bonus: R. added to that node


@dataclass(frozen=True)
class Event:
    id: str
    name: str
    effect: Effect


@dataclass(frozen=True)
class Epoch:
    number: int  # 1..4
    events: tuple[str, ...]  # candidate event ids; setup draws one
    legacies_close: bool  # all legacies close when this epoch begins


@dataclass(frozen=True)
class Vehicle:
    id: str
    kind: str  # "ship" | "cart"
    range: int  # hexes, both end hexes counted
    price: int
    count: int | None  # copies in the bank; None = unlimited
    phase: str  # ships: their tier (first purchase starts it); carts: first phase on sale
    retire: str | None  # phase that removes it from the game


@dataclass(frozen=True)
class Ability:
    type: str  # extra_tile_lay | terrain_discount | free_port | vehicle_discount |
    #            grant_certificate | free_market_marker | revenue_bonus | none
    node: str | None = None  # free_port, revenue_bonus
    amount: int = 0  # terrain_discount, revenue_bonus (R.)
    tiles: int = 0  # extra_tile_lay: tile lays per OR in total
    percent: int = 0  # vehicle_discount, grant_certificate
    kind: str | None = None  # vehicle_discount: "ship" | "cart" | None (both)
    company: str | None = None  # grant_certificate
    count: int = 0  # free_market_marker


@dataclass(frozen=True)
class Legacy:
    id: str
    name: str
    price: int  # minimum price at auction
    income: int  # paid to its owner at the start of every OR
    ability: Ability
    close_epoch: int | None = None  # closes when this epoch begins: legacies.X.close_epoch,
    #   else the first epoch with legacies_close = true; None = never. The engine reads this.


@dataclass(frozen=True)
class MarketCell:
    value: int
    par: bool = False  # p: a legal initial value
    orange: bool = False  # o: does not count toward the certificate limit
    yellow: bool = False  # y: holdings above the limit allowed
    bankrupt: bool = False  # b: reaching it bankrupts the company


@dataclass(frozen=True)
class Node:
    name: str
    hex: str
    kind: str  # "city" | "town"
    slots: int  # station slots
    port: bool  # ports may be placed here; it has sea lanes
    track: tuple[tuple[int, int], ...]  # preprinted yellow paths (NODE = the node)


@dataclass(frozen=True)
class Offboard:
    name: str
    hex: str
    revenue: tuple[int, ...]  # by epoch 1..4


@dataclass(frozen=True)
class Tile:
    id: str
    colour: str  # yellow | green | brown | grey
    count: int  # copies in the manifest
    node: str  # "none" | "town" | "city"
    paths: tuple[tuple[int, int], ...]  # (a, b) with 0-5 edges and NODE for the node


@dataclass(frozen=True)
class MapData:
    terrain_costs: dict[str, int]  # terrain name -> cost of the first lay
    revenue: dict[str, tuple[int, ...]]  # node kind -> revenue by tile colour
    land: dict[str, str]  # hex -> terrain name
    sea: tuple[str, ...]  # sea hexes
    lanes: tuple[tuple[str, str], ...]  # each end: a sea hex, a port node name or an offboard name
    nodes: dict[str, Node]
    offboards: dict[str, Offboard]


@dataclass(frozen=True)
class SetupRules:
    minors_in_play: int  # setup.minors_in_play
    legacies: str  # "random" | "fixed"
    fixed_legacies: tuple[str, ...]
    start_player: int
    assigned_legacy: str  # "none" | a legacy id taken out of the draw (random assignment)
    assigned_arm: str  # "hold": the designated seat owns it before the auction | "out": out of the game
    assigned_price: int  # what the designated seat pays for it
    assigned_seat: int  # -1: drawn from the setup's generator


@dataclass(frozen=True)
class AuctionRules:
    price_drop: int
    min_price: int
    reservation_step: int
    contest_step: int
    free_at_zero: str  # "forced"


@dataclass(frozen=True)
class MergerRules:
    unstarted_minor: str  # [A] "join" | "discard"
    discard_order: str  # "cheapest"
    no_minor_started: str  # [D] "form_unowned" | "not_formed"
    price: str  # [D] "sum" | "average": how RADM's value follows from the started minors'


@dataclass(frozen=True)
class OperatingRules:
    tile_lays: int
    terrain_on_upgrade: bool
    station_cost: int
    next_ship_tier: str  # "sold_out" | "any_time"
    vehicle_trade: str  # "same_director" | "any_with_consent"
    vehicle_trade_min_price: int
    discard_order: str  # "cheapest"
    forced_purchase: str  # "cheapest"
    pool_dividends: str  # "nobody" | "company"
    dividend_unit: int
    company_sells_own: bool
    company_buys_back: bool
    company_legacy_purchase_phase: str
    company_legacy_price_percent: tuple[int, int]
    cart_port_rule: str  # "station"
    reserve_home_slots: bool  # no company takes a node's last free slots owed to unplaced home stations
    order_tie: str = "right_up_first"  # equal market values: further right, then higher, then first there


@dataclass(frozen=True)
class StockRules:
    holding_limit: int
    pool_limit: int
    first_sr_sales: bool
    sold_out_check: str  # "end_of_sr"
    over_limit: str  # "sell_next_turn"


@dataclass(frozen=True)
class MarkerRules:
    market_bonus: int
    goods_payment: tuple[int, ...]  # by epoch
    goods_pay_before_merger: str  # [A] "minor" | "none"
    offboard_cap: int  # 0 = no cap


@dataclass(frozen=True)
class EndRules:
    bank_broken_finish: str  # "or"
    bankruptcy_finish: str  # "or"
    max_ors: int  # safety cap
    tie_break: str  # "cash"
    bank_empty_in_stock_round: str  # [D] "next_or" (the next OR is played to its end) | "end_of_round"


@dataclass(frozen=True)
class MinorRules:
    last_certificate: str  # [D] "keep": a president may not sell his last certificate while no other player holds one | "may_sell"


@dataclass(frozen=True)
class RouteRules:
    min_distinct_nodes: int  # [D] different revenue nodes a route must visit (2; 1 lets a loop from a node to itself run)


@dataclass(frozen=True)
class CompanyShareRules:
    buy_back_after_sale: str  # [A] "allowed" (steps 6 and 7 in one OR) | "next_or": no buy-back in the OR of a sale


@dataclass(frozen=True)
class Ruleset:
    name: str
    source: str  # file it was loaded from
    sha256: str  # of the file's bytes plus the overrides
    bank: int
    player_counts: dict[int, PlayerCount]
    setup: SetupRules
    auction: AuctionRules
    companies: dict[str, Company]
    merger: MergerRules
    phases: tuple[Phase, ...]
    epochs: tuple[Epoch, ...]
    events: dict[str, Event]
    vehicles: dict[str, Vehicle]
    operating: OperatingRules
    stock: StockRules
    market: tuple[tuple[MarketCell | None, ...], ...]  # rows, row 0 on top
    markers: MarkerRules
    end: EndRules
    minor_rules: MinorRules  # [minors]
    routes: RouteRules  # [routes]
    company_shares: CompanyShareRules  # [company_shares]
    legacies: dict[str, Legacy]
    map: MapData
    tiles: dict[str, Tile]
    overrides: dict[str, object] = field(default_factory=dict)

    def phase_index(self, name: str) -> int:
        try:
            return self._phase_positions[name]
        except KeyError:
            raise KeyError(name) from None

    @cached_property
    def _phase_positions(self) -> dict[str, int]:
        # players ask this on every decision: a dict, not a scan of the phases
        return {phase.name: i for i, phase in enumerate(self.phases)}

    @cached_property
    def tier_index(self) -> dict[str, int]:
        """Per vehicle id, the index of its phase (its tier); players ask it for every
        vehicle they value."""
        return {v: self.phase_index(spec.phase) for v, spec in self.vehicles.items()}

    @cached_property
    def retire_index(self) -> dict[str, int]:
        """Per vehicle id, the index of the phase that retires it (len(phases): never);
        players ask it for every vehicle they value."""
        never = len(self.phases)
        return {v: never if spec.retire is None else self.phase_index(spec.retire) for v, spec in self.vehicles.items()}

    @property
    def minors(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.companies.values() if c.kind == "minor")
