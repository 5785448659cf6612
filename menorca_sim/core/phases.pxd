# Compiled declarations of phases.py (augmenting .pxd: phases.py stays the reference).
# The merger runs once per game: its helpers stay Python-level.
from menorca_sim.core.codes cimport BOX, DISCARD, OPERATING, POOL, SCOPE_SET, TREASURY
from menorca_sim.core.state cimport State

cpdef void advance(State s, int[::1] operated_this_or)
cdef void _begin_epoch(State s, int[::1] operated_this_or, int epoch)
cpdef void reveal_event(State s, int epoch)
cdef int _over_limit_kind(State s, int c)
cpdef int company_to_discard(State s)
cpdef void discard_actions(State s, int c)
cpdef void discard(State s, int c, int v)
cpdef void close_legacies(State s, int epoch)
cpdef void merge_minors(State s, int[::1] operated_this_or)
