"""Phases as fleet states (RULES.md §4): a new phase retires vehicles and may lower the
fleet limit (companies then discard down); a new epoch may close the legacies and, at
RADM's formation epoch, merges the two minors in play (§3)."""
from __future__ import annotations

import cython

if not cython.compiled:
    from menorca_sim.core.codes import BOX, DISCARD, OPERATING, POOL, SCOPE_SET, TREASURY


def advance(s, operated_this_or) -> None:
    """The first vehicle of the next tier was bought (in an OR: `operated_this_or` marks
    the companies that have operated in it): enter the next phase."""
    s.phase += 1
    s.revenue_version += 1
    t = s.t
    v: cython.int
    c: cython.int
    for v in range(t.nv):
        if t.vehicle_retire[v] <= s.phase:
            s.vehicles_left[v] = 0
    for c in range(t.nc):
        s.set_fleet(c, [v for v in s.co_vehicles[c] if t.vehicle_retire[v] > s.phase])
    epoch: cython.int = t.phase_epoch[s.phase]
    if epoch != s.epoch:
        _begin_epoch(s, operated_this_or, epoch)


def _begin_epoch(s, operated_this_or, epoch: cython.int) -> None:
    """A new epoch: the RADM merger first, then closings, then the event card."""
    s.epoch = epoch
    merged: cython.int = s.t.merged
    if merged >= 0 and s.t.co_formed[merged] == epoch:
        merge_minors(s, operated_this_or)
    close_legacies(s, epoch)
    reveal_event(s, epoch)


def reveal_event(s, epoch: cython.int) -> None:
    """Once per epoch: the event card's effect (the ruleset's names read here only)."""
    effect = s.rs.events[s.events[epoch - 1]].effect
    if effect.type == "revenue_bonus":
        s.node_bonus[effect.node] = s.node_bonus.get(effect.node, 0) + effect.amount
    elif effect.type == "close_legacies":
        close_legacies(s, 0)
    elif effect.type == "end_after_set":
        s.trigger_end("conquest", SCOPE_SET)


def _over_limit_kind(s, c: cython.int) -> cython.int:
    """-1, or 1 when c holds too many ships, 0 when too many carts."""
    limit: cython.int = s.t.phase_limit[s.phase]
    ships: cython.int = s.n_ships[c]
    if ships > limit:
        return 1
    return 0 if len(s.co_vehicles[c]) - ships > limit else -1


def company_to_discard(s) -> cython.int:
    """The first company above its fleet limit (its director must discard), or -1."""
    # asked several times per action: only a fleet longer than the limit (at least 1) can
    # be above it in ships or in carts
    limit: cython.int = s.t.phase_limit[s.phase]
    fleets = s.co_vehicles
    c: cython.int
    for c in range(s.t.nc):
        if len(fleets[c]) > limit and _over_limit_kind(s, c) >= 0:
            return c
    return -1


def discard_actions(s, c: cython.int) -> None:
    """Company c's discards (one per vehicle type of the kind over the limit) into the engine's moves."""
    ship: cython.int = _over_limit_kind(s, c) == 1
    for v in sorted({v for v in s.co_vehicles[c] if s.t.vehicle_is_ship[v] == ship}):
        s.add_move(DISCARD, v)


def discard(s, c: cython.int, v: cython.int) -> None:
    """The discarded vehicle leaves the game."""
    s.remove_vehicle(c, v)


def close_legacies(s, epoch: cython.int) -> None:
    """Close the legacies whose closing epoch begins now; epoch 0 (an event) closes all."""
    for l in s.leg_in_play:
        if epoch == 0 or s.t.leg_close[l] == epoch:
            s.leg_closed[l] = True


def merge_minors(s, operated_this_or) -> None:
    """Form RADM (RULES.md §3, unconditional): each minor certificate becomes one RADM
    certificate with the same owner. Where neither minor was started, the option
    `merger.no_minor_started` forms it unowned or not at all."""
    t = s.t
    r = t.merged
    minors = s.minors_in_play
    live = [m for m in minors if s.started[m] and not s.closed[m]]
    if live:
        _form_radm(s, operated_this_or, r, minors, live)
    elif t.merger_unowned:
        _form_unowned_radm(s, r, minors)
    for m in minors:
        s.closed[m] = True
        s.co_cash[m] = 0
        s.set_fleet(m, [])
        for o in range(t.no):
            s.goods[m][o] = 0
        s.goods_left[m] = 0
        for k in range(t.co_certs[m]):
            s.set_owner(m, k, BOX)


