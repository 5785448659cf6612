# Compiled declarations of auction.py (augmenting .pxd: auction.py stays the reference).
from menorca_sim.core.codes cimport (AB_GRANT_CERTIFICATE, AUCTION_PASS, BUY_CHEAPEST, CONTEST_DROP,
                                     CONTEST_RAISE, MAJOR, RESERVE, TREASURY)
from menorca_sim.core.engine cimport Engine

cpdef void begin(Engine eng)
cpdef str decision(Engine eng)
cpdef int actor(Engine eng)
cdef int _open_reservations(Engine eng, int p, int skip_pos)
cdef int _min_bid(Engine eng, int pos)
cpdef void legal(Engine eng)
cpdef void apply(Engine eng, tuple action)
cdef void _sell(Engine eng, int p, int price)
cdef void _grant_certificate(Engine eng, int p, int c, int percent)
cdef void _resolve_reserved(Engine eng)
cdef void _next_contest_turn(Engine eng, int start)
cdef void _finish(Engine eng)

cdef int NONE
