"""The Family Legacy auction (RULES.md §2): buy the cheapest, reserve another with a
bid, or pass; the cheapest drops when everybody passed in succession; reserved
legacies go to their single reserver or to the winner of a contest."""
from __future__ import annotations

import cython

if not cython.compiled:
    from menorca_sim.core.codes import (AB_GRANT_CERTIFICATE, AUCTION_PASS, BUY_CHEAPEST, CONTEST_DROP,
                                        CONTEST_RAISE, MAJOR, RESERVE, TREASURY)

NONE = -1  # no reservation / no player


def begin(eng) -> None:
    t = eng.t
    by_price = [(t.leg_min_price[l], l) for l in eng.leg_in_play]
    by_price.sort()
    eng.auc_order = [l for _, l in by_price]
    eng.auc_pos = 0
    eng.auc_price = t.leg_min_price[eng.auc_order[0]]
    eng.auc_turn = eng.start_player
    eng.auc_passes = 0
    eng.last_passer = NONE
    eng.last_buyer = NONE
    eng.reservations = [[NONE] * eng.n for _ in eng.auc_order]  # by position in auc_order
    eng.contest_bidders = []
    eng.contest_high = NONE
    eng.contest_bid = 0
    eng.contest_turn = NONE


def decision(eng) -> str:
    return "auction_contest" if eng.contest_turn != NONE else "auction_turn"


def actor(eng) -> cython.int:
    return eng.contest_turn if eng.contest_turn != NONE else eng.auc_turn


def _open_reservations(eng, p: cython.int, skip_pos: cython.int) -> cython.int:
    total: cython.int = 0
    bid: cython.int
    i: cython.int
    for i in range(eng.auc_pos, len(eng.auc_order)):
        bid = eng.reservations[i][p]
        if i != skip_pos and bid != NONE:
            total += bid
    return total


def _min_bid(eng, pos: cython.int) -> cython.int:
    highest: cython.int = max(eng.reservations[pos])
    floor: cython.int = eng.t.leg_min_price[eng.auc_order[pos]]
    return floor if highest == NONE else max(floor, highest + eng.t.reservation_step)


def legal(eng) -> None:
    """The auction's legal actions into the engine's moves."""
    p: cython.int
    bid: cython.int
    pos: cython.int
    if eng.contest_turn != NONE:
        p = eng.contest_turn
        bid = eng.contest_bid + eng.t.contest_step
        if bid + _open_reservations(eng, p, eng.auc_pos) <= eng.p_cash[p]:
            eng.add_move(CONTEST_RAISE, bid)
        eng.add_move(CONTEST_DROP)
        return
    p = eng.auc_turn
    if eng.auc_price == 0 and eng.t.free_at_zero_forced:
        eng.add_move(BUY_CHEAPEST)
        return
    if eng.auc_price <= eng.p_cash[p]:
        eng.add_move(BUY_CHEAPEST)
    for pos in range(eng.auc_pos + 1, len(eng.auc_order)):
        bid = _min_bid(eng, pos)
        if bid + _open_reservations(eng, p, pos) <= eng.p_cash[p]:
            eng.add_move(RESERVE, eng.auc_order[pos], bid)
    eng.add_move(AUCTION_PASS)


