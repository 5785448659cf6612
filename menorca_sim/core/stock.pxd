# Compiled declarations of stock.py (augmenting .pxd: stock.py stays the reference).
from menorca_sim.core.codes cimport (BUY_CERT, DOWN, END_TURN, GOODS_MARKER, MAJOR, MARKET_MARKER, MINOR,
                                     NO_MARKER, PLACE_GOODS, PLACE_MARKET, POOL, SELL_CERT, SOURCE_POOL,
                                     SOURCE_TREASURY, SR_PASS, START_COMPANY, STOCK, TREASURY, UP)
from menorca_sim.core.engine cimport Engine

cpdef void begin(Engine eng)
cdef void _new_turn(Engine eng)
cdef bint can_hold(Engine eng, int p, int c, int pct, int row, int col, int certs)
cpdef void legal(Engine eng)
cdef bint _may_buy(Engine eng, int p, int c, int k, int certs)
cdef void _starts(Engine eng, int p, int c, int certs)
cpdef void apply(Engine eng, tuple action)
cdef void _start_company(Engine eng, int p, int c, int row, int col)
cdef void _first_sale_markers(Engine eng, int c, int k, int p)
cpdef void request_marker(Engine eng, int kind, int c, int p, int count)
cpdef void marker_actions(Engine eng)
cdef bint _open_to_marker(Engine eng, int o)
cdef bint _any_open_to_marker(Engine eng)
cpdef void place_marker(Engine eng, tuple action)
cdef void _end_turn_unless_marker(Engine eng)
cdef void _next_turn(Engine eng)
cdef void _finish(Engine eng)
