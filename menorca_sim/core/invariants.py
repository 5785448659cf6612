"""Invariant checks run after every action when a game is played with check=True:
money is conserved, shares add up, holdings and pools respect their limits, fleets
their limits, price tokens sit on market cells."""
from __future__ import annotations

from menorca_sim.core.codes import BOX, POOL, TREASURY
from menorca_sim.core.phases import company_to_discard

OTHER_OWNERS = (TREASURY, POOL, BOX)  # their tally slots follow the players' 0..n-1


def tally(eng) -> tuple[list[list[int]], list[list[int]]]:
    """Per company, certificates and percent held by each owner slot (players 0..n-1,
    then treasury, pool, box; the last slot collects owner codes that are none of
    them): one pass over the certificates instead of a scan per owner."""
    n = eng.n
    unknown = n + len(OTHER_OWNERS)
    slots = {owner: n + i for i, owner in enumerate(OTHER_OWNERS)}
    counts, percents = [], []
    for c, company in enumerate(eng.t.companies):
        count = [0] * (unknown + 1)
        percent = [0] * (unknown + 1)
        for owner, share in zip(eng.cert_owner[c], company.certificates):
            slot = owner if 0 <= owner < n else slots.get(owner, unknown)
            count[slot] += 1
            percent[slot] += share
        counts.append(count)
        percents.append(percent)
    return counts, percents


def holdings(eng, tallied: tuple | None = None) -> tuple[list[bool], list[tuple[int, list[int], list[int]]]]:
    """Companies started, and per player: certificates counting toward his limit (not
    those of closed companies or in the orange zone), certificates held and percent held
    per company. `tallied`: tally(eng), when the caller has it already."""
    counts, percents = tallied if tallied is not None else tally(eng)
    counted = [eng.counts_toward_limit(c) for c in range(len(counts))]
    return (list(eng.started),
            [(sum(counts[c][p] for c in range(len(counts)) if counted[c]),
              [count[p] for count in counts], [percent[p] for percent in percents])
             for p in range(eng.n)])


def violations(eng, before: tuple) -> list[str]:
    """What is wrong with the state after an action (empty when all is well); `before` is
    holdings() from before the action, to tell an acquisition from a price move."""
    t = eng.t
    out = []
    if eng.money_total() != eng.start_value:
        out.append(f"money not conserved: {eng.money_total()} != {eng.start_value}")
    limit = eng.rs.stock.holding_limit
    counts, percents = tallied = tally(eng)
    pool = eng.n + OTHER_OWNERS.index(POOL)
    unknown = eng.n + len(OTHER_OWNERS)  # not [-1]: the compiled core has wraparound off
    for c in range(len(t.companies)):
        if counts[c][unknown]:
            out.append(f"{t.company_ids[c]}: {counts[c][unknown]} certificates with an unknown owner")
        held = sum(percents[c])
        if held != 100:
            out.append(f"{t.company_ids[c]}: shares sum to {held} %")
        if counts[c][pool] > eng.rs.stock.pool_limit:
            out.append(f"{t.company_ids[c]}: {counts[c][pool]} certificates in the pool")
        if eng.started[c] and not t.market.exists(eng.co_row[c], eng.co_col[c]):
            out.append(f"{t.company_ids[c]}: price token off the market")
        if eng.co_cash[c] < 0:
            out.append(f"{t.company_ids[c]}: negative cash")
        if _presided_from_outside(eng, c, percents[c]):
            out.append(f"{t.company_ids[c]}: presided by P{eng.president[c] + 1}, who holds none of it")
    started_before, before_held = before
    now = holdings(eng, tallied)[1]
    for p in range(eng.n):
        if eng.p_cash[p] < 0:
            out.append(f"P{p + 1}: negative cash")
        for c in range(len(t.companies)):
            if now[p][1][c] <= before_held[p][1][c]:
                continue
            if t.companies[c].kind == "merged" and not started_before[c]:
                continue  # the merger converts minor certificates, nobody acquires them
            if now[p][0] > eng.cert_limit:
                out.append(f"P{p + 1}: acquired a certificate over the limit ({now[p][0]})")
            if now[p][2][c] > limit and not _yellow(eng, c):
                out.append(f"P{p + 1}: holds {now[p][2][c]} % of {t.company_ids[c]} outside the yellow zone")
    out += _derived(eng, counts, percents)
    if company_to_discard(eng) < 0:
        cap = t.phases[eng.phase].limit
        for c in range(len(t.companies)):
            ships = sum(1 for v in eng.co_vehicles[c] if t.vehicle_is_ship[v])
            if ships > cap or len(eng.co_vehicles[c]) - ships > cap:
                out.append(f"{t.company_ids[c]}: fleet over the limit of {cap}")
    return out


def _presided_from_outside(eng, c: int, percents: list[int]) -> bool:
    """minors.last_certificate = keep: a started minor's president holds some of it
    (he may not sell his last certificate while nobody else could take over)."""
    t = eng.t
    return (t.keep_last_minor_cert and t.companies[c].kind == "minor" and eng.started[c] and not eng.closed[c]
            and eng.president[c] >= 0 and percents[eng.president[c]] == 0)


def _yellow(eng, c: int) -> bool:
    return eng.started[c] and eng.t.market.yellow(eng.co_row[c], eng.co_col[c])


def _derived(eng, counts: list, percents: list) -> list[str]:
    """The counts the engine keeps up to date (certificates and percent per owner, ships
    per fleet) against a count from scratch."""
    t = eng.t
    out = []
    owners = list(range(eng.n)) + list(OTHER_OWNERS)
    for c in range(len(t.companies)):
        kept = [(eng.count_of(c, o), eng.percent(c, o)) for o in owners]
        if kept != [(counts[c][i], percents[c][i]) for i in range(len(owners))]:
            out.append(f"{t.company_ids[c]}: holdings kept as {kept} per owner, counted "
                       f"{list(zip(counts[c], percents[c]))}")
        ships = sum(1 for v in eng.co_vehicles[c] if t.vehicle_is_ship[v])
        if eng.ships(c) != ships:
            out.append(f"{t.company_ids[c]}: {eng.ships(c)} ships kept, {ships} in its fleet")
    return out
