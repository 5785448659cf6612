# Compiled declarations of trees.py (augmenting .pxd: trees.py stays the plain Python
# reference): typed memoryviews and C loops.
cimport cython
from libc.math cimport exp  # libm's, which math.exp calls: the same shares both ways

cdef class Forest:
    cdef const Py_ssize_t[:, ::1] feature
    cdef const double[:, ::1] threshold
    cdef const double[:, ::1] leaf
    cdef double baseline
    cdef Py_ssize_t depth, inner

    @cython.locals(r=Py_ssize_t, t=Py_ssize_t, k=Py_ssize_t, _=Py_ssize_t, totals="double[::1]",
                   feature="const Py_ssize_t[:, ::1]", threshold="const double[:, ::1]", leaf="const double[:, ::1]",
                   depth=Py_ssize_t, inner=Py_ssize_t)
    cpdef list scores(self, const double[:, :] rows)
    cpdef list shares(self, const double[:, :] rows)
