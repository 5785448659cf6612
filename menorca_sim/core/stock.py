"""Stock rounds (RULES.md §3, §6-8): a turn is any number of sales, then one purchase or
one company start (or nothing); the round ends when all players pass in succession.
Also the market- and goods-marker placements a purchase may call for."""
from __future__ import annotations

from menorca_sim.core import actions as A
from menorca_sim.core.codes import GOODS_MARKER, MARKET_MARKER, NO_MARKER, POOL, TREASURY


def begin(eng) -> None:
    eng.sr_turn = eng.start_player
    eng.sr_passes = 0
    eng.sr_first_passer = -1
    _new_turn(eng)


def _new_turn(eng) -> None:
    eng.sold_this_turn = [False] * len(eng.t.companies)
    eng.sr_acted = False


def can_hold(eng, p: int, c: int, pct: int, row: int, col: int, certs: int) -> bool:
    """May p, who holds `certs` certificates counting toward his limit (eng.cert_count(p),
    counted once by legal() for all its questions), take a certificate of pct percent of c
    whose price token is at (row, col)?"""
    m = eng.t.market
    if eng.percent(c, p) + pct > eng.rs.stock.holding_limit and not m.yellow(row, col):
        return False
    return m.orange(row, col) or certs + 1 <= eng.cert_limit


def legal(eng) -> list[tuple]:
    t = eng.t
    p = eng.sr_turn
    certs = eng.cert_count(p)
    over = certs > eng.cert_limit
    moves = []
    if eng.srs > 1 or eng.rs.stock.first_sr_sales:
        for c in range(len(t.companies)):
            if not eng.started[c] or eng.closed[c] or eng.sellable_cert(c, p) < 0:
                continue
            if eng.count_of(c, POOL) >= eng.rs.stock.pool_limit:
                continue
            if over and t.market.orange(eng.co_row[c], eng.co_col[c]):
                continue  # selling it would not bring p under the limit
            moves.append((A.SELL_CERT, c))
    if over:
        if not moves:
            moves.append((A.END_TURN,) if eng.sr_acted else (A.SR_PASS,))
        return moves
    for c in range(len(t.companies)):
        if eng.closed[c] or eng.sold_this_turn[c]:
            continue
        if eng.started[c]:
            row, col = eng.co_row[c], eng.co_col[c]
            for source, owner in ((A.SOURCE_TREASURY, TREASURY), (A.SOURCE_POOL, POOL)):
                k = eng.first_cert(c, owner)
                if k >= 0 and eng.cert_price(c, k) <= eng.p_cash[p] \
                        and can_hold(eng, p, c, t.companies[c].certificates[k], row, col, certs):
                    moves.append((A.BUY_CERT, c, source))
        else:
            moves.extend(_starts(eng, p, c, certs))
    moves.append((A.END_TURN,) if eng.sr_acted else (A.SR_PASS,))
    return moves


