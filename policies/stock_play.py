"""The heuristic's stock-round turn: sell what is failing (or what breaks the
certificate limit), start a company while it directs fewer than it wants, then buy
the certificate with the best expected yield, keeping a cash reserve against forced
vehicle purchases of the companies it directs."""
from __future__ import annotations

from menorca_sim.core.codes import END_TURN, SR_PASS
from menorca_sim.moves import cert_purchases, cert_sales, company_starts, first_move
from policies.choice import YIELD_SCALE, Chooser
from policies.operating_play import earns_within
from policies.valuation import DecisionCache, vehicle_shortfall


def company_score(game, company: str, info: dict, seat: int, params) -> float:
    """Expected yield of a 10 % certificate per OR (revenue / 10 / price), plus growth:
    a company whose revenue reaches its price moves right when it pays; one without
    revenue moves left. Its director's own companies get the concentration bonus."""
    price = max(info["price"], 1)
    revenue = game.route_revenue(company, info["vehicles"])
    unit = game.ruleset.operating.dividend_unit
    score = revenue / unit / price
    if revenue >= price:
        score += params.growth_bonus
    elif revenue == 0:
        score -= params.growth_bonus
    if info["director"] == seat:  # the seat decides for it (its Trust Family holder or president)
        score += params.concentration
    return score


def failing(game, company: str, info: dict, params) -> bool:
    """Its price fell below `sell_drop` of its par, or it earns nothing and cannot buy a vehicle."""
    if info["price"] < info["par"] * params.sell_drop:
        return True
    return game.route_revenue(company, info["vehicles"]) == 0 and vehicle_shortfall(game, company, info) > 0


def reserve(game, seat: int, params, cache: DecisionCache) -> int:
    """Cash kept back: what forced purchases of its companies could demand, scaled by caution."""
    need = sum([vehicle_shortfall(game, c, info) for c, info in cache.companies(game).items()
                if info["director"] == seat])
    return int(need * (1 - params.risk))


def stock_turn(game, seat: int, params, cache: DecisionCache, chooser: Chooser) -> int:
    """The index of its choice among the legal actions, read as ints (menorca_sim.moves)."""
    me = cache.player(game, seat)
    companies = cache.companies(game)
    sells = cert_sales(game)
    done = max(first_move(game, SR_PASS, last=True), first_move(game, END_TURN, last=True))  # -1: it may not stop
    if sells and (done < 0 or me["certs"] > _cert_limit(game)):  # over the limit: the worst company
        scored = [(_score(game, sale.company, companies, seat, params, cache), k) for k, sale in enumerate(sells)]
        return sells[min(scored)[1]].index
    for sale in sells:
        if companies[sale.company]["director"] != seat and _fails(game, sale.company, companies, params, cache):
            return sale.index
    cash = me["cash"] - reserve(game, seat, params, cache)
    start = _start(game, seat, params, cash, cache)
    if start >= 0:
        return start
    buys, scores = [], []  # the purchases worth making, and their scores
    for buy in cert_purchases(game):
        c = buy.company
        if _cert_cost(game, c, companies) > cash:
            continue
        score = _score(game, c, companies, seat, params, cache)
        if score < params.min_yield or _fails(game, c, companies, params, cache):
            continue
        buys.append(buy)
        scores.append(score)
    if not buys:
        return done
    # the best company; on an equal score its treasury first (the company gets the money)
    order = sorted(range(len(buys)), key=lambda k: not buys[k].from_treasury)
    return buys[order[chooser.pick([scores[k] for k in order], YIELD_SCALE)]].index


def _score(game, company: str, companies: dict, seat: int, params, cache: DecisionCache) -> float:
    """`company_score`, asked once per turn (several actions name a company)."""
    return cache.once(("score", company), company_score, game, company, companies[company], seat, params)


def _fails(game, company: str, companies: dict, params, cache: DecisionCache) -> bool:
    """`failing`, asked once per turn."""
    return cache.once(("failing", company), failing, game, company, companies[company], params)


def _cert_limit(game) -> int:
    return game.ruleset.player_counts[game.players].cert_limit


