"""Operating rounds (RULES.md §5): legacy income, then each operating company in market
order does: buy a legacy from its director, lay track, place a station, buy vehicles,
run routes (automatic, through the Board) and pay or withhold, sell its own
certificates, buy them back. A step with nothing to decide passes by itself."""
from __future__ import annotations

import cython

from menorca_sim.core import phases, stock  # modules, not names: stock may still be loading (it cimports engine)
# modules, not names: context may still be loading (it cimports engine, which cimports this)
from menorca_sim.core.revenue import context, routes
from menorca_sim.core.track import MANUFACTORY, PORT, STATION_KINDS

if not cython.compiled:
    from menorca_sim.core.codes import (AB_EXTRA_TILE_LAY, AB_FREE_MARKET_MARKER, AB_FREE_PORT,
                                        AB_TERRAIN_DISCOUNT, AB_VEHICLE_DISCOUNT,
                                        ACCEPT_OFFER, BUY_BACK, BUY_LEGACY, BUY_VEHICLE, DECLINE_OFFER, DOWN,
                                        FORCED_BUY, LAY_TILE, LEFT, MARKET_MARKER, MINOR, NO_MARKER, OPERATING,
                                        PAYOUT, PLACE_STATION, POOL, RIGHT, SELL_OWN, SKIP, STEP_BUY_BACK,
                                        STEP_DIVIDEND, STEP_LEGACY, STEP_SELL_OWN, STEP_STATION, STEP_TRACK,
                                        STEP_VEHICLES, TREASURY, WITHHOLD)

STEP_NAMES = ("company_buys_legacy", "lay_tile", "place_station", "buy_vehicles", "dividend",
              "company_sells", "company_buys_back")


def begin_or(eng) -> None:
    eng.or_in_set += 1
    c: cython.int
    for c in range(eng.t.nc):
        eng.operated_this_or[c] = False
    eng.or_company = -1
    income: cython.int
    for l in eng.leg_in_play:
        if eng.leg_closed[l]:
            continue
        income = eng.t.leg_income_each[l]
        if eng.leg_player[l] >= 0:
            eng.pay_player(eng.leg_player[l], income)
        elif eng.leg_company[l] >= 0:
            eng.pay_company(eng.leg_company[l], income)
        else:
            continue
        eng.leg_income[l] += income
    settle(eng)


def decision(eng) -> str:
    return "consent_vehicle_sale" if eng.offer else STEP_NAMES[eng.or_step]


def actor(eng) -> tuple:
    """(seat deciding, company): the operating company's director, or the director of a
    company asked to sell it a vehicle."""
    c: cython.int = eng.offer[2] if eng.offer else eng.or_company
    return (eng.director(c), c)


def next_company(eng) -> cython.int:
    """Highest market value first; ties: further right, then higher, then first to arrive."""
    best: cython.int = -1
    c: cython.int
    for c in range(eng.t.nc):
        if eng.operated_this_or[c] or not eng.operates(c):
            continue
        if best < 0 or _operates_before(eng, c, best):
            best = c
    return best


def _operates_before(eng, c: cython.int, d: cython.int) -> cython.bint:
    """Does c operate before d: (value, column, -row, -arrival) greater?"""
    if eng.price(c) != eng.price(d):
        return eng.price(c) > eng.price(d)
    if eng.co_col[c] != eng.co_col[d]:
        return eng.co_col[c] > eng.co_col[d]
    if eng.co_row[c] != eng.co_row[d]:
        return eng.co_row[c] < eng.co_row[d]
    return eng.co_arrival[c] < eng.co_arrival[d]


def settle(eng) -> None:
    """Run the automatic parts of the round until a decision is pending or the OR ends."""
    while eng.stage == OPERATING and eng.pm_kind == NO_MARKER and not eng.offer \
            and phases.company_to_discard(eng) < 0:
        if eng.or_company < 0:
            c = next_company(eng)
            if c < 0:
                eng.finish_or()
                return
            _start_turn(eng, c)
        if eng.or_step == STEP_DIVIDEND and eng.or_plan is None:
            _run_routes(eng)
        if _choices(eng):
            return
        _next_step(eng)


def _start_turn(eng, c: cython.int) -> None:
    eng.or_company = c
    eng.operated_this_or[c] = True
    eng.operated[c] = True
    eng.or_step = STEP_LEGACY
    lays: cython.int = eng.t.tile_lays
    for l in eng.owned_legacies(c, AB_EXTRA_TILE_LAY):
        lays = max(lays, eng.t.ab_tiles[l])
    eng.or_lays_left = lays
    eng.or_sold_own = False
    eng.or_plan = None
    eng.declined = []


