"""One fleet's best revenue searched again and again while the track of single land
hexes changes (the candidate lays of a lay question) or an offboard's value does (a
market marker's bonus): set up once per fleet, it searches again only the vehicle kinds
a change may reach (see `FleetSearch`)."""
from __future__ import annotations

from array import array

import cython

from menorca_sim.core.revenue.routes import KINDS

if not cython.compiled:  # compiled, fleet.pxd cimports them
    from menorca_sim.core.revenue.context import RevenueContext
    from menorca_sim.core.revenue.routes import (_affected_hexes, _enumerate, _enumerated_revenue, _flags,
                                                 _printed_value, _routes_of, _Search, _search_for,
                                                 fill_vertex_values, fleet_of)
    from menorca_sim.core.revenue.scratch import Scratch, scratch_of


@cython.cclass
class FleetSearch:
    """`best_revenue` of one fleet, searched again and again while the track of single
    land hexes changes (the candidate lays of `lays.lay_revenues`). The vertex values
    and each vehicle kind's flags and start vertices depend on stations, fleet and
    context, which stay as they were: they are prepared once and kept here (other
    searches may use the shared buffers in between), and only the value of a changed
    hex's node is read again. A kind is searched again only where a lay may change its
    routes (`affects`): its revenue elsewhere is the one on the board as at construction.
    A lay that stays on the board while others are searched (a lookahead's first lay) is
    told of with `lay_changed`, and its undoing too. The questions ask `fleet_search` for
    one: the same object set up again for each fleet, its buffers allocated once."""

    # its fields: fleet.pxd

    def __init__(self, board, c: int, is_major: bool, vehicles, ctx: RevenueContext) -> None:
        search: _Search = _search_for(board.tables)
        size: cython.int = len(search.value)
        self.search = search
        self.land_node = search.land_node
        self.values = array("i", [0]) * size  # a new array by repetition: one memcpy
        self.extra = array("i", [0]) * size
        self.span = search.n_land + search.n_rev
        self.flags = bytearray(len(KINDS) * size)
        self.affected = bytearray(len(KINDS) * self.span)
        self.reach0 = bytearray(len(KINDS) * size)
        self.affected0 = bytearray(len(KINDS) * self.span)
        self.any_affected = bytearray(search.n_land)
        self.ships = _Search(size, search.words)
        self.ships.bind(board.tables)
        self.set_up(board, c, is_major, vehicles, ctx)

    @cython.cfunc
    def set_up(self, board, c: cython.int, is_major: cython.bint, vehicles, ctx: RevenueContext) -> cython.void:
        """Prepare the search of company c's `vehicles` on `board` (of its tables)."""
        search: _Search = self.search
        self.board = board
        self.c = c
        self.is_major = is_major
        search.view_board(board)
        self.tile = search.b_tile
        fill_vertex_values(search, self.tile, ctx)
        size: cython.int = len(search.value)
        v: cython.int
        k: cython.int = 0
        for v in range(search.n_rev):  # beyond, values are 0 in every search
            self.values[v] = self.extra[v] = search.value[v]
        for v in range(search.n_nodes):
            self.extra[v] -= _printed_value(search, self.tile, v)
        self.kinds = []
        ship: cython.bint
        for ship, group, ranges in fleet_of(scratch_of(board.tables), vehicles).kinds:
            starts = _flags(search, board, c, ship, is_major)
            self.kinds.append((ship, starts, ranges))
            self.flags[k * size:(k + 1) * size] = search.flags
            _affected_hexes(search, search.lanes if ship else board.road, search.flags,
                            self.affected, k * self.span)
            self.reach0[k * size:(k + 1) * size] = search.seen
            k += 1
        self.affected0[:] = self.affected
        self.touched = -1
        self.changed = []
        self.moved = []
        self.ships_held = False
        self._reset()

    @cython.cfunc
    @cython.initializedcheck(False)
    def _reset(self) -> cython.void:
        """Forget the kinds' revenues on the board as it was, and gather `any_affected`."""
        self.bases = [-1] * len(self.kinds)
        # the views as locals: through `self`, each byte stored would make the C compiler
        # read the views again (a byte store may alias anything)
        any_affected: cython.uchar[::1] = self.any_affected
        affected: cython.uchar[::1] = self.affected
        n_land: cython.int = len(any_affected)
        span: cython.int = self.span
        h: cython.int
        k: cython.int
        for h in range(n_land):
            any_affected[h] = 0
        for k in range(len(self.kinds)):
            for h in range(n_land):
                any_affected[h] |= affected[k * span + h]

    @cython.ccall
    def lay_changed(self, h: cython.int) -> cython.void:
        """The board's track on land hex h changed in place (a lay, or its undoing): the
        next question starts from the board as it is then."""
        self.changed.append(h)

    @cython.cfunc
    def _catch_up(self) -> cython.void:
        """Take in the hexes `lay_changed` named: their node values and the carts' reach
        (stations, and so the flags and the ships' reach over the lanes, stay as they were)."""
        if not self.changed:
            return
        h: cython.int
        for h in self.changed:
            self._refresh(h)
            if h not in self.moved:
                self.moved.append(h)
        self.changed = []
        search: _Search = self.search
        n: cython.Py_ssize_t = len(search.flags)
        k: cython.Py_ssize_t
        for k in range(len(self.kinds)):
            if not self.kinds[k][0]:  # carts: their reach follows the track
                self._reach_again(k * n, k * self.span)
        self._reset()

    @cython.cfunc
    @cython.initializedcheck(False)
    def _reach_again(self, start: cython.Py_ssize_t, at: cython.Py_ssize_t) -> cython.void:
        """The carts' reach (flags at self.flags[start:], affected hexes at
        self.affected[at:]) on the board as it is now, grown from their reach at set-up: a
        route reaching a vertex at set-up's reach or not, its arcs up to the first vertex
        of a hex changed since (`moved`) are as at set-up, so the reach now is within the
        reach at set-up and what the moved hexes' reached vertices lead to. Only a hex's
        own arcs change with its track; removed ones leave a larger reach, which errs on
        the safe side (`affects` answers more often yes)."""
        search: _Search = self.search
        n: cython.Py_ssize_t = len(search.flags)
        span: cython.Py_ssize_t = self.span
        v: cython.Py_ssize_t
        e: cython.int
        h: cython.int
        top: cython.int = 0
        search.seen[:] = self.reach0[start:start + n]
        self.affected[at:at + span] = self.affected0[at:at + span]
        for h in self.moved:
            v = self.land_node[h]
            if v >= 0 and search.seen[v]:
                search.queue[top] = v
                top += 1
            for e in range(6):
                v = search.stub_base + h * 6 + e
                if search.seen[v]:
                    search.queue[top] = v
                    top += 1
        search._spread(self.board.road, self.flags[start:start + n], top, self.affected, at)

    @cython.cfunc
    def _refresh(self, h: cython.int) -> cython.void:
        """Read again the value of land hex h's node (if any) from its tile now."""
        if h < 0:
            return
        n: cython.int = self.land_node[h]
        if n >= 0:
            self.values[n] = _printed_value(self.search, self.tile, n) + self.extra[n]

    @cython.ccall
    def revenue(self, h: cython.int) -> cython.int:
        """The best revenue on the board as it is now: it may differ from the board at
        construction in the track of land hex h (-1: none) and of the hex of the
        previous call."""
        return self._revenue(h, -1)

    @cython.cfunc
    def _revenue(self, h: cython.int, vertex: cython.int) -> cython.int:
        """`revenue(h)`, with the value of revenue vertex `vertex` (-1: none) other than at
        construction: a kind whose routes can reach neither h nor that vertex earns what
        it earned on the board as at construction (kept once searched)."""
        search: _Search = self.search
        self._catch_up()
        self._refresh(self.touched)
        self._refresh(h)
        self.touched = h
        search.value[:] = self.values
        total: cython.int = 0
        kind_total: cython.int
        k: cython.Py_ssize_t
        n: cython.Py_ssize_t = len(search.flags)
        n_land: cython.Py_ssize_t = len(self.any_affected)
        unchanged: cython.bint
        for k in range(len(self.kinds)):
            ship, starts, ranges = self.kinds[k]
            unchanged = (h < 0 or not self.affected[k * self.span + h]) \
                and (vertex < 0 or not self.affected[k * self.span + n_land + vertex])
            if unchanged and self.bases[k] >= 0:
                total += self.bases[k]
                continue
            if ship:
                kind_total = self._ship_revenue(k)
            else:
                search.flags[:] = self.flags[k * n:(k + 1) * n]
                kind_total = _enumerated_revenue(search, self.board, self.is_major, ship, starts, ranges)
            if unchanged:
                self.bases[k] = kind_total
            total += kind_total
        return total

    @cython.cfunc
    def _ship_revenue(self, k: cython.Py_ssize_t) -> cython.int:
        """The revenue of the ships (kind k) with the vertex values in the shared search's
        `value`. Their routes run over the lanes, which no lay changes, from and to
        stations, which stay as at set-up: a lay changes only the value of its hex's
        node. So they are enumerated once per set-up (in `ships`, apart from the shared
        buffers other searches use), and each question after adds each node's change of
        value to the routes visiting it: the same routes and revenues as enumerated
        anew, and so the same best revenue."""
        search: _Search = self.search
        ships: _Search = self.ships
        _, starts, ranges = self.kinds[k]
        n: cython.Py_ssize_t = len(search.flags)
        v: cython.int
        if not self.ships_held:
            ships.value[:] = search.value
            ships.flags[:] = self.flags[k * n:(k + 1) * n]
            _enumerate(ships, self.board, self.is_major, True, starts, ranges[0])
            self.ships_held = True
            self.ships_best = -1
        for v in range(search.n_rev):  # the other vertices' values are 0 in every search
            if ships.value[v] != search.value[v]:
                ships.add_on_trails(v, search.value[v] - ships.value[v])
                ships.value[v] = search.value[v]
                self.ships_best = -1
        if self.ships_best < 0:  # else the values are those of the last assignment (a lay of no new colour)
            self.ships_best = ships._assign(ranges)
        return self.ships_best

    @cython.ccall
    def affects(self, h: cython.int) -> cython.bint:
        """May a lay on land hex h change what the fleet earns? (See `_affected_hexes`.)"""
        return self.reach()[h] != 0

    @cython.ccall
    def reach(self) -> cython.uchar[::1]:
        """`affects` of every land hex at once, as 1 or 0 per hex: good until the board's
        track changes other than by the lays searched (see `lay_changed`)."""
        self._catch_up()
        return self.any_affected

    def offboard_revenues(self, offboards: list, amount: cython.int) -> list:
        """The best revenue on the board as at set-up with `amount` more on each offboard
        vertex of `offboards`, taken alone (a market marker's bonus: markers change no
        track). Each kind's routes are enumerated once: a bonus on an offboard changes no
        route, only the revenue of the routes that end there (an offboard ends every route
        and none passes it), so each offboard asks for an assignment only."""
        search: _Search = self.search
        v: cython.int
        for v in offboards:
            if not search.n_nodes <= v < search.n_rev:
                raise ValueError(f"vertex {v} is not an offboard")
        self._catch_up()
        self._refresh(self.touched)  # the values as at set-up
        self.touched = -1
        search.value[:] = self.values
        totals = [0] * len(offboards)
        n_land: cython.Py_ssize_t = len(self.any_affected)
        k: cython.Py_ssize_t
        i: cython.Py_ssize_t
        base: cython.int
        held: _Search
        for k in range(len(self.kinds)):
            ship, starts, ranges = self.kinds[k]
            reached = [i for i in range(len(offboards)) if self.affected[k * self.span + n_land + offboards[i]]]
            if reached or self.bases[k] < 0:
                # the board as it is: its routes as `best_revenue` keeps them (each bonus
                # is taken back: they stay those of the board)
                held = _routes_of(search, self.board, self.c, self.is_major, ship, ranges[0])
                base = self.bases[k] = held._assign(ranges)
                for i in reached:
                    held.add_at_ends(offboards[i], amount)
                    totals[i] += held._assign(ranges) - base
                    held.add_at_ends(offboards[i], -amount)
            for i in range(len(offboards)):
                totals[i] += self.bases[k]
        return totals


def fleet_search(board, c: int, is_major: bool, vehicles, ctx: RevenueContext) -> FleetSearch:
    """A `FleetSearch` of company c's `vehicles` on `board`: the one in the scratch of the
    board's tables, set up again (good until the next call: its buffers are reused, not
    allocated anew)."""
    scratch: Scratch = scratch_of(board.tables)
    fleet: FleetSearch = scratch.fleet
    if fleet is None:
        fleet = scratch.fleet = FleetSearch(board, c, is_major, vehicles, ctx)
    else:
        fleet.set_up(board, c, is_major, vehicles, ctx)
    return fleet
