# Compiled declarations of choice.py (augmenting .pxd: choice.py stays the plain Python
# reference). A temperature draw weighs every option (a hundred tile lays): in C doubles,
# the same operations as Python's floats, and libm's exp (which math.exp calls), so the
# same draws.
cimport cython
from libc.math cimport exp

@cython.locals(v=cython.double, total=cython.double, draw=cython.double, i=Py_ssize_t)
cdef Py_ssize_t _draw(object values, Py_ssize_t best, double top, double width, double uniform) except -1