def _cert_cost(game, company: str, companies: dict) -> int:
    """Price of the certificate a purchase takes (the director's one is never for sale)."""
    return companies[company]["price"] * game.ruleset.companies[company].certificates[-1] // 10


def _start(game, seat: int, params, cash: int, cache: DecisionCache) -> int:
    """Start a company while it directs fewer than `max_companies`, spending at most
    `start_share`..1 of its cash (by `risk`) and at least two of the cheapest vehicles'
    worth (the capital its company starts with): a major at the highest such par (more
    capital, more vehicles), else a minor; only a company with prospects of a route.
    The index of the start among the legal actions, -1 for none."""
    directed = len([info for info in cache.companies(game).values() if info["director"] == seat])
    if directed >= params.max_companies:
        return -1
    rs = game.ruleset
    budget = cash * (params.start_share + (1 - params.start_share) * params.risk)
    first_fleet = _first_fleet(rs)
    if budget < first_fleet:  # no start is affordable
        return -1
    # majors first, the highest par first, then in the order offered
    affordable = []
    for start in company_starts(game):
        company, par = start.company, start.par
        if first_fleet <= par * rs.companies[company].certificates[0] // 10 <= budget:
            affordable.append((rs.companies[company].kind != "major", -par, start.index, company))
    affordable.sort()
    for _, minus_par, i, company in affordable:
        if _has_prospects(game, i, company, -minus_par, params.lookahead):
            return i
    return -1


def _first_fleet(rs) -> int:
    """Two of the cheapest first-tier vehicles' price: the least capital worth starting
    a company with (remembered per ruleset: asked every stock turn)."""
    price = _FIRST_FLEET.get(rs.sha256)
    if price is None:
        price = _FIRST_FLEET[rs.sha256] = min([spec.price for v, spec in rs.vehicles.items()
                                               if rs.tier_index[v] == 0]) * 2
    return price


_FIRST_FLEET: dict[str, int] = {}  # ruleset sha256 -> _first_fleet


_PROSPECTS: dict[tuple, bool] = {}  # (ruleset, company, par, depth, map, vehicles) -> answer, for all seats
_PROSPECTS_SIZE = 4096


def _has_prospects(game, start: int, company: str, par: int, depth: int) -> bool:
    """Would `company`, started at `par` (legal action `start`), earn with a vehicle on
    sale, on the map as it is or after at most `depth` lays? (Asked every stock turn:
    remembered per map state; searched only where `_could_run` leaves it open.)"""
    key = (game.ruleset.sha256, company, par, depth, game.map_key(), tuple(game.vehicles_for_sale(company)))
    if key not in _PROSPECTS:
        if len(_PROSPECTS) >= _PROSPECTS_SIZE:
            _PROSPECTS.clear()
        _PROSPECTS[key] = _could_run(game, company, depth) and _search_prospects(game, start, company, depth)
    return _PROSPECTS[key]


def _search_prospects(game, start: int, company: str, depth: int) -> bool:
    trial = game.clone()
    trial.apply_code(start)
    fleet = sorted(set(trial.vehicles_for_sale(company)))
    return earns_within(trial, company, fleet, depth, DecisionCache())


def _could_run(game, company: str, depth: int) -> bool:
    """False only where no vehicle on sale could run a route of `company` once started,
    on the map as it is or after at most `depth` lays: `_search_prospects`' "no" without
    its lookahead (most answers are no: a minor's home far from track). It bounds cart
    routes: a fleet with a ship is left to the search. Read before the start, which
    changes neither a tile nor the vehicles on sale, and only adds the home station
    (`WhatIf.fewest_lays` counts it in)."""
    rs = game.ruleset
    steps = 0  # the most hex sides a route may cross: the longest range less one
    for v in game.vehicles_for_sale(company):
        vehicle = rs.vehicles[v]
        if vehicle.kind != "cart":
            return True
        steps = max(steps, vehicle.range - 1)
    # no vehicle, or none that crosses a side: no route
    return steps > 0 and game.whatif.fewest_lays(company, steps, depth) <= depth
