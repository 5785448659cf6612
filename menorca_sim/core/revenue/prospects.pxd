# Compiled declarations of prospects.py (augmenting .pxd: prospects.py stays the plain
# Python reference). The bound walks every hex side near a company's home at each route
# search it spares: in C ints over typed views of the board's and the tables' arrays.
# h, s, g land hexes; e an edge 0-5; at = hex * 6 + the edge it was entered by.
cimport cython

cdef int NO_ROUTE  # more lays than any lookahead makes

@cython.locals(slots=int, n_land=int, h=int, n=int, i=int, s=int, fewest=int,
               tile="int[::1]", rot="int[::1]", edge_mask="int[::1]", node_land="int[::1]",
               held_by="int[::1]", kind="int[::1]", touched="int[::1]", ends="int[::1]")
cpdef int fewest_lays(object board, int c, int home, int steps, int enough) except -1

@cython.locals(n=int, step=int, at=int, h=int, fewest=int, here="int[::1]", there="int[::1]")
cdef int _walk_lays(int s, int steps, int enough, int[::1] touched, int[::1] ends, int[::1] neighbour) except -1

@cython.locals(came=int, e=int, g=int, at=int, total=int)
cdef void _leave(int[::1] arrivals, int h, int entered, int lays, int[::1] touched, int[::1] neighbour) except *

@cython.locals(fewest=int, e1=int, e2=int, n1=int, n2=int)
cdef int _loop_lays(int s, int[::1] touched, int[::1] neighbour) except -1

cdef int _lay(int touched, int sides) noexcept
