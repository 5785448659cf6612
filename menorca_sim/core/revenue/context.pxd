# Compiled declarations of context.py (augmenting .pxd: context.py stays the plain Python
# reference).
from menorca_sim.core.codes cimport AB_REVENUE_BONUS
from menorca_sim.core.state cimport State

cdef class RevenueContext:
    cdef public int epoch  # the epoch, 1-based (an offboard earns its revenue of epoch - 1)
    cdef public dict node_bonus  # node name -> R. more for this company (events, legacies)
    cdef public dict market_markers  # offboard name -> this company's own market markers there
    cdef public int market_bonus  # R. per own market marker
    cdef public dict goods_markers  # offboard name -> goods markers there (any owner), for reporting

cpdef object revenue_context(State s, int c, bint goods_markers=*)
