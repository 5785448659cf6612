# Compiled declarations of operating.py (augmenting .pxd: operating.py stays the reference).
from menorca_sim.core.codes cimport (AB_EXTRA_TILE_LAY, AB_FREE_MARKET_MARKER, AB_FREE_PORT,
                                     AB_TERRAIN_DISCOUNT, AB_VEHICLE_DISCOUNT, ACCEPT_OFFER, BUY_BACK,
                                     BUY_LEGACY, BUY_VEHICLE, DECLINE_OFFER, DOWN, FORCED_BUY, LAY_TILE, LEFT,
                                     MARKET_MARKER, MINOR, NO_MARKER, OPERATING, PAYOUT, PLACE_STATION, POOL,
                                     RIGHT, SELL_OWN, SKIP, STEP_BUY_BACK, STEP_DIVIDEND, STEP_LEGACY,
                                     STEP_SELL_OWN, STEP_STATION, STEP_TRACK, STEP_VEHICLES, TREASURY, WITHHOLD)
from menorca_sim.core.state cimport State
from menorca_sim.core.stock cimport Placement
from menorca_sim.core cimport phases, stock  # their functions called at C level

cdef class OperatingState:
    # an operating round's own fields (begin_or and settle set them); c a company
    cdef public int company  # c operating, -1 between companies
    cdef public int step  # its step (codes STEP_*)
    cdef public int lays_left  # tile lays left this turn
    cdef public bint sold_own  # it sold its own certificates this turn (step 6; no buy-back then under next_or)
    cdef public object plan  # its RoutePlan at the dividend step, None before
    cdef public list offer  # a sale awaiting consent: [buyer, v, seller, price], or []
    cdef public list declined  # sellers that refused the operating company this turn
    cdef public int[::1] operated_this_or  # [c] has operated in this OR
    cdef public int in_set  # operating rounds begun in this set
    cdef public int set_length  # operating rounds in this set (its phase's ors)

    cpdef OperatingState copy(self)

cpdef bint begin_or(State s, OperatingState o, Placement m)
cpdef str decision(OperatingState o)
cpdef tuple actor(State s, OperatingState o)
cpdef int next_company(State s, OperatingState o)
cdef bint _operates_before(State s, int c, int d)
cpdef bint settle(State s, OperatingState o, Placement m)
cdef void _start_turn(State s, OperatingState o, int c)
cdef void _next_step(State s, OperatingState o)
cpdef void legal(State s, OperatingState o)
cdef int _choices(State s, OperatingState o) except -1
cdef void _legacy_purchases(State s, int c)
cdef void _tile_lays(State s, int c)
cpdef tuple lay_terms(State s, int c)
cdef list _lays_on(State s, int c, object board, int cash)
cpdef list tile_lays_on(State s, int c, object board, int cash)
cdef object _ask_board(State s, object board, str question, tuple args)
cdef void _station_sites(State s, int c)
cdef int _homes_owed(State s, int n)
cpdef str station_kind(State s, int c)
cpdef list bank_vehicles(State s)
cpdef int bank_price(State s, int c, int v)
cdef void _vehicle_purchases(State s, OperatingState o, int c)
cdef int _forced_choice(State s, int c)
cdef void _buy(State s, OperatingState o, int c, int v, int seller, int price)
cdef void _forced_buy(State s, OperatingState o, int c, int v, int price)
cdef bint _raise_cash(State s, int p, int need)
cdef void _run_routes(State s, OperatingState o)
cdef void _pay_goods(State s, dict reached)
cpdef void apply(State s, OperatingState o, Placement m, tuple action)
cdef void _sell_own(State s, OperatingState o, int c, int count)
cdef void _count_marked_sale(State s, int c, int k)
cdef void _pay_out(State s, int c, int revenue)