def _next_step(eng) -> None:
    eng.or_plan = None
    eng.choices_ready = False
    if eng.or_step == STEP_BUY_BACK:
        eng.or_company = -1
    else:
        eng.or_step += 1


def legal(eng) -> None:
    """The step's legal actions into the engine's moves: its choices (those `settle` has
    just written for this state, if it has), then skipping it where that is allowed."""
    if eng.offer:
        eng.begin_moves()
        eng.add_move(ACCEPT_OFFER)
        eng.add_move(DECLINE_OFFER)
        return
    if not eng.choices_ready:
        _choices(eng)
    eng.choices_ready = False  # the moves now hold more than the choices
    if eng.or_step == STEP_VEHICLES:
        if eng.co_vehicles[eng.or_company] or not eng.n_moves:
            eng.add_move(SKIP)
    elif eng.or_step != STEP_DIVIDEND:
        eng.add_move(SKIP)


def _choices(eng) -> cython.int:
    """The step's actions other than skipping it, written anew into the engine's moves and
    kept there for `legal` while this state lasts; how many."""
    t = eng.t
    step: cython.int = eng.or_step
    c: cython.int = eng.or_company
    k: cython.int
    most: cython.int
    eng.begin_moves()
    if step == STEP_LEGACY:
        _legacy_purchases(eng, c)
    elif step == STEP_TRACK:
        if eng.or_lays_left > 0:
            _tile_lays(eng, c)
    elif step == STEP_STATION:
        _station_sites(eng, c)
    elif step == STEP_VEHICLES:
        _vehicle_purchases(eng, c)
    elif step == STEP_DIVIDEND:
        if eng.or_plan.revenue > 0:
            eng.add_move(PAYOUT)
            eng.add_move(WITHHOLD)
    elif step == STEP_SELL_OWN:
        if t.sells_own:
            most = min(eng.count_of(c, TREASURY), t.pool_limit - eng.count_of(c, POOL))
            for k in range(1, most + 1):
                eng.add_move(SELL_OWN, k)
    else:
        k = eng.first_cert(c, POOL)
        if t.buys_back and k >= 0 and eng.cert_price(c, k) <= eng.co_cash[c] \
                and not (t.no_buy_back_after_sale and eng.or_sold_own):
            eng.add_move(BUY_BACK)
    eng.choices_ready = True
    return eng.n_moves


