"""The heuristic's decisions for a company it runs, and for markers. Track, stations,
markers and vehicles are judged by the company's best route revenue before and after,
asked of the core's `best_routes` on a copy of the map, or of its `lay_revenues` for
all candidate lays at once (the Game's what-if questions); no rule is re-implemented here."""
from __future__ import annotations

import cython

from menorca_sim.core.codes import FORCED_BUY, PAYOUT, SKIP, WITHHOLD
from menorca_sim.moves import LAY_COST, first_move, station_sites, vehicle_purchases
from policies.base import find_action
from policies.choice import MONEY_SCALE, Chooser
from policies.valuation import DecisionCache

if not cython.compiled:  # compiled, operating_play.pxd cimports them
    from policies.valuation import outlook, surviving, vehicle_shortfall


def _company(game, cache: DecisionCache) -> tuple[str, dict]:
    company = game.operating_company()
    return company, cache.company(game, company)


def _probe_fleet(game, company: str, fleet: list[str]) -> list[str]:
    """Its fleet plus one of each vehicle it could buy now: where its routes are
    heading, to judge track, stations and markers by."""
    return list(fleet) + sorted(set(game.vehicles_for_sale(company)))


def _skip(legal: list[dict]) -> dict:
    last = legal[-1]  # where the engine lists it: no call for the common case
    return last if last["type"] == "skip" else find_action(legal, "skip", last=True)


def lay_tile(game, params, cache: DecisionCache, chooser: Chooser) -> int:
    """The lay whose revenue gain for the probe fleet best repays its cost. A company
    that earns nothing yet (a minor starting out) plans `lookahead` lays ahead: the
    first lay of the best sequence, or, if no sequence earns, the free lay that opens
    the most lays after it (extending its network); none if nothing helps. Read from the
    legal actions as ints (`Game.legal_lays`): a lay is (hex, tile, rotation, cost), as
    the WhatIf takes it; the index of the chosen action is returned."""
    company, info = _company(game, cache)
    fleet = _probe_fleet(game, company, info["vehicles"])
    spare = info["cash"] - vehicle_shortfall(game, company, info)
    at, lays = game.legal_lays(spare)  # the affordable lays' indices among the legal actions, and the lays
    # each lay's revenue gain, in one core call (which searches each vehicle kind again
    # only where a lay may change its routes, and the revenue before them on the way)
    ask = game.whatif
    revenues = ask.lay_revenues(company, fleet, lays)
    base = ask.route_revenue(company, fleet)
    skip = first_move(game, SKIP, last=True)
    horizon = params.horizon  # read once, not per lay
    best = _best_gain(chooser, [skip] + at,
                      [0.0] + [(revenue - base) * horizon - cost for (_, _, _, cost), revenue in zip(lays, revenues)])
    if best != skip or base > 0 or params.lookahead < 2:
        return best
    best_key = (0.0, 0)
    # the company earns nothing (base 0: a lay's revenue is its gain): a lay's gain is what
    # it earns after it; the lays after each lay that earns nothing alone, asked of the core at once
    cache.ask_next_lay_revenues(game, company, fleet, [], [lay for lay, now in zip(lays, revenues) if now == 0])
    for i, lay, now in zip(at, lays, revenues):
        revenue = lookahead_revenue(game, company, fleet, [lay], params.lookahead - 1, cache, now=now)
        cost = lay[LAY_COST]
        key = (revenue * params.horizon - cost,
               len(cache.next_lay_revenues(game, company, fleet, [lay])) if revenue == 0 and cost == 0 else 0)
        if key > best_key:
            best, best_key = i, key
    return best


def lookahead_revenue(game, company: str, fleet: list[str], lays: list[tuple], depth: int,
                      cache: DecisionCache, now: int | None = None) -> int:
    """What `fleet` earns after `lays` (`now`, when the caller knows it), or, while that
    is nothing, after up to `depth` further lays in later turns (the best sequence):
    how a company with no route yet finds its track."""
    best = game.whatif.route_revenue(company, fleet, lays) if now is None else now
    if best == 0 and depth > 0:
        # the last level asks the core for all its lays at once
        values = (cache.next_lay_revenues(game, company, fleet, lays) if depth == 1 else
                  (lookahead_revenue(game, company, fleet, lays + [nxt], depth - 1, cache)
                   for nxt in cache.next_lays(game, company, lays)))
        for value in values:
            best = max(best, value)
    return best


def earns_within(game, company: str, fleet: list[str], depth: int, cache: DecisionCache) -> bool:
    """Does `fleet` earn now or after some sequence of at most `depth` lays in later
    turns (`lookahead_revenue(...) > 0`, with each level's lays asked of the core at once)?"""
    return game.route_revenue(company, fleet) > 0 or _earns_after(game, company, fleet, [], depth, cache)


