"""Stock rounds (RULES.md §3, §6-8): a turn is any number of sales, then one purchase or
one company start (or nothing); the round ends when all players pass in succession.
Also the market- and goods-marker placements a purchase may call for."""
from __future__ import annotations

import cython

if not cython.compiled:
    from menorca_sim.core.codes import (BUY_CERT, DOWN, END_TURN, GOODS_MARKER, MAJOR, MARKET_MARKER, MINOR,
                                        NO_MARKER, PLACE_GOODS, PLACE_MARKET, POOL, SELL_CERT, SOURCE_POOL,
                                        SOURCE_TREASURY, SR_PASS, START_COMPANY, STOCK, TREASURY, UP)


def begin(eng) -> None:
    eng.sr_turn = eng.start_player
    eng.sr_passes = 0
    eng.sr_first_passer = -1
    _new_turn(eng)


def _new_turn(eng) -> None:
    c: cython.int
    for c in range(eng.t.nc):
        eng.sold_this_turn[c] = False
    eng.sr_acted = False


def can_hold(eng, p: cython.int, c: cython.int, pct: cython.int, row: cython.int, col: cython.int,
             certs: cython.int) -> cython.bint:
    """May p, who holds `certs` certificates counting toward his limit (eng.cert_count(p),
    counted once by `legal` for all its questions), take a certificate of pct percent of c
    whose price token is at (row, col)?"""
    t = eng.t
    if eng.percent(c, p) + pct > t.holding_limit and not t.mk_yellow[row][col]:
        return False
    return t.mk_orange[row][col] or certs + 1 <= eng.cert_limit


def legal(eng) -> None:
    """The stock turn's legal actions into the engine's moves."""
    t = eng.t
    p: cython.int = eng.sr_turn
    certs: cython.int = eng.cert_count(p)
    over: cython.bint = certs > eng.cert_limit
    c: cython.int
    k: cython.int
    if eng.srs > 1 or t.first_sr_sales:
        for c in range(t.nc):
            if not eng.started[c] or eng.closed[c] or eng.sellable_cert(c, p) < 0:
                continue
            if eng.count_of(c, POOL) >= t.pool_limit:
                continue
            if over and t.mk_orange[eng.co_row[c]][eng.co_col[c]]:
                continue  # selling it would not bring p under the limit
            eng.add_move(SELL_CERT, c)
    if over:
        if not eng.n_moves:
            eng.add_move(END_TURN if eng.sr_acted else SR_PASS)
        return
    for c in range(t.nc):
        if eng.closed[c] or eng.sold_this_turn[c]:
            continue
        if eng.started[c]:
            k = eng.first_cert(c, TREASURY)
            if k >= 0 and _may_buy(eng, p, c, k, certs):
                eng.add_move(BUY_CERT, c, SOURCE_TREASURY)
            k = eng.first_cert(c, POOL)
            if k >= 0 and _may_buy(eng, p, c, k, certs):
                eng.add_move(BUY_CERT, c, SOURCE_POOL)
        else:
            _starts(eng, p, c, certs)
    eng.add_move(END_TURN if eng.sr_acted else SR_PASS)


def _may_buy(eng, p: cython.int, c: cython.int, k: cython.int, certs: cython.int) -> cython.bint:
    """May p buy certificate k of c (its price paid, his limits kept)?"""
    return eng.cert_price(c, k) <= eng.p_cash[p] \
        and can_hold(eng, p, c, eng.t.cert_pct[c][k], eng.co_row[c], eng.co_col[c], certs)


def _starts(eng, p: cython.int, c: cython.int, certs: cython.int) -> None:
    """p's starts of company c (a par cell each) into the engine's moves."""
    t = eng.t
    kind: cython.int = t.co_kind[c]
    if (kind != MAJOR and kind != MINOR) or t.co_available[c] > eng.epoch:
        return
    pct: cython.int = t.cert_pct[c][0]
    r: cython.int
    col: cython.int
    for r, col in t.start_cells[c]:
        if t.mk_value[r][col] * pct // 10 <= eng.p_cash[p] and can_hold(eng, p, c, pct, r, col, certs):
            eng.add_move(START_COMPANY, c, r, col)


def apply(eng, action: tuple) -> None:
    kind: cython.int = action[0]
    p: cython.int = eng.sr_turn
    c: cython.int
    k: cython.int
    cost: cython.int
    if kind == SELL_CERT:
        c = action[1]
        k = eng.sellable_cert(c, p)
        eng.pay_player(p, eng.cert_price(c, k))
        eng.set_owner(c, k, POOL)
        eng.move(c, DOWN)
        eng.sold_this_turn[c] = True
        eng.sr_acted = True
        eng.update_president(c)
    elif kind == BUY_CERT:
        c = action[1]
        if action[2] == SOURCE_TREASURY:
            k = eng.first_cert(c, TREASURY)
            cost = eng.cert_price(c, k)
            eng.co_cash[c] += cost  # incremental capitalisation
            _first_sale_markers(eng, c, k, p)
        else:
            k = eng.first_cert(c, POOL)
            cost = eng.cert_price(c, k)
            eng.bank += cost
        eng.p_cash[p] -= cost
        eng.set_owner(c, k, p)
        eng.update_president(c)
        _end_turn_unless_marker(eng)
    elif kind == START_COMPANY:
        _start_company(eng, p, action[1], action[2], action[3])
        _end_turn_unless_marker(eng)
    elif kind == SR_PASS:
        if eng.sr_first_passer < 0:
            eng.sr_first_passer = p
        eng.sr_passes += 1
        _next_turn(eng)
    else:  # END_TURN
        eng.sr_passes = 0
        _next_turn(eng)