def _form_radm(s, operated_this_or, r: cython.int, minors: list, live: list) -> None:
    t = s.t
    rid = t.company_ids[r]
    j = 0
    for m in minors:
        for k in range(t.co_certs[m]):
            owner = s.cert_owner[m][k]
            if m not in live:
                owner = TREASURY if t.merger_join else BOX
            s.set_owner(r, j, owner)
            s.cert_left[r][j] = owner != TREASURY
            j += 1
    # The rules convert players' and treasury certificates; the Exchange's ones stay in
    # the Exchange as far as its limit allows, the rest go to RADM's treasury.
    for k in range(t.co_certs[r] - 1, -1, -1):
        if s.count_of(r, POOL) <= t.pool_limit:
            break
        if s.cert_owner[r][k] == POOL:
            s.set_owner(r, k, TREASURY)
    higher = max(live, key=lambda m: (s.price(m), -m))
    row, col = _merged_cell(s, live, higher)
    s.started[r] = True
    s.co_par[r] = t.mk_value[row][col]
    s.place_token(r, row, col)
    for m in live:
        s.co_cash[r] += s.co_cash[m]
        for v in s.co_vehicles[m]:
            s.add_vehicle(r, v)
        for o in range(t.no):
            s.goods[r][o] += s.goods[m][o]
        s.station_supply[r] += len(s.board.stations(t.company_ids[m]))
        s.board.replace_company(t.company_ids[m], rid)
        for l in s.leg_in_play:
            if s.leg_company[l] == m:
                s.leg_company[l] = r
    joined = t.merger_join
    _inherit_goods_supply(s, r, [m for m in minors if m in live or joined])
    s.president[r] = s.president[higher]
    s.update_president(r)
    if s.stage == OPERATING:
        operated_this_or[r] = any(operated_this_or[m] for m in minors)


def _merged_cell(s, live: list, higher: cython.int) -> tuple:
    """RADM's cell by `merger.price`: `sum` keeps the value merged (each minor 20 % at v
    becomes one 10 % at about the sum, twice v where one minor was started); `average`
    is the minors' average in the higher minor's row (every stake halves)."""
    t = s.t
    values = [s.price(m) for m in live]
    if t.merger_average:
        return t.market.floor_in_row(s.co_row[higher], sum(values) // len(values))
    target = sum(values) if len(values) > 1 else 2 * values[0]
    return t.market.nearest_cell(target, s.co_row[higher])


def _form_unowned_radm(s, r: cython.int, minors: list) -> None:
    """Neither minor was started: RADM's certificates all wait in its treasury, its value
    the minors' par, its manufactories at both minors' homes; it operates once a player
    buys a certificate (RULES.md §3, `merger.no_minor_started = "form_unowned"`)."""
    t = s.t
    m = t.market
    pars = [t.co_fixed_par[c] for c in minors]
    row, col = m.nearest_cell(sum(pars) // len(pars), m.par_cell(pars[0])[0])
    for k in range(t.co_certs[r]):
        s.set_owner(r, k, TREASURY)
        s.cert_left[r][k] = False
    s.started[r] = True
    s.co_par[r] = t.mk_value[row][col]
    s.place_token(r, row, col)
    rid = t.company_ids[r]
    for c in minors:
        home = t.co_home[c]
        if s.board.free_slots(home) > 0:
            s.board.place_station(rid, home, "manufactory")
    _inherit_goods_supply(s, r, minors)


def _inherit_goods_supply(s, r: cython.int, minors: list) -> None:
    """The goods markers the merged minors had not placed become RADM's: a minor
    certificate would have brought one on its first sale, and the RADM certificate it
    became does (stock._first_sale_markers)."""
    for m in minors:
        s.goods_left[r] += s.goods_left[m]