def _earns_after(game, company: str, fleet: list[str], done: list[tuple], depth: int,
                 cache: DecisionCache) -> bool:
    """Some sequence of 1..`depth` lays after `done` makes `fleet` earn."""
    if depth <= 0:
        return False
    if any(cache.next_lay_revenues(game, company, fleet, done)):  # revenues are never negative
        return True
    if depth == 1:
        return False
    nexts = cache.next_lays(game, company, done)
    if depth == 2:  # the last level in one core call, which stops at the first lay after which some lay earns
        answers = game.whatif.next_lay_revenues_each(company, fleet, nexts, done, True)
        return bool(answers) and any(answers[-1])
    for nxt in nexts:
        if _earns_after(game, company, fleet, done + [nxt], depth - 1, cache):
            return True
    return False


def place_station(game, params, cache: DecisionCache, chooser: Chooser) -> int:
    """The site where the probe fleet earns most, if that repays its cost in the horizon
    (read from the legal actions as ints: see `lay_tile`)."""
    company, info = _company(game, cache)
    fleet = _probe_fleet(game, company, info["vehicles"])
    spare = info["cash"] - vehicle_shortfall(game, company, info)
    sites = [site for site in station_sites(game) if site.cost <= spare]
    skip = first_move(game, SKIP, last=True)
    if not sites:
        return skip
    ask = game.whatif
    revenues = ask.station_revenues(company, fleet, [site.node for site in sites])  # the revenue before them on the way
    base = ask.route_revenue(company, fleet)
    horizon = params.horizon  # read once, not per site
    return _best_gain(chooser, [skip] + [site.index for site in sites],
                      [0.0] + [(revenue - base) * horizon - site.cost for site, revenue in zip(sites, revenues)])


def _best_gain(chooser: Chooser, options: list, gains: list[float]):
    """The option of the best gain over the horizon (skipping, listed first, gains 0), in
    reales: a choice among gains within a few tens of reales is a close call."""
    return options[chooser.pick(gains, MONEY_SCALE)]


def purchase_value(game, company: str, fleet: list[str], vehicle: str, returned: str | None,
                   price: int, params, cache: DecisionCache) -> float:
    """Revenue gain of adding `vehicle` (returning `returned`) over the horizon, minus
    its `price`; the gain of the fleet that survives the next phase change counts with
    weight `vehicle_timing`, so vehicles about to retire are replaced in time. A ship
    that starts the next phase is judged in that phase (its retirements and limit), and
    the revenue the other companies lose to it counts too (`phase_change_harm`)."""
    new = list(fleet)
    if returned is not None:
        new.remove(returned)
    new.append(vehicle)
    # what the fleet earns now, and once the next phase begins: the same for every candidate
    now, lasting = cache.once(("fleet_revenues", company, tuple(fleet)), _earnings, game, company, fleet)
    if starts_phase(game, vehicle):
        harm = cache.once(("phase_change_harm", company), phase_change_harm, game, company, params, cache)
        gain = (game.route_revenue(company, after_phase_change(game, new)) - now + harm) * (1 + params.vehicle_timing)
    else:
        new_now, new_lasting = _earnings(game, company, new)
        gain = new_now - now + params.vehicle_timing * (new_lasting - lasting)
    return gain * params.horizon - price


def _earnings(game, company: str, fleet: list[str]) -> tuple[int, int]:
    """What `fleet` earns now, and once the next phase begins (without its vehicles that
    retire then: where none does, the same fleet, not searched again)."""
    now = game.route_revenue(company, fleet)
    lasting = surviving(game, fleet)
    return now, (now if len(lasting) == len(fleet) else game.route_revenue(company, lasting))


def starts_phase(game, vehicle: str) -> bool:
    """Buying `vehicle` from the bank starts the next phase (the first ship of its tier)."""
    o = outlook(game)
    return o.kind[vehicle] != "cart" and o.tier[vehicle] == o.next


def after_phase_change(game, fleet: list[str]) -> tuple[str, ...]:
    """`fleet` once the next phase begins (`Outlook.after_change`)."""
    return outlook(game).after_change(fleet)


def phase_change_harm(game, company: str, params, cache: DecisionCache) -> float:
    """Revenue per OR the other companies lose when the next phase begins: a rival's
    (another director's) loss counts `rival_harm`, a loss of a sister company (same
    director) counts fully against the purchase."""
    companies = cache.companies(game)
    me = companies[company]["director"]
    harm = 0.0
    for other, info in companies.items():
        if other == company or not info["vehicles"]:
            continue
        after = after_phase_change(game, info["vehicles"])
        if len(after) == len(info["vehicles"]):  # the same vehicles: no loss
            continue
        loss = game.route_revenue(other, info["vehicles"]) - game.route_revenue(other, after)
        harm += -loss if info["director"] == me else params.rival_harm * loss
    return harm


