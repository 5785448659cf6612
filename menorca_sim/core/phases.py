"""Phases as fleet states (RULES.md §4): a new phase retires vehicles and may lower the
fleet limit (companies then discard down); a new epoch may close the legacies and, at
RADM's formation epoch, merges the two minors in play (§3)."""
from __future__ import annotations

import cython

if not cython.compiled:
    from menorca_sim.core.codes import BOX, DISCARD, OPERATING, POOL, TREASURY


def advance(eng) -> None:
    """The first vehicle of the next tier was bought: enter the next phase."""
    eng.phase += 1
    eng.revenue_version += 1
    t = eng.t
    v: cython.int
    c: cython.int
    for v in range(t.nv):
        if t.vehicle_retire[v] <= eng.phase:
            eng.vehicles_left[v] = 0
    for c in range(t.nc):
        eng.set_fleet(c, [v for v in eng.co_vehicles[c] if t.vehicle_retire[v] > eng.phase])
    epoch: cython.int = t.phase_epoch[eng.phase]
    if epoch != eng.epoch:
        eng.begin_epoch(epoch)


def _over_limit_kind(eng, c: cython.int) -> cython.int:
    """-1, or 1 when c holds too many ships, 0 when too many carts."""
    limit: cython.int = eng.t.phase_limit[eng.phase]
    ships: cython.int = eng.n_ships[c]
    if ships > limit:
        return 1
    return 0 if len(eng.co_vehicles[c]) - ships > limit else -1


def company_to_discard(eng) -> cython.int:
    """The first company above its fleet limit (its director must discard), or -1."""
    # asked several times per action: only a fleet longer than the limit (at least 1) can
    # be above it in ships or in carts
    limit: cython.int = eng.t.phase_limit[eng.phase]
    fleets = eng.co_vehicles
    c: cython.int
    for c in range(eng.t.nc):
        if len(fleets[c]) > limit and _over_limit_kind(eng, c) >= 0:
            return c
    return -1


def discard_actions(eng, c: cython.int) -> None:
    """Company c's discards (one per vehicle type of the kind over the limit) into the engine's moves."""
    ship: cython.int = _over_limit_kind(eng, c) == 1
    for v in sorted({v for v in eng.co_vehicles[c] if eng.t.vehicle_is_ship[v] == ship}):
        eng.add_move(DISCARD, v)


def discard(eng, c: cython.int, v: cython.int) -> None:
    """The discarded vehicle leaves the game."""
    eng.remove_vehicle(c, v)


def close_legacies(eng, epoch: cython.int) -> None:
    """Close the legacies whose closing epoch begins now; epoch 0 (an event) closes all."""
    for l in eng.leg_in_play:
        if epoch == 0 or eng.t.leg_close[l] == epoch:
            eng.leg_closed[l] = True


def merge_minors(eng) -> None:
    """Form RADM (RULES.md §3, unconditional): each minor certificate becomes one RADM
    certificate with the same owner. Where neither minor was started, the option
    `merger.no_minor_started` forms it unowned or not at all."""
    t = eng.t
    r = t.merged
    minors = eng.minors_in_play
    live = [m for m in minors if eng.started[m] and not eng.closed[m]]
    if live:
        _form_radm(eng, r, minors, live)
    elif t.merger_unowned:
        _form_unowned_radm(eng, r, minors)
    for m in minors:
        eng.closed[m] = True
        eng.co_cash[m] = 0
        eng.set_fleet(m, [])
        for o in range(t.no):
            eng.goods[m][o] = 0
        eng.goods_left[m] = 0
        for k in range(t.co_certs[m]):
            eng.set_owner(m, k, BOX)


def _form_radm(eng, r: cython.int, minors: list, live: list) -> None:
    t = eng.t
    rid = t.company_ids[r]
    j = 0
    for m in minors:
        for k in range(t.co_certs[m]):
            owner = eng.cert_owner[m][k]
            if m not in live:
                owner = TREASURY if t.merger_join else BOX
            eng.set_owner(r, j, owner)
            eng.cert_left[r][j] = owner != TREASURY
            j += 1
    # The rules convert players' and treasury certificates; the Exchange's ones stay in
    # the Exchange as far as its limit allows, the rest go to RADM's treasury.
    for k in range(t.co_certs[r] - 1, -1, -1):
        if eng.count_of(r, POOL) <= t.pool_limit:
            break
        if eng.cert_owner[r][k] == POOL:
            eng.set_owner(r, k, TREASURY)
    higher = max(live, key=lambda m: (eng.price(m), -m))
    row, col = _merged_cell(eng, live, higher)
    eng.started[r] = True
    eng.co_par[r] = t.mk_value[row][col]
    eng.place_token(r, row, col)
    for m in live:
        eng.co_cash[r] += eng.co_cash[m]
        for v in eng.co_vehicles[m]:
            eng.add_vehicle(r, v)
        for o in range(t.no):
            eng.goods[r][o] += eng.goods[m][o]
        eng.station_supply[r] += len(eng.board.stations(t.company_ids[m]))
        eng.board.replace_company(t.company_ids[m], rid)
        for l in eng.leg_in_play:
            if eng.leg_company[l] == m:
                eng.leg_company[l] = r
    joined = t.merger_join
    _inherit_goods_supply(eng, r, [m for m in minors if m in live or joined])
    eng.president[r] = eng.president[higher]
    eng.update_president(r)
    if eng.stage == OPERATING:
        eng.operated_this_or[r] = any(eng.operated_this_or[m] for m in minors)


def _merged_cell(eng, live: list, higher: cython.int) -> tuple:
    """RADM's cell by `merger.price`: `sum` keeps the value merged (each minor 20 % at v
    becomes one 10 % at about the sum, twice v where one minor was started); `average`
    is the minors' average in the higher minor's row (every stake halves)."""
    t = eng.t
    values = [eng.price(m) for m in live]
    if t.merger_average:
        return t.market.floor_in_row(eng.co_row[higher], sum(values) // len(values))
    target = sum(values) if len(values) > 1 else 2 * values[0]
    return t.market.nearest_cell(target, eng.co_row[higher])


def _form_unowned_radm(eng, r: cython.int, minors: list) -> None:
    """Neither minor was started: RADM's certificates all wait in its treasury, its value
    the minors' par, its manufactories at both minors' homes; it operates once a player
    buys a certificate (RULES.md §3, `merger.no_minor_started = "form_unowned"`)."""
    t = eng.t
    m = t.market
    pars = [t.co_fixed_par[c] for c in minors]
    row, col = m.nearest_cell(sum(pars) // len(pars), m.par_cell(pars[0])[0])
    for k in range(t.co_certs[r]):
        eng.set_owner(r, k, TREASURY)
        eng.cert_left[r][k] = False
    eng.started[r] = True
    eng.co_par[r] = t.mk_value[row][col]
    eng.place_token(r, row, col)
    rid = t.company_ids[r]
    for c in minors:
        home = t.co_home[c]
        if eng.board.free_slots(home) > 0:
            eng.board.place_station(rid, home, "manufactory")
    _inherit_goods_supply(eng, r, minors)


def _inherit_goods_supply(eng, r: cython.int, minors: list) -> None:
    """The goods markers the merged minors had not placed become RADM's: a minor
    certificate would have brought one on its first sale, and the RADM certificate it
    became does (stock._first_sale_markers)."""
    for m in minors:
        eng.goods_left[r] += eng.goods_left[m]
