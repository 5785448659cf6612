# Compiled declarations of valuation.py (augmenting .pxd: valuation.py stays the plain
# Python reference). A DecisionCache is asked at every decision, begun at each: compiled,
# an extension type whose fields are C slots, not an instance dict.

cimport cython

cdef class DecisionCache:
    cdef dict _companies
    cdef bint _all_companies
    cdef dict _players
    cdef dict _answers

# An Outlook is asked at most decisions (a fleet's survivors, its fleet after the phase
# change, vehicle prices and kinds): its fields are C slots, read without a dict lookup.
cdef class Outlook:
    cdef readonly int phase  # the phase's index
    cdef readonly int next  # the next phase's index
    cdef readonly dict kind  # vehicle id -> its kind
    cdef readonly dict price  # vehicle id -> its list price
    cdef readonly dict tier  # vehicle id -> its tier's phase index (Ruleset.tier_index)
    cdef readonly dict retire  # vehicle id -> the phase index that retires it (Ruleset.retire_index)
    cdef readonly object limit  # vehicles per kind a company may own now
    cdef readonly object next_limit  # and after the next phase change (0: no next phase)
    cdef dict _surviving  # fleet -> surviving(fleet)
    cdef dict _after  # fleet -> after_change(fleet)

    cpdef tuple surviving(self, object fleet)
    cpdef tuple after_change(self, object fleet)

cdef object _last_ruleset
cdef Outlook _last_outlook

@cython.locals(out=Outlook, phase=int)
cpdef Outlook outlook(object game)
cpdef tuple surviving(object game, object fleet)
cpdef object cheapest_vehicle(object game, object company)
cpdef object vehicle_shortfall(object game, object company, object info)