def buy_vehicle(game, params, cache: DecisionCache, chooser: Chooser) -> int:
    """The bank vehicle of the highest `purchase_value`, while that is positive; a
    company without vehicles buys the best it can; a forced purchase when offered.
    Otherwise a company with idle cash upgrades (`upgrade`). Read from the legal actions
    as ints (menorca_sim.moves): the index of the chosen action."""
    forced = first_move(game, FORCED_BUY)
    if forced >= 0:
        return forced
    company, info = _company(game, cache)
    fleet = info["vehicles"]
    purchases, values = [], []  # the bank's offers, and each one's `purchase_value`
    for offer in vehicle_purchases(game):
        if offer.seller is None:
            purchases.append(offer)
            values.append(purchase_value(game, company, fleet, offer.vehicle, offer.returned, offer.price, params,
                                         cache))
    if not purchases:
        return first_move(game, SKIP, last=True) if fleet else 0
    # on equal value the cheaper, then the first
    by_price = sorted(range(len(purchases)), key=lambda k: (purchases[k].price, purchases[k].index))
    best = by_price[chooser.pick([values[k] for k in by_price], MONEY_SCALE)]
    if values[best] > 0 or not fleet:
        return purchases[best].index
    chosen = upgrade(game, info, purchases, values, params)
    return chosen if chosen >= 0 else first_move(game, SKIP, last=True)


def upgrade(game, info: dict, purchases: list, values: list[float], params) -> int:
    """The newest ship on sale, bought with cash the company cannot otherwise put to
    work (in a free slot, or in place of an older ship): only while it keeps
    `upgrade_ships` × the price in its treasury and the purchase costs it no revenue
    (other companies' losses from a phase it starts included, as in `purchase_value`).
    Newer ships outlast the old ones, and selling out a tier moves the game on to the
    phases with better tiles and longer ships, which a company with a full network and
    idle cash can only gain from. The legal action's index of the purchase (one of
    `buy_vehicle`'s bank `purchases`, each of value `values`), -1 for none."""
    o = outlook(game)
    kind, tier = o.kind, o.tier  # tier: vehicle -> its phase's index
    ships = [k for k, p in enumerate(purchases) if kind[p.vehicle] != "cart"
             and info["cash"] >= (1 + params.upgrade_ships) * p.price
             and (p.returned is None or tier[p.returned] < tier[p.vehicle])]
    if not ships:
        return -1
    newest = max(tier[purchases[k].vehicle] for k in ships)
    # the most valuable, then the cheaper, then the first
    best = max((k for k in ships if tier[purchases[k].vehicle] == newest),
               key=lambda k: (values[k], -purchases[k].price, -purchases[k].index))
    return purchases[best].index if values[best] + purchases[best].price >= 0 else -1


def _investments(game, company: str, fleet: list[str]) -> list[tuple[str, str | None, int]]:
    """(vehicle, vehicle returned for it or None, list price) of each purchase the
    company may make under its fleet limit, or (a ship at the ship limit) in place of
    one of its ships. The list price is before any legacy discount: errs on the safe side."""
    o = outlook(game)
    kinds, limit = o.kind, o.limit
    out = []
    for v in sorted(set(game.vehicles_for_sale(company))):
        kind = kinds[v]
        same_kind = [x for x in fleet if kinds[x] == kind]
        if len(same_kind) < limit:
            returns = [None]
        elif kind != "cart":  # a ship may be returned to make room
            returns = sorted(set(same_kind))
        else:
            continue
        out += [(v, returned, o.price[v]) for returned in returns]
    return out


def investment_need(game, company: str, info: dict, params, cache: DecisionCache,
                    investments: list[tuple[str, str | None, int]] | None = None) -> int:
    """Cash the company lacks for the best of its `_investments` (0 if it can pay for
    it or none is worth buying)."""
    if investments is None:
        investments = _investments(game, company, info["vehicles"])
    best, price = 0.0, 0
    for v, returned, list_price in investments:
        value = purchase_value(game, company, info["vehicles"], v, returned, list_price, params, cache)
        if value > best:
            best, price = value, list_price
    return max(0, price - info["cash"])


