# Compiled declarations of observation.py (augmenting .pxd: observation.py stays the plain
# Python reference). The Game's records are read at every decision: the engine is typed,
# so a field read is a C read, and the readers call one another in C.
cimport cython

from menorca_sim.core.codes cimport POOL, TREASURY
from menorca_sim.core.engine cimport Engine
from menorca_sim.core.operating cimport OperatingState

cdef int PL_CASH, PL_SHARES, PL_CERTS, PL_LEGACIES  # the numbers of PLAYER_FIELDS' fields
cdef int CO_CASH, CO_PRICE, CO_CELL, CO_TREASURY, CO_POOL, CO_PAR, CO_DIRECTOR, CO_FLOATED, CO_VEHICLES
cdef int CO_STATIONS, CO_MARKET_MARKERS, CO_GOODS_MARKERS, CO_LEGACIES  # and of COMPANY_FIELDS'

cdef class PublicState:
    cdef public Engine _eng  # the game's state

    @cython.locals(eng=Engine, o=OperatingState, c=int, ids=list, operated=list, to_operate=list)
    cpdef dict round_progress(self)

cpdef int director_of(Engine eng, int c) except? -2
@cython.locals(ids=list, v=int)
cpdef list fleet_of(Engine eng, int c)
cpdef list legacies_of(Engine eng, object owner, int who)
@cython.locals(c=int, percent=int, shares=dict)
cdef object _player_field(Engine eng, int p, int field)
@cython.locals(names=tuple, k=int)
cdef dict _company_record(Engine eng, int c, tuple asked)
cdef object _company_field(Engine eng, int c, int field)
cdef tuple _fields(tuple known, object fields, dict asked)

cdef class VehicleOffer:
    cdef dict _ids  # company -> the ids on sale to it
    cdef int _phase  # the bank's phase of those answers (-1: none yet)
    cdef readonly unsigned long long sold_out  # and the vehicle types sold out then (bit v: type v)

    cpdef VehicleOffer copy(self)
    cpdef list ids(self, Engine eng, object rs, str company)

@cython.locals(left="int[::1]", one=cython.ulonglong, sold_out=cython.ulonglong, v=Py_ssize_t)
cdef unsigned long long _sold_out_mask(Engine eng)
