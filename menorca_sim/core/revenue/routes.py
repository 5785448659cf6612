"""Legal routes and the exact best assignment of a company's vehicles to them (issue 4).

Method: for each vehicle kind (ships use only sea lanes, carts only roads, so the two
kinds never compete for track and are solved apart), enumerate every legal route once
for the longest range of that kind: a depth-first walk over the lane or road graph with
a bitmask of used track units (ship walks that can no longer reach one of the company's
ports within range are cut, by a breadth-first distance bound). Then a branch and bound assigns one route (or none) to
each vehicle: vehicles by range, longest first; candidates by revenue, highest first;
the bound is the current revenue plus, per remaining vehicle, the best route its range
allows. Identical vehicles take candidates in increasing order (symmetry). Nothing is
capped or timed out, so the result is the optimum; ties keep the first plan found in
this fixed order, so both the compiled and the pure module return the same plan."""
from __future__ import annotations

from array import array

import cython

from menorca_sim.core.track import PORT
from menorca_sim.rules.model import COLOURS

if not cython.compiled:  # compiled, routes.pxd cimports them
    from menorca_sim.core.revenue.context import RevenueContext
    from menorca_sim.core.revenue.scratch import Scratch, scratch_of

# Vertex flags for one search.
REVENUE = cython.declare(cython.int, 1)  # a route may end here (a node or an offboard)
PASS = cython.declare(cython.int, 2)  # a route may continue through it
FORBID = cython.declare(cython.int, 4)  # a route may never enter it
OWN = cython.declare(cython.int, 8)  # holds the company's own station that every route must include
FAR = cython.declare(cython.int, 1 << 20)  # "unreachable" distance
N_COLOURS = cython.declare(cython.int, len(COLOURS))
KINDS = ("ship", "cart")  # the vehicle kinds, searched apart and in this order


class Route:
    def __init__(self, vehicle: str, kind: str, hexes: list[str], nodes: list[str], revenue: int) -> None:
        self.vehicle = vehicle
        self.kind = kind
        self.hexes = hexes
        self.nodes = nodes
        self.revenue = revenue

    def as_dict(self) -> dict:
        return {"vehicle": self.vehicle, "kind": self.kind, "hexes": list(self.hexes),
                "nodes": list(self.nodes), "revenue": self.revenue}

    def __repr__(self) -> str:
        return f"Route({self.vehicle} {self.kind} {'-'.join(self.hexes)} {self.nodes} {self.revenue})"


class RoutePlan:
    """The best plan: routes of the vehicles that run (in the order given), their total
    revenue, and per offboard the number of ship routes reaching its goods markers."""

    def __init__(self, revenue: int, routes: list[Route], goods_reached: dict[str, int]) -> None:
        self.revenue = revenue
        self.routes = routes
        self.goods_reached = goods_reached

    def as_dict(self) -> dict:
        return {"revenue": self.revenue, "routes": [r.as_dict() for r in self.routes],
                "goods_reached": dict(self.goods_reached)}


