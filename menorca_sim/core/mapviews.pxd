# Compiled declarations of mapviews.py (augmenting .pxd: mapviews.py stays the plain Python
# reference). h a land hex, t a tile index, r a rotation (as MapTables numbers them).
from menorca_sim.core.maptables cimport MapTables
from menorca_sim.core.revenue.scratch cimport Scratch, scratch_of
from menorca_sim.core.track cimport _Graph, _graph, reach

cdef int _colour_bits(object colours)

cdef class _TableViews:
    cdef MapTables tables  # the tables viewed
    cdef _Graph lanes  # their sea lanes' graph
    cdef unsigned char[::1] stop  # [n] `_blocked`'s answer: the node is full of other companies' stations
    cdef unsigned char[::1] own  # [n] 1 on the nodes `_lays_reached` was given, between its start and end
    cdef int[::1] node_slots  # [n] station slots of node n
    cdef int n_manifest  # tiles of the manifest: tile indices below it
    cdef bint terrain_on_upgrade  # the ruleset's operating.terrain_on_upgrade
    cdef int[::1] live_pairs  # [set of path ends as bits] the PATH_PAIRS with both ends in it (lays._fill_effects)
    # the tables' arrays of the same names (maptables.pxd):
    cdef int[::1] path_bits
    cdef int[::1] edge_mask
    cdef int[::1] neighbour
    cdef int[::1] land_node
    cdef int[::1] tile_colour
    cdef int[::1] terrain_cost
    cdef int[::1] lay_options
    cdef int[::1] first_lay_span
    cdef int[::1] upgrade_span

cdef class _LayViews:
    cdef object board  # the board viewed
    cdef _TableViews tv  # its tables' views
    cdef int[::1] tile  # [h] the board's tile, -1 none
    cdef int[::1] rot  # [h] its rotation
    cdef int[::1] left  # [t] copies of the manifest left
    cdef int[::1] company  # [n * slots + s] the board's station slots' companies, -1 free
    cdef int slots  # the board's station slots per node
    cdef _Graph road  # the board's road graph (set_hex rewrites a hex's arcs)
cdef _LayViews _views(object board)
cdef void _set_tile(_LayViews v, int h, int t, int rotation)
cdef _Lays _lays_reached(_LayViews v, int allowed, list own, unsigned char[::1] reached, int cash, int discount)
cdef int _free(_LayViews v, int n)
cdef unsigned char[::1] _blocked(_LayViews v, int c)
cdef unsigned char[::1] _reached(_LayViews v, int c, list own, bint ports)

cdef class _Lays:
    cdef int n  # lays held
    cdef int[::1] h  # [i] land hex of lay i
    cdef int[::1] t  # [i] its tile
    cdef int[::1] r  # [i] its rotation
    cdef int[::1] cost  # [i] its cost
    cdef long long[::1] effect  # [i] its effect on routes (lays._fill_effects), -1 none
    cdef int[::1] revenue  # [i] its revenue, once lays._lay_revenues searched it
    cdef void _grow(self, int size)
    cdef void add(self, int h, int t, int r, int cost)
cdef _Lays _lays(object tables)
cdef (int, int) _options(_LayViews v, int h)
cdef bint _shape_fits(_LayViews v, int h, int t, int rotation)

