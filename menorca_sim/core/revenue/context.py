"""What a company's routes earn besides the map (its revenue context), read from the
game's state: the context is all a route search takes besides the board and the fleet."""
from __future__ import annotations

import cython

if not cython.compiled:  # compiled, context.pxd cimports them
    from menorca_sim.core.codes import AB_REVENUE_BONUS


@cython.cclass
class RevenueContext:
    """What a company's routes earn besides the map: see core-interfaces.md. An extension
    type compiled: the route searches read it at every question."""

    # its fields: context.pxd

    def __init__(self, epoch: int, node_bonus: dict[str, int] | None = None,
                 market_markers: dict[str, int] | None = None, market_bonus: int = 0,
                 goods_markers: dict[str, int] | None = None) -> None:
        self.epoch = epoch
        self.node_bonus = dict(node_bonus or {})
        self.market_markers = dict(market_markers or {})
        self.market_bonus = market_bonus
        self.goods_markers = dict(goods_markers or {})


def revenue_context(s, c: cython.int, goods_markers: cython.bint = True) -> RevenueContext:
    """What company c's routes earn besides the map: event and legacy node bonuses, its
    own market markers, and (for reporting, unless `goods_markers` is False) the goods
    markers on each offboard. Without them it is a function of `Game.revenue_key`."""
    t = s.t
    bonus = dict(s.node_bonus)
    for l in s.owned_legacies(c, AB_REVENUE_BONUS):
        node = t.ab_node[l]
        bonus[node] = bonus.get(node, 0) + t.ab_amount[l]
    goods = {}
    held = s.goods
    nc: cython.int = t.nc
    o: cython.int
    g: cython.int
    total: cython.int
    for o in range(t.no if goods_markers else 0):
        total = 0
        for g in range(nc):  # a loop, not a generator: this runs for every route plan
            total += held[g][o]
        if total:
            goods[t.offboards[o]] = total
    return RevenueContext(
        epoch=s.epoch,
        node_bonus=bonus,
        market_markers={t.offboards[o]: s.mmarkers[c][o] for o in range(t.no) if s.mmarkers[c][o]},
        market_bonus=t.market_bonus,
        goods_markers=goods,
    )
