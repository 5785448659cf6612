# Compiled declarations of stock.py (augmenting .pxd: stock.py stays the reference).
from menorca_sim.core.codes cimport (BUY_CERT, DOWN, END_TURN, GOODS_MARKER, MAJOR, MARKET_MARKER, MINOR,
                                     NO_MARKER, PLACE_GOODS, PLACE_MARKET, POOL, SELL_CERT, SOURCE_POOL,
                                     SOURCE_TREASURY, SR_PASS, START_COMPANY, STOCK, TREASURY, UP)
from menorca_sim.core.state cimport State

cdef class StockState:
    # a stock round's own fields (begin sets them); p a player, c a company
    cdef public int turn  # p on turn
    cdef public int passes  # passes in succession
    cdef public int first_passer  # p who passed first this round, -1
    cdef public bint acted  # p on turn has sold this turn
    cdef public int[::1] sold_this_turn  # [c] sold by the player on turn

    cpdef StockState copy(self)

cdef class Placement:
    # a pending marker placement (a purchase's marker, a legacy's free ones)
    cdef public int kind  # NO_MARKER, MARKET_MARKER or GOODS_MARKER
    cdef public int company  # c whose markers are placed
    cdef public int player  # p placing them
    cdef public int count  # markers still to place

    cpdef Placement copy(self)

cpdef void begin(State s, StockState r)
cdef void _new_turn(State s, StockState r)
cdef bint can_hold(State s, int p, int c, int pct, int row, int col, int certs)
cpdef void legal(State s, StockState r)
cdef bint _may_buy(State s, int p, int c, int k, int certs)
cdef void _starts(State s, int p, int c, int certs)
cpdef bint apply(State s, StockState r, Placement m, tuple action)
cdef void _start_company(State s, Placement m, int p, int c, int row, int col)
cdef void _first_sale_markers(State s, Placement m, int c, int k, int p)
cpdef void request_marker(State s, Placement m, int kind, int c, int p, int count)
cpdef void marker_actions(State s, Placement m)
cdef bint _open_to_marker(State s, Placement m, int o)
cdef bint _any_open_to_marker(State s, Placement m)
cpdef bint place_marker(State s, StockState r, Placement m, tuple action)
cdef bint _end_turn_unless_marker(State s, StockState r, Placement m)
cdef bint _next_turn(State s, StockState r)
cdef void _finish(State s, StockState r)
