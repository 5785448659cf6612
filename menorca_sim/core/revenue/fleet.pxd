# Compiled declarations of fleet.py (augmenting .pxd: fleet.py stays the plain Python
# reference). h a land hex, k a vehicle kind's place in `kinds`.
from menorca_sim.core.revenue.context cimport RevenueContext
from menorca_sim.core.revenue.routes cimport (_affected_hexes, _enumerate, _enumerated_revenue, _flags,
                                              _printed_value, _routes_of, _Search, _search_for, fill_vertex_values,
                                              fleet_of)
from menorca_sim.core.revenue.scratch cimport Scratch, scratch_of

cdef class FleetSearch:
    cdef object board  # the board searched
    cdef _Search search  # the buffers searched in (its tables' shared _Search)
    cdef int c  # the company's index
    cdef bint is_major  # the company is a major (its stations are ports)
    cdef int[::1] tile  # the board's tiles (changed in place by the lays searched)
    cdef int[::1] land_node  # the tables' node per land hex (-1: none)
    cdef int[::1] values  # vertex values as at set-up, but for refreshed nodes
    cdef int[::1] extra  # per vertex: bonuses and markers on top of the printed value
    cdef list kinds  # per vehicle kind present: (ship, starts, ranges longest first)
    cdef unsigned char[::1] flags  # per kind, per vertex: its flags (kind k at k * vertices)
    cdef unsigned char[::1] affected  # per kind: `_affected_hexes` (kind k at k * span)
    cdef unsigned char[::1] reach0  # per kind, per vertex: reached at set-up (kind k at k * vertices)
    cdef unsigned char[::1] affected0  # `affected` at set-up
    cdef list moved  # land hexes whose track changed since set-up (`lay_changed`), each once
    cdef int span  # land hexes + revenue vertices: `_affected_hexes`' length
    cdef list bases  # per kind: its revenue on the board as at set-up or `lay_changed` (-1 until searched)
    cdef int touched  # the land hex refreshed by the last search (-1: none)
    cdef list changed  # land hexes whose track changed in place since the last question (`lay_changed`)
    cdef unsigned char[::1] any_affected  # per land hex: some kind's affected hexes hold it
    cdef _Search ships  # the ships' routes as enumerated once per set-up, their revenues at ships.value (`_ship_revenue`)
    cdef bint ships_held  # `ships` holds them (False: not enumerated since set-up)
    cdef int ships_best  # their best revenue at ships.value (-1: not assigned since the values changed)
    cdef void set_up(self, object board, int c, bint is_major, object vehicles, RevenueContext ctx)
    cdef void _reset(self)
    cpdef void lay_changed(self, int h)
    cdef void _catch_up(self)
    cdef void _reach_again(self, Py_ssize_t start, Py_ssize_t at)
    cdef void _refresh(self, int h)
    cpdef int revenue(self, int h)
    cdef int _revenue(self, int h, int vertex)
    cdef int _ship_revenue(self, Py_ssize_t k)
    cpdef bint affects(self, int h)
    cpdef unsigned char[::1] reach(self)