def dividend(game, params, cache: DecisionCache, chooser: Chooser) -> int:
    """`always` pays. `market` withholds when the company lacks cash to keep a running
    vehicle through the next phase, or when withholding pays for a vehicle worth buying
    that it cannot afford now; otherwise it pays (moving right when the revenue reaches
    the market value). `growth` also withholds to save towards such a vehicle whenever
    paying would not move the price right anyway. (The index of the choice among the legal
    actions.)"""
    company, info = _company(game, cache)
    payout, withhold = first_move(game, PAYOUT), first_move(game, WITHHOLD)
    if params.payout == "always":
        return payout
    if vehicle_shortfall(game, company, info) > 0:
        return withhold
    revenue = game.pending_revenue()
    investments = _investments(game, company, info["vehicles"])
    # the need is 0 or a price above the cash: where no such need could make it withhold,
    # it pays without valuing the purchases
    needs = [p - info["cash"] for _, _, p in investments if p > info["cash"]]
    if not needs or (min(needs) > revenue and (params.payout != "growth" or revenue >= info["price"])):
        return payout
    need = investment_need(game, company, info, params, cache, investments)
    if 0 < need <= revenue or (params.payout == "growth" and need > 0 and revenue < info["price"]):
        return withhold
    return payout


def company_sells(game, legal: list[dict], params, cache: DecisionCache, chooser: Chooser) -> dict:
    """Sell its own certificates only to fund a vehicle it would otherwise have to force:
    the fewest that cover the shortfall (all are sold at the current value), else all it may."""
    company, info = _company(game, cache)
    sales = [a for a in legal if a["type"] == "company_sells_certs"]
    shortfall = vehicle_shortfall(game, company, info) if sales else 0
    if shortfall <= 0:
        return _skip(legal)
    each = info["price"] * game.ruleset.companies[company].certificates[-1] // 10  # a treasury certificate
    covering = [a for a in sales if a["count"] * each >= shortfall]
    return covering[0] if covering else sales[-1]


def company_buys_back(game, legal: list[dict], params, cache: DecisionCache, chooser: Chooser) -> dict:
    """Buy back when the treasury keeps at least `buy_back_margin` × price after it."""
    company, info = _company(game, cache)
    back = find_action(legal, "company_buys_back")
    spare = info["cash"] - vehicle_shortfall(game, company, info) - info["price"]
    if back is not None and spare >= params.buy_back_margin * info["price"]:
        return back
    return _skip(legal)


def company_buys_legacy(game, legal: list[dict], params, cache: DecisionCache, chooser: Chooser) -> dict:
    """Move money from the company to its director at the highest price the company
    can spare (the director keeps it all; the company's loss is shared)."""
    company, info = _company(game, cache)
    spare = info["cash"] - vehicle_shortfall(game, company, info)
    buys = [a for a in legal if a["type"] == "company_buys_legacy" and a["price"] <= spare]
    return max(buys, key=lambda a: a["price"]) if buys else _skip(legal)


def discard_vehicle(game, legal: list[dict], params, cache: DecisionCache, chooser: Chooser) -> dict:
    """Give up the vehicle whose loss costs the least revenue (the cheapest on a tie)."""
    company, info = _company(game, cache)
    fleet = info["vehicles"]
    prices = game.ruleset.vehicles

    def kept(a: dict) -> int:
        rest = list(fleet)
        rest.remove(a["vehicle"])
        return game.route_revenue(company, rest)

    by_price = sorted(legal, key=lambda a: prices[a["vehicle"]].price)  # on an equal loss the cheapest
    return by_price[chooser.pick([kept(a) for a in by_price], MONEY_SCALE)]


def place_market_marker(game, legal: list[dict], params, cache: DecisionCache, chooser: Chooser) -> dict:
    """Where the company's routes (with the vehicles it could soon run) earn most from it."""
    company = game.marker_company()
    info = cache.company(game, company)
    fleet = _probe_fleet(game, company, info["vehicles"])
    revenues = game.marker_revenues(company, fleet, legal)
    return legal[chooser.pick(revenues, MONEY_SCALE)]


def place_goods_marker(game, legal: list[dict], params, cache: DecisionCache, chooser: Chooser) -> dict:
    """Where the sea companies' current routes go most often (each visit pays the minor).
    Only ships are searched: they never share track with carts, so their routes are the
    same with or without the carts."""
    vehicles = game.ruleset.vehicles
    visits: dict[str, int] = {}
    for company, info in cache.companies(game).items():
        plan = game.route_plan(company, [v for v in info["vehicles"] if vehicles[v].kind != "cart"])
        for route in plan.routes if plan is not None else ():
            for node in route.nodes:
                visits[node] = visits.get(node, 0) + 1
    return legal[chooser.pick([visits.get(a["offboard"], 0) for a in legal], 1)]
