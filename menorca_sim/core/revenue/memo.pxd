# Compiled declarations of memo.py (augmenting .pxd: memo.py stays the plain Python
# reference). An extension type: the players ask the memo hundreds of times per game.
cimport cython

from menorca_sim.core.revenue.context cimport RevenueContext

cdef class RevenueMemo:
    cdef dict _numbers  # revenue key -> its number
    cdef long long _next  # the number the next new key gets
    cdef dict _contexts  # (company index, revenue key but its map part) -> RevenueContext
    # the revenues' table: 2 ** _bits slots (open addressing, linear probing)
    cdef int _bits  # log2 of the slots
    cdef long long[::1] _number_at  # [slot] the key number of the revenue there, -1: an empty slot
    cdef long long[::1] _fleet_at  # [slot] the code of its fleet (WhatIf._fleet_code)
    cdef long long[::1] _revenue_at  # [slot] the revenue
    cdef Py_ssize_t _count  # slots filled

    cpdef long long number(self, tuple key)
    cdef void _allocate(self, int bits)
    @cython.locals(h=cython.ulonglong, slot=Py_ssize_t, mask=Py_ssize_t)
    cdef Py_ssize_t _slot(self, long long number, long long fleet)
    @cython.locals(slot=Py_ssize_t)
    cpdef long long get(self, long long number, long long fleet)
    @cython.locals(slot=Py_ssize_t)
    cpdef void put(self, long long number, long long fleet, long long revenue)
    @cython.locals(numbers="long long[::1]", fleets="long long[::1]", revenues="long long[::1]", slot=Py_ssize_t)
    cdef void _grow(self)
    cpdef object context(self, tuple key)
    cpdef object put_context(self, tuple key, RevenueContext ctx)

cdef Py_ssize_t MEMO_MAX
cdef int FIRST_BITS
cdef unsigned long long MASK64, HASH_A, HASH_B
