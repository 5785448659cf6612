"""`probe`: a player that always does one thing and otherwise plays as another player,
so that a study can tell a weak piece of content from one the players only miss.

    probe(start=CCM)                 takes CCM's first certificate whenever it may: starts
                                     it, or buys the first certificate of an unowned RADM
    probe(legacy=L9)                 buys L9 at its minimum price: reserves it at that bid
                                     and buys it when it is on offer at that price or less
    probe(legacy=L9, up_to=200)      the same, bidding up to 200 R.
    probe(tier=true)                 a company it directs buys the newest vehicle on sale
                                     whenever it may, until the next tier opens its phase
    probe(start=CCM, play="heuristic(temperature=0.1)")   the player it otherwise is

Seated in one chair of a table of usual players (the seats rotated) and played on the
same seeds as the same table without it, the prober's win share answers: forcing the
item raises it (a blind spot of the players: the content is fine, they miss it) or
lowers it (the content is weak). `experiments/probes.toml`; the report's Probes section."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from policies.auction import auction_lot, reservations
from policies.base import find_action, make_policy, register
from policies.spec import bind, parse_args


@dataclass(frozen=True)
class ProbeParams:
    play: str = "heuristic"  # the spec of the player it is in everything else
    start: str = ""  # the company whose first certificate it always takes
    legacy: str = ""  # the legacy it always bids for
    up_to: int = -1  # the most it bids for `legacy` (-1: the legacy's minimum price)
    tier: bool = False  # its companies buy the newest vehicles whenever they may: the tiers move on

    def __post_init__(self) -> None:
        if sum(map(bool, (self.start, self.legacy, self.tier))) != 1:
            raise ValueError("a probe forces one thing: give start=COMPANY, legacy=LEGACY or tier=true")
        if self.up_to != -1 and not self.legacy:
            raise ValueError("up_to goes with legacy=, not with start= or tier=")


class Probe:
    def __init__(self, params: ProbeParams, player, seat: int) -> None:
        self.params = params
        self.player = player
        self.seat = seat
        self.name = "probe"
        self.auction_strategy = player.auction_strategy

    def act(self, game, legal: list[dict]) -> dict:
        force = self._take_first if self.params.start else self._bid if self.params.legacy else self._next_tier
        forced = force(game, legal)
        return forced if forced is not None else self.player.act(game, legal)

    def _next_tier(self, game, legal: list[dict]) -> dict | None:
        """At a company's vehicle purchase: the newest vehicle the bank offers, where it
        is of the phase in force or the next (the next tier is offered once the current
        one is sold out, and its first purchase opens its phase): the company keeps
        buying until the tiers move on. Vehicles of a past tier it leaves alone."""
        if game.decision() != "buy_vehicles":
            return None
        tiers, now = game.ruleset.tier_index, game.phase_index()
        newest = [a for a in legal if a["type"] == "buy_vehicle" and a["source"] == "bank"
                  and tiers[a["vehicle"]] >= now]
        return min(newest, key=lambda a: (-tiers[a["vehicle"]], a["price"])) if newest else None

    def _take_first(self, game, legal: list[dict]) -> dict | None:
        company = self.params.start
        starts = [a for a in legal if a["type"] == "start_company" and a["company"] == company]
        if starts:
            return max(starts, key=lambda a: a["par"])  # the most capital
        buys = [a for a in legal if a["type"] == "buy_cert" and a["company"] == company
                and a["source"] == "treasury"]
        if buys and game.company_state(company, ("director",))["director"] < 0:  # nobody holds it yet
            return buys[0]
        return None

    def _bid(self, game, legal: list[dict]) -> dict | None:
        legacy = self.params.legacy
        if game.decision() not in ("auction_turn", "auction_contest") or legacy not in game.ruleset.legacies:
            return None
        cap = self.params.up_to if self.params.up_to >= 0 else game.ruleset.legacies[legacy].price
        lot, price = auction_lot(game)
        if game.decision() == "auction_contest":
            raise_ = find_action(legal, "raise")
            return raise_ if lot == legacy and raise_ is not None and raise_["bid"] <= cap else None
        buy = find_action(legal, "buy_legacy")
        if lot == legacy and buy is not None and price <= cap:
            return buy
        held = reservations(game, self.seat).get(legacy)
        for a in legal:
            if a["type"] == "reserve" and a["legacy"] == legacy and a["bid"] <= cap and held is None:
                return a
        return None


def _factory(args: str, seat: int, rng: np.random.Generator) -> Probe:
    params = bind(ProbeParams, parse_args(args, "policy probe"), "policy probe")
    return Probe(params, make_policy(params.play, seat, rng), seat)


register("probe", _factory)
