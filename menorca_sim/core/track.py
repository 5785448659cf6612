"""The road graph of laid track and the reach of a company's network over it.

A graph is (degree, target, unit, stride): vertex v has degree[v] arcs, stored in slots
v*stride .. v*stride+degree[v]-1 of `target` (the vertex reached) and `unit` (the
track unit crossed, -1 for none). In the road graph a node vertex has one arc per path
of its hex's tile leading from the node to an edge, crossing that hex side into the
neighbour's stub; a stub (hex, edge) has one arc per path touching that edge: to the
hex's node (no unit crossed) or across the path's other edge into the next stub. A tile
lay rewrites only the vertices of its own hex (its node and its six stubs)."""
from __future__ import annotations

from array import array

import cython

from menorca_sim.rules.model import NODE

if not cython.compiled:  # compiled, track.pxd cimports them
    from menorca_sim.core.maptables import MapTables
    from menorca_sim.core.revenue.scratch import Scratch, scratch_of

PORT, MANUFACTORY = 0, 1  # station kinds
STATION_KINDS = ("port", "manufactory")
ROAD_STRIDE = 6  # a stub or node touches at most 6 paths of one tile


def empty_road_graph(tables) -> tuple[array, array, array, int]:
    n = tables.n_vertices
    return array("i", [0]) * n, array("i", [0]) * (n * ROAD_STRIDE), array("i", [0]) * (n * ROAD_STRIDE), ROAD_STRIDE


@cython.cclass
class _Graph:
    """A graph's arrays as typed views, and for a road graph the tables' arrays that
    `set_hex` reads: taking an array's memoryview anew costs more than a tile's arcs."""

    # its fields: track.pxd

    def __init__(self, graph: tuple) -> None:
        self.graph = graph
        self.degree, self.target, self.unit, self.stride = graph
        self.tables = None

    @cython.cfunc
    def of(self, tables) -> _Graph:
        """Itself, with the views of `tables` that `set_hex` reads."""
        if self.tables is not tables:
            self.tables = tables
            self.neighbour, self.side_unit, self.land_node = tables.neighbour, tables.side_unit, tables.land_node
            self.local_arcs, self.local_arc_span = tables.local_arcs, tables.local_arc_span
            self.stub_base = tables.stub_base
        return self

    @cython.cfunc
    def set_hex(self, h: cython.int, tile: cython.int, rotation: cython.int) -> cython.void:
        """`set_hex` on this road graph (its views read in place: a memoryview copied to a
        local costs two atomic counts, more than a tile's arcs)."""
        node: cython.int = self.land_node[h]
        stub: cython.int = self.stub_base + h * 6
        e: cython.int
        i: cython.int
        a: cython.int
        b: cython.int
        j: cython.int
        source: cython.int
        for e in range(6):
            self.degree[stub + e] = 0
        if node >= 0:
            self.degree[node] = 0
        if tile < 0:
            return
        for i in range(self.local_arc_span[tile * 6 + rotation], self.local_arc_span[tile * 6 + rotation + 1], 2):
            a, b = self.local_arcs[i], self.local_arcs[i + 1]
            source = node if a == NODE else stub + a
            if b == NODE:
                self._add(source, node, -1)
                continue
            j = self.neighbour[h * 6 + b]
            if j >= 0:  # a road facing the sea or the map edge leads nowhere
                self._add(source, self.stub_base + j * 6 + (b + 3) % 6, self.side_unit[h * 6 + b])

    @cython.cfunc
    @cython.inline
    def _add(self, source: cython.int, to: cython.int, u: cython.int) -> cython.void:
        slot: cython.int = source * self.stride + self.degree[source]
        self.target[slot] = to
        self.unit[slot] = u
        self.degree[source] += 1


@cython.cfunc
def _graph(tables, graph: tuple) -> _Graph:
    """The views of `graph`, a graph of `tables` (arrays changed in place keep their
    views): those of the last two graphs asked for (a board's roads, the lanes) are kept
    in the scratch of the tables, newest first."""
    recent: list = scratch_of(tables).graphs
    g: _Graph
    for g in recent:
        if g is not None and g.graph is graph:
            return g
    g = _Graph(graph)
    recent[1] = recent[0]
    recent[0] = g
    return g


def set_hex(tables, road: tuple, h: cython.int, tile: cython.int, rotation: cython.int) -> None:
    """Rewrite the road arcs of land hex h for `tile` at `rotation` (tile -1: no track)."""
    _graph(tables, road).of(tables).set_hex(h, tile, rotation)


@cython.cclass
class _Reached:
    """`reach`'s answer and stack, kept from call to call in the tables' scratch (a buffer
    and its view taken anew cost more than most walks: the lookahead asks for thousands)."""

    # its fields: track.pxd

    def __init__(self, n: int) -> None:
        self.mark = bytearray(n)
        self.todo = array("i", [0]) * n


@cython.cfunc
def reach(tables: MapTables, first: _Graph, second: _Graph, sources: list,
          stop: cython.uchar[::1]) -> cython.uchar[::1]:
    """Vertices reachable from `sources` over the graph `first` and, unless None, `second`,
    not passing through a node whose `stop` flag is set (it is reached, not crossed) nor
    an offboard: 1 or 0 per vertex, in a buffer of the tables' scratch, which the next
    call overwrites."""
    n: cython.int = tables.n_vertices
    scratch: Scratch = scratch_of(tables)
    found: _Reached = scratch.reached
    if found is None:
        found = _Reached(n)
        scratch.reached = found
    mark: cython.uchar[::1] = found.mark
    todo: cython.int[::1] = found.todo  # each vertex is stacked at most once
    top: cython.int = 0
    v: cython.int
    for v in range(n):
        mark[v] = 0
    for v in sources:
        if not mark[v]:
            mark[v] = 1
            todo[top] = v
            top += 1
    n_nodes: cython.int = tables.n_nodes
    sea_base: cython.int = tables.sea_base
    while top > 0:
        top -= 1
        v = todo[top]
        if v < sea_base and (v >= n_nodes or stop[v]):  # never true of an own station
            continue
        top = _stack_arcs(first.degree, first.target, first.stride, v, mark, todo, top)
        if second is not None:
            top = _stack_arcs(second.degree, second.target, second.stride, v, mark, todo, top)
    return mark


@cython.cfunc
@cython.inline
def _stack_arcs(degree: cython.int[::1], target: cython.int[::1], stride: cython.int, v: cython.int,
                mark: cython.uchar[::1], todo: cython.int[::1], top: cython.int) -> cython.int:
    """Mark and stack the unseen vertices that v's arcs lead to; returns the new top."""
    i: cython.int
    w: cython.int
    for i in range(v * stride, v * stride + degree[v]):
        w = target[i]
        if not mark[w]:
            mark[w] = 1
            todo[top] = w
            top += 1
    return top
