"""The map and tile manifest of a ruleset compiled into flat lookup tables, built once
per ruleset (cached by its sha256) and shared read-only by every Board of a worker.

Vertex numbering (shared by the track and route code):
  [0, n_nodes)                    land revenue nodes (towns, cities), ruleset order
  [n_nodes, n_rev)                offboards
  [sea_base, stub_base)           sea hexes (ship waypoints)
  stub_base + land_hex * 6 + e    "stub": inside land hex `land_hex`, entered through edge e
Track units (what "no reuse" counts): sea lanes [0, n_lanes), then land hex sides
(each pair of adjacent land hexes) [n_lanes, n_units)."""
from __future__ import annotations

from array import array

from menorca_sim.core.tables import per_ruleset
from menorca_sim.rules import geometry
from menorca_sim.rules.model import COLOURS, NODE
from menorca_sim.rules.tiles import rotate

NODE_KINDS = ("none", "town", "city")
# Every path joins two of the ends 0-5 (hex edges) and NODE: one bit per such pair.
PATH_PAIRS = tuple((a, b) for a in range(NODE + 1) for b in range(a + 1, NODE + 1))
PREPRINTED = "preprinted:"  # id prefix of the pseudo-tile a hex's printed track forms


class MapTables:
    """Read-only tables of one ruleset's map (see the module docstring for numbering)."""

    def __init__(self, rs) -> None:
        m = rs.map
        if rs.operating.cart_port_rule != "station":
            raise ValueError(f"operating.cart_port_rule {rs.operating.cart_port_rule!r} is not supported")
        self.rs = rs
        self.scratch = None  # the revenue wing's buffers for this map (revenue.scratch.scratch_of)
        self.company_ids = list(rs.companies)
        self.company_index = {c: i for i, c in enumerate(self.company_ids)}

        # Land hexes, sorted by name (any fixed order would do).
        self.land = sorted(m.land)
        self.land_index = {h: i for i, h in enumerate(self.land)}
        self.terrain_cost = array("i", [m.terrain_costs[m.land[h]] for h in self.land])
        n_land = len(self.land)
        self.n_land = n_land

        # Revenue nodes and offboards.
        self.node_names = list(m.nodes)
        self.node_index = {n: i for i, n in enumerate(self.node_names)}
        self.n_nodes = len(self.node_names)
        nodes = [m.nodes[n] for n in self.node_names]
        self.node_land = array("i", [self.land_index[n.hex] for n in nodes])
        self.node_kind = [NODE_KINDS.index(n.kind) for n in nodes]
        self.node_slots = array("i", [n.slots for n in nodes])
        self.node_port = [n.port for n in nodes]
        # node_revenue[node * len(COLOURS) + colour]
        self.node_revenue = array("i", [m.revenue[n.kind][c] for n in nodes for c in range(len(COLOURS))])
        self.land_node = array("i", [-1]) * n_land
        for i, n in enumerate(nodes):
            self.land_node[self.node_land[i]] = i
        self.offboard_names = list(m.offboards)
        self.n_rev = self.n_nodes + len(self.offboard_names)
        self.min_distinct_nodes = rs.routes.min_distinct_nodes  # a route's different revenue vertices, at least
        self.epochs = len(rs.epochs)  # offboard_revenue[offboard * epochs + epoch - 1]
        self.offboard_revenue = array("i", [m.offboards[o].revenue[e] for o in self.offboard_names
                                            for e in range(self.epochs)])
        self.sea = list(m.sea)
        self.sea_base = self.n_rev
        self.stub_base = self.sea_base + len(self.sea)
        self.n_vertices = self.stub_base + 6 * n_land
        self.vertex_index = {n: i for i, n in enumerate(self.node_names)}
        self.vertex_index.update({o: self.n_nodes + i for i, o in enumerate(self.offboard_names)})
        self.vertex_index.update({s: self.sea_base + i for i, s in enumerate(self.sea)})
        self.rev_names = self.node_names + self.offboard_names
        # The hex each vertex lies in (stubs: their land hex).
        self.vertex_hex = [m.nodes[n].hex for n in self.node_names]
        self.vertex_hex += [m.offboards[o].hex for o in self.offboard_names] + list(self.sea)
        self.vertex_hex += [h for h in self.land for _ in range(6)]

        # Track units: lanes first, then land sides.
        self.lanes = list(m.lanes)
        self.n_lanes = len(self.lanes)
        self.side_unit = array("i", [-1] * (6 * n_land))  # land_hex*6+edge -> unit
        self.neighbour = array("i", [-1] * (6 * n_land))  # land_hex*6+edge -> land hex or -1
        unit = self.n_lanes
        for h, name in enumerate(self.land):
            for e in range(6):
                other = geometry.neighbour(name, e)
                j = self.land_index.get(other, -1) if other is not None else -1
                self.neighbour[h * 6 + e] = j
                if j >= 0 and j > h:
                    self.side_unit[h * 6 + e] = unit
                    self.side_unit[j * 6 + (e + 3) % 6] = unit
                    unit += 1
        self.n_units = unit
        self.mask_words = (unit + 63) // 64

        # Sea lanes as a graph in the layout of track.py: per vertex a degree and `stride`
        # slots of (target, unit).
        adj: list[list[tuple[int, int]]] = [[] for _ in range(self.n_vertices)]
        for u, (a, b) in enumerate(self.lanes):
            va, vb = self.vertex_index[a], self.vertex_index[b]
            adj[va].append((vb, u))
            adj[vb].append((va, u))
        stride = max(1, max(len(arcs) for arcs in adj))
        self.lanes_graph = (array("i", [len(arcs) for arcs in adj]),
                            array("i", [w for arcs in adj for w, _u in arcs + [(0, 0)] * (stride - len(arcs))]),
                            array("i", [u for arcs in adj for _w, u in arcs + [(0, 0)] * (stride - len(arcs))]),
                            stride)

        self._tiles(rs, nodes)

    def _tiles(self, rs, nodes) -> None:
        """Tiles (manifest first, then one pseudo-tile per preprinted hex), their distinct
        rotations, edge masks and the upgrade relation."""
        self.tile_ids = list(rs.tiles)
        self.tile_colour = array("i", [COLOURS.index(t.colour) for t in rs.tiles.values()])
        self.tile_node = [NODE_KINDS.index(t.node) for t in rs.tiles.values()]
        self.tile_count = [t.count for t in rs.tiles.values()]
        base_paths = [t.paths for t in rs.tiles.values()]
        self.n_manifest = len(self.tile_ids)
        self.preprinted = [-1] * self.n_land  # land hex -> pseudo-tile id
        for i, n in enumerate(nodes):
            if n.track:
                self.preprinted[self.node_land[i]] = len(self.tile_ids)
                self.tile_ids.append(PREPRINTED + n.hex)
                self.tile_colour.append(0)
                self.tile_node.append(self.node_kind[i])
                self.tile_count.append(0)
                base_paths.append(n.track)
        self.tile_index = {t: i for i, t in enumerate(self.tile_ids)}
        # paths[t][r]: path tuple of tile t under rotation r; rotations[t]: the rotations
        # giving distinct path sets (lowest first), so each distinct lay is offered once.
        self.paths = [[rotate(p, r) for r in range(6)] for p in base_paths]
        self.rotations = []
        for per_rot in self.paths:
            seen, keep = set(), []
            for r, p in enumerate(per_rot):
                if p not in seen:
                    seen.add(p)
                    keep.append(r)
            self.rotations.append(tuple(keep))
        # path_bits[t*6+r]: the path set of tile t at rotation r, bit i for PATH_PAIRS[i]:
        # path sets compare and subtract as integers.
        bit_of = {pair: i for i, pair in enumerate(PATH_PAIRS)}
        self.path_bits = array("i", [sum(1 << bit_of[path] for path in p) for per_rot in self.paths for p in per_rot])
        self.pair_a = array("i", [a for a, _ in PATH_PAIRS])
        self.pair_b = array("i", [b for _, b in PATH_PAIRS])
        # edge_mask[t*6+r]: bit e set when a path of the rotated tile touches edge e.
        self.edge_mask = array("i", [0] * (6 * len(self.tile_ids)))
        for t, per_rot in enumerate(self.paths):
            for r, p in enumerate(per_rot):
                bits = 0
                for a, b in p:
                    for end in (a, b):
                        if end != NODE:
                            bits |= 1 << end
                self.edge_mask[t * 6 + r] = bits
        # The road arcs inside a hex holding tile t at rotation r, as (from, to) pairs:
        # from = edge entered (0-5) or NODE, to = edge left or NODE; flat, for set_hex's
        # typed loop: from, to, from, to, ... at local_arcs[local_arc_span[t*6+r] ..
        # local_arc_span[t*6+r+1]-1].
        self.local_arcs = array("i")
        self.local_arc_span = array("i", [0])
        for per_rot in self.paths:
            for p in per_rot:
                arcs = []
                for a, b in p:
                    arcs += [(a, b), (b, a)]
                for a, b in sorted(arcs):
                    self.local_arcs.extend((a, b))
                self.local_arc_span.append(len(self.local_arcs))
        # upgrades[(t, r)]: (new tile, new rotation) pairs that are one colour up, have the
        # same node kind and keep every path of tile t laid at rotation r.
        self.upgrades: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        for t in range(len(self.tile_ids)):
            for r in range(6):
                old = set(self.paths[t][r])
                self.upgrades[(t, r)] = tuple(
                    (n, nr)
                    for n in range(self.n_manifest)
                    if self.tile_colour[n] == self.tile_colour[t] + 1 and self.tile_node[n] == self.tile_node[t]
                    for nr in self.rotations[n]
                    if old <= set(self.paths[n][nr])
                )
        # first_lays[land hex]: (tile, rotation) pairs that may go on the empty hex.
        self.first_lays = []
        for h in range(self.n_land):
            node = self.land_node[h]
            kind = self.node_kind[node] if node >= 0 else 0
            self.first_lays.append(tuple(
                (t, r)
                for t in range(self.n_manifest)
                if self.tile_colour[t] == 0 and self.tile_node[t] == kind
                for r in self.rotations[t]
            ))
        # The same flat, for typed loops over the candidates of a hex: `lay_options` holds tile,
        # rotation, tile, rotation, ...; the candidates of empty land hex h are its items
        # first_lay_span[2h] .. first_lay_span[2h+1]-1, those replacing tile t at rotation r
        # its items upgrade_span[2(6t+r)] .. upgrade_span[2(6t+r)+1]-1.
        self.lay_options = array("i")
        self.first_lay_span = self._spans(self.first_lays)
        self.upgrade_span = self._spans([self.upgrades[(t, r)] for t in range(len(self.tile_ids)) for r in range(6)])

    def _spans(self, groups) -> array:
        """Append each group of (tile, rotation) pairs to `lay_options`; their (start, end) spans."""
        spans = array("i")
        for lays in groups:
            spans.append(len(self.lay_options))
            for t, r in lays:
                self.lay_options.extend((t, r))
            spans.append(len(self.lay_options))
        return spans


def map_tables(rs) -> MapTables:
    """The map tables of `rs`, built once per ruleset."""
    return per_ruleset(MapTables, rs)
