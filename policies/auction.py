"""Family Legacy auction strategies, each usable with any stock/operating style
(`heuristic+value_bidder(premium=0.2)`). A strategy answers the `auction_turn`
(buy the cheapest, reserve another, pass) and `auction_contest` (raise, drop) decisions.

- cheapest_first: buys the cheapest at once, never reserves.
- value_bidder(premium, sets_per_phase, ability_share, budget): values each legacy
  (`valuation.legacy_worth`) and never pays or bids more than worth × (1 + premium)
  nor more than `budget` × its cash; takes the offer with the largest surplus.
- wait_for_drop(drop): passes until the cheapest has fallen to its minimum price ×
  (1 − drop) or below, then buys it; never reserves.
- reserve_sniper(premium, ...): reserves the remaining legacy it values most and
  defends it (raises its reservation, bids in contests) up to its worth × (1 + premium).
- random_legal: uniform over the legal actions."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from policies.base import find_action, register_auction
from policies.choice import MONEY_SCALE, TEMPERATURE, Chooser
from policies.spec import bind, parse_args
from policies.valuation import legacy_worth


def auction_lot(game) -> tuple[str, int]:
    """(legacy on offer as the cheapest, its current price)."""
    auction = game.auction_state()
    return auction["lot"], auction["price"]


def reservations(game, seat: int) -> dict[str, int]:
    """This seat's open reservation bids per legacy."""
    return {legacy: bids[seat] for legacy, bids in game.auction_state()["reservations"].items() if seat in bids}


def _pass_or_drop(legal: list[dict]) -> dict:
    return find_action(legal, "drop") or find_action(legal, "pass") or legal[0]


class CheapestFirst:
    name = "cheapest_first"

    def act(self, game, legal: list[dict]) -> dict:
        return find_action(legal, "buy_legacy") or _pass_or_drop(legal)


@dataclass(frozen=True)
class WaitParams:
    drop: float = 0.2  # fraction of the minimum price the cheapest must have fallen by

    def __post_init__(self) -> None:
        if not 0 <= self.drop <= 1:
            raise ValueError(f"drop must be within [0, 1], got {self.drop}")


class WaitForDrop:
    def __init__(self, name: str, params: WaitParams) -> None:
        self.name = name
        self.params = params

    def limit(self, game, legacy: str) -> float:
        return game.ruleset.legacies[legacy].price * (1 - self.params.drop)

    def act(self, game, legal: list[dict]) -> dict:
        buy = find_action(legal, "buy_legacy")
        if buy is not None and len(legal) == 1:
            return buy  # a legacy at 0 must be taken
        lot, price = auction_lot(game)
        if buy is not None and price <= self.limit(game, lot):
            return buy
        return _pass_or_drop(legal)


@dataclass(frozen=True)
class ValueParams:
    premium: float = 0.0  # bid up to worth × (1 + premium)
    sets_per_phase: float = 1.0  # expected OR sets per phase (how long income flows)
    ability_share: float = 0.5  # weight of an ability's value
    budget: float = 0.4  # never spend more than this share of its cash on one legacy
    temperature: float = TEMPERATURE  # 0: the offer of the largest surplus; above: near-equal ones drawn

    def __post_init__(self) -> None:
        if self.premium < -1 or self.sets_per_phase < 0 or not 0 <= self.ability_share <= 1 \
                or not 0 < self.budget <= 1 or self.temperature < 0:
            raise ValueError(f"parameters out of range: {self}")


class _Valuing:
    """A strategy that bids up to a cap per legacy: worth × (1 + premium), within budget."""

    def __init__(self, name: str, params: ValueParams, seat: int, rng: np.random.Generator) -> None:
        self.name = name
        self.params = params
        self.seat = seat
        self.chooser = Chooser(params.temperature, rng)
        self._worth: dict[tuple, int] = {}  # (rules, legacy, phase index) -> its worth

    def estimate(self, game, legacy: str) -> int:
        """`legacy_worth`, remembered per phase (all it depends on besides the rules): an
        auction turn weighs every legacy left, twice."""
        key = (game.ruleset.sha256, legacy, game.phase_index())
        worth = self._worth.get(key)
        if worth is None:
            p = self.params
            worth = self._worth[key] = legacy_worth(game, legacy, p.sets_per_phase, p.ability_share)
        return worth

    def cap(self, game, legacy: str, cash: int | None = None) -> float:
        """The most it will pay or bid for `legacy` now (`cash`: its cash, if known)."""
        if cash is None:
            cash = game.player_state(self.seat, ("cash",))["cash"]
        return min(self.estimate(game, legacy) * (1 + self.params.premium), cash * self.params.budget)

    def _contest(self, game, legal: list[dict], wanted: bool) -> dict:
        raise_ = find_action(legal, "raise")
        lot, _ = auction_lot(game)
        if wanted and raise_ is not None and raise_["bid"] <= self.cap(game, lot):
            return raise_
        return _pass_or_drop(legal)

    def _leading(self, game, mine: dict[str, int], legacy: str, bid: int) -> bool:
        """True when its own reservation (`mine`: its `reservations`) already leads
        (the legal bid is one step above it)."""
        held = mine.get(legacy)
        return held is not None and held + game.ruleset.auction.reservation_step >= bid


