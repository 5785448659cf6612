"""Lay effects on revenue: what a company's fleet would earn after each of some candidate
lays taken alone (`lay_revenues`), and after each lay that a lookahead's first lays
would then allow (`next_lay_revenues`). Each lay is laid in place on the board, searched
and undone (no copy), and only lays that change routes differently are searched (see
`_fill_effects`): most candidate lays change nothing, many others the same as another;
and a lay out of the fleet's reach changes nothing for it (`FleetSearch.affects`)."""
from __future__ import annotations

import cython

from menorca_sim.core.revenue.fleet import fleet_search
from menorca_sim.rules.model import NODE

if not cython.compiled:  # compiled, lays.pxd cimports them
    from menorca_sim.core.mapviews import (_colour_bits, _LayViews, _Lays, _lays, _lays_reached, _reached, _set_tile,
                                           _shape_fits, _views)
    from menorca_sim.core.revenue.fleet import FleetSearch


def lay_revenues(board, company: str, is_major: bool, vehicles, ctx, lays) -> tuple[int, list[int]]:
    """The best revenue of `company` running `vehicles` on `board` as it is, and after
    each lay of `lays` ((hex, tile id, rotation) each, and any items after them, such as a
    cost) taken alone, each checked as `Board.lay_tile` checks it."""
    checked = _checked_lays(board, lays)
    search = fleet_search(board, board.tables.company_index[company], is_major, vehicles, ctx)
    return _lay_revenues(board, search, checked)


def next_lay_revenues(board, company: str, is_major: bool, vehicles, ctx, firsts, colours, cash: int,
                      terrain_discount: int, until_earning: bool = False) -> list[list[int]]:
    """For each lay of `firsts` ((hex, tile id, rotation, cost) each) taken alone: the
    best revenue after each lay that `Board.tile_lays` then offers (from `cash` less its
    cost), in its order (0 each without vehicles): a lookahead's level in one call, each
    first lay laid in place and undone. `until_earning`: the answers end with the first
    one holding a revenue (the question was whether any does)."""
    h: cython.int
    t: cython.int
    old: cython.int
    old_rot: cython.int
    c: cython.int = board.tables.company_index[company]
    lays: _Lays
    out = []
    # one search prepared for the fleet, told of each first lay and of its undoing
    search: FleetSearch = fleet_search(board, c, is_major, vehicles, ctx) if vehicles else None
    # what the first lays leave alone: the company's stations, the nodes it may not
    # cross, the colours it may lay
    v: _LayViews = _views(board)
    own, allowed = board._own_nodes(c), _colour_bits(colours)
    version = board.version  # each lay is undone: the board ends as it began
    for hex, tile_id, rotation, cost in firsts:
        h = board._land(hex)
        t = board._checked_lay(h, tile_id, rotation)
        old, old_rot = v.tile[h], v.rot[h]
        _set_tile(v, h, t, rotation)
        try:
            lays = _lays_reached(v, allowed, own, _reached(v, c, own, False), cash - cost, terrain_discount)
            if search is None:
                revenues = [0] * lays.n
            else:
                search.lay_changed(h)
                revenues = _lay_revenues(board, search, lays)[1]
        finally:
            _set_tile(v, h, old, old_rot)
            board.version = version
        if search is not None:
            search.lay_changed(h)
        out.append(revenues)
        if until_earning and any(revenues):  # revenues are never negative
            break
    return out


def lay_effects(board, lays) -> list[int]:
    """The effect number of each lay of `lays` ((hex, tile id, rotation) each, legal on
    `board` now; see `_fill_effects`): lays of equal numbers earn the same."""
    checked: _Lays = _checked_lays(board, lays)
    _fill_effects(_views(board), checked)
    return checked.effects()


