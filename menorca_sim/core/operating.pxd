# Compiled declarations of operating.py (augmenting .pxd: operating.py stays the reference).
from menorca_sim.core.codes cimport (AB_EXTRA_TILE_LAY, AB_FREE_MARKET_MARKER, AB_FREE_PORT,
                                     AB_TERRAIN_DISCOUNT, AB_VEHICLE_DISCOUNT, ACCEPT_OFFER, BUY_BACK,
                                     BUY_LEGACY, BUY_VEHICLE, DECLINE_OFFER, DOWN, FORCED_BUY, LAY_TILE, LEFT,
                                     MARKET_MARKER, MINOR, NO_MARKER, OPERATING, PAYOUT, PLACE_STATION, POOL,
                                     RIGHT, SELL_OWN, SKIP, STEP_BUY_BACK, STEP_DIVIDEND, STEP_LEGACY,
                                     STEP_SELL_OWN, STEP_STATION, STEP_TRACK, STEP_VEHICLES, TREASURY, WITHHOLD)
from menorca_sim.core.engine cimport Engine
from menorca_sim.core cimport phases  # its functions called at C level

cpdef void begin_or(Engine eng)
cpdef str decision(Engine eng)
cpdef tuple actor(Engine eng)
cpdef int next_company(Engine eng)
cdef bint _operates_before(Engine eng, int c, int d)
cpdef void settle(Engine eng)
cdef void _start_turn(Engine eng, int c)
cdef void _next_step(Engine eng)
cpdef void legal(Engine eng)
cdef int _choices(Engine eng) except -1
cdef void _legacy_purchases(Engine eng, int c)
cdef void _tile_lays(Engine eng, int c)
cpdef tuple lay_terms(Engine eng, int c)
cdef list _lays_on(Engine eng, int c, object board, int cash)
cpdef list tile_lays_on(Engine eng, int c, object board, int cash)
cdef object _ask_board(Engine eng, object board, str question, tuple args)
cdef void _station_sites(Engine eng, int c)
cdef int _homes_owed(Engine eng, int n)
cpdef str station_kind(Engine eng, int c)
cpdef list bank_vehicles(Engine eng)
cpdef int bank_price(Engine eng, int c, int v)
cdef void _vehicle_purchases(Engine eng, int c)
cdef int _forced_choice(Engine eng, int c)
cdef void _buy(Engine eng, int c, int v, int seller, int price)
cdef void _forced_buy(Engine eng, int c, int v, int price)
cdef bint _raise_cash(Engine eng, int p, int need)
cdef void _run_routes(Engine eng)
cdef void _pay_goods(Engine eng, dict reached)
cpdef void apply(Engine eng, tuple action)
cdef void _sell_own(Engine eng, int c, int count)
cdef void _count_marked_sale(Engine eng, int c, int k)
cdef void _pay_out(Engine eng, int c, int revenue)