class ValueBidder(_Valuing):
    def act(self, game, legal: list[dict]) -> dict:
        if game.decision() == "auction_contest":
            return self._contest(game, legal, True)
        buy = find_action(legal, "buy_legacy")
        if buy is not None and len(legal) == 1:
            return buy
        lot, price = auction_lot(game)
        offers = [(buy, lot, price)] if buy is not None else []
        mine = reservations(game, self.seat)
        offers += [(a, a["legacy"], a["bid"]) for a in legal if a["type"] == "reserve"
                   and not self._leading(game, mine, a["legacy"], a["bid"])]
        cash = game.player_state(self.seat, ("cash",))["cash"]
        # the buy (listed first), then the reservations in the engine's order
        choices = [(self.estimate(game, legacy) - cost, action)
                   for action, legacy, cost in offers if cost <= self.cap(game, legacy, cash)]
        if not choices:
            return _pass_or_drop(legal)
        return choices[self.chooser.pick([surplus for surplus, _ in choices], MONEY_SCALE)][1]  # largest surplus


class ReserveSniper(_Valuing):
    _target: str | None = None

    def target(self, game) -> str:
        """The unsold legacy it values most (the cheaper one on a tie), chosen again only
        once it is sold: a sniper that changed its mind would defend nothing."""
        left = game.auction_state()["left"]
        if self._target not in left:
            self._target = left[self.chooser.pick([self.estimate(game, l) for l in left], MONEY_SCALE)]
        return self._target

    def act(self, game, legal: list[dict]) -> dict:
        target = self.target(game)
        lot, price = auction_lot(game)
        if game.decision() == "auction_contest":
            return self._contest(game, legal, lot == target)
        buy = find_action(legal, "buy_legacy")
        if buy is not None and (len(legal) == 1 or (lot == target and price <= self.cap(game, lot))):
            return buy
        mine = reservations(game, self.seat)
        for a in legal:
            if a["type"] == "reserve" and a["legacy"] == target and a["bid"] <= self.cap(game, target) \
                    and not self._leading(game, mine, target, a["bid"]):
                return a
        return _pass_or_drop(legal)


class RandomAuction:
    name = "random_legal"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def act(self, game, legal: list[dict]) -> dict:
        return legal[int(self.rng.integers(len(legal)))]


def _no_args(name: str, args: str) -> None:
    if args:
        raise ValueError(f"{name} takes no arguments, got {args!r}")


def _cheapest_first(args: str, seat: int, rng: np.random.Generator) -> CheapestFirst:
    _no_args("cheapest_first", args)
    return CheapestFirst()


def _random(args: str, seat: int, rng: np.random.Generator) -> RandomAuction:
    _no_args("random_legal", args)
    return RandomAuction(rng)


def _with_params(name: str, params_cls: type, build):
    """A factory that parses `name(key=value, ...)` into `params_cls`; the strategy is
    named by its spec text."""
    def factory(args: str, seat: int, rng: np.random.Generator):
        where = f"auction strategy {name}"
        params = bind(params_cls, parse_args(args, where), where)
        return build(f"{name}({args})" if args else name, params, seat, rng)
    return factory


register_auction("cheapest_first", _cheapest_first)
register_auction("value_bidder", _with_params("value_bidder", ValueParams, ValueBidder))
register_auction("wait_for_drop", _with_params("wait_for_drop", WaitParams,
                                               lambda name, params, seat, rng: WaitForDrop(name, params)))
register_auction("reserve_sniper", _with_params("reserve_sniper", ValueParams, ReserveSniper))
register_auction("random_legal", _random)