@cython.cfunc
def _checked_lays(board, lays) -> _Lays:
    """Each lay ((hex, tile id, rotation) each, and any items after them), checked as
    `Board.lay_tile` checks it, in the lays buffer (cost 0)."""
    tb = board.tables
    v: _LayViews = _views(board)
    land_index: dict = tb.land_index
    tile_index: dict = tb.tile_index
    n_manifest: cython.int = tb.n_manifest
    h: cython.int
    t: cython.int
    out: _Lays = _lays(tb)
    for lay in lays:
        hex, tile_id, rotation = lay[0], lay[1], lay[2]
        # `_checked_lay`'s checks without its messages, asked of it only on failure:
        # this runs for every candidate lay
        h, t = land_index.get(hex, -1), tile_index.get(tile_id, -1)
        if h < 0 or not 0 <= t < n_manifest or v.left[t] <= 0 \
                or not _shape_fits(v, h, t, rotation):
            board._checked_lay(board._land(hex), tile_id, rotation)  # raises, saying what is wrong
        out.add(h, t, rotation, 0)
    return out


@cython.cfunc
def _fill_effects(v: _LayViews, lays: _Lays) -> cython.void:
    """Fill the effect of each of `lays` (legal on the board now). Lays with equal
    effects earn the same for every fleet: a route can use a path the lay adds only if
    it is live, each end at the hex's node or facing track (a neighbour's tile reaching
    the side they share), since a route cannot end on a bare hex side; so the effect is
    the hex, the tile's colour (its node's value) and the live paths added, as one
    number (hex << 40 | colour << 32 | live paths' bits), or -1, the map unchanged,
    where the hex has no node and no live path is added."""
    h: cython.int
    t: cython.int
    r: cython.int
    e: cython.int
    j: cython.int
    k: cython.int
    added: cython.int
    live: cython.int
    ends: cython.int = 0
    last: cython.int = -1  # the hex of `ends` (the lays come hex by hex)
    for k in range(lays.n):
        h, t, r = lays.h[k], lays.t[k], lays.r[k]
        added = v.tv.path_bits[t * 6 + r]
        if v.tile[h] >= 0:
            added &= ~v.tv.path_bits[v.tile[h] * 6 + v.rot[h]]
        if h != last:
            last = h
            ends = 1 << NODE  # and each edge facing a neighbour's track to the side they share
            for e in range(6):
                j = v.tv.neighbour[h * 6 + e]
                if j >= 0 and v.tile[j] >= 0 and (v.tv.edge_mask[v.tile[j] * 6 + v.rot[j]] >> ((e + 3) % 6)) & 1:
                    ends |= 1 << e
        live = added & v.tv.live_pairs[ends]
        if live == 0 and v.tv.land_node[h] < 0:
            lays.effect[k] = -1
        else:
            lays.effect[k] = ((cython.cast(cython.longlong, h) << 40)
                              | (cython.cast(cython.longlong, v.tv.tile_colour[t]) << 32) | live)


@cython.cfunc
def _lay_revenues(board, search: FleetSearch, lays: _Lays) -> tuple:
    """`lay_revenues` asked of `search`, a `FleetSearch` of `board` as it is, for
    `lays` (the lays buffer), each legal on the board now. Lays of equal effects earn the
    same (`_fill_effects`): an equal one is looked for among the lays of the same hex just
    before (an effect holds its hex, and lays come hex by hex; one found further back
    would only save a search of the same answer)."""
    v: _LayViews = _views(board)
    h: cython.int
    i: cython.int
    j: cython.int
    old: cython.int
    old_rot: cython.int
    revenue: cython.int
    _fill_effects(v, lays)
    # the board as it is: each kind's revenue, kept for the lays that leave the kind alone
    base: cython.int = search.revenue(-1)
    reach: cython.uchar[::1] = search.reach()  # per land hex: may a lay there change the revenue
    out = []
    version = board.version  # each lay is undone: the board ends as it began
    for i in range(lays.n):
        h = lays.h[i]
        if not reach[h]:
            lays.effect[i] = -1  # out of the fleet's reach: none
        revenue = base if lays.effect[i] < 0 else -1  # revenues are never negative
        j = i - 1
        while revenue < 0 and j >= 0 and lays.h[j] == h:
            if lays.effect[j] == lays.effect[i]:
                revenue = lays.revenue[j]
            j -= 1
        if revenue < 0:
            old, old_rot = v.tile[h], v.rot[h]
            _set_tile(v, h, lays.t[i], lays.r[i])
            try:
                revenue = search.revenue(h)
            finally:
                _set_tile(v, h, old, old_rot)
                board.version = version
        lays.revenue[i] = revenue
        out.append(revenue)
    return base, out
