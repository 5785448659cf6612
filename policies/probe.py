"""`probe`: a player that always does one thing and otherwise plays as another player,
so that a study can tell a weak piece of content from one the players only miss, and
measure what a loophole of the rules is worth.

    probe(start=CCM)                 takes CCM's first certificate whenever it may: starts
                                     it, or buys the first certificate of an unowned RADM
    probe(legacy=L9)                 buys L9 at its minimum price: reserves it at that bid
                                     and buys it when it is on offer at that price or less
    probe(legacy=L9, up_to=200)      the same, bidding up to 200 R.
    probe(pump=true)                 a company it directs sells the most certificates it
                                     may (step 6) whenever buying them back at the lower
                                     value leaves it richer, and buys them back (step 7)
                                     in the same OR (company_shares.buy_back_after_sale)
    probe(loot=true)                 sells its certificates of a minor it presides while it
                                     directs another company, and has the minor spend its
                                     whole treasury on a vehicle of that company (the
                                     loophole minors.last_certificate = "may_sell" opens)
    probe(tier=true)                 a company it directs buys the newest vehicle on sale
                                     whenever it may, until the next tier opens its phase
    probe(start=CCM, play="heuristic(temperature=0.1)")   the player it otherwise is

Seated in one chair of a table of usual players (the seats rotated) and played on the
same seeds as the same table without it, the prober's win share answers: forcing the
item raises it (a blind spot of the players: the content is fine, they miss it; or a
loophole that pays) or lowers it (the content is weak; the loophole costs). The
experiments `probes.toml` and `exploits.toml`; the report's Probes section."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from policies.auction import auction_lot, reservations
from policies.base import check_names, find_action, make_policy, register
from policies.errors import PolicyError
from policies.spec import bind, parse_args, split_spec

FORCES = ("start", "legacy", "pump", "loot", "tier")  # what a probe may force: exactly one of them


@dataclass(frozen=True)
class ProbeParams:
    play: str = "heuristic"  # the spec of the player it is in everything else
    start: str = ""  # the company whose first certificate it always takes
    legacy: str = ""  # the legacy it always bids for
    up_to: int = -1  # the most it bids for `legacy` (-1: the legacy's minimum price)
    pump: bool = False  # its companies sell their own certificates and buy them back cheaper
    loot: bool = False  # it sells out of a minor it presides and spends its treasury on its own company
    tier: bool = False  # its companies buy the newest vehicles whenever they may: the tiers move on

    def __post_init__(self) -> None:
        if sum(bool(getattr(self, key)) for key in FORCES) != 1:
            raise ValueError("a probe forces one thing: give start=COMPANY, legacy=LEGACY, pump=true, loot=true "
                             "or tier=true")
        if not self.legacy and self.up_to != -1:
            raise ValueError("up_to goes with legacy=, not with start=, pump=, loot= or tier=")


class Probe:
    def __init__(self, params: ProbeParams, player, seat: int) -> None:
        self.params = params
        self.player = player
        self.seat = seat
        self.name = "probe"
        self.auction_strategy = player.auction_strategy
        forcing = {"start": self._take_first, "legacy": self._bid, "pump": self._pump, "loot": self._loot,
                   "tier": self._next_tier}
        self._force = next(forcing[k] for k in FORCES if getattr(params, k))
        self._pumped = (-1, "", 0)  # (OR, company, certificates sold) of its last pumping sale
        self._looting: set[str] = set()  # the minors it has sold out of to loot them
        self._checked = False

    def check_ruleset(self, ruleset) -> None:
        """A probe of a company or legacy the ruleset lacks would never force anything: it
        would play as its `play` player and the study would measure nothing."""
        for key, name, known in (("start", self.params.start, ruleset.companies),
                                 ("legacy", self.params.legacy, ruleset.legacies)):
            if name and name not in known:
                raise PolicyError(f"probe: {key}={name!r} is not in the ruleset (it has {', '.join(known)})")
        check_names(self.player, ruleset)
        self._checked = True

    def act_code(self, game) -> int:
        if not self._checked:  # built without a ruleset (the Python API): checked at the first decision
            self.check_ruleset(game.ruleset)
        legal = game.legal_actions()
        forced = self._force(game, legal)
        if forced is not None:
            return game.action_index(forced)
        i = self.player.act_code(game)
        if legal[i]["type"] in ("buy_cert", "start_company") and legal[i]["company"] in self._looting:
            # a minor it loots it never buys back
            return game.action_index(find_action(legal, "end_turn", "pass", last=True))
        return i

    def _directs(self, game, company: str | None) -> bool:
        return company is not None and game.director(company) == self.seat

    def _pump(self, game, legal: list[dict]) -> dict | None:
        """Step 6: the largest sale after which the value is lower (so buying back is
        cheaper than the sale brought); step 7: buy back what it sold in this OR."""
        company = game.operating_company()
        if not self._directs(game, company):
            return None
        decision = game.decision()
        if decision == "company_sells":
            sales = [a for a in legal if a["type"] == "company_sells_certs"]
            if not sales:
                return None
            sale = max(sales, key=lambda a: a["count"])
            after = game.clone()
            after.apply(sale)
            if after.company_state(company, ("price",))["price"] >= game.company_state(company, ("price",))["price"]:
                return None  # at the market's edge the sale drops nothing: no gain to take
            self._pumped = (game.ors_played(), company, sale["count"])
            return sale
        if decision == "company_buys_back":
            when, pumped, left = self._pumped
            buy = find_action(legal, "company_buys_back")
            if buy is None or (when, pumped) != (game.ors_played(), company) or left <= 0:
                return None
            self._pumped = (when, pumped, left - 1)
            return buy
        return None

    def _loot(self, game, legal: list[dict]) -> dict | None:
        """In a stock round, sell every certificate of a minor it presides while it
        directs another company (and never buy that minor again: see `act`); in the
        minor's vehicle step, buy from a company it directs and holds more of, at the
        minor's whole treasury."""
        decision = game.decision()
        if decision == "stock_turn":
            for a in legal:
                if a["type"] == "sell_cert" and self._may_loot(game, a["company"]):
                    self._looting.add(a["company"])
                    return a
            return None
        minor = game.operating_company()
        if decision != "buy_vehicles" or not self._may_loot(game, minor):
            return None
        shares = game.player_state(self.seat, ("shares",))["shares"]
        buys = [a for a in legal if a["type"] == "buy_vehicle" and a["source"] != "bank"
                and self._directs(game, a["source"]) and shares.get(a["source"], 0) > shares.get(minor, 0)]
        return max(buys, key=lambda a: a["price"]) if buys else None

    def _may_loot(self, game, company: str | None) -> bool:
        """Is `company` a minor it presides, while it directs another company?"""
        rs = game.ruleset
        if company is None or rs.companies[company].kind != "minor" or not self._directs(game, company):
            return False
        return any(other != company and game.director(other) == self.seat for other in game.company_states(("director",)))

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


def probe_target(spec: str) -> tuple[str, str] | None:
    """What the probe `spec` forces (one of FORCES) and its item (a company, a legacy, or
    "true"), read by the spec grammar; None for a spec that is no probe or does not read."""
    try:
        style, _ = split_spec(spec)
        args = parse_args(style.args, f"policy spec {spec!r}") if style.name == "probe" else {}
    except PolicyError:
        return None
    for key in FORCES:
        value = args.get(key)
        if value:
            return key, "true" if value is True else str(value)
    return None


register("probe", _factory)
