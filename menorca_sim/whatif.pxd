# Compiled declarations of whatif.py (augmenting .pxd: whatif.py stays the plain Python
# reference). Extension types: the players ask a WhatIf hundreds of questions per game.
cimport cython

from menorca_sim.core.codes cimport AB_REVENUE_BONUS
from menorca_sim.core.engine cimport Engine
from menorca_sim.core.revenue.memo cimport RevenueMemo

cdef class WhatIf:
    cdef Engine _eng  # the game's state asked about (read, never changed)
    # shared with the WhatIf of a copy of the game (readonly: its constructor reads them)
    cdef readonly RevenueMemo _revenues  # route revenues by revenue key and fleet (shared by copies of the game)
    cdef readonly frozenset _ship_ids  # ids of the vehicles that are ships
    cdef readonly dict _searched  # vehicle id -> (id, kind, range): what a route search takes
    cdef readonly dict _fleets  # fleet code -> its routes.Fleet (_coded_fleet)
    cdef readonly dict _vehicle_index  # vehicle id -> its index in the ruleset's order
    cdef readonly int _code_bits  # bits per vehicle type in a fleet's code (_fleet_code)
    cdef readonly long long _ship_mask  # the bits of a fleet's code that count its ships
    cdef readonly tuple _map_key  # ((board version, phase), map_key()) last asked
    cdef tuple _own_keys  # (Engine.revenue_version, {company index: own part of its revenue key})
    cdef long long _board_version  # the board's version the caches below hold answers of (-1: none yet)
    cdef long long _revenue_version  # and Engine.revenue_version
    cdef dict _contexts  # company index -> its RevenueContext in this revenue state
    cdef dict _asked  # (company, fleet) -> route revenue asked in this revenue state
    cdef dict _key_numbers  # company index -> the memo's number of its revenue key
    cdef dict _keys  # company index -> its revenue key
    cdef object _key_common  # the part of every company's revenue key, None before asked

    @cython.locals(board_version=cython.longlong)
    cpdef void _sync(self)
    cdef void _share(self, WhatIf shared)
    # the questions (cpdef: the Game forwards them without a Python call)
    cpdef dict asked(self)
    cpdef void remember_plan(self, object company, tuple fleet, object revenue)
    cpdef object route_plan(self, object company, object vehicles, object changes=*)
    cpdef object route_revenue(self, object company, object vehicles, object changes=*)
    cpdef object lay_revenues(self, object company, object vehicles, object lays, object done=*)
    cpdef object station_revenues(self, object company, object vehicles, object nodes)
    cpdef object marker_revenues(self, object company, object vehicles, object offboards)
    cpdef object next_lays(self, object company, object done=*)
    cpdef object next_lay_revenues(self, object company, object vehicles, object done=*)
    cpdef object next_lay_revenues_each(self, object company, object vehicles, object firsts, object done=*,
                                        object until_earning=*)
    cpdef object map_key(self)
    @cython.locals(o=cython.int)
    cpdef object revenue_key(self, object company)
    cpdef object _fleet(self, object vehicles)
    cpdef object _coded_fleet(self, long long code, object vehicles)
    @cython.locals(total=cython.longlong, code=cython.longlong)
    cpdef object _remembered_revenue(self, str company, tuple fleet)
    @cython.locals(revenue=cython.longlong, part_code=cython.longlong)
    cdef long long _part_revenue(self, int c, str company, long long number, tuple fleet, long long code, bint ships)
    cdef list _part(self, tuple fleet, bint ships)
    cpdef object _key_number(self, int c, str company)
    @cython.locals(bits=cython.int, i=cython.int, one=cython.longlong, code=cython.longlong)
    cpdef long long _fleet_code(self, object fleet)
    cpdef object _remember(self, int c, str company, tuple fleet, object revenue)
    cpdef object _context_of(self, int c)
    cpdef tuple _changed(self, int c, object changes, object ctx=*)
