"""The map state of one game: tiles laid, the tile manifest left, stations per node.
See docs/design/core-interfaces.md ("Board") for the contract with the engine."""
from __future__ import annotations

from array import array

import cython

from menorca_sim.core import routes, track
from menorca_sim.core.track import PORT, STATION_KINDS
from menorca_sim.rules.model import COLOURS


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
        return other

    # --- track ---------------------------------------------------------------------
    def tile_at(self, hex: str) -> tuple[str, int] | None:
        t = self.tile[self._land(hex)]
        return None if t < 0 else (self.tables.tile_ids[t], self.rot[self._land(hex)])

    def tiles_left(self, tile_id: str) -> int:
        """Copies of a manifest tile not on the map."""
        return self.left[self.tables.tile_index[tile_id]]

    def _candidates(self, h: int) -> tuple[tuple[int, int], ...]:
        """(tile, rotation) shapes that may replace what lies on land hex h."""
        t = self.tile[h]
        return self.tables.first_lays[h] if t < 0 else self.tables.upgrades[(t, self.rot[h])]

    def tile_lays(self, company: str, colours, cash: int, terrain_discount: int = 0) -> list[tuple[str, str, int, int]]:
        tb = self.tables
        c = tb.company_index[company]
        allowed = {COLOURS.index(col) for col in colours}
        reached: cython.uchar[:] = self._reach(c, [self.road])
        own = self._own_nodes(c)
        left: cython.int[:] = self.left
        colour: cython.int[:] = tb.tile_colour
        edge_mask: cython.int[:] = tb.edge_mask
        stub_base: cython.int = tb.stub_base
        h: cython.int
        e: cython.int
        t: cython.int
        r: cython.int
        open_edges: cython.int
        home: cython.bint
        out = []
        for h in range(tb.n_land):
            # edges of h where company track in the neighbour arrives, as bits
            open_edges = 0
            for e in range(6):
                if reached[stub_base + h * 6 + e]:
                    open_edges |= 1 << e
            home = tb.land_node[h] >= 0 and tb.land_node[h] in own
            if not (open_edges or home):
                continue
            cost = self._lay_cost(h, terrain_discount)
            if cost > cash:
                continue
            for t, r in self._candidates(h):
                if left[t] <= 0 or colour[t] not in allowed:
                    continue
                if home or edge_mask[t * 6 + r] & open_edges:
                    out.append((tb.land[h], tb.tile_ids[t], r, cost))
        return out

    def _lay_cost(self, h: int, discount: int) -> int:
        if self.tile[h] >= 0 and not self.tables.rs.operating.terrain_on_upgrade:
            return 0
        return max(0, self.tables.terrain_cost[h] - discount)

    def lay_tile(self, hex: str, tile_id: str, rotation: int) -> None:
        """Lay or upgrade (shape rules only; connectivity and cost are tile_lays' job).
        A replaced manifest tile returns to the supply."""
        h: cython.int = self._land(hex)
        t: cython.int = self.tables.tile_index.get(tile_id, -1)
        if t < 0 or t >= self.tables.n_manifest:
            raise ValueError(f"unknown tile {tile_id!r}")
        if not self._shape_fits(h, t, rotation):
            raise ValueError(f"tile {tile_id} at rotation {rotation} is not a legal lay on {hex}")
        if self.left[t] <= 0:
            raise ValueError(f"no tile {tile_id} left in the manifest")
        old = self.tile[h]
        if 0 <= old < self.tables.n_manifest:
            self.left[old] += 1
        self.left[t] -= 1
        self.tile[h] = t
        self.rot[h] = rotation
        track.set_hex(self.tables, self.road, h, t, rotation)

    def _shape_fits(self, h: cython.int, t: cython.int, rotation: int) -> cython.bint:
        """Tile t at `rotation` has the track of one of the shapes allowed on hex h."""
        if not 0 <= rotation < 6:
            return False
        paths = self.tables.paths[t]
        t2: cython.int
        r2: cython.int
        for t2, r2 in self._candidates(h):
            if t2 == t and paths[rotation] == paths[r2]:
                return True
        return False

    # --- stations ------------------------------------------------------------------
    def free_slots(self, node: str) -> int:
        n = self._node(node)
        return sum(1 for s in range(self.tables.node_slots[n]) if self.station_company[n * self.slots + s] < 0)

    def stations(self, company: str) -> list[tuple[str, str]]:
        c = self.tables.company_index[company]
        return [(self.tables.node_names[i // self.slots], STATION_KINDS[self.station_kind[i]])
                for i, owner in enumerate(self.station_company) if owner == c]

    def station_sites(self, company: str, kind: str) -> list[str]:
        tb = self.tables
        c = tb.company_index[company]
        k = STATION_KINDS.index(kind)
        reached = self._reach(c, [self.road, self.tables.lanes_graph] if k == PORT else [self.road])
        own = self._own_nodes(c)
        return [tb.node_names[n] for n in range(tb.n_nodes)
                if reached[n] and n not in own and self._site_ok(n, k)]

    def _site_ok(self, n: int, kind: int) -> bool:
        return self.free_slots(self.tables.node_names[n]) > 0 and (kind != PORT or self.tables.node_port[n])

    def place_station(self, company: str, node: str, kind: str) -> None:
        """Place a station (home stations too: no connectivity check here)."""
        c = self.tables.company_index[company]
        n = self._node(node)
        k = STATION_KINDS.index(kind)
        if not self._site_ok(n, k) or n in self._own_nodes(c):
            raise ValueError(f"{company} cannot place a {kind} at {node}")
        for s in range(self.tables.node_slots[n]):
            i = n * self.slots + s
            if self.station_company[i] < 0:
                self.station_company[i] = c
                self.station_kind[i] = k
                return

    def replace_company(self, old: str, new: str) -> None:
        o, n = self.tables.company_index[old], self.tables.company_index[new]
        for i in range(len(self.station_company)):
            if self.station_company[i] == o:
                self.station_company[i] = n

    def _own_nodes(self, c: int) -> list[int]:
        return [i // self.slots for i in range(len(self.station_company)) if self.station_company[i] == c]

    def blocked(self, c: int) -> bytearray:
        """Per node: 1 when every slot holds another company's station."""
        tb = self.tables
        out = bytearray(tb.n_nodes)
        for n in range(tb.n_nodes):
            owners = [self.station_company[n * self.slots + s] for s in range(tb.node_slots[n])]
            out[n] = all(o >= 0 and o != c for o in owners) and len(owners) > 0
        return out

    def _reach(self, c: int, graphs) -> bytearray:
        return track.reach(self.tables, graphs, self._own_nodes(c), self.blocked(c))

    # --- routes --------------------------------------------------------------------
    def best_routes(self, company: str, is_major: bool, vehicles, ctx) -> routes.RoutePlan:
        return routes.best_routes(self, company, is_major, vehicles, ctx)

    def lay_revenues(self, company: str, is_major: bool, vehicles, ctx, lays) -> list[int]:
        """The `best_routes` revenue after each lay of `lays` ((hex, tile id, rotation)
        each) taken alone: laid in place, searched and undone one by one (no copy)."""
        tb = self.tables
        c: cython.int = tb.company_index[company]
        h: cython.int
        old: cython.int
        old_rot: cython.int
        out = []
        for hex, tile_id, rotation in lays:
            h = self._land(hex)
            old, old_rot = self.tile[h], self.rot[h]
            self.lay_tile(hex, tile_id, rotation)
            try:
                out.append(routes.best_revenue(self, c, is_major, vehicles, ctx))
            finally:
                self._unlay(h, old, old_rot)
        return out

    def _unlay(self, h: cython.int, old: cython.int, old_rot: cython.int) -> None:
        """Undo `lay_tile` on land hex h, which held tile `old` at `old_rot` before."""
        tb = self.tables
        self.left[self.tile[h]] += 1
        if 0 <= old < tb.n_manifest:
            self.left[old] -= 1
        self.tile[h] = old
        self.rot[h] = old_rot
        track.set_hex(tb, self.road, h, old, old_rot)

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
