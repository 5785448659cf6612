# Compiled declarations of moves.py (augmenting .pxd: moves.py stays the plain Python
# reference). The legal moves are read as typed ints from the Game (typed: its
# legal_codes and legal_count are C calls), C comparisons per move; each view is an
# extension type of read-only fields.
cimport cython

from menorca_sim.core.codes cimport (BUY_CERT, BUY_VEHICLE, LAY_TILE, MOVE_WIDTH, PLACE_STATION, SELL_CERT,
                                     SOURCE_TREASURY, START_COMPANY)
from menorca_sim.game cimport Game

cdef class CertSale:
    cdef readonly int index  # among the legal actions
    cdef readonly str company

cdef class CertPurchase:
    cdef readonly int index
    cdef readonly str company
    cdef readonly bint from_treasury  # else from the pool

cdef class CompanyStart:
    cdef readonly int index
    cdef readonly str company
    cdef readonly int par  # the par value chosen

cdef class StationSite:
    cdef readonly int index
    cdef readonly str node
    cdef readonly int cost

cdef class VehiclePurchase:
    cdef readonly int index
    cdef readonly str vehicle
    cdef readonly object seller  # the company selling it, None for the bank
    cdef readonly int price
    cdef readonly object returned  # the ship given back for it, None for none

@cython.locals(codes="int[::1]", i=int, found=int)
cpdef int first_move(Game game, int kind, bint last=*) except? -2
@cython.locals(codes="int[::1]", i=int, row=int, views=list)
cpdef list cert_sales(Game game)
@cython.locals(codes="int[::1]", i=int, row=int, views=list)
cpdef list cert_purchases(Game game)
@cython.locals(codes="int[::1]", i=int, row=int, views=list)
cpdef list company_starts(Game game)
@cython.locals(codes="int[::1]", i=int, row=int, views=list)
cpdef list station_sites(Game game)
@cython.locals(codes="int[::1]", i=int, row=int, seller=int, returned=int, views=list)
cpdef list vehicle_purchases(Game game)
@cython.locals(codes="int[::1]", i=int, row=int, at=list, lays=list)
cpdef tuple tile_lays(Game game, int max_cost)
