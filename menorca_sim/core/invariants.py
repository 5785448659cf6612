"""Invariant checks run after every action when a game is played with check=True:
money is conserved, shares add up, holdings and pools respect their limits, fleets
their limits, price tokens sit on market cells."""
from __future__ import annotations

from menorca_sim.core.codes import BOX, POOL, TREASURY
from menorca_sim.core.phases import company_to_discard


def holdings(eng) -> tuple[list[bool], list[tuple[int, list[int], list[int]]]]:
    """Companies started, and per player: certificates counting toward his limit,
    certificates held and percent held per company."""
    nc = len(eng.t.companies)
    return (list(eng.started),
            [(eng.cert_count(p), [eng.count_of(c, p) for c in range(nc)],
              [eng.percent(c, p) for c in range(nc)]) for p in range(eng.n)])


def violations(eng, before: tuple) -> list[str]:
    """What is wrong with the state after an action (empty when all is well); `before` is
    holdings() from before the action, to tell an acquisition from a price move."""
    t = eng.t
    out = []
    if eng.money_total() != eng.start_value:
        out.append(f"money not conserved: {eng.money_total()} != {eng.start_value}")
    limit = eng.rs.stock.holding_limit
    for c in range(len(t.companies)):
        held = sum(eng.percent(c, o) for o in list(range(eng.n)) + [TREASURY, POOL, BOX])
        if held != 100:
            out.append(f"{t.company_ids[c]}: shares sum to {held} %")
        if eng.count_of(c, POOL) > eng.rs.stock.pool_limit:
            out.append(f"{t.company_ids[c]}: {eng.count_of(c, POOL)} certificates in the pool")
        if eng.started[c] and not t.market.exists(eng.co_row[c], eng.co_col[c]):
            out.append(f"{t.company_ids[c]}: price token off the market")
        if eng.co_cash[c] < 0:
            out.append(f"{t.company_ids[c]}: negative cash")
    started_before, before_held = before
    now = holdings(eng)[1]
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
    if company_to_discard(eng) < 0:
        cap = t.phases[eng.phase].limit
        for c in range(len(t.companies)):
            ships = sum(1 for v in eng.co_vehicles[c] if t.vehicle_is_ship[v])
            if ships > cap or len(eng.co_vehicles[c]) - ships > cap:
                out.append(f"{t.company_ids[c]}: fleet over the limit of {cap}")
    return out


def _yellow(eng, c: int) -> bool:
    return eng.started[c] and eng.t.market.yellow(eng.co_row[c], eng.co_col[c])
