"""Operating rounds (RULES.md §5): legacy income, then each operating company in market
order does: buy a legacy from its director, lay track, place a station, buy vehicles,
run routes (automatic, through the Board) and pay or withhold, sell its own
certificates, buy them back. A step with nothing to decide passes by itself. Its own
fields are an OperatingState; `settle` reports when the OR is over (the Engine decides what
follows: another OR of the set, a stock round, or the end)."""
from __future__ import annotations

from array import array

import cython

from menorca_sim.core import phases, stock
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


class OperatingState:
    """An operating round's own fields (operating.pxd comments each)."""

    def __init__(self, companies: cython.int) -> None:
        # zero until the first OR, as the compiled fields start (a copy reads them)
        self.company = -1
        self.step = self.lays_left = self.in_set = self.set_length = 0
        self.sold_own = False
        self.plan = None
        self.offer = []  # a vehicle sale awaiting the seller's consent: buyer, vehicle, seller, price
        self.declined = []  # sellers that refused the operating company this turn
        self.operated_this_or = array("i", bytes(4 * companies))

    def copy(self) -> OperatingState:
        """An independent copy (`plan` is never changed in place: shared)."""
        new: OperatingState = OperatingState.__new__(OperatingState)
        new.company, new.step, new.lays_left, new.sold_own = self.company, self.step, self.lays_left, self.sold_own
        new.in_set, new.set_length, new.plan = self.in_set, self.set_length, self.plan
        new.offer, new.declined = list(self.offer), list(self.declined)
        new.operated_this_or = self.operated_this_or.copy() if cython.compiled else array("i", self.operated_this_or)
        return new


def begin_or(s, o: OperatingState, m: Placement) -> cython.bint:
    """An OR begins: legacy income, then its automatic parts (`settle`); whether it is over already."""
    o.in_set += 1
    c: cython.int
    for c in range(s.t.nc):
        o.operated_this_or[c] = False
    o.company = -1
    income: cython.int
    for l in s.leg_in_play:
        if s.leg_closed[l]:
            continue
        income = s.t.leg_income_each[l]
        if s.leg_player[l] >= 0:
            s.pay_player(s.leg_player[l], income)
        elif s.leg_company[l] >= 0:
            s.pay_company(s.leg_company[l], income)
        else:
            continue
        s.leg_income[l] += income
    return settle(s, o, m)


def decision(o: OperatingState) -> str:
    return "consent_vehicle_sale" if o.offer else STEP_NAMES[o.step]


def actor(s, o: OperatingState) -> tuple:
    """(seat deciding, company): the operating company's director, or the director of a
    company asked to sell it a vehicle."""
    c: cython.int = o.offer[2] if o.offer else o.company
    return (s.director(c), c)


def next_company(s, o: OperatingState) -> cython.int:
    """Highest market value first; ties: further right, then higher, then first to arrive."""
    best: cython.int = -1
    c: cython.int
    for c in range(s.t.nc):
        if o.operated_this_or[c] or not s.operates(c):
            continue
        if best < 0 or _operates_before(s, c, best):
            best = c
    return best


def _operates_before(s, c: cython.int, d: cython.int) -> cython.bint:
    """Does c operate before d: (value, column, -row, -arrival) greater?"""
    if s.price(c) != s.price(d):
        return s.price(c) > s.price(d)
    if s.co_col[c] != s.co_col[d]:
        return s.co_col[c] > s.co_col[d]
    if s.co_row[c] != s.co_row[d]:
        return s.co_row[c] < s.co_row[d]
    return s.co_arrival[c] < s.co_arrival[d]


def settle(s, o: OperatingState, m: Placement) -> cython.bint:
    """Run the automatic parts of the round until a decision is pending or the OR ends;
    whether it has ended (every company has operated)."""
    while s.stage == OPERATING and m.kind == NO_MARKER and not o.offer \
            and phases.company_to_discard(s) < 0:
        if o.company < 0:
            c = next_company(s, o)
            if c < 0:
                return True
            _start_turn(s, o, c)
        if o.step == STEP_DIVIDEND and o.plan is None:
            _run_routes(s, o)
        if _choices(s, o):
            return False
        _next_step(s, o)
    return False