def _starts(eng, p: int, c: int, certs: int) -> list[tuple]:
    co = eng.t.companies[c]
    m = eng.t.market
    if co.kind not in ("major", "minor") or co.available_epoch > eng.epoch:
        return []
    cells = m.par_cells if co.kind == "major" else [m.par_cell(co.par)]
    pct = co.certificates[0]
    return [(A.START_COMPANY, c, r, col) for r, col in cells
            if m.value(r, col) * pct // 10 <= eng.p_cash[p] and can_hold(eng, p, c, pct, r, col, certs)]


def apply(eng, action: tuple) -> None:
    kind = action[0]
    p = eng.sr_turn
    if kind == A.SELL_CERT:
        c = action[1]
        k = eng.sellable_cert(c, p)
        eng.pay_player(p, eng.cert_price(c, k))
        eng.cert_owner[c][k] = POOL
        eng.move(c, "down")
        eng.sold_this_turn[c] = True
        eng.sr_acted = True
        eng.update_president(c)
    elif kind == A.BUY_CERT:
        c = action[1]
        if action[2] == A.SOURCE_TREASURY:
            k = eng.first_cert(c, TREASURY)
            cost = eng.cert_price(c, k)
            eng.co_cash[c] += cost  # incremental capitalisation
            _first_sale_markers(eng, c, k, p)
        else:
            k = eng.first_cert(c, POOL)
            cost = eng.cert_price(c, k)
            eng.bank += cost
        eng.p_cash[p] -= cost
        eng.cert_owner[c][k] = p
        eng.update_president(c)
        _end_turn_unless_marker(eng)
    elif kind == A.START_COMPANY:
        _start_company(eng, p, action[1], action[2], action[3])
        _end_turn_unless_marker(eng)
    elif kind == A.SR_PASS:
        if eng.sr_first_passer < 0:
            eng.sr_first_passer = p
        eng.sr_passes += 1
        _next_turn(eng)
    else:  # END_TURN
        eng.sr_passes = 0
        _next_turn(eng)


def _start_company(eng, p: int, c: int, row: int, col: int) -> None:
    co = eng.t.companies[c]
    cost = eng.t.market.value(row, col) * co.certificates[0] // 10
    eng.p_cash[p] -= cost
    eng.co_cash[c] += cost
    eng.started[c] = True
    eng.co_par[c] = eng.t.market.value(row, col)
    eng.place_token(c, row, col)
    _first_sale_markers(eng, c, 0, p)
    eng.cert_owner[c][0] = p
    eng.president[c] = p
    kind = "port" if co.kind == "major" else "manufactory"
    if eng.board.free_slots(co.home) > 0:
        eng.board.place_station(eng.t.company_ids[c], co.home, kind)


def _first_sale_markers(eng, c: int, k: int, p: int) -> None:
    """A certificate's first sale out of the treasury: marked majors' certificates give a
    market marker, minors' certificates (and RADM's, which were minors') a goods marker."""
    if eng.cert_left[c][k]:
        return
    eng.cert_left[c][k] = True
    co = eng.t.companies[c]
    if co.kind == "major" and k > 0 and eng.marked_sold[c] < co.marked:
        eng.marked_sold[c] += 1
        request_marker(eng, MARKET_MARKER, c, p, 1)
    elif co.kind != "major":
        request_marker(eng, GOODS_MARKER, c, p, 1)


def request_marker(eng, kind: int, c: int, p: int, count: int) -> None:
    """Ask p to place `count` markers for c, as far as supply and legal offboards allow."""
    supply = eng.markers_left[c] if kind == MARKET_MARKER else eng.goods_left[c]
    count = min(count, supply)
    if count <= 0:
        return
    eng.pm_kind, eng.pm_company, eng.pm_player, eng.pm_count = kind, c, p, count
    if not marker_actions(eng):
        eng.pm_kind = NO_MARKER


def marker_actions(eng) -> list[tuple]:
    c = eng.pm_company
    if eng.pm_kind == GOODS_MARKER:
        return [(A.PLACE_GOODS, o) for o in range(len(eng.t.offboards))]
    cap = eng.rs.markers.offboard_cap
    return [(A.PLACE_MARKET, o) for o in range(len(eng.t.offboards))
            if cap == 0 or eng.mmarkers[c][o] < cap]


def place_marker(eng, action: tuple) -> None:
    c, o = eng.pm_company, action[1]
    if action[0] == A.PLACE_MARKET:
        eng.mmarkers[c][o] += 1
        eng.revenue_version += 1
        eng.markers_left[c] -= 1
        eng.markers_placed[c] += 1
    else:
        eng.goods[c][o] += 1
        eng.goods_left[c] -= 1
    eng.pm_count -= 1
    if eng.pm_count == 0 or not marker_actions(eng):
        eng.pm_kind = NO_MARKER
        if eng.round == "stock":
            _end_turn_unless_marker(eng)


def _end_turn_unless_marker(eng) -> None:
    if eng.pm_kind == NO_MARKER:
        eng.sr_passes = 0
        _next_turn(eng)


def _next_turn(eng) -> None:
    if eng.sr_passes >= eng.n:
        return _finish(eng)
    eng.sr_turn = (eng.sr_turn + 1) % eng.n
    _new_turn(eng)


def _finish(eng) -> None:
    """All passed in succession: sold-out companies move up, the first passer starts next."""
    for c in range(len(eng.t.companies)):
        if eng.started[c] and not eng.closed[c] \
                and eng.count_of(c, TREASURY) == 0 and eng.count_of(c, POOL) == 0:
            eng.move(c, "up")
    if eng.sr_first_passer >= 0:
        eng.start_player = eng.sr_first_passer
    eng.start_operating_set()
