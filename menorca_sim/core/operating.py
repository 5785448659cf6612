"""Operating rounds (RULES.md §5): legacy income, then each operating company in market
order does: buy a legacy from its director, lay track, place a station, buy vehicles,
run routes (automatic, through the Board) and pay or withhold, sell its own
certificates, buy them back. A step with nothing to decide passes by itself."""
from __future__ import annotations

import cython

from menorca_sim.core import actions as A
from menorca_sim.core import phases
from menorca_sim.core.codes import MARKET_MARKER, NO_MARKER, POOL, TREASURY
from menorca_sim.core.routes import RevenueContext
from menorca_sim.core.stock import request_marker

STEP_LEGACY = 0
STEP_TRACK = 1
STEP_STATION = 2
STEP_VEHICLES = 3
STEP_DIVIDEND = 4
STEP_SELL_OWN = 5
STEP_BUY_BACK = 6
STEP_NAMES = ("company_buys_legacy", "lay_tile", "place_station", "buy_vehicles", "dividend",
              "company_sells", "company_buys_back")


def begin_or(eng) -> None:
    eng.or_in_set += 1
    eng.operated_this_or = [False] * len(eng.t.companies)
    eng.or_company = -1
    for l in eng.leg_in_play:
        if eng.leg_closed[l]:
            continue
        income = eng.t.legacies[l].income
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


def actor(eng) -> tuple[int, int]:
    """(seat deciding, company): the operating company's director, or the director of a
    company asked to sell it a vehicle."""
    c = eng.offer[2] if eng.offer else eng.or_company
    return (eng.director(c), c)


def next_company(eng) -> int:
    """Highest market value first; ties: further right, then higher, then first to arrive."""
    best, best_key = -1, None
    for c in range(len(eng.t.companies)):
        if eng.operated_this_or[c] or not eng.operates(c):
            continue
        key = (eng.price(c), eng.co_col[c], -eng.co_row[c], -eng.co_arrival[c])
        if best_key is None or key > best_key:
            best, best_key = c, key
    return best


def settle(eng) -> None:
    """Run the automatic parts of the round until a decision is pending or the OR ends."""
    while eng.round == "operating" and eng.pm_kind == NO_MARKER and not eng.offer \
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


def _start_turn(eng, c: int) -> None:
    eng.or_company = c
    eng.operated_this_or[c] = True
    eng.operated[c] = True
    eng.or_step = STEP_LEGACY
    extra = [a.tiles for a in eng.owned_abilities(c, "extra_tile_lay")]
    eng.or_lays_left = max([eng.rs.operating.tile_lays] + extra)
    eng.or_plan = None
    eng.declined = []


def _next_step(eng) -> None:
    eng.or_plan = None
    if eng.or_step == STEP_BUY_BACK:
        eng.or_company = -1
    else:
        eng.or_step += 1


def legal(eng) -> list[tuple]:
    if eng.offer:
        return [(A.ACCEPT_OFFER,), (A.DECLINE_OFFER,)]
    moves = _choices(eng)
    c = eng.or_company
    if eng.or_step == STEP_VEHICLES:
        if eng.co_vehicles[c] or not moves:
            moves.append((A.SKIP,))
        return moves
    if eng.or_step != STEP_DIVIDEND:
        moves.append((A.SKIP,))
    return moves


def _choices(eng) -> list[tuple]:
    """The step's actions other than skipping it."""
    step = eng.or_step
    c = eng.or_company
    if step == STEP_LEGACY:
        return _legacy_purchases(eng, c)
    if step == STEP_TRACK:
        return _tile_lays(eng, c) if eng.or_lays_left > 0 else []
    if step == STEP_STATION:
        return _station_sites(eng, c)
    if step == STEP_VEHICLES:
        return _vehicle_purchases(eng, c)
    if step == STEP_DIVIDEND:
        return [(A.PAYOUT,), (A.WITHHOLD,)] if eng.or_plan.revenue > 0 else []
    if step == STEP_SELL_OWN:
        if not eng.rs.operating.company_sells_own:
            return []
        most = min(eng.count_of(c, TREASURY), eng.rs.stock.pool_limit - eng.count_of(c, POOL))
        return [(A.SELL_OWN, k) for k in range(1, most + 1)]
    k = eng.first_cert(c, POOL)
    if eng.rs.operating.company_buys_back and k >= 0 and eng.cert_price(c, k) <= eng.co_cash[c]:
        return [(A.BUY_BACK,)]
    return []


