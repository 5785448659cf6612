"""`probe`: a player that always does one thing and otherwise plays as another player,
so that a study can tell a weak piece of content from one the players only miss.

    probe(start=CCM)                 takes CCM's first certificate whenever it may: starts
                                     it, or buys the first certificate of an unowned RADM
    probe(legacy=L9)                 buys L9 at its minimum price: reserves it at that bid
                                     and buys it when it is on offer at that price or less
    probe(legacy=L9, up_to=200)      the same, bidding up to 200 R.
    probe(start=CCM, play="heuristic(temperature=0.1)")   the player it otherwise is

Seated in one chair of a table of usual players (the seats rotated) and played on the
same seeds as the same table without it, the prober's win share answers: forcing the
item raises it (a blind spot of the players: the content is fine, they miss it) or
lowers it (the content is weak). `experiments/probes.toml`; the report's Probes section."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from policies.auction import auction_lot, reservations
from policies.base import check_names, find_action, make_policy, register
from policies.errors import PolicyError
from policies.spec import bind, parse_args


@dataclass(frozen=True)
class ProbeParams:
    play: str = "heuristic"  # the spec of the player it is in everything else
    start: str = ""  # the company whose first certificate it always takes
    legacy: str = ""  # the legacy it always bids for
    up_to: int = -1  # the most it bids for `legacy` (-1: the legacy's minimum price)

    def __post_init__(self) -> None:
        if bool(self.start) == bool(self.legacy):
            raise ValueError("a probe forces one thing: give start=COMPANY or legacy=LEGACY")
        if self.start and self.up_to != -1:
            raise ValueError("up_to goes with legacy=, not with start=")


class Probe:
    def __init__(self, params: ProbeParams, player, seat: int) -> None:
        self.params = params
        self.player = player
        self.seat = seat
        self.name = "probe"
        self.auction_strategy = player.auction_strategy
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

    def act(self, game, legal: list[dict]) -> dict:
        if not self._checked:  # built without a ruleset (the Python API): checked at the first decision
            self.check_ruleset(game.ruleset)
        forced = self._take_first(game, legal) if self.params.start else self._bid(game, legal)
        return forced if forced is not None else self.player.act(game, legal)

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
