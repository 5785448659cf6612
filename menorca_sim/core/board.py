"""The map state of one game: tiles laid, the tile manifest left, stations per node, and
its questions about the map (the lays a company may make, the sites it may place a
station on). See docs/design/core-interfaces.md ("Board") for the contract with the
engine; what routes earn on it is the revenue wing's (core/revenue/)."""
from __future__ import annotations

from array import array

import cython

from menorca_sim.core import track
from menorca_sim.core.mapviews import VERSIONS
from menorca_sim.core.track import PORT, STATION_KINDS

if not cython.compiled:  # compiled, board.pxd cimports them
    from menorca_sim.core.mapviews import (_colour_bits, _free, _LayViews, _lays_reached, _reached, _set_tile,
                                           _shape_fits, _views)


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
        self.version = next(VERSIONS)

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
                self.version = next(VERSIONS)
                return i, held
        raise AssertionError("a site with a free slot has one")

    def _unplace(self, i: int, kind: int) -> None:
        """Undo `_place`, which took slot i, whose kind was `kind` before."""
        self.station_company[i] = -1
        self.station_kind[i] = kind
        self.version = next(VERSIONS)

    def replace_company(self, old: str, new: str) -> None:
        o, n = self.tables.company_index[old], self.tables.company_index[new]
        for i in range(len(self.station_company)):
            if self.station_company[i] == o:
                self.station_company[i] = n
        self.version = next(VERSIONS)

    def _own_nodes(self, c: cython.int) -> list[int]:
        v: _LayViews = _views(self)
        i: cython.Py_ssize_t
        return [i // v.slots for i in range(len(v.company)) if v.company[i] == c]

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
