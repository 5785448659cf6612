# Compiled declarations of auction.py (augmenting .pxd: auction.py stays the reference).
from menorca_sim.core.codes cimport (AB_GRANT_CASH, AB_GRANT_CERTIFICATE, AUCTION_PASS, BUY_CHEAPEST, CONTEST_DROP,
                                     CONTEST_RAISE, MAJOR, RESERVE, TREASURY)
from menorca_sim.core.state cimport State

cdef class AuctionState:
    # the Family Legacy auction's own fields (begin sets them); p a player, l a legacy
    cdef public list order  # l of the legacies in play, cheapest first (set once: copies share it)
    cdef public int pos  # position in order of the legacy on offer
    cdef public int price  # its current price
    cdef public int turn  # p on turn
    cdef public int passes  # passes in succession
    cdef public int last_passer  # p who passed last, -1
    cdef public int last_buyer  # p who bought last, -1
    cdef public list reservations  # [position][p] bid reserved, -1 none
    cdef public list contest_bidders  # p still in a contest, in turn order
    cdef public int contest_high  # p with the high bid
    cdef public int contest_bid  # the high bid
    cdef public int contest_turn  # p on turn in the contest, -1 outside one

    cpdef AuctionState copy(self)

cpdef void begin(State s, AuctionState a)
cpdef str decision(AuctionState a)
cpdef int actor(AuctionState a)
cdef int _open_reservations(AuctionState a, int p, int skip_pos)
cdef int _min_bid(State s, AuctionState a, int pos)
cpdef void legal(State s, AuctionState a)
cpdef bint apply(State s, AuctionState a, tuple action)
cdef void _sell(State s, AuctionState a, int p, int price)
cpdef void award(State s, int l, int p, int price)
cdef void _grant_certificate(State s, int p, int c, int percent)
cdef void _resolve_reserved(State s, AuctionState a)
cdef void _next_contest_turn(State s, AuctionState a, int start)
cdef bint _over(State s, AuctionState a)

cdef int NONE