# --- step 0: a legacy from the director ------------------------------------------------
def _legacy_purchases(eng, c: cython.int) -> None:
    t = eng.t
    d: cython.int = eng.director(c)
    if eng.phase < t.legacy_purchase_phase or d < 0:
        return
    lo_pct: cython.int = t.legacy_lo_pct
    hi_pct: cython.int = t.legacy_hi_pct
    base: cython.int
    for l in eng.leg_in_play:
        if eng.leg_player[l] != d or eng.leg_closed[l]:
            continue
        base = t.leg_min_price[l]
        for price in sorted({base * lo_pct // 100, base, base * hi_pct // 100}):
            if base * lo_pct // 100 <= price <= base * hi_pct // 100 and price <= eng.co_cash[c]:
                eng.add_move(BUY_LEGACY, l, price)


# --- step 1: track -----------------------------------------------------------------------
def _tile_lays(eng, c: cython.int) -> None:
    h: cython.int
    tile: cython.int
    rot: cython.int
    cost: cython.int
    for h, tile, rot, cost in _lays_on(eng, c, eng.board, eng.co_cash[c]):
        eng.add_move(LAY_TILE, h, tile, rot, cost)


def lay_terms(eng, c: cython.int) -> tuple:
    """(tile colours of the phase, terrain discount) that company c's lays are offered on."""
    discount: cython.int = 0
    for l in eng.owned_legacies(c, AB_TERRAIN_DISCOUNT):
        discount += eng.t.ab_amount[l]
    return eng.t.phases[eng.phase].tiles, discount


def _lays_on(eng, c: cython.int, board, cash: cython.int) -> list:
    """Company c's lays on `board` (the game's, or a copy) paying from `cash`, as
    (land hex, tile, rotation, cost) indices."""
    colours, discount = lay_terms(eng, c)
    return _ask_board(eng, board, "_tile_lays", (c, colours, cash, discount))


def tile_lays_on(eng, c: cython.int, board, cash: cython.int) -> list:
    """`_lays_on` as action tuples (the map's hexes and tiles by name)."""
    mt = board.tables
    land, tile_ids = mt.land, mt.tile_ids
    return [(LAY_TILE, land[h], tile_ids[tile], rot, cost) for h, tile, rot, cost in _lays_on(eng, c, board, cash)]


def _ask_board(eng, board, question: str, args: tuple):
    """`board.question(*args)`, remembered for the last question asked: the players ask
    again for the lays the engine has just found (`Game.next_lays` with no lays done), and
    so do copies of the game (which keep the memo). The key holds the whole map state (tiles,
    rotations, manifest, stations), so an answer is never reused for a changed map, however
    it changed (the board's version stands for it). The answer may be shared (by clones
    too): read it, never change it. A what-if copy of the board (a player's question) is
    asked directly: it is asked once, and would only push out the answer for the game's
    own board."""
    if board is not eng.board:
        return getattr(board, question)(*args)
    key = (question, args, board.version)
    if eng.board_memo[0] != key:
        eng.board_memo = (key, getattr(board, question)(*args))
    return eng.board_memo[1]


# --- step 2: a port or manufactory -----------------------------------------------------
def _station_sites(eng, c: cython.int) -> None:
    t = eng.t
    if len(eng.board.stations(t.company_ids[c])) >= eng.station_supply[c]:
        return
    free = [t.ab_node_index[l] for l in eng.owned_legacies(c, AB_FREE_PORT)]
    reserve: cython.bint = t.reserve_home_slots
    cost: cython.int
    n: cython.int
    for n in _ask_board(eng, eng.board, "_station_sites", (c, PORT if eng.is_major(c) else MANUFACTORY)):
        if reserve and eng.board._free_slots(n) <= _homes_owed(eng, n):
            continue
        cost = 0 if n in free else t.station_cost
        if cost <= eng.co_cash[c]:
            eng.add_move(PLACE_STATION, n, cost)


def _homes_owed(eng, n: cython.int) -> cython.int:
    """Companies yet to start whose home is node n (they place their home station on
    starting; minors not in play are closed from the setup)."""
    homes = eng.t.co_home_node
    owed: cython.int = 0
    c: cython.int
    for c in range(eng.t.nc):
        if homes[c] == n and not eng.started[c] and not eng.closed[c]:
            owed += 1
    return owed


def station_kind(eng, c: cython.int) -> str:
    return STATION_KINDS[PORT if eng.is_major(c) else MANUFACTORY]


# --- step 3: vehicles ------------------------------------------------------------------
def bank_vehicles(eng) -> list:
    """Vehicles the bank sells now: ships of the tiers in play (and the next tier once the
    current one is sold out, or at any time by option), carts from their first phase."""
    t = eng.t
    phase: cython.int = eng.phase
    left = eng.vehicles_left
    is_ship, tiers, retire = t.vehicle_is_ship, t.vehicle_phase, t.vehicle_retire
    current_sold_out = True
    v: cython.Py_ssize_t
    for v in range(len(tiers)):
        if is_ship[v] and tiers[v] == phase and left[v] != 0:
            current_sold_out = False
            break
    next_open: cython.bint = current_sold_out or t.next_tier_any_time
    out = []
    tier: cython.int
    for v in range(len(tiers)):
        if left[v] == 0 or retire[v] <= phase:
            continue
        tier = tiers[v]
        if tier <= phase or (is_ship[v] and tier == phase + 1 and next_open):
            out.append(v)
    return out


def bank_price(eng, c: cython.int, v: cython.int) -> cython.int:
    t = eng.t
    price: cython.int = t.veh_price[v]
    kind: cython.int
    for l in eng.owned_legacies(c, AB_VEHICLE_DISCOUNT):
        kind = t.ab_vehicle_kind[l]
        if kind < 0 or kind == t.vehicle_is_ship[v]:
            price -= price * t.ab_percent[l] // 100
    return price


def _vehicle_purchases(eng, c: cython.int) -> None:
    t = eng.t
    limit: cython.int = t.phase_limit[eng.phase]
    own = eng.co_vehicles[c]
    ships: cython.int = eng.n_ships[c]
    carts: cython.int = len(own) - ships
    cash: cython.int = eng.co_cash[c]
    price: cython.int
    is_ship: cython.int
    before: cython.int = eng.n_moves
    for v in bank_vehicles(eng):
        if not t.may_own[c][v]:
            continue
        price = bank_price(eng, c, v)
        if price > cash:
            continue
        is_ship = t.vehicle_is_ship[v]
        if (ships if is_ship else carts) < limit:
            eng.add_move(BUY_VEHICLE, v, -1, price, -1)
        elif is_ship:  # return one of its ships to make room
            for r in sorted({x for x in own if t.vehicle_is_ship[x]}):
                eng.add_move(BUY_VEHICLE, v, -1, price, r)
    d: cython.int = eng.director(c)
    low: cython.int = t.trade_min_price
    anyone: cython.bint = t.trade_any
    s: cython.int
    seller_director: cython.int
    for s in range(t.nc):
        if s == c or not eng.started[s] or eng.closed[s] or s in eng.declined:
            continue
        seller_director = eng.director(s)
        if seller_director < 0 or (seller_director != d and not anyone):
            continue
        for v in sorted(set(eng.co_vehicles[s])):
            if not t.may_own[c][v] or (ships if t.vehicle_is_ship[v] else carts) >= limit:
                continue
            for price in sorted({low, t.veh_price[v], cash}):
                if low <= price <= cash:
                    eng.add_move(BUY_VEHICLE, v, s, price, -1)
    if not own and eng.n_moves == before:
        forced = _forced_choice(eng, c)
        if forced >= 0:
            eng.add_move(FORCED_BUY, forced, bank_price(eng, c, forced))


def _forced_choice(eng, c: cython.int) -> cython.int:
    """The cheapest vehicle the company may own from the bank (first listed on a tie), or -1."""
    best: cython.int = -1
    for v in bank_vehicles(eng):
        if eng.t.may_own[c][v] and (best < 0 or bank_price(eng, c, v) < bank_price(eng, c, best)):
            best = v
    return best


def _buy(eng, c: cython.int, v: cython.int, seller: cython.int, price: cython.int) -> None:
    eng.co_cash[c] -= price
    if seller < 0:
        eng.bank += price
        if eng.vehicles_left[v] > 0:
            eng.vehicles_left[v] -= 1
    else:
        eng.co_cash[seller] += price
        eng.remove_vehicle(seller, v)
    eng.add_vehicle(c, v)
    eng.vehicles_bought[c] += 1
    t = eng.t
    if seller < 0 and t.vehicle_is_ship[v] and t.vehicle_phase[v] == eng.phase + 1:
        phases.advance(eng)


def _forced_buy(eng, c: cython.int, v: cython.int, price: cython.int) -> None:
    """The director pays the shortfall, selling certificates if he must; if even that
    cannot cover it, the company goes bankrupt."""
    d = eng.director(c)
    need = price - eng.co_cash[c]
    if d < 0 or (eng.p_cash[d] < need and not _raise_cash(eng.clone(), d, need)):
        row, col = eng.t.market.bankrupt_cell(eng.co_col[c])
        eng.place_token(c, row, col)
        return
    _raise_cash(eng, d, need)
    eng.p_cash[d] -= need
    eng.co_cash[c] += need
    _buy(eng, c, v, -1, price)


def _raise_cash(eng, p: cython.int, need: cython.int) -> cython.bint:
    """Sell p's certificates (never a Trust Family one), the highest-priced company first,
    until p has `need`; False if he cannot."""
    while eng.p_cash[p] < need:
        best = -1
        for c in range(eng.t.nc):
            if not eng.started[c] or eng.closed[c] or eng.count_of(c, POOL) >= eng.t.pool_limit:
                continue
            if eng.sellable_cert(c, p) >= 0 and (best < 0 or eng.price(c) > eng.price(best)):
                best = c
        if best < 0:
            return False
        k = eng.sellable_cert(best, p)
        eng.pay_player(p, eng.cert_price(best, k))
        eng.set_owner(best, k, POOL)
        eng.move(best, DOWN)
        eng.update_president(best)
    return True


# --- step 4: routes ----------------------------------------------------------------------
def _run_routes(eng) -> None:
    t = eng.t
    c = eng.or_company
    vehicles = [t.route_vehicle[v] for v in eng.co_vehicles[c]]
    plan = None
    if vehicles:
        ctx = context.revenue_context(eng, c)
        plan = routes.best_routes(eng.board, t.company_ids[c], eng.is_major(c), vehicles, ctx)
    revenue = plan.revenue if plan is not None else 0
    if plan is not None:
        _pay_goods(eng, plan.goods_reached)
    eng.revenue_total[c] += revenue
    eng.or_plan = plan if revenue > 0 else _NO_REVENUE
    if revenue == 0:
        eng.move(c, LEFT)


class _NoRevenue:
    revenue = 0
    routes = ()


_NO_REVENUE = _NoRevenue()


def _pay_goods(eng, reached: dict) -> None:
    """Each route reaching an offboard pays every goods marker there to its owner."""
    t = eng.t
    rate: cython.int = t.goods_payment[eng.epoch - 1]
    markers: cython.int
    g: cython.int
    for name, routes in reached.items():
        o = t.offboards.index(name)
        for g in range(t.nc):
            markers = eng.goods[g][o]
            if not markers:
                continue
            if t.co_kind[g] == MINOR and t.goods_skip_minors:
                continue
            eng.pay_company(g, routes * markers * rate)


# --- apply -------------------------------------------------------------------------------
def apply(eng, action: tuple) -> None:
    kind: cython.int = action[0]
    c: cython.int = eng.or_company
    if kind == SKIP:
        _next_step(eng)
    elif kind == BUY_LEGACY:
        l, price = action[1], action[2]
        d = eng.director(c)
        eng.co_cash[c] -= price
        eng.p_cash[d] += price
        eng.leg_player[l] = -1
        eng.leg_company[l] = c
        eng.revenue_version += 1
        _next_step(eng)
        if eng.t.ability[l] == AB_FREE_MARKET_MARKER:
            stock.request_marker(eng, MARKET_MARKER, c, d, eng.t.ab_count[l])
    elif kind == LAY_TILE:
        eng.board.lay_tile(action[1], action[2], action[3])
        eng.co_cash[c] -= action[4]
        eng.bank += action[4]
        eng.or_lays_left -= 1
    elif kind == PLACE_STATION:
        eng.board.place_station(eng.t.company_ids[c], action[1], station_kind(eng, c))
        eng.co_cash[c] -= action[2]
        eng.bank += action[2]
        _next_step(eng)
    elif kind == BUY_VEHICLE:
        seller = action[2]
        if seller >= 0 and eng.director(seller) != eng.director(c):
            eng.offer = [c, action[1], seller, action[3]]  # the seller's director must agree
            return
        if action[4] >= 0:
            eng.remove_vehicle(c, action[4])
        _buy(eng, c, action[1], seller, action[3])
    elif kind == ACCEPT_OFFER:
        _, v, seller, price = eng.offer
        eng.offer = []
        _buy(eng, c, v, seller, price)
    elif kind == DECLINE_OFFER:
        eng.declined.append(eng.offer[2])  # one refusal per seller and turn keeps it finite
        eng.offer = []
    elif kind == FORCED_BUY:
        _forced_buy(eng, c, action[1], action[2])
        if not eng.co_vehicles[c]:
            _next_step(eng)
    elif kind == PAYOUT:
        _pay_out(eng, c, eng.or_plan.revenue)
        _next_step(eng)
    elif kind == WITHHOLD:
        eng.pay_company(c, eng.or_plan.revenue)
        eng.move(c, LEFT)
        _next_step(eng)
    elif kind == SELL_OWN:
        _sell_own(eng, c, action[1])
        _next_step(eng)
    else:  # BUY_BACK
        k = eng.first_cert(c, POOL)
        price = eng.cert_price(c, k)
        eng.co_cash[c] -= price
        eng.bank += price
        eng.set_owner(c, k, TREASURY)


def _sell_own(eng, c: cython.int, count: cython.int) -> None:
    """Step 6 (RULES.md §5): `count` certificates from the treasury to the Exchange, all
    at the current value; only then the price falls one cell per certificate."""
    proceeds = 0
    for _ in range(count):
        k = eng.first_cert(c, TREASURY)
        proceeds += eng.cert_price(c, k)
        eng.set_owner(c, k, POOL)
        _count_marked_sale(eng, c, k)
    eng.pay_company(c, proceeds)
    eng.or_sold_own = True
    for _ in range(count):
        eng.move(c, DOWN)


def _count_marked_sale(eng, c: cython.int, k: cython.int) -> None:
    """A certificate sold to the Exchange by its company has left the treasury: if it was
    one of the marked ones its marker is lost (nobody bought it from the company)."""
    if eng.cert_left[c][k]:
        return
    eng.cert_left[c][k] = True
    if eng.is_major(c) and eng.marked_sold[c] < eng.t.co_marked[c]:
        eng.marked_sold[c] += 1


def _pay_out(eng, c: cython.int, revenue: cython.int) -> None:
    t = eng.t
    per_unit: cython.int = revenue // t.dividend_unit
    paid: cython.int = 0
    owner: cython.int
    amount: cython.int
    k: cython.int
    for k in range(t.co_certs[c]):
        owner = eng.cert_owner[c][k]
        amount = per_unit * (t.cert_pct[c][k] // t.share_unit)
        if owner < eng.n:
            eng.pay_player(owner, amount)
        elif owner == TREASURY or (owner == POOL and t.pool_pays_company):
            eng.pay_company(c, amount)
        else:
            continue
        paid += amount
    eng.dividends_paid[c] += paid
    if revenue >= eng.price(c):
        eng.move(c, RIGHT)
