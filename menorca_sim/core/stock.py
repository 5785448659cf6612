"""Stock rounds (RULES.md §3, §6-8): a turn is any number of sales, then one purchase or
one company start (or nothing); the round ends when all players pass in succession.
Also the market- and goods-marker placements a purchase may call for. Its own fields are a
StockState, a pending placement a Placement; `apply` reports when the round is over (the
Engine begins what follows)."""
from __future__ import annotations

from array import array

import cython

if not cython.compiled:
    from menorca_sim.core.codes import (BUY_CERT, DOWN, END_TURN, GOODS_MARKER, MAJOR, MARKET_MARKER, MINOR,
                                        NO_MARKER, PLACE_GOODS, PLACE_MARKET, POOL, SELL_CERT, SOURCE_POOL,
                                        SOURCE_TREASURY, SR_PASS, START_COMPANY, STOCK, TREASURY, UP)


class StockState:
    """A stock round's own fields (stock.pxd comments each); `begin` sets them."""

    def __init__(self, companies: cython.int) -> None:
        # zero until the first stock round, as the compiled fields start (a copy reads them)
        self.turn = self.passes = self.first_passer = 0
        self.acted = False
        self.sold_this_turn = array("i", bytes(4 * companies))

    def copy(self) -> StockState:
        new: StockState = StockState.__new__(StockState)
        new.turn, new.passes, new.first_passer, new.acted = self.turn, self.passes, self.first_passer, self.acted
        new.sold_this_turn = self.sold_this_turn.copy() if cython.compiled else array("i", self.sold_this_turn)
        return new


class Placement:
    """A pending marker placement (stock.pxd comments each field): a purchase's marker, or
    a legacy's free ones in an operating round."""

    def __init__(self) -> None:
        self.kind = NO_MARKER
        self.company = self.player = -1
        self.count = 0

    def copy(self) -> Placement:
        new: Placement = Placement.__new__(Placement)
        new.kind, new.company, new.player, new.count = self.kind, self.company, self.player, self.count
        return new


def begin(s, r: StockState) -> None:
    r.turn = s.start_player
    r.passes = 0
    r.first_passer = -1
    _new_turn(s, r)


def _new_turn(s, r: StockState) -> None:
    c: cython.int
    for c in range(s.t.nc):
        r.sold_this_turn[c] = False
    r.acted = False


def can_hold(s, p: cython.int, c: cython.int, pct: cython.int, row: cython.int, col: cython.int,
             certs: cython.int) -> cython.bint:
    """May p, who holds `certs` certificates counting toward his limit (s.cert_count(p),
    counted once by `legal` for all its questions), take a certificate of pct percent of c
    whose price token is at (row, col)?"""
    t = s.t
    if s.percent(c, p) + pct > t.holding_limit and not t.mk_yellow[row][col]:
        return False
    return t.mk_orange[row][col] or certs + 1 <= s.cert_limit


def legal(s, r: StockState) -> None:
    """The stock turn's legal actions into the engine's moves."""
    t = s.t
    p: cython.int = r.turn
    certs: cython.int = s.cert_count(p)
    over: cython.bint = certs > s.cert_limit
    c: cython.int
    k: cython.int
    if s.srs > 1 or t.first_sr_sales:
        for c in range(t.nc):
            if not s.started[c] or s.closed[c] or s.sellable_cert(c, p) < 0:
                continue
            if s.count_of(c, POOL) >= t.pool_limit:
                continue
            if over and t.mk_orange[s.co_row[c]][s.co_col[c]]:
                continue  # selling it would not bring p under the limit
            s.add_move(SELL_CERT, c)
    if over:
        if not s.n_moves:
            s.add_move(END_TURN if r.acted else SR_PASS)
        return
    for c in range(t.nc):
        if s.closed[c] or r.sold_this_turn[c]:
            continue
        if s.started[c]:
            k = s.first_cert(c, TREASURY)
            if k >= 0 and _may_buy(s, p, c, k, certs):
                s.add_move(BUY_CERT, c, SOURCE_TREASURY)
            k = s.first_cert(c, POOL)
            if k >= 0 and _may_buy(s, p, c, k, certs):
                s.add_move(BUY_CERT, c, SOURCE_POOL)
        else:
            _starts(s, p, c, certs)
    s.add_move(END_TURN if r.acted else SR_PASS)


def _may_buy(s, p: cython.int, c: cython.int, k: cython.int, certs: cython.int) -> cython.bint:
    """May p buy certificate k of c (its price paid, his limits kept)?"""
    return s.cert_price(c, k) <= s.p_cash[p] \
        and can_hold(s, p, c, s.t.cert_pct[c][k], s.co_row[c], s.co_col[c], certs)


def _starts(s, p: cython.int, c: cython.int, certs: cython.int) -> None:
    """p's starts of company c (a par cell each) into the engine's moves."""
    t = s.t
    kind: cython.int = t.co_kind[c]
    if (kind != MAJOR and kind != MINOR) or t.co_available[c] > s.epoch:
        return
    pct: cython.int = t.cert_pct[c][0]
    r: cython.int
    col: cython.int
    for r, col in t.start_cells[c]:
        if t.mk_value[r][col] * pct // 10 <= s.p_cash[p] and can_hold(s, p, c, pct, r, col, certs):
            s.add_move(START_COMPANY, c, r, col)