# --- step 0: a legacy from the director ------------------------------------------------
def _legacy_purchases(eng, c: int) -> list[tuple]:
    d = eng.director(c)
    if eng.phase < eng.t.legacy_purchase_phase or d < 0:
        return []
    lo_pct, hi_pct = eng.rs.operating.company_legacy_price_percent
    moves = []
    for l in eng.leg_in_play:
        if eng.leg_player[l] != d or eng.leg_closed[l]:
            continue
        base = eng.t.legacies[l].price
        for price in sorted({base * lo_pct // 100, base, base * hi_pct // 100}):
            if base * lo_pct // 100 <= price <= base * hi_pct // 100 and price <= eng.co_cash[c]:
                moves.append((A.BUY_LEGACY, l, price))
    return moves


# --- step 1: track -----------------------------------------------------------------------
def _tile_lays(eng, c: int) -> list[tuple]:
    return tile_lays_on(eng, c, eng.board, eng.co_cash[c])


def lay_terms(eng, c: int) -> tuple:
    """(tile colours of the phase, terrain discount) that company c's lays are offered on."""
    return eng.t.phases[eng.phase].tiles, sum(a.amount for a in eng.owned_abilities(c, "terrain_discount"))


def tile_lays_on(eng, c: int, board, cash: int) -> list[tuple]:
    """Company c's lays on `board` (the game's, or a copy) paying from `cash`."""
    colours, discount = lay_terms(eng, c)
    lays = _ask_board(eng, board, "tile_lays", eng.t.company_ids[c], colours, cash, discount)
    kind = A.LAY_TILE  # looked up once, not once per lay
    return [(kind, h, tile, rot, cost) for h, tile, rot, cost in lays]


def _ask_board(eng, board, question: str, *args):
    """`board.question(*args)`, remembered for the last question asked: settle() and the
    legal() right after it ask the same one. The key holds the whole map state (tiles,
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
def _station_sites(eng, c: int) -> list[tuple]:
    cid = eng.t.company_ids[c]
    if len(eng.board.stations(cid)) >= eng.station_supply[c]:
        return []
    free = {a.node for a in eng.owned_abilities(c, "free_port")}
    reserve = eng.rs.operating.reserve_home_slots
    moves = []
    for node in _ask_board(eng, eng.board, "station_sites", cid, station_kind(eng, c)):
        if reserve and eng.board.free_slots(node) <= _homes_owed(eng, node):
            continue
        cost = 0 if node in free else eng.rs.operating.station_cost
        if cost <= eng.co_cash[c]:
            moves.append((A.PLACE_STATION, node, cost))
    return moves


def _homes_owed(eng, node: str) -> int:
    """Companies yet to start whose home is `node` (they place their home station on
    starting; minors not in play are closed from the setup)."""
    companies = eng.t.companies
    owed: cython.int = 0
    c: cython.Py_ssize_t
    for c in range(len(companies)):  # a loop, not a generator: this runs for every site
        if companies[c].home == node and not eng.started[c] and not eng.closed[c]:
            owed += 1
    return owed


def station_kind(eng, c: int) -> str:
    return "port" if eng.is_major(c) else "manufactory"


# --- step 3: vehicles ------------------------------------------------------------------
def bank_vehicles(eng) -> list[int]:
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
    next_open = current_sold_out or eng.rs.operating.next_ship_tier == "any_time"
    out = []
    tier: cython.int
    for v in range(len(tiers)):
        if left[v] == 0 or retire[v] <= phase:
            continue
        tier = tiers[v]
        if tier <= phase or (is_ship[v] and tier == phase + 1 and next_open):
            out.append(v)
    return out


def _may_own(eng, c: int, v: int) -> bool:
    return eng.t.vehicles[v].kind in eng.t.companies[c].vehicle_kinds


def bank_price(eng, c: int, v: int) -> int:
    vehicle = eng.t.vehicles[v]
    price = vehicle.price
    for a in eng.owned_abilities(c, "vehicle_discount"):
        if a.kind is None or a.kind == vehicle.kind:
            price -= price * a.percent // 100
    return price


def _vehicle_purchases(eng, c: int) -> list[tuple]:
    t = eng.t
    limit = t.phases[eng.phase].limit
    own = eng.co_vehicles[c]
    ships = eng.ships(c)
    counts = (len(own) - ships, ships)  # indexed by is_ship
    cash = eng.co_cash[c]
    moves = []
    for v in bank_vehicles(eng):
        if not _may_own(eng, c, v):
            continue
        price = bank_price(eng, c, v)
        if price > cash:
            continue
        is_ship = t.vehicle_is_ship[v]
        if counts[is_ship] < limit:
            moves.append((A.BUY_VEHICLE, v, -1, price, -1))
        elif is_ship:  # return one of its ships to make room
            for r in sorted(set(x for x in own if t.vehicle_is_ship[x])):
                moves.append((A.BUY_VEHICLE, v, -1, price, r))
    d = eng.director(c)
    low = eng.rs.operating.vehicle_trade_min_price
    anyone = eng.rs.operating.vehicle_trade == "any_with_consent"
    for s in range(len(t.companies)):
        if s == c or not eng.started[s] or eng.closed[s] or s in eng.declined:
            continue
        seller_director = eng.director(s)
        if seller_director < 0 or (seller_director != d and not anyone):
            continue
        for v in sorted(set(eng.co_vehicles[s])):
            if not _may_own(eng, c, v) or counts[t.vehicle_is_ship[v]] >= limit:
                continue
            for price in sorted({low, t.vehicles[v].price, cash}):
                if low <= price <= cash:
                    moves.append((A.BUY_VEHICLE, v, s, price, -1))
    if not own and not moves:
        forced = _forced_choice(eng, c)
        if forced >= 0:
            moves.append((A.FORCED_BUY, forced, bank_price(eng, c, forced)))
    return moves


def _forced_choice(eng, c: int) -> int:
    """The cheapest vehicle the company may own from the bank (first listed on a tie), or -1."""
    best = -1
    for v in bank_vehicles(eng):
        if _may_own(eng, c, v) and (best < 0 or bank_price(eng, c, v) < bank_price(eng, c, best)):
            best = v
    return best


def _buy(eng, c: int, v: int, seller: int, price: int) -> None:
    eng.co_cash[c] -= price
    if seller < 0:
        eng.bank += price
        if eng.vehicles_left[v] > 0:
            eng.vehicles_left[v] -= 1
    else:
        eng.co_cash[seller] += price
        eng.co_vehicles[seller].remove(v)
    eng.co_vehicles[c].append(v)
    eng.vehicles_bought[c] += 1
    t = eng.t
    if seller < 0 and t.vehicle_is_ship[v] and t.vehicle_phase[v] == eng.phase + 1:
        phases.advance(eng)


def _forced_buy(eng, c: int, v: int, price: int) -> None:
    """The director pays the shortfall, selling certificates if he must; if even that
    cannot cover it, the company goes bankrupt."""
    d = eng.director(c)
    need = price - eng.co_cash[c]
    if d < 0 or (eng.p_cash[d] < need and not _raise_cash(eng.clone(), d, need)):
        eng.place_token(c, *eng.t.market.bankrupt_cell(eng.co_col[c]))
        return
    _raise_cash(eng, d, need)
    eng.p_cash[d] -= need
    eng.co_cash[c] += need
    _buy(eng, c, v, -1, price)


def _raise_cash(eng, p: int, need: int) -> bool:
    """Sell p's certificates (never a Trust Family one), the highest-priced company first,
    until p has `need`; False if he cannot."""
    while eng.p_cash[p] < need:
        best = -1
        for c in range(len(eng.t.companies)):
            if not eng.started[c] or eng.closed[c] or eng.count_of(c, POOL) >= eng.rs.stock.pool_limit:
                continue
            if eng.sellable_cert(c, p) >= 0 and (best < 0 or eng.price(c) > eng.price(best)):
                best = c
        if best < 0:
            return False
        k = eng.sellable_cert(best, p)
        eng.pay_player(p, eng.cert_price(best, k))
        eng.cert_owner[best][k] = POOL
        eng.move(best, "down")
        eng.update_president(best)
    return True


# --- step 4: routes ----------------------------------------------------------------------
def revenue_context(eng, c: int, goods_markers: cython.bint = True) -> RevenueContext:
    """What company c's routes earn besides the map: event and legacy node bonuses, its
    own market markers, and (for reporting, unless `goods_markers` is False) the goods
    markers on each offboard. Without them it is a function of `Game.revenue_key`."""
    t = eng.t
    bonus = dict(eng.node_bonus)
    for a in eng.owned_abilities(c, "revenue_bonus"):
        bonus[a.node] = bonus.get(a.node, 0) + a.amount
    goods = {}
    held = eng.goods
    nc: cython.Py_ssize_t = len(t.companies)
    o: cython.Py_ssize_t
    g: cython.Py_ssize_t
    total: cython.int
    for o in range(len(t.offboards) if goods_markers else 0):
        total = 0
        for g in range(nc):  # a loop, not a generator: this runs for every route plan
            total += held[g][o]
        if total:
            goods[t.offboards[o]] = total
    return RevenueContext(
        epoch=eng.epoch,
        node_bonus=bonus,
        market_markers={t.offboards[o]: n for o, n in enumerate(eng.mmarkers[c]) if n},
        market_bonus=eng.rs.markers.market_bonus,
        goods_markers=goods,
    )


def _run_routes(eng) -> None:
    t = eng.t
    c = eng.or_company
    vehicles = [(t.vehicle_ids[v], t.vehicles[v].kind, t.vehicles[v].range) for v in eng.co_vehicles[c]]
    plan = None
    if vehicles:
        plan = eng.board.best_routes(t.company_ids[c], eng.is_major(c), vehicles, revenue_context(eng, c))
    revenue = plan.revenue if plan is not None else 0
    if plan is not None:
        _pay_goods(eng, plan.goods_reached)
    eng.revenue_total[c] += revenue
    eng.or_plan = plan if revenue > 0 else _NO_REVENUE
    if revenue == 0:
        eng.move(c, "left")


class _NoRevenue:
    revenue = 0
    routes = ()


_NO_REVENUE = _NoRevenue()


def _pay_goods(eng, reached: dict) -> None:
    """Each route reaching an offboard pays every goods marker there to its owner."""
    t = eng.t
    rate = eng.rs.markers.goods_payment[eng.epoch - 1]
    for name, routes in reached.items():
        o = t.offboards.index(name)
        for g in range(len(t.companies)):
            markers = eng.goods[g][o]
            if not markers:
                continue
            if t.companies[g].kind == "minor" and eng.rs.markers.goods_pay_before_merger == "none":
                continue
            eng.pay_company(g, routes * markers * rate)


# --- apply -------------------------------------------------------------------------------
def apply(eng, action: tuple) -> None:
    kind = action[0]
    c = eng.or_company
    if kind == A.SKIP:
        _next_step(eng)
    elif kind == A.BUY_LEGACY:
        l, price = action[1], action[2]
        d = eng.director(c)
        eng.co_cash[c] -= price
        eng.p_cash[d] += price
        eng.leg_player[l] = -1
        eng.leg_company[l] = c
        eng.revenue_version += 1
        _next_step(eng)
        ability = eng.t.legacies[l].ability
        if ability.type == "free_market_marker":
            request_marker(eng, MARKET_MARKER, c, d, ability.count)
    elif kind == A.LAY_TILE:
        eng.board.lay_tile(action[1], action[2], action[3])
        eng.co_cash[c] -= action[4]
        eng.bank += action[4]
        eng.or_lays_left -= 1
    elif kind == A.PLACE_STATION:
        eng.board.place_station(eng.t.company_ids[c], action[1], station_kind(eng, c))
        eng.co_cash[c] -= action[2]
        eng.bank += action[2]
        _next_step(eng)
    elif kind == A.BUY_VEHICLE:
        seller = action[2]
        if seller >= 0 and eng.director(seller) != eng.director(c):
            eng.offer = [c, action[1], seller, action[3]]  # the seller's director must agree
            return
        if action[4] >= 0:
            eng.co_vehicles[c].remove(action[4])
        _buy(eng, c, action[1], seller, action[3])
    elif kind == A.ACCEPT_OFFER:
        _, v, seller, price = eng.offer
        eng.offer = []
        _buy(eng, c, v, seller, price)
    elif kind == A.DECLINE_OFFER:
        eng.declined.append(eng.offer[2])  # one refusal per seller and turn keeps it finite
        eng.offer = []
    elif kind == A.FORCED_BUY:
        _forced_buy(eng, c, action[1], action[2])
        if not eng.co_vehicles[c]:
            _next_step(eng)
    elif kind == A.PAYOUT:
        _pay_out(eng, c, eng.or_plan.revenue)
        _next_step(eng)
    elif kind == A.WITHHOLD:
        eng.pay_company(c, eng.or_plan.revenue)
        eng.move(c, "left")
        _next_step(eng)
    elif kind == A.SELL_OWN:
        _sell_own(eng, c, action[1])
        _next_step(eng)
    else:  # BUY_BACK
        k = eng.first_cert(c, POOL)
        price = eng.cert_price(c, k)
        eng.co_cash[c] -= price
        eng.bank += price
        eng.cert_owner[c][k] = TREASURY


def _sell_own(eng, c: int, count: int) -> None:
    """Step 6 (RULES.md §5): `count` certificates from the treasury to the Exchange, all
    at the current value; only then the price falls one cell per certificate."""
    proceeds = 0
    for _ in range(count):
        k = eng.first_cert(c, TREASURY)
        proceeds += eng.cert_price(c, k)
        eng.cert_owner[c][k] = POOL
        _count_marked_sale(eng, c, k)
    eng.pay_company(c, proceeds)
    for _ in range(count):
        eng.move(c, "down")


def _count_marked_sale(eng, c: int, k: int) -> None:
    """A certificate sold to the Exchange by its company has left the treasury: if it was
    one of the marked ones its marker is lost (nobody bought it from the company)."""
    if eng.cert_left[c][k]:
        return
    eng.cert_left[c][k] = True
    co = eng.t.companies[c]
    if co.kind == "major" and eng.marked_sold[c] < co.marked:
        eng.marked_sold[c] += 1


def _pay_out(eng, c: int, revenue: int) -> None:
    t = eng.t
    per_unit = revenue // eng.rs.operating.dividend_unit
    certs = t.companies[c].certificates
    paid = 0
    for k in range(len(certs)):
        owner = eng.cert_owner[c][k]
        amount = per_unit * (certs[k] // t.share_unit)
        if owner < eng.n:
            eng.pay_player(owner, amount)
        elif owner == TREASURY or (owner == POOL and eng.rs.operating.pool_dividends == "company"):
            eng.pay_company(c, amount)
        else:
            continue
        paid += amount
    eng.dividends_paid[c] += paid
    if revenue >= eng.price(c):
        eng.move(c, "right")