def _start_turn(s, o: OperatingState, c: cython.int) -> None:
    o.company = c
    o.operated_this_or[c] = True
    s.operated[c] = True
    o.step = STEP_LEGACY
    lays: cython.int = s.t.tile_lays
    for l in s.owned_legacies(c, AB_EXTRA_TILE_LAY):
        lays = max(lays, s.t.ab_tiles[l])
    o.lays_left = lays
    o.sold_own = False
    o.plan = None
    o.declined = []


def _next_step(s, o: OperatingState) -> None:
    o.plan = None
    s.choices_ready = False
    if o.step == STEP_BUY_BACK:
        o.company = -1
    else:
        o.step += 1


def legal(s, o: OperatingState) -> None:
    """The step's legal actions into the engine's moves: its choices (those `settle` has
    just written for this state, if it has), then skipping it where that is allowed."""
    if o.offer:
        s.begin_moves()
        s.add_move(ACCEPT_OFFER)
        s.add_move(DECLINE_OFFER)
        return
    if not s.choices_ready:
        _choices(s, o)
    s.choices_ready = False  # the moves now hold more than the choices
    if o.step == STEP_VEHICLES:
        if s.co_vehicles[o.company] or not s.n_moves:
            s.add_move(SKIP)
    elif o.step != STEP_DIVIDEND:
        s.add_move(SKIP)


def _choices(s, o: OperatingState) -> cython.int:
    """The step's actions other than skipping it, written anew into the engine's moves and
    kept there for `legal` while this state lasts; how many."""
    t = s.t
    step: cython.int = o.step
    c: cython.int = o.company
    k: cython.int
    most: cython.int
    s.begin_moves()
    if step == STEP_LEGACY:
        _legacy_purchases(s, c)
    elif step == STEP_TRACK:
        if o.lays_left > 0:
            _tile_lays(s, c)
    elif step == STEP_STATION:
        _station_sites(s, c)
    elif step == STEP_VEHICLES:
        _vehicle_purchases(s, o, c)
    elif step == STEP_DIVIDEND:
        if o.plan.revenue > 0:
            s.add_move(PAYOUT)
            s.add_move(WITHHOLD)
    elif step == STEP_SELL_OWN:
        if t.sells_own:
            most = min(s.count_of(c, TREASURY), t.pool_limit - s.count_of(c, POOL))
            for k in range(1, most + 1):
                s.add_move(SELL_OWN, k)
    else:
        k = s.first_cert(c, POOL)
        if t.buys_back and k >= 0 and s.cert_price(c, k) <= s.co_cash[c] \
                and not (t.no_buy_back_after_sale and o.sold_own):
            s.add_move(BUY_BACK)
    s.choices_ready = True
    return s.n_moves


