# Compiled declarations of phases.py (augmenting .pxd: phases.py stays the reference).
# The merger runs once per game: its helpers stay Python-level.
from menorca_sim.core.codes cimport BOX, DISCARD, OPERATING, POOL, TREASURY
from menorca_sim.core.engine cimport Engine

cpdef void advance(Engine eng)
cdef int _over_limit_kind(Engine eng, int c)
cpdef int company_to_discard(Engine eng)
cpdef void discard_actions(Engine eng, int c)
cpdef void discard(Engine eng, int c, int v)
cpdef void close_legacies(Engine eng, int epoch)
cpdef void merge_minors(Engine eng)
