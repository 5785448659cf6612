"""The Family Legacy auction (RULES.md §2): buy the cheapest, reserve another with a
bid, or pass; the cheapest drops when everybody passed in succession; reserved
legacies go to their single reserver or to the winner of a contest. Its own fields are
an AuctionState; `apply` reports when the auction is over (the Engine begins what follows)."""
from __future__ import annotations

import cython

if not cython.compiled:
    from menorca_sim.core.codes import (AB_GRANT_CASH, AB_GRANT_CERTIFICATE, AUCTION_PASS, BUY_CHEAPEST, CONTEST_DROP,
                                        CONTEST_RAISE, MAJOR, RESERVE, TREASURY)

NONE = -1  # no reservation / no player


class AuctionState:
    """The auction's own fields (auction.pxd comments each); `begin` sets them."""

    def copy(self) -> AuctionState:
        """An independent copy (`order` is set once per game: shared)."""
        new: AuctionState = AuctionState.__new__(AuctionState)
        new.order, new.pos, new.price, new.turn = self.order, self.pos, self.price, self.turn
        new.passes, new.last_passer, new.last_buyer = self.passes, self.last_passer, self.last_buyer
        new.reservations = [list(bids) for bids in self.reservations]
        new.contest_bidders = list(self.contest_bidders)
        new.contest_high, new.contest_bid, new.contest_turn = self.contest_high, self.contest_bid, self.contest_turn
        return new


def begin(s, a: AuctionState) -> None:
    """The auction of the legacies in play that nobody holds yet (one may be held by a
    seat before it: setup.assigned_*)."""
    t = s.t
    by_price = [(t.leg_min_price[l], l) for l in s.leg_in_play if s.leg_player[l] < 0]
    by_price.sort()
    a.order = [l for _, l in by_price]
    a.pos = 0
    a.price = t.leg_min_price[a.order[0]]
    a.turn = s.start_player
    a.passes = 0
    a.last_passer = NONE
    a.last_buyer = NONE
    a.reservations = [[NONE] * s.n for _ in a.order]  # by position in order
    a.contest_bidders = []
    a.contest_high = NONE
    a.contest_bid = 0
    a.contest_turn = NONE


def decision(a: AuctionState) -> str:
    return "auction_contest" if a.contest_turn != NONE else "auction_turn"


def actor(a: AuctionState) -> cython.int:
    return a.contest_turn if a.contest_turn != NONE else a.turn


def _open_reservations(a: AuctionState, p: cython.int, skip_pos: cython.int) -> cython.int:
    total: cython.int = 0
    bid: cython.int
    i: cython.int
    for i in range(a.pos, len(a.order)):
        bid = a.reservations[i][p]
        if i != skip_pos and bid != NONE:
            total += bid
    return total


def _min_bid(s, a: AuctionState, pos: cython.int) -> cython.int:
    highest: cython.int = max(a.reservations[pos])
    floor: cython.int = s.t.leg_min_price[a.order[pos]]
    return floor if highest == NONE else max(floor, highest + s.t.reservation_step)


def legal(s, a: AuctionState) -> None:
    """The auction's legal actions into the engine's moves."""
    p: cython.int
    bid: cython.int
    pos: cython.int
    if a.contest_turn != NONE:
        p = a.contest_turn
        bid = a.contest_bid + s.t.contest_step
        if bid + _open_reservations(a, p, a.pos) <= s.p_cash[p]:
            s.add_move(CONTEST_RAISE, bid)
        s.add_move(CONTEST_DROP)
        return
    p = a.turn
    if a.price == 0 and s.t.free_at_zero_forced:
        s.add_move(BUY_CHEAPEST)
        return
    if a.price <= s.p_cash[p]:
        s.add_move(BUY_CHEAPEST)
    for pos in range(a.pos + 1, len(a.order)):
        bid = _min_bid(s, a, pos)
        if bid + _open_reservations(a, p, pos) <= s.p_cash[p]:
            s.add_move(RESERVE, a.order[pos], bid)
    s.add_move(AUCTION_PASS)


