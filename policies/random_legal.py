"""Uniform over the legal actions, with its own seeded generator."""
from __future__ import annotations

import numpy as np

from policies.base import register


class RandomLegal:
    name = "random_legal"
    auction_strategy = "random"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def act_code(self, game) -> int:
        return int(self.rng.integers(game.legal_count()))


def _factory(args: str, seat: int, rng: np.random.Generator) -> RandomLegal:
    if args:
        raise ValueError(f"random_legal takes no arguments, got {args!r}")
    return RandomLegal(rng)


register("random_legal", _factory)
