"""How a player with valuations picks among its options.

At temperature 0 it takes the best (the first best in the order the caller lists them,
which is how each decision breaks ties): a deterministic player, which replays the same
game from the same setup. At a temperature t > 0 it draws: an option worth v, where the
best is worth b, has weight exp(-(b - v) / (t × max(|b|, scale))), so options within a
few t of the best (relative to its size) keep a real chance and clearly worse ones next
to none. Near-equal choices are where a deterministic bot is arbitrary: sampling them
gives a study distinct games without making the player weak. The draw comes from the
player's own generator (seeded per seat from the game's seed), so a game still depends
only on its seed, seating and players."""
from __future__ import annotations

from typing import Sequence

import cython
import numpy as np

if not cython.compiled:  # compiled, choice.pxd cimports C's exp: the libm function math.exp calls
    from math import exp


TEMPERATURE = 0.03  # the built-in players' default: every game distinct, no strength lost (policies/README.md)
MONEY_SCALE = 10.0  # reales: the market's smallest step, a difference that matters in money
YIELD_SCALE = 0.01  # a certificate's expected yield per OR: one percentage point


class Chooser:
    def __init__(self, temperature: float, rng: np.random.Generator | None) -> None:
        if temperature < 0:
            raise ValueError(f"temperature must be at least 0, got {temperature}")
        if temperature > 0 and rng is None:
            raise ValueError("a temperature above 0 needs the player's generator")
        self.temperature = temperature
        self.rng = rng

    def pick(self, values: Sequence[float], scale: float) -> int:
        """Index of the option chosen among `values` (at least one); `scale`: the size of
        a difference that matters for this decision when the best value is near 0
        (e.g. 10 R. for money, 0.01 for a yield per OR)."""
        best = 0
        for i in range(1, len(values)):
            if values[i] > values[best]:
                best = i
        if self.temperature == 0 or len(values) == 1:
            return best
        top = values[best]
        return _draw(values, best, top, self.temperature * max(abs(top), scale), self.rng.random())


def _draw(values: Sequence[float], best: int, top: float, width: float, uniform: float) -> int:
    """The option drawn by `uniform` (in [0, 1)) with the weights of `Chooser.pick` (typed
    in choice.pxd: the same float operations, in the same order, as Python's)."""
    total = 0.0  # the weights' sum, added in order (as Python 3.11's sum of floats does)
    for v in values:
        total += exp((v - top) / width)
    draw = uniform * total
    for i in range(len(values)):  # each weight again (exp gives the same double): no list of them built
        v = values[i]
        draw -= exp((v - top) / width)
        if draw < 0:
            return i
    return best  # rounding left the draw at the very end: the last weight is the best's share
