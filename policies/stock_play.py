"""The heuristic's stock-round turn: sell what is failing (or what breaks the
certificate limit), start a company while it directs fewer than it wants, then buy
the certificate with the best expected yield, keeping a cash reserve against forced
vehicle purchases of the companies it directs."""
from __future__ import annotations

from policies.base import find_action
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


def stock_turn(game, legal: list[dict], seat: int, params, cache: DecisionCache, chooser: Chooser) -> dict:
    me = cache.player(game, seat)
    companies = cache.companies(game)
    sells = [a for a in legal if a["type"] == "sell_cert"]
    done = find_action(legal, "pass", "end_turn", last=True)
    if sells and (done is None or me["certs"] > _cert_limit(game)):  # over the limit: the worst company
        scored = [(_score(game, c, companies, seat, params, cache), i)
                  for i, c in enumerate([a["company"] for a in sells])]
        return sells[min(scored)[1]]
    for a in sells:
        c = a["company"]
        if companies[c]["director"] != seat and _fails(game, c, companies, params, cache):
            return a
    cash = me["cash"] - reserve(game, seat, params, cache)
    start = _start(game, legal, seat, params, cash, cache)
    if start is not None:
        return start
    buys, scores = [], []
    for a in legal:
        if a["type"] != "buy_cert":
            continue
        c = a["company"]
        if _cert_cost(game, c, companies) > cash:
            continue
        score = _score(game, c, companies, seat, params, cache)
        if score < params.min_yield or _fails(game, c, companies, params, cache):
            continue
        buys.append(a)
        scores.append(score)
    if not buys:
        return done
    # the best company; on an equal score its treasury first (the company gets the money)
    order = sorted(range(len(buys)), key=lambda i: buys[i]["source"] != "treasury")
    return buys[order[chooser.pick([scores[i] for i in order], YIELD_SCALE)]]


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


def _start(game, legal: list[dict], seat: int, params, cash: int, cache: DecisionCache) -> dict | None:
    """Start a company while it directs fewer than `max_companies`, spending at most
    `start_share`..1 of its cash (by `risk`) and at least two of the cheapest vehicles'
    worth (the capital its company starts with): a major at the highest such par (more
    capital, more vehicles), else a minor; only a company with prospects of a route."""
    directed = len([info for info in cache.companies(game).values() if info["director"] == seat])
    if directed >= params.max_companies:
        return None
    rs = game.ruleset
    budget = cash * (params.start_share + (1 - params.start_share) * params.risk)
    first_fleet = _first_fleet(rs)
    if budget < first_fleet:  # no start is affordable
        return None
    starts = [a for a in legal if a["type"] == "start_company"]
    # majors first, the highest par first, then in the order offered
    affordable = sorted([(rs.companies[a["company"]].kind != "major", -a["par"], i, a)
                         for i, a in enumerate(starts)
                         if first_fleet <= a["par"] * rs.companies[a["company"]].certificates[0] // 10 <= budget])
    for _, _, _, a in affordable:
        if _has_prospects(game, a, params.lookahead):
            return a
    return None


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


def _has_prospects(game, start: dict, depth: int) -> bool:
    """Would the started company earn with a vehicle on sale, on the map as it is or
    after at most `depth` lays? (Asked every stock turn: remembered per map state.)"""
    company = start["company"]
    key = (game.ruleset.sha256, company, start["par"], depth, game.map_key(),
           tuple(game.vehicles_for_sale(company)))
    if key not in _PROSPECTS:
        if len(_PROSPECTS) >= _PROSPECTS_SIZE:
            _PROSPECTS.clear()
        _PROSPECTS[key] = _search_prospects(game, start, depth)
    return _PROSPECTS[key]


def _search_prospects(game, start: dict, depth: int) -> bool:
    trial = game.clone()
    trial.apply(start)
    company = start["company"]
    fleet = sorted(set(trial.vehicles_for_sale(company)))
    return earns_within(trial, company, fleet, depth, DecisionCache())