@cython.cclass
class _Search:
    """Work buffers and state for enumerating routes over one graph (lanes or roads, in
    the layout of track.py) and assigning them; reused from call to call."""

    # its fields: routes.pxd

    def __init__(self, n_vertices: int, words: int) -> None:
        self.words = words
        self.visits = array("i", [0]) * n_vertices
        self.dist = array("i", [0]) * n_vertices
        self.dist_set = 0
        self.queue = array("i", [0]) * n_vertices
        self.seen = bytearray(n_vertices)
        self.ustack = array("i")  # sized by prepare()
        self.trail = array("i", [0]) * 2
        self.used = array("Q", [0]) * words
        self.n = 0
        self.cap = 0
        self.trail_cap = 0
        self._arrays = {}
        self._grow_routes()
        self._grow_trails()
        self._size_fleet(4)
        self.count = array("i", [0]) * 256
        self.in_order = False
        self.assigned = None
        # value and flags are this object's, filled in place for each search: a new
        # array (and its memoryview) per query cost more than most searches
        self.value = array("i", [0]) * n_vertices
        self.flags = bytearray(n_vertices)
        self.tables = None
        self.road = None
        self.graph_now = None
        self.holds = False
        self.held_at = 0
        self.pool = None
        self.viewed = None
        self.clock = 0

    @cython.cfunc
    def view_board(self, board) -> cython.void:
        """Take the views of `board`'s tiles and stations, unless it is the board viewed
        last: a memoryview taken anew costs about as much as a small search's loops."""
        if board is not self.viewed:
            self.b_tile = board.tile
            self.b_company = board.station_company
            self.b_kind = board.station_kind
            self.viewed = board

    def bind(self, tables) -> None:
        """Search the map of `tables` until bound to other tables: keep the views and
        counts the searches' set-up reads (a memoryview taken anew per search costs more
        than the set-up's loops)."""
        self.tables = tables
        self.lanes = tables.lanes_graph
        self.graph_now = None
        self.lane_degree, self.lane_target, self.lane_unit, _ = tables.lanes_graph
        self.tile_colour = tables.tile_colour
        self.node_land = tables.node_land
        self.land_node = tables.land_node
        self.node_revenue = tables.node_revenue
        self.offboard_revenue = tables.offboard_revenue
        self.node_slots = tables.node_slots
        self.vertex_index = tables.vertex_index
        self.n_nodes = tables.n_nodes
        self.n_rev = tables.n_rev
        self.min_nodes = tables.min_distinct_nodes
        self.rev_vertices = list(range(tables.n_rev))
        self.n_land = tables.n_land
        self.sea_base = tables.sea_base
        self.stub_base = tables.stub_base
        self.epochs = tables.epochs
        self.holds = False
        # what every search of these tables finds beyond the revenue vertices, set once:
        # no value, and every kind passes (fill_vertex_values and _flags set the rest)
        v: cython.Py_ssize_t
        for v in range(len(self.value)):
            self.value[v] = 0
        for v in range(self.n_rev, len(self.flags)):
            self.flags[v] = PASS

    def _resize(self, name: str, code: str, size: int) -> array:
        """A zeroed array of `size` keeping the old one's items (memoryviews cannot grow)."""
        old = self._arrays.get(name)
        new = array(code, [0]) * size
        if old is not None:
            new[: len(old)] = old
        self._arrays[name] = new
        return new

    def _grow_routes(self) -> None:
        cap = max(64, 2 * self.cap)
        self.r_rev = self._resize("r_rev", "i", cap)
        self.r_len = self._resize("r_len", "i", cap)
        self.r_mask = self._resize("r_mask", "Q", cap * self.words)
        self.r_off = self._resize("r_off", "i", cap + 1)
        self.order = self._resize("order", "i", cap)
        self.cap = cap

    def _size_fleet(self, nv: int) -> None:
        self.vrange = array("i", [0]) * nv
        self.bound = array("i", [0]) * (nv + 1)
        self.at = array("i", [0]) * (nv + 1)
        self.gained = array("i", [0]) * (nv + 1)
        self.choice = array("i", [0]) * nv
        self.best_choice = array("i", [0]) * nv

    def _grow_trails(self) -> None:
        self.trail_cap = max(1024, 2 * self.trail_cap)
        self.r_trail = self._resize("r_trail", "i", self.trail_cap)

    @cython.ccall  # called by best_routes without Python dispatch
    def prepare(self, graph, maxrange: cython.int, undirected: cython.bint, symmetric: cython.bint) -> cython.void:
        """Set up a search over `graph` with the values and flags filled in; `symmetric`:
        every arc has a reverse arc and crosses a unit (the lane graph), which lets a
        breadth-first search bound the distance to the company's station and prune walks
        that cannot reach it."""
        self.holds = False  # the routes held are about to change
        self._use_graph(graph)
        self.undirected = undirected
        self.maxk = maxrange - 1
        # every arc of the lanes, and of a road graph's nodes, crosses a unit: only a
        # road stub's arcs into its hex's node cross none (track.py)
        self.free_from = len(self.value) if symmetric else self.stub_base
        if self.maxk > len(self.ustack):
            self.ustack = array("i", [0]) * self.maxk
            self.trail = array("i", [0]) * (2 * maxrange + 2)  # a stub and a node per unit
        self.n = 0
        self._routes_changed()
        self._distances(symmetric)

    @cython.cfunc
    def _use_graph(self, graph) -> cython.void:
        """degree, target, unit and stride: those of `graph` (the lanes or a board's roads)."""
        if graph is self.graph_now:  # the views are set (each set costs atomic counts)
            return
        self.graph_now = graph
        if graph is self.lanes:
            self.degree, self.target, self.unit = self.lane_degree, self.lane_target, self.lane_unit
        else:
            if graph is not self.road:  # a board's roads change in place: its views stay good
                self.road = graph
                self.road_degree, self.road_target, self.road_unit, _ = graph
            self.degree, self.target, self.unit = self.road_degree, self.road_target, self.road_unit
        self.stride = graph[3]

    @cython.cfunc
    @cython.initializedcheck(False)
    def _spread(self, graph, flags: cython.uchar[::1], top: cython.int, out: cython.uchar[::1],
                at: cython.int) -> cython.void:
        """Grow `seen` from the `top` vertices in `queue` (seen already) over `graph`, as a
        route of one kind (flags as `_flags` set them) goes: along arcs, crossing no vertex
        it may not pass (a node that is not PASS, or FORBID and not OWN), no offboard; and
        mark each vertex newly seen in out[at:] (`_mark`). `track.reach`'s walk, in this
        object's buffers (the route searches' set-up asks it for every fleet)."""
        self._use_graph(graph)
        n_nodes: cython.int = self.n_nodes
        v: cython.int
        w: cython.int
        i: cython.int
        f: cython.int
        while top > 0:
            top -= 1
            v = self.queue[top]
            if v < self.sea_base:
                if v >= n_nodes:
                    continue  # an offboard ends every route
                f = flags[v]
                if not f & PASS or (f & FORBID and not f & OWN):
                    continue
            for i in range(v * self.stride, v * self.stride + self.degree[v]):
                w = self.target[i]
                if not self.seen[w]:
                    self.seen[w] = 1
                    self._mark(w, out, at)
                    self.queue[top] = w
                    top += 1

    @cython.cfunc
    def _mark(self, v: cython.int, out: cython.uchar[::1], at: cython.int) -> cython.void:
        """Vertex v is reached: mark its land hex (a node's or a stub's) in out[at:] and,
        a revenue vertex, itself in out[at + n_land:] (see `_affected_hexes`)."""
        if v < self.n_nodes:
            out[at + self.node_land[v]] = 1
        elif v >= self.stub_base:
            out[at + (v - self.stub_base) // 6] = 1
        if v < self.n_rev:
            out[at + self.n_land + v] = 1

    @cython.cfunc
    @cython.initializedcheck(False)
    def _distances(self, symmetric: cython.bint) -> cython.void:
        """dist[v]: a lower bound of the units from v to an OWN vertex (0 when unknown).
        Only a symmetric search (the lanes: ports, offboards and sea hexes, the vertices
        before the stubs) bounds them, and only there: the stubs' bounds stay 0 (a lower
        bound still), and a search that bounds nothing zeroes just what one that did set."""
        v: cython.int
        w: cython.int
        i: cython.int
        head: cython.int = 0
        tail: cython.int = 0
        if not symmetric:
            for v in range(self.dist_set):
                self.dist[v] = 0
            self.dist_set = 0
            return
        n: cython.int = self.stub_base
        self.dist_set = max(self.dist_set, n)
        for v in range(n):
            self.dist[v] = 0 if self.flags[v] & OWN else FAR
            if self.flags[v] & OWN:
                self.queue[tail] = v
                tail += 1
        while head < tail:
            v = self.queue[head]
            head += 1
            for i in range(v * self.stride, v * self.stride + self.degree[v]):
                w = self.target[i]
                if self.dist[w] == FAR:
                    self.dist[w] = self.dist[v] + 1
                    self.queue[tail] = w
                    tail += 1

    @cython.ccall
    def walk_from(self, starts: list) -> cython.int:
        """Every legal route starting at one of `starts`; returns how many."""
        s: cython.int
        self._routes_changed()
        for s in starts:
            if self.dist[s] > self.maxk:
                continue
            self.origin = s
            self.visits[s] = 1
            self.distinct = 1  # every start is a revenue vertex (_flags)
            self.cur = self.value[s]
            self.own = 1 if self.flags[s] & OWN else 0
            self.trail[0] = s
            self.depth = 1
            self._walk(s, 0)
            self.visits[s] = 0
        return self.n

    @cython.cfunc
    @cython.exceptval(-1)  # 0, or -1 for an exception: cheaper to test than the interpreter's error state
    @cython.initializedcheck(False)
    def _walk(self, v: cython.int, k: cython.int) -> cython.int:
        i: cython.int
        w: cython.int
        u: cython.int
        k2: cython.int
        fl: cython.int
        gained: cython.int
        word: cython.int
        bit: cython.ulonglong
        one: cython.ulonglong = 1
        for i in range(v * self.stride, v * self.stride + self.degree[v]):
            w = self.target[i]
            fl = self.flags[w]
            if fl & FORBID:
                continue
            u = self.unit[i]
            k2 = k
            word = 0
            bit = 0
            if u >= 0:
                if k >= self.maxk:
                    continue
                word = u >> 6
                bit = one << (u & 63)
                if self.used[word] & bit:
                    continue
                self.used[word] |= bit
                self.ustack[k] = u
                k2 = k + 1
            gained = 0
            if fl & REVENUE:
                if self.visits[w] == 0:
                    gained = self.value[w]
                    self.distinct += 1
                self.visits[w] += 1
            self.cur += gained
            if fl & OWN:
                self.own += 1
            self.trail[self.depth] = w
            self.depth += 1
            # a route from both ends is the same route: keep the one from the lower vertex
            if fl & REVENUE and self.own > 0 and self.distinct >= self.min_nodes:
                if not self.undirected or w > self.origin or (w == self.origin and self.ustack[0] < self.ustack[k2 - 1]):
                    self._record(k2)
            # past the range, a walk goes on only along arcs crossing no unit
            if fl & PASS and (self.own > 0 or k2 + self.dist[w] <= self.maxk) \
                    and (k2 < self.maxk or w >= self.free_from):
                self._walk(w, k2)
            self.depth -= 1
            if fl & OWN:
                self.own -= 1
            self.cur -= gained
            if fl & REVENUE:
                self.visits[w] -= 1
                if self.visits[w] == 0:
                    self.distinct -= 1
            if u >= 0:
                self.used[word] ^= bit
        return 0

    @cython.cfunc
    @cython.exceptval(-1)  # as _walk's
    @cython.initializedcheck(False)
    def _record(self, k: cython.int) -> cython.int:
        j: cython.int
        n: cython.int = self.n
        if n == self.cap:
            self._grow_routes()
        off: cython.int = self.r_off[n]
        if off + self.depth > self.trail_cap:
            self._grow_trails()
        self.r_rev[n] = self.cur
        self.r_len[n] = k + 1
        for j in range(self.words):
            self.r_mask[n * self.words + j] = self.used[j]
        for j in range(self.depth):
            self.r_trail[off + j] = self.trail[j]
        self.r_off[n + 1] = off + self.depth
        self.n = n + 1
        return 0

    @cython.ccall
    def assign(self, ranges: list) -> list:
        """Best route index per vehicle (ranges sorted longest first, a list not changed
        after: see `_assign`), -1 for none."""
        self._assign(ranges)
        k: cython.int
        return [self.best_choice[k] for k in range(self.nv)]

    @cython.cfunc
    def _assign(self, ranges: list) -> cython.int:
        """The best assignment's revenue (ranges sorted longest first); its route per
        vehicle is in best_choice (-1 for none). The revenue questions read only the
        revenue: no list of picks is built for them. Asked again for the same ranges
        (`Fleet`'s, never changed) with the routes and revenues unchanged, it answers
        the last assignment again: a player values many fleets in turn on one map."""
        if ranges == self.assigned:
            return self.best
        nv: cython.int = len(ranges)
        i: cython.int
        j: cython.int
        k: cython.int
        top: cython.int
        self._sort_by_revenue()
        self.nv = nv
        if nv > len(self.choice):
            self._size_fleet(nv)
        for k in range(nv):
            self.vrange[k] = ranges[k]
            self.choice[k] = -1
            self.best_choice[k] = -1
        # bound[k]: vehicles of one range take routes at rising places in `order` (see
        # _branch), so the t last of a run of them earn at most the t best routes in range
        self.bound[nv] = 0
        run_end: cython.int = nv
        top = 0
        i = 0
        for k in range(nv - 1, -1, -1):
            if k == nv - 1 or self.vrange[k] != self.vrange[k + 1]:
                run_end, top, i = k + 1, 0, 0
            while i < self.n and self.r_len[self.order[i]] > self.vrange[k]:
                i += 1
            if i < self.n:
                top += self.r_rev[self.order[i]]
                i += 1
            self.bound[k] = self.bound[run_end] + top
        self.best = 0
        for j in range(self.words):
            self.used[j] = 0
        self._branch()
        self.assigned = ranges
        return self.best

    @cython.cfunc
    def _routes_changed(self) -> cython.void:
        """The routes or their revenues change: `order` and the last assignment no longer hold."""
        self.in_order = False
        self.assigned = None

    @cython.cfunc
    @cython.initializedcheck(False)
    def _sort_by_revenue(self) -> cython.void:
        """Stable counting sort of the routes by revenue, highest first, into `order`
        (unless it holds them already: an enumeration is assigned for many fleets)."""
        if self.in_order:
            return
        self.in_order = True
        i: cython.int
        top: cython.int = 0
        for i in range(self.n):
            if self.r_rev[i] > top:
                top = self.r_rev[i]
        if top + 2 > len(self.count):
            self.count = array("i", [0]) * (2 * (top + 2))
        count: cython.int[::1] = self.count  # reused: a new array per call costs more than the sort
        for i in range(top + 2):
            count[i] = 0
        for i in range(self.n):
            count[top - self.r_rev[i] + 1] += 1
        for i in range(top + 1):
            count[i + 1] += count[i]
        for i in range(self.n):
            self.order[count[top - self.r_rev[i]]] = i
            count[top - self.r_rev[i]] += 1

    @cython.cfunc
    @cython.initializedcheck(False)
    def _branch(self) -> cython.void:
        """The best assignment, depth first: vehicle k picks a route (or none), from the
        place in `order` just past the route of each vehicle j before it whose route
        vehicle k could run: a route of k's before that place would earn as much on j
        (whose range is at least k's) with j's route on k, an assignment searched before
        (candidates come in `order`), so vehicles never swap routes (identical vehicles
        take rising places). Where vehicle k runs none, so do the vehicles after it: a
        route of theirs would earn as much on vehicle k, in an assignment searched before
        too. Of equal assignments the first found is kept, so the search finds the same
        plan as one that tried every swap. A loop over a stack (`at`, `gained`), not
        recursion: the candidates' arrays are taken as locals once per assignment (read
        through `self`, each store into `used` would make the C compiler read them all
        again)."""
        nv: cython.int = self.nv
        n: cython.int = self.n
        words: cython.int = self.words
        best: cython.int = self.best
        order: cython.int[::1] = self.order
        rev: cython.int[::1] = self.r_rev
        length: cython.int[::1] = self.r_len
        mask: cython.ulonglong[::1] = self.r_mask
        used: cython.ulonglong[::1] = self.used
        k: cython.int = 0
        i: cython.int
        j: cython.int
        r: cython.int
        cur: cython.int
        reach: cython.int
        after: cython.int
        clash: cython.bint
        entering: cython.bint = True
        self.gained[0] = 0
        while True:
            cur = self.gained[k]
            if entering:  # vehicle k's first candidate: none if no pick of it can do better
                if k < nv and cur + self.bound[k] > best:
                    self.at[k] = 0
                    for j in range(k):
                        if self.at[j] > self.at[k] and length[self.choice[j]] <= self.vrange[k]:
                            self.at[k] = self.at[j]
                else:
                    self.at[k] = n
                entering = False
            if self.at[k] < n:
                reach = self.vrange[k]
                after = self.bound[k + 1]
                for i in range(self.at[k], n):
                    r = order[i]
                    if cur + rev[r] + after <= best:
                        break  # candidates come by falling revenue: none further can do better
                    if length[r] > reach:
                        continue
                    clash = False
                    for j in range(words):
                        if used[j] & mask[r * words + j]:
                            clash = True
                            break
                    if clash:
                        continue
                    entering = True
                    break
                if entering:  # vehicle k runs route r; on to vehicle k + 1
                    for j in range(words):
                        used[j] |= mask[r * words + j]
                    self.choice[k] = r
                    self.at[k] = i + 1
                    self.gained[k + 1] = cur + rev[r]
                    k += 1
                    continue
                self.at[k] = n
            if cur > best:  # the routes picked, vehicle k and those after it running none
                best = cur
                for j in range(k):
                    self.best_choice[j] = self.choice[j]
                for j in range(k, nv):
                    self.best_choice[j] = -1
            if k == 0:
                break
            k -= 1  # back to vehicle k's next candidate
            r = self.choice[k]
            for j in range(words):
                used[j] ^= mask[r * words + j]
        self.best = best

    @cython.cfunc
    def add_at_ends(self, v: cython.int, amount: cython.int) -> cython.void:
        """Add `amount` to the revenue of each route enumerated that starts or ends at
        vertex v (once for a route doing both)."""
        r: cython.int
        self._routes_changed()
        for r in range(self.n):
            if self.r_trail[self.r_off[r]] == v or self.r_trail[self.r_off[r + 1] - 1] == v:
                self.r_rev[r] += amount

    @cython.cfunc
    def add_on_trails(self, v: cython.int, amount: cython.int) -> cython.void:
        """Add `amount` to the revenue of each route enumerated that visits vertex v (once
        for a route visiting it more than once, as the walk counts it)."""
        r: cython.int
        j: cython.int
        self._routes_changed()
        for r in range(self.n):
            for j in range(self.r_off[r], self.r_off[r + 1]):
                if self.r_trail[j] == v:
                    self.r_rev[r] += amount
                    break

    @cython.ccall
    def trail_of(self, r: cython.int) -> list:
        return [self.r_trail[j] for j in range(self.r_off[r], self.r_off[r + 1])]

    @cython.ccall
    def revenue_of(self, r: cython.int) -> cython.int:
        return self.r_rev[r]


@cython.cfunc
def _search_for(tables) -> _Search:
    """The route search of `tables`, kept in its scratch (made and bound on first use)."""
    scratch: Scratch = scratch_of(tables)
    search: _Search = scratch.search
    if search is None:
        search = _Search(tables.n_vertices, tables.mask_words)
        search.bind(tables)
        scratch.search = search
    return search


@cython.cfunc
@cython.inline
def _printed_value(search: _Search, tile: cython.int[::1], n: cython.int) -> cython.int:
    """Node n's value from the colour of its hex's tile in `tile` (no tile yet, a port
    reached by sea: yellow)."""
    t: cython.int = tile[search.node_land[n]]
    return search.node_revenue[n * N_COLOURS + (search.tile_colour[t] if t >= 0 else 0)]


@cython.cfunc
def fill_vertex_values(search: _Search, tile: cython.int[::1], ctx: RevenueContext) -> cython.void:
    """search.value: the revenue of each revenue vertex for this company (0 elsewhere),
    on a board with these tiles."""
    out: cython.int[::1] = search.value
    offboard_revenue: cython.int[::1] = search.offboard_revenue
    epochs: cython.int = search.epochs
    epoch: cython.int = ctx.epoch - 1
    if not 0 <= epoch < epochs:
        raise ValueError(f"epoch {ctx.epoch} is not one of the ruleset's 1..{epochs}")
    n_nodes: cython.int = search.n_nodes
    n: cython.int
    for n in range(n_nodes):  # the vertices beyond n_rev keep their 0 (see _Search.bind)
        out[n] = _printed_value(search, tile, n)
    for n in range(search.n_rev - n_nodes):
        out[n_nodes + n] = offboard_revenue[n * epochs + epoch]
    for name, count in ctx.market_markers.items():
        out[search.vertex_index[name]] += count * ctx.market_bonus
    for name, bonus in ctx.node_bonus.items():
        out[search.vertex_index[name]] += bonus


@cython.cfunc
def _flags(search: _Search, board, c: cython.int, ship: cython.bint, is_major: cython.bint) -> list:
    """Fill search.flags (see REVENUE..OWN) for company c's ships or carts; returns the
    start vertices of the enumeration."""
    fl: cython.uchar[::1] = search.flags
    search.view_board(board)
    company: cython.int[::1] = search.b_company
    kind: cython.int[::1] = search.b_kind
    node_slots: cython.int[::1] = search.node_slots
    slots: cython.int = board.slots
    port_kind: cython.int = PORT
    n_rev: cython.int = search.n_rev
    n_nodes: cython.int = search.n_nodes
    v: cython.int
    s: cython.int
    o: cython.int
    taken: cython.int
    f: cython.int
    mine: cython.bint
    port: cython.bint
    own_port: cython.bint
    own_factory: cython.bint
    for v in range(n_rev):
        fl[v] = REVENUE  # offboards end every route (the other vertices pass: see _Search.bind)
    own_ports = []
    for v in range(n_nodes):
        taken = 0
        mine = port = own_port = own_factory = False
        for s in range(slots):
            o = company[v * slots + s]
            if o < 0:
                continue
            taken += 1
            port = port or kind[v * slots + s] == port_kind
            if o == c:
                mine = True
                own_port = own_port or kind[v * slots + s] == port_kind
                own_factory = own_factory or kind[v * slots + s] != port_kind
        f = REVENUE
        if mine or taken < node_slots[v] or taken == 0:
            f |= PASS  # not blocked
        if ship:
            f |= OWN if own_port else 0
        else:  # carts never touch a port station except a major's own, where they start
            f |= FORBID if port else 0
            f |= OWN if (own_port if is_major else own_factory) else 0
        if own_port:
            own_ports.append(v)
        fl[v] = f
    if ship:
        return search.rev_vertices
    if is_major:
        return own_ports
    return [v for v in range(n_nodes) if not fl[v] & FORBID]


@cython.cclass
class Fleet:
    """Vehicles as the route searches take them: `vehicles`, (id, kind, range) each, and
    `kinds`, per vehicle kind present (ships, then carts): whether it is ships, the
    indices of its vehicles, longest range first (in fleet order on ties), and their
    ranges. Made once per fleet (see `fleet_of`), read at every question; read it, never
    change it."""

    # its fields: routes.pxd

    def __init__(self, vehicles: list, ships: list) -> None:
        """`ships`: per vehicle, whether it is a ship (as the ruleset's tables say:
        `vehicle_is_ship`)."""
        self.vehicles = vehicles
        self.kinds = []
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        for ship in (True, False):  # KINDS' order
            group: list = []
            for i in range(len(vehicles)):
                if bool(ships[i]) == ship:
                    # after every vehicle of at least its range: longest first, in fleet order on ties
                    j = len(group)
                    while j > 0 and vehicles[group[j - 1]][2] < vehicles[i][2]:
                        j -= 1
                    group.insert(j, i)
            if group:
                self.kinds.append((ship, group, [vehicles[i][2] for i in group]))

    def __len__(self) -> int:
        return len(self.vehicles)


def fleet_of(scratch: Scratch, vehicles) -> Fleet:
    """`vehicles` as a `Fleet`: itself if it is one, else ((id, kind, range) each, the
    kind a name) the one kept for them in `scratch`, made once (few fleets recur)."""
    if isinstance(vehicles, Fleet):
        return vehicles
    fleets: dict = scratch.fleets
    key = tuple(vehicles)
    found = fleets.get(key)
    if found is None:
        if len(fleets) >= FLEETS_KEPT:
            fleets.clear()
        found = fleets[key] = Fleet(list(key), [v[1] == KINDS[0] for v in key])
    return found


FLEETS_KEPT = 4096  # fleets a scratch keeps (fleet_of): all is dropped beyond


@cython.cfunc
def _enumerate(search: _Search, board, is_major: cython.bint, ship: cython.bint, starts: list,
               maxrange: cython.int) -> cython.void:
    """With search.flags set for the kind: its routes up to `maxrange` units."""
    # majors' carts start only at their own port; other searches start anywhere
    search.prepare(board.tables.lanes_graph if ship else board.road, maxrange, ship or not is_major, ship)
    search.walk_from(starts)


@cython.cfunc
def _enumerated_revenue(search: _Search, board, is_major: cython.bint, ship: cython.bint, starts: list,
                        ranges: list) -> cython.int:
    """With search.flags set for the kind: its routes' enumeration, and the revenue of
    their best assignment."""
    _enumerate(search, board, is_major, ship, starts, ranges[0])
    return search._assign(ranges)


ROUTE_SETS = cython.declare(cython.int, 4)  # enumerations kept for the questions after (see _routes_of)


@cython.cfunc
def _holds(held: _Search, asking: _Search, version: cython.longlong, c: cython.int, is_major: cython.bint,
           ship: cython.bint, maxrange: cython.int) -> cython.bint:
    """Does `held` hold the routes of company c's ships or carts on the map state `version`
    (Board.version), with the vertex values of `asking`, up to `maxrange` units at least?"""
    if not (held.holds and held.held_version == version and held.held_company == c
            and held.held_major == is_major and held.held_ship == ship and held.enumerated_range >= maxrange):
        return False
    v: cython.int
    for v in range(held.n_rev):  # the other vertices' values are 0 in every search
        if held.value[v] != asking.value[v]:
            return False
    return True


@cython.cfunc
def _routes_of(search: _Search, board, c: cython.int, is_major: cython.bint, ship: cython.bint,
               maxrange: cython.int) -> _Search:
    """A search holding company c's routes of one kind (ships or carts) on `board` as it
    is, up to `maxrange` units at least, with the vertex values in `search` (the tables'
    shared search, filled by fill_vertex_values): one of the last ROUTE_SETS enumerations
    when it was made for the same map state, company, kind and values, else a new one
    made over the least recently asked. A player asks for many fleets of one company on
    one map, of ships and carts in turn, and the engine for the plan it has just valued;
    routes longer than every vehicle's range are never assigned, and the shorter ones
    come in the same order either way (the walk records them in the same order), so a
    longer enumeration serves a shorter fleet with the same plan."""
    search.clock += 1
    if search.pool is None:
        search.pool = [_Search(len(search.value), search.words) for _ in range(ROUTE_SETS)]
    held: _Search
    oldest: _Search = None
    version: cython.longlong = board.version
    for held in search.pool:
        if held.tables is not search.tables:
            held.bind(search.tables)
        if _holds(held, search, version, c, is_major, ship, maxrange):
            held.held_at = search.clock
            return held
        if oldest is None or held.held_at < oldest.held_at:
            oldest = held
    held = oldest
    held.value[:] = search.value
    _enumerate(held, board, is_major, ship, _flags(held, board, c, ship, is_major), maxrange)
    held.holds = True
    held.held_version, held.held_company, held.held_major, held.held_ship = version, c, is_major, ship
    held.enumerated_range = maxrange
    held.held_at = search.clock
    return held



def best_routes(board, company: str, is_major: bool, vehicles, ctx: RevenueContext) -> RoutePlan:
    """The optimal plan for `company`'s vehicles ((id, kind, range) each) on `board`."""
    tb = board.tables
    c = tb.company_index[company]
    search: _Search = _search_for(tb)
    search.view_board(board)
    fill_vertex_values(search, search.b_tile, ctx)
    chosen: dict[int, Route] = {}
    goods: dict[str, int] = {}
    total = 0
    held: _Search
    ship: cython.bint
    searched: Fleet = fleet_of(scratch_of(tb), vehicles)
    for ship, group, ranges in searched.kinds:
        held = _routes_of(search, board, c, is_major, ship, ranges[0])
        picks = held.assign(ranges)
        for i, r in zip(group, picks):
            if r < 0:
                continue
            route = _route(tb, searched.vehicles[i], held.trail_of(r), held.revenue_of(r))
            chosen[i] = route
            total += route.revenue
            if ship:
                for name in route.nodes:
                    if ctx.goods_markers.get(name, 0) > 0:
                        goods[name] = goods.get(name, 0) + 1
    return RoutePlan(total, [chosen[i] for i in sorted(chosen)], goods)


def best_revenue(board, c: int, is_major: bool, vehicles, ctx: RevenueContext) -> int:
    """The revenue of `best_routes` for company index c, without building the plan (from
    the enumerations `_routes_of` keeps)."""
    search: _Search = _search_for(board.tables)
    search.view_board(board)
    fill_vertex_values(search, search.b_tile, ctx)
    total = 0
    ship: cython.bint
    for ship, group, ranges in fleet_of(scratch_of(board.tables), vehicles).kinds:
        total += _routes_of(search, board, c, is_major, ship, ranges[0])._assign(ranges)
    return total


@cython.cfunc
@cython.initializedcheck(False)
def _affected_hexes(search: _Search, graph, flags: cython.uchar[::1], out: cython.uchar[::1],
                    at: cython.int) -> cython.void:
    """Fill out[at:] (land hexes, then revenue vertices; not a slice, which would be a
    copy when not compiled): per land hex, 1 where a vertex lies that a route of this kind
    (flags as `_flags` set them) can reach: every route holds an OWN vertex, and a route's
    vertices are reached from it along arcs (track is two-way), crossing only PASS
    vertices and no FORBID one but the OWN one it starts from (a major's carts start at
    its own port, which they may not enter); a FORBID vertex, never entered, is counted as
    reached, which errs on the safe side. A lay elsewhere adds arcs no route can use and
    changes the value of no node a route can visit, so it leaves the kind's revenue alone.
    Then, per revenue vertex (node or offboard), 1 where such a route can reach it: a
    bonus on another's value leaves the kind's revenue alone too."""
    v: cython.int
    top: cython.int = 0
    seen: cython.uchar[::1] = search.seen  # a local view: see FleetSearch._reset
    for v in range(search.n_land + search.n_rev):
        out[at + v] = 0
    for v in range(len(seen)):
        seen[v] = 0
    for v in range(search.n_nodes):  # only nodes hold stations
        if flags[v] & OWN:
            seen[v] = 1
            search._mark(v, out, at)
            search.queue[top] = v
            top += 1
    search._spread(graph, flags, top, out, at)


@cython.cfunc
def _route(tb, vehicle, trail: list, revenue: cython.int) -> Route:
    hexes: list[str] = []
    nodes: list[str] = []
    vertex_hex: list = tb.vertex_hex
    rev_names: list = tb.rev_names
    n_rev: cython.int = tb.n_rev
    v: cython.int
    for v in trail:
        h = vertex_hex[v]
        if not hexes or hexes[len(hexes) - 1] != h:  # a stub and its hex's node: one hex
            hexes.append(h)
        if v < n_rev and rev_names[v] not in nodes:
            nodes.append(rev_names[v])
    return Route(vehicle[0], vehicle[1], hexes, nodes, revenue)
