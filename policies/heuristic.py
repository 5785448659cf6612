"""`heuristic`: a parameterised greedy player. Stock play in `stock_play`, company
decisions in `operating_play`, the auction by its auction strategy (value_bidder
unless the spec names another: `heuristic+wait_for_drop(drop=0.3)`).

Presets: `heuristic`, `heuristic_aggressive`, `heuristic_cautious`; each takes
parameter overrides, e.g. `heuristic_cautious(horizon=8)`."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from policies import operating_play as op
from policies.auction import ValueBidder, ValueParams
from policies.base import AUCTION_DECISIONS, ByDicts, register
from policies.choice import TEMPERATURE, Chooser
from policies.spec import bind, check_ranges, parse_args
from policies.stock_play import stock_turn
from policies.valuation import DecisionCache

PAYOUT_RULES = ("always", "market", "growth")


@dataclass(frozen=True)
class HeuristicParams:
    risk: float = 0.5  # 0..1: share of its cash it commits, and how little it keeps back for forced buys
    start_share: float = 0.4  # share of its cash it spends on starting a company at risk 0
    max_companies: int = 2  # companies it wants to direct
    concentration: float = 0.05  # yield bonus for certificates of its own companies
    growth_bonus: float = 0.03  # yield bonus (malus) for a company whose price moves right (left)
    min_yield: float = 0.02  # buys no certificate expected to yield less per OR
    sell_drop: float = 0.5  # sells a company's certificates once its price falls below this share of par
    payout: str = "market"  # always | market | growth (see operating_play.dividend)
    lookahead: int = 2  # lays it plans ahead (this one included) for a company without a route yet
    horizon: int = 4  # ORs over which track, stations and vehicles must repay their cost
    vehicle_timing: float = 1.0  # weight of revenue that survives the next phase change
    rival_harm: float = 1.0  # weight of rivals' revenue lost to a phase its ship purchase starts
    upgrade_ships: float = 0.5  # buys the newest ship with idle cash while keeping this many times its price
    buy_back_margin: float = 2.0  # treasury kept (in prices) after buying back a certificate
    premium: float = 0.0  # its default auction strategy, value_bidder(premium)
    temperature: float = TEMPERATURE  # 0: always the best option; above: near-equal options drawn (choice.py)

    def __post_init__(self) -> None:
        if self.payout not in PAYOUT_RULES:
            raise ValueError(f"payout must be one of {PAYOUT_RULES}, got {self.payout!r}")
        for name in ("risk", "start_share", "sell_drop"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} must be within [0, 1], got {getattr(self, name)}")
        if self.temperature < 0:
            raise ValueError(f"temperature must be at least 0, got {self.temperature}")
        check_ranges(self, {"max_companies": (0, None), "horizon": (1, None), "vehicle_timing": (0, None),
                            "rival_harm": (0, None), "upgrade_ships": (0, None), "lookahead": (0, 3)})


PRESETS = {
    "heuristic": HeuristicParams(),
    "heuristic_aggressive": HeuristicParams(risk=0.8, max_companies=3, concentration=0.08,
                                            min_yield=0.01, sell_drop=0.3, payout="growth",
                                            horizon=3, upgrade_ships=0.0, premium=0.2),
    "heuristic_cautious": HeuristicParams(risk=0.2, max_companies=1, concentration=0.02,
                                          min_yield=0.04, sell_drop=0.7, payout="always",
                                          horizon=6, vehicle_timing=1.5, upgrade_ships=1.5, premium=-0.2),
}

# the company decisions it makes on the legal actions as ints (the frequent ones, and
# those with many choices: a hundred tile lays), and those it makes on their dicts
_BY_CODE = {
    "lay_tile": op.lay_tile,
    "place_station": op.place_station,
    "buy_vehicles": op.buy_vehicle,
    "dividend": op.dividend,
}
_OPERATING = {
    "company_sells": op.company_sells,
    "company_buys_back": op.company_buys_back,
    "company_buys_legacy": op.company_buys_legacy,
    "discard_vehicle": op.discard_vehicle,
    "place_market_marker": op.place_market_marker,
    "place_goods_marker": op.place_goods_marker,
}


class Heuristic:
    def __init__(self, name: str, params: HeuristicParams, seat: int, rng: np.random.Generator) -> None:
        self.name = name
        self.params = params
        self.seat = seat
        self.chooser = Chooser(params.temperature, rng)
        self.auction = ByDicts(ValueBidder(f"value_bidder(premium={params.premium})",
                                           ValueParams(premium=params.premium, temperature=params.temperature),
                                           seat, rng))
        self.auction_strategy = self.auction.name
        self.cache = DecisionCache()

    def act_code(self, game) -> int:
        """The index of its choice in `game.legal_codes()`."""
        if game.legal_count() == 1:
            return 0
        self.cache.begin()
        decision = game.decision()
        if decision == "stock_turn":
            return stock_turn(game, self.seat, self.params, self.cache, self.chooser)
        by_code = _BY_CODE.get(decision)
        if by_code is not None:
            return by_code(game, self.params, self.cache, self.chooser)
        if decision in AUCTION_DECISIONS:
            return self.auction.act_code(game)
        return game.action_index(_OPERATING[decision](game, game.legal_actions(), self.params, self.cache,
                                                      self.chooser))


def _factory(preset: str):
    def factory(args: str, seat: int, rng: np.random.Generator) -> Heuristic:
        where = f"policy {preset}"
        params = bind(HeuristicParams, parse_args(args, where), where, base=PRESETS[preset])
        return Heuristic(preset, params, seat, rng)
    return factory


def add_preset(name: str, params: HeuristicParams) -> None:
    """A preset more (e.g. one `menorca-sim tune` wrote: policies/tuned.py), registered as
    a policy that takes overrides like the built-in ones."""
    PRESETS[name] = params
    register(name, _factory(name))


for _name in PRESETS:
    register(_name, _factory(_name))
