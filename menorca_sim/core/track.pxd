# Compiled declarations of track.py (augmenting .pxd: track.py stays the plain Python
# reference). A graph's layout (degree, target, unit, stride): vertex v's arcs are
# target[v * stride + i] for i < degree[v], each over track unit unit[...].
from menorca_sim.core.maptables cimport MapTables
from menorca_sim.core.revenue.scratch cimport Scratch, scratch_of

cdef class _Graph:
    cdef tuple graph  # (degree, target, unit, stride) as given
    # the graph's arrays (its layout: above):
    cdef int[::1] degree
    cdef int[::1] target
    cdef int[::1] unit
    cdef int stride
    cdef object tables  # the tables of the views below (None: not taken yet)
    # the tables' arrays of the same names (maptables.pxd):
    cdef int[::1] neighbour
    cdef int[::1] side_unit
    cdef int[::1] land_node
    cdef int[::1] local_arcs
    cdef int[::1] local_arc_span
    cdef int stub_base
    cdef _Graph of(self, object tables)
    cdef void set_hex(self, int h, int tile, int rotation)
    cdef void _add(self, int source, int to, int u)
cdef _Graph _graph(object tables, tuple graph)

cdef class _Reached:
    cdef unsigned char[::1] mark  # [v] 1 where the last reach got, else 0
    cdef int[::1] todo  # its stack, a slot per vertex

cdef unsigned char[::1] reach(MapTables tables, _Graph first, _Graph second, list sources, unsigned char[::1] stop)
cdef int _stack_arcs(int[::1] degree, int[::1] target, int stride, int v, unsigned char[::1] mark,
                     int[::1] todo, int top)

