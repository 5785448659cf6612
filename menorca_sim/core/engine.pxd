# Compiled declarations of engine.py (Cython augmenting .pxd: engine.py stays the plain
# Python reference). The Engine is the shared State (state.pxd) plus each round's own
# state and the flow between the rounds. The declarations run one way: codes -> tables ->
# state -> the rounds (auction, stock, operating, phases) -> engine (tests check it).
cimport cython

from menorca_sim.core.codes cimport (AUCTION, DISCARD, LAY_TILE, MARKET_MARKER, MOVE_WIDTH, NO_MARKER, OPERATING,
                                     OVER, PLACE_GOODS, PLACE_MARKET, PLACE_STATION, SCOPE_OR, STOCK)
from menorca_sim.core.state cimport State
from menorca_sim.core.auction cimport AuctionState
from menorca_sim.core.stock cimport Placement, StockState
from menorca_sim.core.operating cimport OperatingState
from menorca_sim.core cimport auction, operating, phases, stock  # their functions called at C level

@cython.final
cdef class Engine(State):
    # each round's own state (the shared fields are State's)
    cdef public AuctionState auction  # the Family Legacy auction's
    cdef public StockState stock  # the stock round's (the last one's between them)
    cdef public OperatingState operating  # the operating round's (the last one's between them)
    cdef public Placement marker  # a pending marker placement (NO_MARKER kind: none)

    cpdef Engine clone(self)
    cdef void _advance(self)
    cdef void _begin_stock_round(self)
    cdef void _game_over(self, str reason)
    cpdef tuple turn(self)
    cpdef int build_moves(self) except -1
    cpdef int[::1] legal_codes(self)
    cpdef tuple legal_action(self, int i)
    cpdef void apply(self, tuple action) except *
