"""Typed views of one board and its tables for the map questions that run thousands of
times per game (a lay's shape, the candidate lays a company's network reaches, stations'
free slots, a company's reach): `_LayViews`, taken once per board and kept in the
scratch of its tables (a memoryview taken anew costs more than a hex's checks), the
candidate lays buffer `_Lays`, and the board versions every change of a map takes."""
from __future__ import annotations

from array import array
from itertools import count

import cython

from menorca_sim.rules.model import COLOURS, NODE

if not cython.compiled:  # compiled, mapviews.pxd cimports them
    from menorca_sim.core.revenue.scratch import Scratch, scratch_of
    from menorca_sim.core.track import _graph, reach

VERSIONS = count()  # board versions: a new number for every change of any board (Board.version)


@cython.cfunc
def _colour_bits(colours) -> cython.int:
    """Tile colours (names) as bits of their indices in COLOURS."""
    bits: cython.int = 0
    for col in colours:
        bits |= 1 << COLOURS.index(col)
    return bits


@cython.cclass
class _TableViews:
    """Typed views of the tables' arrays that the lay questions read, taken once per
    tables and kept in their scratch (each board's `_LayViews` shares them: what-if
    copies of the board are many)."""

    # its fields: mapviews.pxd

    def __init__(self, tb) -> None:
        self.tables = tb
        self.lanes = _graph(tb, tb.lanes_graph)
        self.stop = bytearray(tb.n_nodes)
        self.own = bytearray(tb.n_nodes)
        self.node_slots = tb.node_slots
        self.n_manifest = tb.n_manifest
        self.terrain_on_upgrade = tb.rs.operating.terrain_on_upgrade
        self.path_bits = tb.path_bits
        self.live_pairs = _live_pairs(tb)
        self.edge_mask, self.neighbour, self.land_node = tb.edge_mask, tb.neighbour, tb.land_node
        self.tile_colour, self.terrain_cost = tb.tile_colour, tb.terrain_cost
        self.lay_options, self.first_lay_span, self.upgrade_span = tb.lay_options, tb.first_lay_span, tb.upgrade_span


@cython.cclass
class _LayViews:
    """Typed views of what the lay questions read: a board's tiles, rotations, manifest,
    stations and roads (changed in place: the views stay good) and its tables' arrays
    (`tv`). Taking a memoryview anew costs more than a hex's checks, and the lookahead
    asks for thousands of lays."""

    # its fields: mapviews.pxd

    def __init__(self, board, tv: _TableViews) -> None:
        self.board = board
        self.tv = tv
        self.tile, self.rot, self.left = board.tile, board.rot, board.left
        self.company = board.station_company
        self.slots = board.slots
        self.road = _graph(board.tables, board.road).of(board.tables)


def _live_pairs(tables) -> array:
    """Per set of a hex's path ends as bits (edges 0-5, NODE), the PATH_PAIRS whose two
    ends are both in it, as bits (see `lays._fill_effects`)."""
    table = array("i", [0]) * (1 << (NODE + 1))
    for ends in range(len(table)):
        for i in range(len(tables.pair_a)):
            if (ends >> tables.pair_a[i]) & (ends >> tables.pair_b[i]) & 1:
                table[ends] |= 1 << i
    return table




@cython.cfunc
def _views(board) -> _LayViews:
    """The `_LayViews` of `board`: those in the scratch of its tables again, if they are
    its (the table views are taken once per tables)."""
    tables = board.tables
    scratch: Scratch = scratch_of(tables)
    views: _LayViews = scratch.board_views
    if views is None or views.board is not board:
        tv: _TableViews = scratch.table_views
        if tv is None:
            tv = scratch.table_views = _TableViews(tables)
        views = _LayViews(board, tv)
        scratch.board_views = views
    return views


@cython.cclass
class _Lays:
    """Candidate lays as typed columns, filled in place and read at once (a tuple per
    lay cost more than the lay's checks): land hex, tile index, rotation and cost of lay
    i < n, and, once `_fill_effects` ran, its effect on routes as a number (-1: none)."""

    # its fields: mapviews.pxd

    def __init__(self) -> None:
        self.n = 0
        self._grow(256)

    @cython.cfunc
    def _grow(self, size: cython.int) -> cython.void:
        """Room for `size` lays, keeping the n held (memoryviews cannot grow)."""
        columns = [array("i", [0]) * size for _ in range(4)] + [array("q", [0]) * size, array("i", [0]) * size]
        i: cython.int
        for i in range(self.n):
            columns[0][i], columns[1][i], columns[2][i], columns[3][i] = self.h[i], self.t[i], self.r[i], self.cost[i]
        self.h, self.t, self.r, self.cost, self.effect, self.revenue = columns

    @cython.cfunc
    def add(self, h: cython.int, t: cython.int, r: cython.int, cost: cython.int) -> cython.void:
        if self.n == len(self.h):
            self._grow(2 * self.n)
        self.h[self.n], self.t[self.n], self.r[self.n], self.cost[self.n] = h, t, r, cost
        self.n += 1

    def as_tuples(self) -> list[tuple[int, int, int, int]]:
        """(land hex, tile index, rotation, cost) of each lay."""
        i: cython.int
        out = []
        for i in range(self.n):
            out.append((self.h[i], self.t[i], self.r[i], self.cost[i]))
        return out

    def effects(self) -> list[int]:
        """The effect number of each lay (see `_fill_effects`)."""
        i: cython.int
        return [self.effect[i] for i in range(self.n)]