def apply(s, r: StockState, m: Placement, action: tuple) -> cython.bint:
    """Apply a stock-turn action; whether the round is over (all passed in succession)."""
    kind: cython.int = action[0]
    p: cython.int = r.turn
    c: cython.int
    k: cython.int
    cost: cython.int
    if kind == SELL_CERT:
        c = action[1]
        k = s.sellable_cert(c, p)
        s.pay_player(p, s.cert_price(c, k))
        s.set_owner(c, k, POOL)
        s.move(c, DOWN)
        r.sold_this_turn[c] = True
        r.acted = True
        s.update_president(c)
        return False
    if kind == BUY_CERT:
        c = action[1]
        if action[2] == SOURCE_TREASURY:
            k = s.first_cert(c, TREASURY)
            cost = s.cert_price(c, k)
            s.co_cash[c] += cost  # incremental capitalisation
            _first_sale_markers(s, m, c, k, p)
        else:
            k = s.first_cert(c, POOL)
            cost = s.cert_price(c, k)
            s.bank += cost
        s.p_cash[p] -= cost
        s.set_owner(c, k, p)
        s.update_president(c)
        return _end_turn_unless_marker(s, r, m)
    if kind == START_COMPANY:
        _start_company(s, m, p, action[1], action[2], action[3])
        return _end_turn_unless_marker(s, r, m)
    if kind == SR_PASS:
        if r.first_passer < 0:
            r.first_passer = p
        r.passes += 1
        return _next_turn(s, r)
    r.passes = 0  # END_TURN
    return _next_turn(s, r)


def _start_company(s, m: Placement, p: cython.int, c: cython.int, row: cython.int, col: cython.int) -> None:
    t = s.t
    par: cython.int = t.mk_value[row][col]
    cost: cython.int = par * t.cert_pct[c][0] // 10
    s.p_cash[p] -= cost
    s.co_cash[c] += cost
    s.started[c] = True
    s.co_par[c] = par
    s.place_token(c, row, col)
    _first_sale_markers(s, m, c, 0, p)
    s.set_owner(c, 0, p)
    s.president[c] = p
    home = t.co_home[c]
    if s.board.free_slots(home) > 0:
        s.board.place_station(t.company_ids[c], home, "port" if t.co_kind[c] == MAJOR else "manufactory")


def _first_sale_markers(s, m: Placement, c: cython.int, k: cython.int, p: cython.int) -> None:
    """A certificate's first sale out of the treasury: marked majors' certificates give a
    market marker, minors' certificates (and RADM's, which were minors') a goods marker."""
    if s.cert_left[c][k]:
        return
    s.cert_left[c][k] = True
    t = s.t
    if t.co_kind[c] == MAJOR:
        if k > 0 and s.marked_sold[c] < t.co_marked[c]:
            s.marked_sold[c] += 1
            request_marker(s, m, MARKET_MARKER, c, p, 1)
    else:
        request_marker(s, m, GOODS_MARKER, c, p, 1)


def request_marker(s, m: Placement, kind: cython.int, c: cython.int, p: cython.int, count: cython.int) -> None:
    """Ask p to place `count` markers for c, as far as supply and legal offboards allow."""
    supply: cython.int = s.markers_left[c] if kind == MARKET_MARKER else s.goods_left[c]
    count = min(count, supply)
    if count <= 0:
        return
    m.kind, m.company, m.player, m.count = kind, c, p, count
    if not _any_open_to_marker(s, m):
        m.kind = NO_MARKER


def marker_actions(s, m: Placement) -> None:
    """The offboards open to the pending marker into the engine's moves."""
    kind: cython.int = PLACE_GOODS if m.kind == GOODS_MARKER else PLACE_MARKET
    o: cython.int
    for o in range(s.t.no):
        if _open_to_marker(s, m, o):
            s.add_move(kind, o)


def _open_to_marker(s, m: Placement, o: cython.int) -> cython.bint:
    """May the pending marker go on offboard o (a market marker: up to the cap per company)?"""
    cap: cython.int = s.t.offboard_cap
    return m.kind == GOODS_MARKER or cap == 0 or s.mmarkers[m.company][o] < cap


def _any_open_to_marker(s, m: Placement) -> cython.bint:
    o: cython.int
    for o in range(s.t.no):
        if _open_to_marker(s, m, o):
            return True
    return False


def place_marker(s, r: StockState, m: Placement, action: tuple) -> cython.bint:
    """Place one pending marker; whether a stock round is over (its turn ended with it)."""
    c: cython.int = m.company
    o: cython.int = action[1]
    if action[0] == PLACE_MARKET:
        s.mmarkers[c][o] += 1
        s.revenue_version += 1
        s.markers_left[c] -= 1
        s.markers_placed[c] += 1
    else:
        s.goods[c][o] += 1
        s.goods_left[c] -= 1
    m.count -= 1
    if m.count == 0 or not _any_open_to_marker(s, m):
        m.kind = NO_MARKER
        if s.stage == STOCK:
            return _end_turn_unless_marker(s, r, m)
    return False


def _end_turn_unless_marker(s, r: StockState, m: Placement) -> cython.bint:
    if m.kind == NO_MARKER:
        r.passes = 0
        return _next_turn(s, r)
    return False


def _next_turn(s, r: StockState) -> cython.bint:
    """The next player's turn; True instead when all have passed (the round is over)."""
    if r.passes >= s.n:
        _finish(s, r)
        return True
    r.turn = (r.turn + 1) % s.n
    _new_turn(s, r)
    return False


def _finish(s, r: StockState) -> None:
    """All passed in succession: sold-out companies move up, the first passer starts next."""
    c: cython.int
    for c in range(s.t.nc):
        if s.started[c] and not s.closed[c] \
                and s.count_of(c, TREASURY) == 0 and s.count_of(c, POOL) == 0:
            s.move(c, UP)
    if r.first_passer >= 0:
        s.start_player = r.first_passer
