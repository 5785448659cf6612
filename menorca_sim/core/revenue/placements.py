"""What a company's fleet would earn with one more of its stations on each of some nodes
(`station_revenues`), or one more of its market markers on each of some offboards
(`marker_revenues`), each taken alone, on the board as it is (no copy)."""
from __future__ import annotations

from menorca_sim.core.revenue.fleet import fleet_search
from menorca_sim.core.revenue.routes import best_revenue


def station_revenues(board, company: str, is_major: bool, vehicles, ctx, nodes, kind: str) -> tuple[int, list[int]]:
    """The best revenue on `board` as it is, and with one more station of `kind` of the
    company on each node of `nodes` (names), taken alone: placed in place, searched and
    removed one by one."""
    c = board.tables.company_index[company]
    base = best_revenue(board, c, is_major, vehicles, ctx)
    out = []
    version = board.version  # each station is removed: the board ends as it began
    for node in nodes:
        slot, held = board._place(c, node, kind)
        try:
            out.append(best_revenue(board, c, is_major, vehicles, ctx))
        finally:
            board._unplace(slot, held)
            board.version = version
    return base, out


def marker_revenues(board, company: str, is_major: bool, vehicles, ctx, offboards) -> list[int]:
    """The best revenue with one more of the company's market markers on each offboard of
    `offboards` (names), taken alone (a marker changes no route: see
    `FleetSearch.offboard_revenues`)."""
    tables = board.tables
    search = fleet_search(board, tables.company_index[company], is_major, vehicles, ctx)
    vertex = tables.vertex_index
    return search.offboard_revenues([vertex[o] for o in offboards], ctx.market_bonus)
