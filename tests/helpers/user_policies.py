"""Tiny user policies for tests/policies/test_policies_spec.py, named as `helpers.user_policies:Factory`."""
from __future__ import annotations


class PreferPass:
    """Picks uniformly among the legal actions, but skips/passes with probability `lazy`."""

    def __init__(self, seat, rng, lazy=0.5):
        self.name = "example"
        self.auction_strategy = "example"
        self.rng = rng
        self.lazy = lazy

    def act(self, game, legal):
        quiet = [a for a in legal if a["type"] in ("skip", "pass", "end_turn")]
        if quiet and self.rng.random() < self.lazy:
            return quiet[0]
        return legal[int(self.rng.integers(len(legal)))]


class Raising(PreferPass):
    def act(self, game, legal):
        if game.decision() == "stock_turn":
            raise RuntimeError("boom")
        return super().act(game, legal)


class Illegal(PreferPass):
    def act(self, game, legal):
        if game.decision() == "stock_turn":
            return {"type": "fly_to_the_moon"}
        return super().act(game, legal)


class NotAPolicy:
    def __init__(self, seat, rng):
        self.name = "nothing"


def broken_factory(seat, rng):
    raise ValueError("cannot build")