# --- step 0: a legacy from the director ------------------------------------------------
def _legacy_purchases(s, c: cython.int) -> None:
    t = s.t
    d: cython.int = s.director(c)
    if s.phase < t.legacy_purchase_phase or d < 0:
        return
    lo_pct: cython.int = t.legacy_lo_pct
    hi_pct: cython.int = t.legacy_hi_pct
    base: cython.int
    for l in s.leg_in_play:
        if s.leg_player[l] != d or s.leg_closed[l]:
            continue
        base = t.leg_min_price[l]
        for price in sorted({base * lo_pct // 100, base, base * hi_pct // 100}):
            if base * lo_pct // 100 <= price <= base * hi_pct // 100 and price <= s.co_cash[c]:
                s.add_move(BUY_LEGACY, l, price)


# --- step 1: track -----------------------------------------------------------------------
def _tile_lays(s, c: cython.int) -> None:
    h: cython.int
    tile: cython.int
    rot: cython.int
    cost: cython.int
    for h, tile, rot, cost in _lays_on(s, c, s.board, s.co_cash[c]):
        s.add_move(LAY_TILE, h, tile, rot, cost)


def lay_terms(s, c: cython.int) -> tuple:
    """(tile colours of the phase, terrain discount) that company c's lays are offered on."""
    discount: cython.int = 0
    for l in s.owned_legacies(c, AB_TERRAIN_DISCOUNT):
        discount += s.t.ab_amount[l]
    return s.t.phases[s.phase].tiles, discount


def _lays_on(s, c: cython.int, board, cash: cython.int) -> list:
    """Company c's lays on `board` (the game's, or a copy) paying from `cash`, as
    (land hex, tile, rotation, cost) indices."""
    colours, discount = lay_terms(s, c)
    return _ask_board(s, board, "_tile_lays", (c, colours, cash, discount))


def tile_lays_on(s, c: cython.int, board, cash: cython.int) -> list:
    """`_lays_on` as action tuples (the map's hexes and tiles by name)."""
    mt = board.tables
    land, tile_ids = mt.land, mt.tile_ids
    return [(LAY_TILE, land[h], tile_ids[tile], rot, cost) for h, tile, rot, cost in _lays_on(s, c, board, cash)]


def _ask_board(s, board, question: str, args: tuple):
    """`board.question(*args)`, remembered for the last question asked: the players ask
    again for the lays the engine has just found (`Game.next_lays` with no lays done), and
    so do copies of the game (which keep the memo). The key holds the whole map state (tiles,
    rotations, manifest, stations), so an answer is never reused for a changed map, however
    it changed (the board's version stands for it). The answer may be shared (by clones
    too): read it, never change it. A what-if copy of the board (a player's question) is
    asked directly: it is asked once, and would only push out the answer for the game's
    own board."""
    if board is not s.board:
        return getattr(board, question)(*args)
    key = (question, args, board.version)
    if s.board_memo[0] != key:
        s.board_memo = (key, getattr(board, question)(*args))
    return s.board_memo[1]


# --- step 2: a port or manufactory -----------------------------------------------------
def _station_sites(s, c: cython.int) -> None:
    t = s.t
    if len(s.board.stations(t.company_ids[c])) >= s.station_supply[c]:
        return
    free = [t.ab_node_index[l] for l in s.owned_legacies(c, AB_FREE_PORT)]
    reserve: cython.bint = t.reserve_home_slots
    cost: cython.int
    n: cython.int
    for n in _ask_board(s, s.board, "_station_sites", (c, PORT if s.is_major(c) else MANUFACTORY)):
        if reserve and s.board._free_slots(n) <= _homes_owed(s, n):
            continue
        cost = 0 if n in free else t.station_cost
        if cost <= s.co_cash[c]:
            s.add_move(PLACE_STATION, n, cost)


def _homes_owed(s, n: cython.int) -> cython.int:
    """Companies yet to start whose home is node n (they place their home station on
    starting; minors not in play are closed from the setup)."""
    homes = s.t.co_home_node
    owed: cython.int = 0
    c: cython.int
    for c in range(s.t.nc):
        if homes[c] == n and not s.started[c] and not s.closed[c]:
            owed += 1
    return owed


def station_kind(s, c: cython.int) -> str:
    return STATION_KINDS[PORT if s.is_major(c) else MANUFACTORY]


# --- step 3: vehicles ------------------------------------------------------------------
def bank_vehicles(s) -> list:
    """Vehicles the bank sells now: ships of the tiers in play (and the next tier once the
    current one is sold out, or at any time by option), carts from their first phase."""
    t = s.t
    phase: cython.int = s.phase
    left = s.vehicles_left
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


def bank_price(s, c: cython.int, v: cython.int) -> cython.int:
    t = s.t
    price: cython.int = t.veh_price[v]
    kind: cython.int
    for l in s.owned_legacies(c, AB_VEHICLE_DISCOUNT):
        kind = t.ab_vehicle_kind[l]
        if kind < 0 or kind == t.vehicle_is_ship[v]:
            price -= price * t.ab_percent[l] // 100
    return price


def _vehicle_purchases(s, o: OperatingState, c: cython.int) -> None:
    t = s.t
    limit: cython.int = t.phase_limit[s.phase]
    own = s.co_vehicles[c]
    ships: cython.int = s.n_ships[c]
    carts: cython.int = len(own) - ships
    cash: cython.int = s.co_cash[c]
    price: cython.int
    is_ship: cython.int
    before: cython.int = s.n_moves
    for v in bank_vehicles(s):
        if not t.may_own[c][v]:
            continue
        price = bank_price(s, c, v)
        if price > cash:
            continue
        is_ship = t.vehicle_is_ship[v]
        if (ships if is_ship else carts) < limit:
            s.add_move(BUY_VEHICLE, v, -1, price, -1)
        elif is_ship:  # return one of its ships to make room
            for r in sorted({x for x in own if t.vehicle_is_ship[x]}):
                s.add_move(BUY_VEHICLE, v, -1, price, r)
    d: cython.int = s.director(c)
    low: cython.int = t.trade_min_price
    anyone: cython.bint = t.trade_any
    seller: cython.int
    seller_director: cython.int
    for seller in range(t.nc):
        if seller == c or not s.started[seller] or s.closed[seller] or seller in o.declined:
            continue
        seller_director = s.director(seller)
        if seller_director < 0 or (seller_director != d and not anyone):
            continue
        for v in sorted(set(s.co_vehicles[seller])):
            if not t.may_own[c][v] or (ships if t.vehicle_is_ship[v] else carts) >= limit:
                continue
            for price in sorted({low, t.veh_price[v], cash}):
                if low <= price <= cash:
                    s.add_move(BUY_VEHICLE, v, seller, price, -1)
    if not own and s.n_moves == before:
        forced = _forced_choice(s, c)
        if forced >= 0:
            s.add_move(FORCED_BUY, forced, bank_price(s, c, forced))


def _forced_choice(s, c: cython.int) -> cython.int:
    """The cheapest vehicle the company may own from the bank (first listed on a tie), or -1."""
    best: cython.int = -1
    for v in bank_vehicles(s):
        if s.t.may_own[c][v] and (best < 0 or bank_price(s, c, v) < bank_price(s, c, best)):
            best = v
    return best


def _buy(s, o: OperatingState, c: cython.int, v: cython.int, seller: cython.int, price: cython.int) -> None:
    s.co_cash[c] -= price
    if seller < 0:
        s.bank += price
        if s.vehicles_left[v] > 0:
            s.vehicles_left[v] -= 1
    else:
        s.co_cash[seller] += price
        s.remove_vehicle(seller, v)
    s.add_vehicle(c, v)
    s.vehicles_bought[c] += 1
    t = s.t
    if seller < 0 and t.vehicle_is_ship[v] and t.vehicle_phase[v] == s.phase + 1:
        phases.advance(s, o.operated_this_or)


def _forced_buy(s, o: OperatingState, c: cython.int, v: cython.int, price: cython.int) -> None:
    """The director pays the shortfall, selling certificates if he must; if even that
    cannot cover it, the company goes bankrupt."""
    d = s.director(c)
    need = price - s.co_cash[c]
    if d < 0 or (s.p_cash[d] < need and not _raise_cash(s.copy_shared(), d, need)):
        row, col = s.t.market.bankrupt_cell(s.co_col[c])
        s.place_token(c, row, col)
        return
    _raise_cash(s, d, need)
    s.p_cash[d] -= need
    s.co_cash[c] += need
    _buy(s, o, c, v, -1, price)


def _raise_cash(s, p: cython.int, need: cython.int) -> cython.bint:
    """Sell p's certificates (never a Trust Family one), the highest-priced company first,
    until p has `need`; False if he cannot."""
    while s.p_cash[p] < need:
        best = -1
        for c in range(s.t.nc):
            if not s.started[c] or s.closed[c] or s.count_of(c, POOL) >= s.t.pool_limit:
                continue
            if s.sellable_cert(c, p) >= 0 and (best < 0 or s.price(c) > s.price(best)):
                best = c
        if best < 0:
            return False
        k = s.sellable_cert(best, p)
        s.pay_player(p, s.cert_price(best, k))
        s.set_owner(best, k, POOL)
        s.move(best, DOWN)
        s.update_president(best)
    return True


# --- step 4: routes ----------------------------------------------------------------------
def _run_routes(s, o: OperatingState) -> None:
    t = s.t
    c = o.company
    vehicles = [t.route_vehicle[v] for v in s.co_vehicles[c]]
    plan = None
    if vehicles:
        ctx = context.revenue_context(s, c)
        plan = routes.best_routes(s.board, t.company_ids[c], s.is_major(c), vehicles, ctx)
    revenue = plan.revenue if plan is not None else 0
    if plan is not None:
        _pay_goods(s, plan.goods_reached)
    s.revenue_total[c] += revenue
    o.plan = plan if revenue > 0 else _NO_REVENUE
    if revenue == 0:
        s.move(c, LEFT)


class _NoRevenue:
    revenue = 0
    routes = ()


_NO_REVENUE = _NoRevenue()


def _pay_goods(s, reached: dict) -> None:
    """Each route reaching an offboard pays every goods marker there to its owner."""
    t = s.t
    rate: cython.int = t.goods_payment[s.epoch - 1]
    markers: cython.int
    g: cython.int
    for name, routes in reached.items():
        o = t.offboards.index(name)
        for g in range(t.nc):
            markers = s.goods[g][o]
            if not markers:
                continue
            if t.co_kind[g] == MINOR and t.goods_skip_minors:
                continue
            s.pay_company(g, routes * markers * rate)


# --- apply -------------------------------------------------------------------------------
def apply(s, o: OperatingState, m: Placement, action: tuple) -> None:
    kind: cython.int = action[0]
    c: cython.int = o.company
    if kind == SKIP:
        _next_step(s, o)
    elif kind == BUY_LEGACY:
        l, price = action[1], action[2]
        d = s.director(c)
        s.co_cash[c] -= price
        s.p_cash[d] += price
        s.leg_player[l] = -1
        s.leg_company[l] = c
        s.revenue_version += 1
        _next_step(s, o)
        if s.t.ability[l] == AB_FREE_MARKET_MARKER:
            stock.request_marker(s, m, MARKET_MARKER, c, d, s.t.ab_count[l])
    elif kind == LAY_TILE:
        s.board.lay_tile(action[1], action[2], action[3])
        s.co_cash[c] -= action[4]
        s.bank += action[4]
        o.lays_left -= 1
    elif kind == PLACE_STATION:
        s.board.place_station(s.t.company_ids[c], action[1], station_kind(s, c))
        s.co_cash[c] -= action[2]
        s.bank += action[2]
        _next_step(s, o)
    elif kind == BUY_VEHICLE:
        seller = action[2]
        if seller >= 0 and s.director(seller) != s.director(c):
            o.offer = [c, action[1], seller, action[3]]  # the seller's director must agree
            return
        if action[4] >= 0:
            s.remove_vehicle(c, action[4])
        _buy(s, o, c, action[1], seller, action[3])
    elif kind == ACCEPT_OFFER:
        _, v, seller, price = o.offer
        o.offer = []
        _buy(s, o, c, v, seller, price)
    elif kind == DECLINE_OFFER:
        o.declined.append(o.offer[2])  # one refusal per seller and turn keeps it finite
        o.offer = []
    elif kind == FORCED_BUY:
        _forced_buy(s, o, c, action[1], action[2])
        if not s.co_vehicles[c]:
            _next_step(s, o)
    elif kind == PAYOUT:
        _pay_out(s, c, o.plan.revenue)
        _next_step(s, o)
    elif kind == WITHHOLD:
        s.pay_company(c, o.plan.revenue)
        s.move(c, LEFT)
        _next_step(s, o)
    elif kind == SELL_OWN:
        _sell_own(s, o, c, action[1])
        _next_step(s, o)
    else:  # BUY_BACK
        k = s.first_cert(c, POOL)
        price = s.cert_price(c, k)
        s.co_cash[c] -= price
        s.bank += price
        s.set_owner(c, k, TREASURY)


def _sell_own(s, o: OperatingState, c: cython.int, count: cython.int) -> None:
    """Step 6 (RULES.md §5): `count` certificates from the treasury to the Exchange, all
    at the current value; only then the price falls one cell per certificate."""
    proceeds = 0
    for _ in range(count):
        k = s.first_cert(c, TREASURY)
        proceeds += s.cert_price(c, k)
        s.set_owner(c, k, POOL)
        _count_marked_sale(s, c, k)
    s.pay_company(c, proceeds)
    o.sold_own = True
    for _ in range(count):
        s.move(c, DOWN)


def _count_marked_sale(s, c: cython.int, k: cython.int) -> None:
    """A certificate sold to the Exchange by its company has left the treasury: if it was
    one of the marked ones its marker is lost (nobody bought it from the company)."""
    if s.cert_left[c][k]:
        return
    s.cert_left[c][k] = True
    if s.is_major(c) and s.marked_sold[c] < s.t.co_marked[c]:
        s.marked_sold[c] += 1


def _pay_out(s, c: cython.int, revenue: cython.int) -> None:
    t = s.t
    per_unit: cython.int = revenue // t.dividend_unit
    paid: cython.int = 0
    owner: cython.int
    amount: cython.int
    k: cython.int
    for k in range(t.co_certs[c]):
        owner = s.cert_owner[c][k]
        amount = per_unit * (t.cert_pct[c][k] // t.share_unit)
        if owner < s.n:
            s.pay_player(owner, amount)
        elif owner == TREASURY or (owner == POOL and t.pool_pays_company):
            s.pay_company(c, amount)
        else:
            continue
        paid += amount
    s.dividends_paid[c] += paid
    if revenue >= s.price(c):
        s.move(c, RIGHT)
