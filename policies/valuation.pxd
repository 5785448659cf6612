# Compiled declarations of valuation.py (augmenting .pxd: valuation.py stays the plain
# Python reference). A DecisionCache is asked at every decision, begun at each: compiled,
# an extension type whose fields are C slots, not an instance dict.

cdef class DecisionCache:
    cdef dict _companies
    cdef bint _all_companies
    cdef dict _players
    cdef dict _answers