def apply(s, a: AuctionState, action: tuple) -> cython.bint:
    """Apply an auction action; whether the auction is over (every legacy sold)."""
    kind: cython.int = action[0]
    n: cython.int = s.n
    if kind == BUY_CHEAPEST:
        p = a.turn
        a.last_buyer = p
        _sell(s, a, p, a.price)
        _resolve_reserved(s, a)
    elif kind == RESERVE:
        pos = a.order.index(action[1])
        a.reservations[pos][a.turn] = action[2]
        s.leg_reservations[action[1]] += 1
        a.passes = 0
        a.turn = (a.turn + 1) % n
    elif kind == AUCTION_PASS:
        a.last_passer = a.turn
        a.passes += 1
        if a.passes == n:
            a.price = max(s.t.min_price, a.price - s.t.price_drop)
            s.leg_drops[a.order[a.pos]] += 1
            a.passes = 0
        a.turn = (a.turn + 1) % n
    elif kind == CONTEST_RAISE:
        a.contest_high = a.contest_turn
        a.contest_bid = action[1]
        _next_contest_turn(s, a, a.contest_bidders.index(a.contest_turn) + 1)
    else:  # CONTEST_DROP
        i = a.contest_bidders.index(a.contest_turn)
        del a.contest_bidders[i]
        _next_contest_turn(s, a, i)
    return _over(s, a)


def _sell(s, a: AuctionState, p: cython.int, price: cython.int) -> None:
    """Legacy at `pos` goes to p for price; the next one becomes the cheapest."""
    t = s.t
    award(s, a.order[a.pos], p, price)
    a.pos += 1
    a.passes = 0
    if a.pos < len(a.order):
        a.price = t.leg_min_price[a.order[a.pos]]


def award(s, l: cython.int, p: cython.int, price: cython.int) -> None:
    """Legacy l goes to p, who pays price to the bank (and gets its certificate, if it grants one)."""
    t = s.t
    s.p_cash[p] -= price
    s.bank += price
    s.leg_player[l] = p
    s.leg_price[l] = price
    s.leg_buyer[l] = p
    if t.ability[l] == AB_GRANT_CERTIFICATE:
        _grant_certificate(s, p, t.ab_company[l], t.ab_percent[l])
    elif t.ability[l] == AB_GRANT_CASH:
        s.p_cash[p] += t.ab_amount[l]
        s.bank -= t.ab_amount[l]


def _grant_certificate(s, p: cython.int, c: cython.int, percent: cython.int) -> None:
    """Company c's lowest-numbered treasury certificate of that size, free and unmarked."""
    t = s.t
    k: cython.int
    for k in range(1 if t.co_kind[c] == MAJOR else 0, t.co_certs[c]):
        if s.cert_owner[c][k] == TREASURY and t.cert_pct[c][k] == percent:
            s.set_owner(c, k, p)
            s.cert_left[c][k] = True
            return


def _resolve_reserved(s, a: AuctionState) -> None:
    """Hand reserved cheapest legacies to their reservers (until a contest or a turn)."""
    n = s.n
    while a.pos < len(a.order):
        pos = a.pos
        bids = a.reservations[pos]
        for p in range(n):  # a reservation its holder can no longer pay for lapses
            if bids[p] != NONE and bids[p] > s.p_cash[p]:
                bids[p] = NONE
        order = [(a.last_buyer + 1 + i) % n for i in range(n)]
        reservers = [p for p in order if bids[p] != NONE]
        if not reservers:
            a.turn = (a.last_buyer + 1) % n
            return
        high = reservers[0]  # the first of the highest bids, in turn order
        for q in reservers:
            if bids[q] > bids[high]:
                high = q
        if len(reservers) == 1:
            _sell(s, a, high, bids[high])
            continue
        a.contest_bidders = reservers
        a.contest_high = high
        a.contest_bid = bids[high]
        _next_contest_turn(s, a, 0)
        return


def _next_contest_turn(s, a: AuctionState, start: cython.int) -> None:
    """The next bidder from index `start` on (cyclic) who is not the high bidder; a lone
    remaining bidder wins at the current bid."""
    bidders = a.contest_bidders
    if len(bidders) == 1:
        winner = bidders[0]
        a.contest_turn = NONE
        a.contest_bidders = []
        _sell(s, a, winner, a.contest_bid)
        _resolve_reserved(s, a)
        return
    for j in range(len(bidders)):
        q = bidders[(start + j) % len(bidders)]
        if q != a.contest_high:
            a.contest_turn = q
            return


def _over(s, a: AuctionState) -> cython.bint:
    """Is every legacy sold? Then the last passer gets the start-player marker."""
    if a.pos < len(a.order):
        return False
    if a.last_passer != NONE:
        s.start_player = a.last_passer
    return True
