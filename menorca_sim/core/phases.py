"""Phases as fleet states (RULES.md §4): a new phase retires vehicles and may lower the
fleet limit (companies then discard down); a new epoch may close the legacies and, at
RADM's formation epoch, merges the two minors in play (§3)."""
from __future__ import annotations

import cython

from menorca_sim.core import actions as A
from menorca_sim.core.codes import BOX, POOL, TREASURY


def advance(eng) -> None:
    """The first vehicle of the next tier was bought: enter the next phase."""
    eng.phase += 1
    eng.revenue_version += 1
    t = eng.t
    for v in range(len(t.vehicles)):
        if t.vehicle_retire[v] <= eng.phase:
            eng.vehicles_left[v] = 0
    for c in range(len(t.companies)):
        eng.co_vehicles[c] = [v for v in eng.co_vehicles[c] if t.vehicle_retire[v] > eng.phase]
    epoch = t.phases[eng.phase].epoch
    if epoch != eng.epoch:
        eng.begin_epoch(epoch)


def _over_limit_kind(eng, c: int) -> int:
    """-1, or 1 when c holds too many ships, 0 when too many carts."""
    limit: cython.int = eng.t.phases[eng.phase].limit
    ships: cython.int = eng.ships(c)
    if ships > limit:
        return 1
    return 0 if len(eng.co_vehicles[c]) - ships > limit else -1


def company_to_discard(eng) -> int:
    """The first company above its fleet limit (its director must discard), or -1."""
    # asked several times per action: only a fleet longer than the limit (at least 1) can
    # be above it in ships or in carts
    limit: cython.int = eng.t.phases[eng.phase].limit
    fleets = eng.co_vehicles
    c: cython.Py_ssize_t
    for c in range(len(eng.t.companies)):
        if len(fleets[c]) > limit and _over_limit_kind(eng, c) >= 0:
            return c
    return -1


def discard_actions(eng, c: int) -> list[tuple]:
    ship = _over_limit_kind(eng, c) == 1
    kinds = sorted(set(v for v in eng.co_vehicles[c] if eng.t.vehicle_is_ship[v] == ship))
    return [(A.DISCARD, v) for v in kinds]


def discard(eng, c: int, v: int) -> None:
    """The discarded vehicle leaves the game."""
    eng.co_vehicles[c].remove(v)


def close_legacies(eng, epoch: int) -> None:
    """Close the legacies whose closing epoch begins now; epoch 0 (an event) closes all."""
    for l in eng.leg_in_play:
        if epoch == 0 or eng.t.legacies[l].close_epoch == epoch:
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
    elif eng.rs.merger.no_minor_started == "form_unowned":
        _form_unowned_radm(eng, r, minors)
    for m in minors:
        eng.closed[m] = True
        eng.co_cash[m] = 0
        eng.co_vehicles[m] = []
        eng.goods[m] = [0] * len(t.offboards)
        eng.goods_left[m] = 0
        for k in range(len(eng.cert_owner[m])):
            eng.cert_owner[m][k] = BOX


def _form_radm(eng, r: int, minors: list[int], live: list[int]) -> None:
    t = eng.t
    rid = t.company_ids[r]
    j = 0
    for m in minors:
        for k in range(len(eng.cert_owner[m])):
            owner = eng.cert_owner[m][k]
            if m not in live:
                owner = TREASURY if eng.rs.merger.unstarted_minor == "join" else BOX
            eng.cert_owner[r][j] = owner
            eng.cert_left[r][j] = owner != TREASURY
            j += 1
    # The rules convert players' and treasury certificates; the Exchange's ones stay in
    # the Exchange as far as its limit allows, the rest go to RADM's treasury.
    for k in range(len(eng.cert_owner[r]) - 1, -1, -1):
        if eng.count_of(r, POOL) <= eng.rs.stock.pool_limit:
            break
        if eng.cert_owner[r][k] == POOL:
            eng.cert_owner[r][k] = TREASURY
    higher = max(live, key=lambda m: (eng.price(m), -m))
    row, col = _merged_cell(eng, live, higher)
    eng.started[r] = True
    eng.co_par[r] = t.market.value(row, col)
    eng.place_token(r, row, col)
    for m in live:
        eng.co_cash[r] += eng.co_cash[m]
        eng.co_vehicles[r].extend(eng.co_vehicles[m])
        for o in range(len(t.offboards)):
            eng.goods[r][o] += eng.goods[m][o]
        eng.station_supply[r] += len(eng.board.stations(t.company_ids[m]))
        eng.board.replace_company(t.company_ids[m], rid)
        for l in eng.leg_in_play:
            if eng.leg_company[l] == m:
                eng.leg_company[l] = r
    joined = eng.rs.merger.unstarted_minor == "join"
    _inherit_goods_supply(eng, r, [m for m in minors if m in live or joined])
    eng.president[r] = eng.president[higher]
    eng.update_president(r)
    if eng.round == "operating":
        eng.operated_this_or[r] = any(eng.operated_this_or[m] for m in minors)


def _merged_cell(eng, live: list[int], higher: int) -> tuple[int, int]:
    """RADM's cell by `merger.price`: `sum` keeps the value merged (each minor 20 % at v
    becomes one 10 % at about the sum, twice v where one minor was started); `average`
    is the minors' average in the higher minor's row (every stake halves)."""
    t = eng.t
    values = [eng.price(m) for m in live]
    if eng.rs.merger.price == "average":
        return t.market.floor_in_row(eng.co_row[higher], sum(values) // len(values))
    target = sum(values) if len(values) > 1 else 2 * values[0]
    return t.market.nearest_cell(target, eng.co_row[higher])


def _form_unowned_radm(eng, r: int, minors: list[int]) -> None:
    """Neither minor was started: RADM's certificates all wait in its treasury, its value
    the minors' par, its manufactories at both minors' homes; it operates once a player
    buys a certificate (RULES.md §3, `merger.no_minor_started = "form_unowned"`)."""
    t = eng.t
    m = t.market
    pars = [t.companies[c].par for c in minors]
    row, col = m.nearest_cell(sum(pars) // len(pars), m.par_cell(pars[0])[0])
    for k in range(len(eng.cert_owner[r])):
        eng.cert_owner[r][k] = TREASURY
        eng.cert_left[r][k] = False
    eng.started[r] = True
    eng.co_par[r] = m.value(row, col)
    eng.place_token(r, row, col)
    rid = t.company_ids[r]
    for c in minors:
        home = t.companies[c].home
        if eng.board.free_slots(home) > 0:
            eng.board.place_station(rid, home, "manufactory")
    _inherit_goods_supply(eng, r, minors)


def _inherit_goods_supply(eng, r: int, minors: list[int]) -> None:
    """The goods markers the merged minors had not placed become RADM's: a minor
    certificate would have brought one on its first sale, and the RADM certificate it
    became does (stock._first_sale_markers)."""
    for m in minors:
        eng.goods_left[r] += eng.goods_left[m]