def apply(eng, action: tuple) -> None:
    kind: cython.int = action[0]
    n: cython.int = eng.n
    if kind == BUY_CHEAPEST:
        p = eng.auc_turn
        eng.last_buyer = p
        _sell(eng, p, eng.auc_price)
        _resolve_reserved(eng)
    elif kind == RESERVE:
        pos = eng.auc_order.index(action[1])
        eng.reservations[pos][eng.auc_turn] = action[2]
        eng.leg_reservations[action[1]] += 1
        eng.auc_passes = 0
        eng.auc_turn = (eng.auc_turn + 1) % n
    elif kind == AUCTION_PASS:
        eng.last_passer = eng.auc_turn
        eng.auc_passes += 1
        if eng.auc_passes == n:
            eng.auc_price = max(eng.t.min_price, eng.auc_price - eng.t.price_drop)
            eng.leg_drops[eng.auc_order[eng.auc_pos]] += 1
            eng.auc_passes = 0
        eng.auc_turn = (eng.auc_turn + 1) % n
    elif kind == CONTEST_RAISE:
        eng.contest_high = eng.contest_turn
        eng.contest_bid = action[1]
        _next_contest_turn(eng, eng.contest_bidders.index(eng.contest_turn) + 1)
    else:  # CONTEST_DROP
        i = eng.contest_bidders.index(eng.contest_turn)
        del eng.contest_bidders[i]
        _next_contest_turn(eng, i)


def _sell(eng, p: cython.int, price: cython.int) -> None:
    """Legacy at auc_pos goes to p for price; the next one becomes the cheapest."""
    t = eng.t
    l: cython.int = eng.auc_order[eng.auc_pos]
    eng.p_cash[p] -= price
    eng.bank += price
    eng.leg_player[l] = p
    eng.leg_price[l] = price
    eng.leg_buyer[l] = p
    if t.ability[l] == AB_GRANT_CERTIFICATE:
        _grant_certificate(eng, p, t.ab_company[l], t.ab_percent[l])
    eng.auc_pos += 1
    eng.auc_passes = 0
    if eng.auc_pos < len(eng.auc_order):
        eng.auc_price = t.leg_min_price[eng.auc_order[eng.auc_pos]]


def _grant_certificate(eng, p: cython.int, c: cython.int, percent: cython.int) -> None:
    """Company c's lowest-numbered treasury certificate of that size, free and unmarked."""
    t = eng.t
    k: cython.int
    for k in range(1 if t.co_kind[c] == MAJOR else 0, t.co_certs[c]):
        if eng.cert_owner[c][k] == TREASURY and t.cert_pct[c][k] == percent:
            eng.set_owner(c, k, p)
            eng.cert_left[c][k] = True
            return


def _resolve_reserved(eng) -> None:
    """Hand reserved cheapest legacies to their reservers; end the auction when all are sold."""
    n = eng.n
    while eng.auc_pos < len(eng.auc_order):
        pos = eng.auc_pos
        bids = eng.reservations[pos]
        for p in range(n):  # a reservation its holder can no longer pay for lapses
            if bids[p] != NONE and bids[p] > eng.p_cash[p]:
                bids[p] = NONE
        order = [(eng.last_buyer + 1 + i) % n for i in range(n)]
        reservers = [p for p in order if bids[p] != NONE]
        if not reservers:
            eng.auc_turn = (eng.last_buyer + 1) % n
            return
        high = reservers[0]  # the first of the highest bids, in turn order
        for q in reservers:
            if bids[q] > bids[high]:
                high = q
        if len(reservers) == 1:
            _sell(eng, high, bids[high])
            continue
        eng.contest_bidders = reservers
        eng.contest_high = high
        eng.contest_bid = bids[high]
        _next_contest_turn(eng, 0)
        return
    _finish(eng)


def _next_contest_turn(eng, start: cython.int) -> None:
    """The next bidder from index `start` on (cyclic) who is not the high bidder; a lone
    remaining bidder wins at the current bid."""
    bidders = eng.contest_bidders
    if len(bidders) == 1:
        winner = bidders[0]
        eng.contest_turn = NONE
        eng.contest_bidders = []
        _sell(eng, winner, eng.contest_bid)
        _resolve_reserved(eng)
        return
    for j in range(len(bidders)):
        q = bidders[(start + j) % len(bidders)]
        if q != eng.contest_high:
            eng.contest_turn = q
            return


def _finish(eng) -> None:
    if eng.last_passer != NONE:
        eng.start_player = eng.last_passer
    eng.start_stock_round()
