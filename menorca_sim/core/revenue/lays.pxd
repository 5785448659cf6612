# Compiled declarations of lays.py (augmenting .pxd: lays.py stays the plain Python
# reference). h a land hex, t a tile index, r a rotation (as MapTables numbers them).
from menorca_sim.core.mapviews cimport (_colour_bits, _LayViews, _Lays, _lays, _lays_reached, _reached, _set_tile,
                                        _shape_fits, _views)
from menorca_sim.core.revenue.fleet cimport FleetSearch

cdef _Lays _checked_lays(object board, object lays)
cdef void _fill_effects(_LayViews v, _Lays lays)
cdef tuple _lay_revenues(object board, FleetSearch search, _Lays lays)