@cython.cfunc
def _lays(tables) -> _Lays:
    """The lays buffer in the scratch of `tables`, emptied: each user fills and reads it
    before the next asks for it."""
    scratch: Scratch = scratch_of(tables)
    lays: _Lays = scratch.lays
    if lays is None:
        lays = _Lays()
        scratch.lays = lays
    lays.n = 0
    return lays


@cython.cfunc
@cython.inline
def _options(v: _LayViews, h: cython.int) -> tuple[cython.int, cython.int]:
    """The items of `lay_options` (tile, rotation, tile, ...) that may go on land hex h as
    it is: its first lays while it is empty, else the upgrades of its tile at its rotation."""
    if v.tile[h] < 0:
        return v.tv.first_lay_span[2 * h], v.tv.first_lay_span[2 * h + 1]
    k: cython.int = 2 * (v.tile[h] * 6 + v.rot[h])
    return v.tv.upgrade_span[k], v.tv.upgrade_span[k + 1]


@cython.cfunc
def _shape_fits(v: _LayViews, h: cython.int, t: cython.int, rotation: cython.int) -> cython.bint:
    """Tile t at `rotation` has the track of one of the lays allowed on land hex h now
    (the tables' `lay_options` for the hex as it is; any rotation with equal paths is
    that lay)."""
    if not 0 <= rotation < 6:
        return False
    paths: cython.int = v.tv.path_bits[t * 6 + rotation]
    first: cython.int
    end: cython.int
    first, end = _options(v, h)
    i: cython.int
    for i in range(first, end, 2):
        if v.tv.lay_options[i] == t and v.tv.path_bits[t * 6 + v.tv.lay_options[i + 1]] == paths:
            return True
    return False


@cython.cfunc
def _set_tile(v: _LayViews, h: cython.int, t: cython.int, rotation: cython.int) -> cython.void:
    """Put tile t (-1: none, and a preprinted pseudo-tile: taken from no supply) on land hex
    h of the board viewed at `rotation`, the one it replaces back in the supply: a lay,
    or its undoing (the lay questions put and undo thousands of lays, checked before)."""
    old: cython.int = v.tile[h]
    if 0 <= old < v.tv.n_manifest:
        v.left[old] += 1
    if 0 <= t < v.tv.n_manifest:
        v.left[t] -= 1
    v.tile[h] = t
    v.rot[h] = rotation
    v.road.set_hex(h, t, rotation)
    v.board.version = next(VERSIONS)


@cython.cfunc
def _lays_reached(v: _LayViews, allowed: cython.int, own: list, reached: cython.uchar[::1], cash: cython.int,
                  discount: cython.int) -> _Lays:
    """`Board._tile_lays` of a company with stations on the nodes `own`, whose network
    reaches the vertices `reached`, with tiles of the colours `allowed` (as bits): the
    lookahead's lays, searched without names or checks, in the lays buffer."""
    tv: _TableViews = v.tv
    stub_base: cython.int = tv.tables.stub_base
    h: cython.int
    e: cython.int
    i: cython.int
    t: cython.int
    r: cython.int
    n: cython.int
    first: cython.int
    end: cython.int
    cost: cython.int
    open_edges: cython.int
    home: cython.bint
    out: _Lays = _lays(tv.tables)
    for n in own:
        tv.own[n] = 1
    for h in range(tv.tables.n_land):
        # edges of h where company track in the neighbour arrives, as bits
        open_edges = 0
        for e in range(6):
            if reached[stub_base + h * 6 + e]:
                open_edges |= 1 << e
        home = tv.land_node[h] >= 0 and tv.own[tv.land_node[h]]
        if not (open_edges or home):
            continue
        cost = 0 if v.tile[h] >= 0 and not tv.terrain_on_upgrade else max(0, tv.terrain_cost[h] - discount)
        if cost > cash:
            continue
        first, end = _options(v, h)
        for i in range(first, end, 2):
            t, r = tv.lay_options[i], tv.lay_options[i + 1]
            if v.left[t] <= 0 or not (allowed >> tv.tile_colour[t]) & 1:
                continue
            if home or tv.edge_mask[t * 6 + r] & open_edges:
                out.add(h, t, r, cost)
    for n in own:
        tv.own[n] = 0
    return out


@cython.cfunc
def _free(v: _LayViews, n: cython.int) -> cython.int:
    """Free station slots of node n."""
    s: cython.int
    free: cython.int = 0
    for s in range(v.tv.node_slots[n]):
        if v.company[n * v.slots + s] < 0:
            free += 1
    return free


@cython.cfunc
def _blocked(v: _LayViews, c: cython.int) -> cython.uchar[::1]:
    """Per node: 1 when every slot holds another company's station than c's (in a buffer
    of the tables' views, which the next call overwrites)."""
    n: cython.int
    s: cython.int
    o: cython.int
    full: cython.bint
    for n in range(v.tv.tables.n_nodes):
        full = v.tv.node_slots[n] > 0
        for s in range(v.tv.node_slots[n]):
            o = v.company[n * v.slots + s]
            if o < 0 or o == c:
                full = False
        v.tv.stop[n] = full
    return v.tv.stop


@cython.cfunc
def _reached(v: _LayViews, c: cython.int, own: list, ports: cython.bint) -> cython.uchar[::1]:
    """What company c's network reaches over the board's roads, and with `ports` the sea
    lanes too, from its stations' nodes `own` (`track.reach`'s buffer)."""
    return reach(v.tv.tables, v.road, v.tv.lanes if ports else None, own, _blocked(v, c))
