"""The map state of one game: tiles laid, the tile manifest left, stations per node.
See docs/design/core-interfaces.md ("Board") for the contract with the engine."""
from __future__ import annotations

from array import array
from itertools import count

import cython

from menorca_sim.core import routes, track
from menorca_sim.core.track import PORT, STATION_KINDS
from menorca_sim.rules.model import COLOURS, NODE

if not cython.compiled:  # compiled, board.pxd cimports them
    from menorca_sim.core.routes import FleetSearch
    from menorca_sim.core.track import _graph, reach

_VERSIONS = count()  # board versions: a new number for every change of any board


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
    tables (each board's `_LayViews` shares them: what-if copies of the board are many)."""

    # its fields: board.pxd

    def __init__(self, tb) -> None:
        self.tables = tb
        self.lanes = _graph(tb.lanes_graph)
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

    # its fields: board.pxd

    def __init__(self, board, tv: _TableViews) -> None:
        self.board = board
        self.tv = tv
        self.tile, self.rot, self.left = board.tile, board.rot, board.left
        self.company = board.station_company
        self.slots = board.slots
        self.road = _graph(board.road).of(board.tables)


_LAST_VIEWS = None  # the _LayViews asked for last


def _live_pairs(tables) -> array:
    """Per set of a hex's path ends as bits (edges 0-5, NODE), the PATH_PAIRS whose two
    ends are both in it, as bits (see `_fill_effects`); made once per tables."""
    table = _LIVE_PAIRS.get(tables)
    if table is None:
        table = _LIVE_PAIRS[tables] = array("i", [0]) * (1 << (NODE + 1))
        for ends in range(len(table)):
            for i in range(len(tables.pair_a)):
                if (ends >> tables.pair_a[i]) & (ends >> tables.pair_b[i]) & 1:
                    table[ends] |= 1 << i
    return table


_LIVE_PAIRS: dict = {}  # tables -> its `_live_pairs`


@cython.cfunc
def _views(board) -> _LayViews:
    """The `_LayViews` of `board` (the last ones again, if they are its)."""
    global _LAST_VIEWS
    views: _LayViews = _LAST_VIEWS
    if views is None or views.board is not board:
        tv: _TableViews = views.tv if views is not None and views.tv.tables is board.tables else _TableViews(board.tables)
        views = _LAST_VIEWS = _LayViews(board, tv)
    return views


@cython.cclass
class _Lays:
    """Candidate lays as typed columns, filled in place and read at once (a tuple per
    lay cost more than the lay's checks): land hex, tile index, rotation and cost of lay
    i < n, and, once `_fill_effects` ran, its effect on routes as a number (-1: none)."""

    # its fields: board.pxd

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
def _lays() -> _Lays:
    """The lays buffer, emptied: each user fills and reads it before the next asks for it."""
    lays: _Lays = _LAYS
    lays.n = 0
    return lays


_LAYS = _Lays()


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
    v.board.version = next(_VERSIONS)


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
    """`Board.lay_revenues` asked of `search`, a `FleetSearch` of `board` as it is, for
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
    out: _Lays = _lays()
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


class Board:
    def __init__(self, tables) -> None:
        self.tables = tables
        self.tile = array("i", tables.preprinted)  # per land hex: tile id or -1
        self.rot = array("i", [0] * tables.n_land)
        self.left = array("i", tables.tile_count)  # copies in the manifest, per tile id
        self.slots = max(tables.node_slots) if tables.node_slots else 0
        # per node, per slot: station's company index (-1 = free) and kind
        self.station_company = array("i", [-1] * (tables.n_nodes * self.slots))
        self.station_kind = array("i", [0] * (tables.n_nodes * self.slots))
        self.road = track.empty_road_graph(tables)  # kept up to date by every lay
        for h in range(tables.n_land):
            if self.tile[h] >= 0:
                track.set_hex(tables, self.road, h, self.tile[h], 0)
        # equal versions, equal tiles, manifest and stations (a copy keeps its original's
        # version until either changes): lets a caller keep what it derived from the map
        self.version = next(_VERSIONS)

    def clone(self) -> Board:
        """An independent copy (flat arrays only: a few microseconds)."""
        other = Board.__new__(Board)
        other.tables = self.tables
        # slicing copies an array with one memcpy (array("i", a) goes item by item)
        other.tile = self.tile[:]
        other.rot = self.rot[:]
        other.left = self.left[:]
        other.slots = self.slots
        other.station_company = self.station_company[:]
        other.station_kind = self.station_kind[:]
        degree, target, unit, stride = self.road
        other.road = (degree[:], target[:], unit[:], stride)
        other.version = self.version
        return other

    # --- track ---------------------------------------------------------------------
    def tile_at(self, hex: str) -> tuple[str, int] | None:
        t = self.tile[self._land(hex)]
        return None if t < 0 else (self.tables.tile_ids[t], self.rot[self._land(hex)])

    def tiles_left(self, tile_id: str) -> int:
        """Copies of a manifest tile not on the map."""
        return self.left[self.tables.tile_index[tile_id]]

    def tile_lays(self, company: str, colours, cash: int, terrain_discount: int = 0) -> list[tuple[str, str, int, int]]:
        """(hex, tile id, rotation, cost) of each lay `company` may make now with a tile of
        `colours` costing at most `cash` (terrain less `terrain_discount`): on a hex holding
        one of its stations, or on one its network reaches through a side the tile's track touches."""
        tb = self.tables
        land, tile_ids = tb.land, tb.tile_ids
        return [(land[h], tile_ids[t], r, cost)
                for h, t, r, cost in self._tile_lays(tb.company_index[company], colours, cash, terrain_discount)]

    def _tile_lays(self, c: int, colours, cash: int, terrain_discount: int) -> list[tuple[int, int, int, int]]:
        """`tile_lays` of company index c as (land hex, tile index, rotation, cost)."""
        v: _LayViews = _views(self)
        own = self._own_nodes(c)
        return _lays_reached(v, _colour_bits(colours), own, _reached(v, c, own, False), cash,
                             terrain_discount).as_tuples()

    def lay_tile(self, hex: str, tile_id: str, rotation: int) -> None:
        """Lay or upgrade (shape rules only; connectivity and cost are tile_lays' job).
        A replaced manifest tile returns to the supply."""
        h: cython.int = self._land(hex)
        _set_tile(_views(self), h, self._checked_lay(h, tile_id, rotation), rotation)

    def _checked_lay(self, h: cython.int, tile_id: str, rotation: int) -> int:
        """The index of `tile_id`, if it may go on land hex h at `rotation` now."""
        tb = self.tables
        t: cython.int = tb.tile_index.get(tile_id, -1)
        if t < 0 or t >= tb.n_manifest:
            raise ValueError(f"unknown tile {tile_id!r}")
        if not _shape_fits(_views(self), h, t, rotation):
            raise ValueError(f"tile {tile_id} at rotation {rotation} is not a legal lay on {tb.land[h]}")
        if self.left[t] <= 0:
            raise ValueError(f"no tile {tile_id} left in the manifest")
        return t

    # --- stations ------------------------------------------------------------------
    def free_slots(self, node: str) -> int:
        return self._free_slots(self._node(node))

    def _free_slots(self, n: cython.int) -> int:
        return _free(_views(self), n)

    def stations(self, company: str) -> list[tuple[str, str]]:
        c = self.tables.company_index[company]
        return [(self.tables.node_names[i // self.slots], STATION_KINDS[self.station_kind[i]])
                for i, owner in enumerate(self.station_company) if owner == c]

    def station_sites(self, company: str, kind: str) -> list[str]:
        names = self.tables.node_names
        return [names[n] for n in self._station_sites(self.tables.company_index[company], STATION_KINDS.index(kind))]

    def _station_sites(self, c: int, k: int) -> list[int]:
        """`station_sites` of company index c for station kind k (an index of STATION_KINDS),
        as node indices."""
        own = self._own_nodes(c)
        reached: cython.uchar[::1] = _reached(_views(self), c, own, k == PORT)
        n: cython.int
        return [n for n in range(self.tables.n_nodes) if reached[n] and n not in own and self._site_ok(n, k)]

    def _site_ok(self, n: cython.int, kind: int) -> bool:
        return _free(_views(self), n) > 0 and (kind != PORT or self.tables.node_port[n])

    def place_station(self, company: str, node: str, kind: str) -> None:
        """Place a station (home stations too: no connectivity check here)."""
        self._place(self.tables.company_index[company], node, kind)

    def _place(self, c: int, node: str, kind: str) -> tuple[int, int]:
        """`place_station` for company index c; returns the slot taken and the kind it held
        (see `_unplace`)."""
        n = self._node(node)
        k = STATION_KINDS.index(kind)
        if not self._site_ok(n, k) or n in self._own_nodes(c):
            raise ValueError(f"{self.tables.company_ids[c]} cannot place a {kind} at {node}")
        for s in range(self.tables.node_slots[n]):
            i = n * self.slots + s
            if self.station_company[i] < 0:
                held = self.station_kind[i]
                self.station_company[i] = c
                self.station_kind[i] = k
                self.version = next(_VERSIONS)
                return i, held
        raise AssertionError("a site with a free slot has one")

    def _unplace(self, i: int, kind: int) -> None:
        """Undo `_place`, which took slot i, whose kind was `kind` before."""
        self.station_company[i] = -1
        self.station_kind[i] = kind
        self.version = next(_VERSIONS)

    def replace_company(self, old: str, new: str) -> None:
        o, n = self.tables.company_index[old], self.tables.company_index[new]
        for i in range(len(self.station_company)):
            if self.station_company[i] == o:
                self.station_company[i] = n
        self.version = next(_VERSIONS)

    def _own_nodes(self, c: cython.int) -> list[int]:
        v: _LayViews = _views(self)
        i: cython.Py_ssize_t
        return [i // v.slots for i in range(len(v.company)) if v.company[i] == c]

    # --- routes --------------------------------------------------------------------
    def best_routes(self, company: str, is_major: bool, vehicles, ctx) -> routes.RoutePlan:
        return routes.best_routes(self, company, is_major, vehicles, ctx)

    def best_revenue(self, company: str, is_major: bool, vehicles, ctx) -> int:
        """The revenue of `best_routes`, without building the plan."""
        return routes.best_revenue(self, self.tables.company_index[company], is_major, vehicles, ctx)

    def lay_revenues(self, company: str, is_major: bool, vehicles, ctx, lays) -> tuple[int, list[int]]:
        """The `best_revenue` on the board as it is, and after each lay of `lays` ((hex,
        tile id, rotation) each, and any items after them, such as a cost) taken alone: laid in place, searched and undone one by
        one (no copy), one search per distinct effect on routes (see `_fill_effects`:
        most candidate lays change nothing, many others the same as another; and a lay
        out of the fleet's reach changes nothing for it, see `routes.FleetSearch.affects`)."""
        checked = self._checked_lays(lays)
        search = routes.fleet_search(self, self.tables.company_index[company], is_major, vehicles, ctx)
        return _lay_revenues(self, search, checked)

    def next_lay_revenues(self, company: str, is_major: bool, vehicles, ctx, firsts, colours, cash: int,
                          terrain_discount: int, until_earning: bool = False) -> list[list[int]]:
        """For each lay of `firsts` ((hex, tile id, rotation, cost) each) taken alone: the
        `best_revenue` after each lay that `tile_lays` then offers (from `cash` less its
        cost), in `tile_lays`' order (0 each without vehicles): a lookahead's level in one
        call, each first lay laid in place and undone (no copy). `until_earning`: the
        answers end with the first one holding a revenue (the question was whether any does)."""
        h: cython.int
        t: cython.int
        old: cython.int
        old_rot: cython.int
        c: cython.int = self.tables.company_index[company]
        lays: _Lays
        out = []
        # one search prepared for the fleet, told of each first lay and of its undoing
        search: FleetSearch = routes.fleet_search(self, c, is_major, vehicles, ctx) if vehicles else None
        # what the first lays leave alone: the company's stations, the nodes it may not
        # cross, the colours it may lay
        v: _LayViews = _views(self)
        own, allowed = self._own_nodes(c), _colour_bits(colours)
        version = self.version  # each lay is undone: the board ends as it began
        for hex, tile_id, rotation, cost in firsts:
            h = self._land(hex)
            t = self._checked_lay(h, tile_id, rotation)
            old, old_rot = v.tile[h], v.rot[h]
            _set_tile(v, h, t, rotation)
            try:
                lays = _lays_reached(v, allowed, own, _reached(v, c, own, False), cash - cost, terrain_discount)
                if search is None:
                    revenues = [0] * lays.n
                else:
                    search.lay_changed(h)
                    revenues = _lay_revenues(self, search, lays)[1]
            finally:
                _set_tile(v, h, old, old_rot)
                self.version = version
            if search is not None:
                search.lay_changed(h)
            out.append(revenues)
            if until_earning and any(revenues):  # revenues are never negative
                break
        return out

    def station_revenues(self, company: str, is_major: bool, vehicles, ctx, nodes,
                         kind: str) -> tuple[int, list[int]]:
        """The `best_revenue` on the board as it is, and with one more station of `kind` of
        the company on each node of `nodes` (names), taken alone: placed in place, searched
        and removed one by one (no copy)."""
        c = self.tables.company_index[company]
        base = routes.best_revenue(self, c, is_major, vehicles, ctx)
        out = []
        version = self.version  # each station is removed: the board ends as it began
        for node in nodes:
            slot, held = self._place(c, node, kind)
            try:
                out.append(routes.best_revenue(self, c, is_major, vehicles, ctx))
            finally:
                self._unplace(slot, held)
                self.version = version
        return base, out

    def marker_revenues(self, company: str, is_major: bool, vehicles, ctx, offboards) -> list[int]:
        """The `best_routes` revenue with one more of the company's market markers on
        each offboard of `offboards` (names), taken alone."""
        search = routes.fleet_search(self, self.tables.company_index[company], is_major, vehicles, ctx)
        vertex = self.tables.vertex_index
        return search.offboard_revenues([vertex[o] for o in offboards], ctx.market_bonus)

    def _checked_lays(self, lays) -> _Lays:
        """Each lay ((hex, tile id, rotation) each, and any items after them), checked as
        `lay_tile` checks it, in the lays buffer (cost 0)."""
        tb = self.tables
        v: _LayViews = _views(self)
        land_index: dict = tb.land_index
        tile_index: dict = tb.tile_index
        n_manifest: cython.int = tb.n_manifest
        h: cython.int
        t: cython.int
        out: _Lays = _lays()
        for lay in lays:
            hex, tile_id, rotation = lay[0], lay[1], lay[2]
            # `_checked_lay`'s checks without its messages, asked of it only on failure:
            # this runs for every candidate lay
            h, t = land_index.get(hex, -1), tile_index.get(tile_id, -1)
            if h < 0 or not 0 <= t < n_manifest or v.left[t] <= 0 \
                    or not _shape_fits(v, h, t, rotation):
                self._checked_lay(self._land(hex), tile_id, rotation)  # raises, saying what is wrong
            out.add(h, t, rotation, 0)
        return out

    def _lay_effects(self, lays: _Lays) -> None:
        """Fill the effect of each of `lays` (legal on the board now): see `_fill_effects`."""
        _fill_effects(_views(self), lays)

    def _land(self, hex: str) -> int:
        h = self.tables.land_index.get(hex, -1)
        if h < 0:
            raise ValueError(f"{hex!r} is not a land hex")
        return h

    def _node(self, node: str) -> int:
        n = self.tables.node_index.get(node, -1)
        if n < 0:
            raise ValueError(f"{node!r} is not a node")
        return n