def _start_company(eng, p: cython.int, c: cython.int, row: cython.int, col: cython.int) -> None:
    t = eng.t
    par: cython.int = t.mk_value[row][col]
    cost: cython.int = par * t.cert_pct[c][0] // 10
    eng.p_cash[p] -= cost
    eng.co_cash[c] += cost
    eng.started[c] = True
    eng.co_par[c] = par
    eng.place_token(c, row, col)
    _first_sale_markers(eng, c, 0, p)
    eng.set_owner(c, 0, p)
    eng.president[c] = p
    home = t.co_home[c]
    if eng.board.free_slots(home) > 0:
        eng.board.place_station(t.company_ids[c], home, "port" if t.co_kind[c] == MAJOR else "manufactory")


def _first_sale_markers(eng, c: cython.int, k: cython.int, p: cython.int) -> None:
    """A certificate's first sale out of the treasury: marked majors' certificates give a
    market marker, minors' certificates (and RADM's, which were minors') a goods marker."""
    if eng.cert_left[c][k]:
        return
    eng.cert_left[c][k] = True
    t = eng.t
    if t.co_kind[c] == MAJOR:
        if k > 0 and eng.marked_sold[c] < t.co_marked[c]:
            eng.marked_sold[c] += 1
            request_marker(eng, MARKET_MARKER, c, p, 1)
    else:
        request_marker(eng, GOODS_MARKER, c, p, 1)


def request_marker(eng, kind: cython.int, c: cython.int, p: cython.int, count: cython.int) -> None:
    """Ask p to place `count` markers for c, as far as supply and legal offboards allow."""
    supply: cython.int = eng.markers_left[c] if kind == MARKET_MARKER else eng.goods_left[c]
    count = min(count, supply)
    if count <= 0:
        return
    eng.pm_kind, eng.pm_company, eng.pm_player, eng.pm_count = kind, c, p, count
    if not _any_open_to_marker(eng):
        eng.pm_kind = NO_MARKER


def marker_actions(eng) -> None:
    """The offboards open to the pending marker into the engine's moves."""
    kind: cython.int = PLACE_GOODS if eng.pm_kind == GOODS_MARKER else PLACE_MARKET
    o: cython.int
    for o in range(eng.t.no):
        if _open_to_marker(eng, o):
            eng.add_move(kind, o)


def _open_to_marker(eng, o: cython.int) -> cython.bint:
    """May the pending marker go on offboard o (a market marker: up to the cap per company)?"""
    cap: cython.int = eng.t.offboard_cap
    return eng.pm_kind == GOODS_MARKER or cap == 0 or eng.mmarkers[eng.pm_company][o] < cap


def _any_open_to_marker(eng) -> cython.bint:
    o: cython.int
    for o in range(eng.t.no):
        if _open_to_marker(eng, o):
            return True
    return False


def place_marker(eng, action: tuple) -> None:
    c: cython.int = eng.pm_company
    o: cython.int = action[1]
    if action[0] == PLACE_MARKET:
        eng.mmarkers[c][o] += 1
        eng.revenue_version += 1
        eng.markers_left[c] -= 1
        eng.markers_placed[c] += 1
    else:
        eng.goods[c][o] += 1
        eng.goods_left[c] -= 1
    eng.pm_count -= 1
    if eng.pm_count == 0 or not _any_open_to_marker(eng):
        eng.pm_kind = NO_MARKER
        if eng.stage == STOCK:
            _end_turn_unless_marker(eng)


def _end_turn_unless_marker(eng) -> None:
    if eng.pm_kind == NO_MARKER:
        eng.sr_passes = 0
        _next_turn(eng)


def _next_turn(eng) -> None:
    if eng.sr_passes >= eng.n:
        _finish(eng)
        return
    eng.sr_turn = (eng.sr_turn + 1) % eng.n
    _new_turn(eng)


def _finish(eng) -> None:
    """All passed in succession: sold-out companies move up, the first passer starts next."""
    c: cython.int
    for c in range(eng.t.nc):
        if eng.started[c] and not eng.closed[c] \
                and eng.count_of(c, TREASURY) == 0 and eng.count_of(c, POOL) == 0:
            eng.move(c, UP)
    if eng.sr_first_passer >= 0:
        eng.start_player = eng.sr_first_passer
    eng.finish_stock_round()
