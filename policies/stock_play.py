"""The heuristic's stock-round turn: sell what is failing (or what breaks the
certificate limit), start a company while it directs fewer than it wants, then buy
the certificate with the best expected yield, keeping a cash reserve against forced
vehicle purchases of the companies it directs."""
from __future__ import annotations

from array import array

from menorca_sim.core.codes import END_TURN, SR_PASS
from menorca_sim.core.track import PORT
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
    (`_fewest_lays` counts it in)."""
    rs = game.ruleset
    steps = 0  # the most hex sides a route may cross: the longest range less one
    for v in game.vehicles_for_sale(company):
        vehicle = rs.vehicles[v]
        if vehicle.kind != "cart":
            return True
        steps = max(steps, vehicle.range - 1)
    # no vehicle, or none that crosses a side: no route
    return steps > 0 and _fewest_lays(game.board, company, rs.companies[company].home, steps, depth) <= depth


_NO_ROUTE = 1 << 20  # more lays than any lookahead makes


def _fewest_lays(board, company: str, home: str, steps: int, enough: int) -> int:
    """A lower bound on the tile lays before `company`'s carts could run a route crossing
    at most `steps` hex sides on `board`, with a station at its `home` node (its start
    places one), as soon as one at most `enough` is found.

    Why it bounds (the route rules as routes.py and track.py apply them): a cart crosses
    a hex side only along paths of both hexes' tiles that touch it, never the same side
    twice, and starts and ends at nodes; its route holds a node of the company's own
    station and ends at no node holding a port station. A lay changes only the hex laid,
    so each hex of a route run after some lays is laid, or has now a tile touching the
    sides the route enters and leaves it by. Either an end of the route lies outside the
    station's hex: its walk from there to that end, cut to enter each hex once (each
    hex's sides stay touched, the walk no longer), is one of those `_walk_lays` counts;
    or both ends lie in it: the route leaves it by one side and comes back by another
    (three sides at least), as `_loop_lays` counts."""
    mt = board.tables
    c = mt.company_index[company]
    slots = board.slots
    n_land = mt.n_land
    tile, rot, edge_mask, node_land = board.tile, board.rot, mt.edge_mask, mt.node_land
    held_by, kind = board.station_company, board.station_kind
    # the edges the track of each land hex touches (bit e: edge e)
    touched = array("i", [0]) * n_land
    for h in range(n_land):
        if tile[h] >= 0:
            touched[h] = edge_mask[tile[h] * 6 + rot[h]]
    # 1 on the hexes of the nodes a route may end at (none holding a port station), and
    # the hexes of its stations: its home's and any it has
    ends = array("i", [0]) * n_land
    stations = [node_land[mt.node_index[home]]]
    for n in range(mt.n_nodes):
        h = node_land[n]
        ends[h] = 1
        for i in range(n * slots, (n + 1) * slots):
            if held_by[i] >= 0 and kind[i] == PORT:
                ends[h] = 0
            if held_by[i] == c and h not in stations:
                stations.append(h)
    fewest = _NO_ROUTE
    for s in stations:
        fewest = min(fewest, _walk_lays(s, steps, enough, touched, ends, mt.neighbour))
        if steps >= 3:
            fewest = min(fewest, _loop_lays(s, touched, mt.neighbour))
        if fewest <= enough:
            break
    return fewest


def _walk_lays(s: int, steps: int, enough: int, touched, ends, neighbour) -> int:
    """The fewest lays on a walk from land hex s to an end hex other than s, crossing at
    most `steps` sides, never back by the side it came: a hex whose track misses a side
    the walk enters or leaves it by counts a lay at each visit (once on a walk entering
    each hex once); as soon as a walk of at most `enough` is found."""
    n = len(touched) * 6
    # [hex * 6 + the edge it was entered by]: the fewest lays to get there (that hex's
    # own not counted yet: it depends on the side the walk leaves by), after this step
    # and the next
    here = array("i", [_NO_ROUTE]) * n
    there = array("i", [_NO_ROUTE]) * n
    _leave(here, s, -1, 0, touched, neighbour)
    fewest = _NO_ROUTE
    for step in range(steps):
        if step:
            for at in range(n):
                there[at] = _NO_ROUTE
            for at in range(n):
                if here[at] < _NO_ROUTE:
                    _leave(there, at // 6, at % 6, here[at], touched, neighbour)
            here, there = there, here
        for at in range(n):
            h = at // 6
            if here[at] < _NO_ROUTE and ends[h] and h != s:
                fewest = min(fewest, here[at] + _lay(touched[h], 1 << at % 6))
        if fewest <= enough:
            break
    return fewest


def _leave(arrivals, h: int, entered: int, lays: int, touched, neighbour) -> None:
    """Into `arrivals` (as `_walk_lays`' `here`): the walk at land hex h (entered by edge
    `entered`, -1 where it starts) with `lays` so far, leaving by each other edge into a
    land hex."""
    came = 0 if entered < 0 else 1 << entered
    for e in range(6):
        g = neighbour[h * 6 + e]
        if g < 0 or e == entered:
            continue
        at = g * 6 + (e + 3) % 6
        total = lays + _lay(touched[h], came | 1 << e)
        if total < arrivals[at]:
            arrivals[at] = total


def _loop_lays(s: int, touched, neighbour) -> int:
    """The fewest lays on a route that leaves land hex s by one edge and comes back by
    another: s and the two neighbours it crosses to."""
    fewest = _NO_ROUTE
    for e1 in range(6):
        n1 = neighbour[s * 6 + e1]
        if n1 < 0:
            continue
        for e2 in range(e1 + 1, 6):
            n2 = neighbour[s * 6 + e2]
            if n2 >= 0:
                fewest = min(fewest, _lay(touched[s], 1 << e1 | 1 << e2) + _lay(touched[n1], 1 << (e1 + 3) % 6)
                             + _lay(touched[n2], 1 << (e2 + 3) % 6))
    return fewest


def _lay(touched: int, sides: int) -> int:
    """1 where a hex's track (its `touched` edges) misses one of `sides`: it must be laid."""
    return 0 if touched & sides == sides else 1
