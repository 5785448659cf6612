"""A user policy (docs/writing-a-policy.md): lays the tile that earns its company the most
this turn, always pays dividends out, and otherwise picks at random, often passing."""
from __future__ import annotations

import numpy as np

from menorca_sim.moves import lay_of


class RoadBuilder:
    """Built by `make_policy("road_builder:RoadBuilder(patience=0.5)", seat, rng)` as
    `RoadBuilder(seat=seat, rng=rng, patience=0.5)`."""

    def __init__(self, seat: int, rng: np.random.Generator, patience: float = 0.5) -> None:
        if not 0 <= patience <= 1:
            raise ValueError(f"patience must be within [0, 1], got {patience}")
        self.name = f"road_builder(patience={patience})"
        self.auction_strategy = "road_builder"  # the auctions table and the report's ratings name it so
        self.seat, self.rng, self.patience = seat, rng, patience

    def act(self, game, legal: list[dict]) -> dict:
        """One of `legal` (the very dicts of `game.legal_actions()`)."""
        payout = [a for a in legal if a["type"] == "payout"]
        if payout:
            return payout[0]
        lays = [a for a in legal if a["type"] == "lay_tile"]
        if lays:  # a company decides: its id is the actor's label
            company = game.actor_label()
            vehicles = game.company_state(company, ["vehicles"])["vehicles"]
            revenues = game.whatif.lay_revenues(company, vehicles, [lay_of(a) for a in lays])  # after each lay
            return lays[int(np.argmax(revenues))]
        passes = [a for a in legal if a["type"] in ("pass", "skip", "end_turn")]
        if passes and self.rng.random() < self.patience:
            return passes[0]
        return legal[int(self.rng.integers(len(legal)))]  # only the seat's generator: games stay reproducible
