"""Test helpers for routes: a brute-force reference optimizer (plain Python, written
from the rules in core-interfaces.md and the ruleset data only, sharing no code with
menorca_sim.core.revenue.routes or its tables) and a generator of random board positions."""
from __future__ import annotations

from menorca_sim.rules.geometry import neighbour
from menorca_sim.rules.model import COLOURS, NODE


def rotated(paths, rotation):
    return [tuple(e if e == NODE else (e + rotation) % 6 for e in path) for path in paths]


def tile_paths(rs, board, hex_):
    """Paths of the track on hex_ as (end, end) pairs, or [] for an empty hex."""
    laid = board.tile_at(hex_)
    if laid is None:
        return []
    tile_id, rotation = laid
    if tile_id in rs.tiles:
        return rotated(rs.tiles[tile_id].paths, rotation)
    return [node.track for node in rs.map.nodes.values() if node.hex == hex_][0]


def station_map(rs, board):
    """node -> list of (company, kind) stations on it."""
    out = {}
    for company in rs.companies:
        for node, kind in board.stations(company):
            out.setdefault(node, []).append((company, kind))
    return out


class Trail:
    """A walk: the nodes it stops at (start and end included), the hexes it enters and
    the track units (hex sides or lanes) it crosses."""

    def __init__(self, stops, hexes, units):
        self.stops, self.hexes, self.units = stops, hexes, units


def cart_trails(rs, board, max_units):
    """Every road walk from a node to a node crossing 1..max_units hex sides, no side twice."""
    node_at = {n.hex: name for name, n in rs.map.nodes.items()}
    out = []

    def from_node(name, trail):
        hex_ = rs.map.nodes[name].hex
        for a, b in tile_paths(rs, board, hex_):
            if b == NODE:
                cross(hex_, a, trail)

    def cross(hex_, edge, trail):
        other = neighbour(hex_, edge)
        side = frozenset([(hex_, edge), (other, (edge + 3) % 6)])
        if other not in rs.map.land or side in trail.units or len(trail.units) == max_units:
            return
        entered = (edge + 3) % 6
        moved = Trail(trail.stops, trail.hexes + [other], trail.units + [side])
        for a, b in tile_paths(rs, board, other):
            if entered not in (a, b):
                continue
            far = b if a == entered else a
            if far == NODE:
                stop = Trail(moved.stops + [node_at[other]], moved.hexes, moved.units)
                out.append(stop)
                from_node(node_at[other], stop)
            else:
                cross(other, far, moved)

    for name, node in rs.map.nodes.items():
        from_node(name, Trail([name], [node.hex], []))
    return out


def ship_trails(rs, max_units):
    """Every lane walk from a port node or offboard to another, no lane twice; offboards
    are never passed through."""
    ends = set(rs.map.offboards) | {n for n, node in rs.map.nodes.items() if node.port}
    hex_of = {n: node.hex for n, node in rs.map.nodes.items()}
    hex_of.update({o: off.hex for o, off in rs.map.offboards.items()})
    out = []

    def walk(at, trail):
        if len(trail.units) == max_units or (at in rs.map.offboards and len(trail.units) > 0):
            return
        for lane in rs.map.lanes:
            if at in lane and lane not in trail.units:
                nxt = lane[1] if lane[0] == at else lane[0]
                stops = trail.stops + [nxt] if nxt in ends else trail.stops
                moved = Trail(stops, trail.hexes + [hex_of.get(nxt, nxt)], trail.units + [lane])
                if nxt in ends:
                    out.append(moved)
                walk(nxt, moved)

    for name in sorted(ends):
        walk(name, Trail([name], [hex_of[name]], []))
    return out


def node_value(rs, board, ctx, name):
    if name in rs.map.offboards:
        value = rs.map.offboards[name].revenue[ctx.epoch - 1]
        value += ctx.market_markers.get(name, 0) * ctx.market_bonus
    else:
        node = rs.map.nodes[name]
        laid = board.tile_at(node.hex)
        colour = "yellow" if laid is None or laid[0] not in rs.tiles else rs.tiles[laid[0]].colour
        value = rs.map.revenue[node.kind][COLOURS.index(colour)]
    return value + ctx.node_bonus.get(name, 0)


def legal(rs, stations, company, is_major, kind, trail):
    """The route rules of core-interfaces.md for one walk; stations: station_map()."""
    if len(set(trail.stops)) < rs.routes.min_distinct_nodes:
        return False
    ports = {n for n, st in stations.items() if any(k == "port" for _, k in st)}
    own = {n for n, st in stations.items() if any(c == company for c, _ in st)}
    for name in trail.stops[1:-1]:
        taken = len(stations.get(name, []))
        full = name in rs.map.nodes and taken > 0 and taken == rs.map.nodes[name].slots
        if name in rs.map.offboards or (full and name not in own):
            return False
    own_ports = {n for n in own if (company, "port") in stations[n]}
    if kind == "ship":
        return bool(own_ports & set(trail.stops))
    if is_major:
        first, last = trail.stops[0], trail.stops[-1]
        for end, other in ((first, trail.stops[1:]), (last, trail.stops[:-1])):
            if end in own_ports and not ports & set(other):
                return True
        return False
    return not ports & set(trail.stops) and bool(own & set(trail.stops))


def legal_routes(rs, board, company, is_major, kind, max_range, ctx):
    """[(hexes, stops in order each once, revenue, units)] of every legal route."""
    trails = ship_trails(rs, max_range - 1) if kind == "ship" else cart_trails(rs, board, max_range - 1)
    stations = station_map(rs, board)
    out = []
    for trail in trails:
        if legal(rs, stations, company, is_major, kind, trail):
            stops = list(dict.fromkeys(trail.stops))
            revenue = sum(node_value(rs, board, ctx, s) for s in stops)
            out.append((trail.hexes, stops, revenue, frozenset(trail.units)))
    return out


def best_revenue(rs, board, company, is_major, vehicles, ctx):
    """Try every combination: each vehicle runs one legal route or none, no unit shared."""
    options = []
    for _vid, kind, rng in vehicles:
        routes = legal_routes(rs, board, company, is_major, kind, rng, ctx)
        # same units and revenue is the same choice: keep one of each
        options.append(list({(units, revenue) for _h, _s, revenue, units in routes}))

    def best(i, used):
        if i == len(options):
            return 0
        top = best(i + 1, used)
        for units, revenue in options[i]:
            if not units & used:
                top = max(top, revenue + best(i + 1, used | units))
        return top

    return best(0, frozenset())


# --- random positions ------------------------------------------------------------------

def random_position(rs, board, rng, lays: int, colours, stations: int, in_play=None):
    """Lay `lays` random legal tiles and place up to `stations` extra stations, for the
    companies `in_play` (default: a random set) with their homes placed first. Returns
    the companies in play."""
    node_hexes = {n.hex for n in rs.map.nodes.values()}
    if in_play is None:
        in_play = [c for c in rs.companies if rs.companies[c].home and rng.random() < 0.8] or ["RNC"]
    for c in in_play:
        kind = "port" if rs.companies[c].kind == "major" else "manufactory"
        board.place_station(c, rs.companies[c].home, kind)
    for _ in range(lays):
        c = in_play[rng.integers(len(in_play))]
        options = board.tile_lays(c, colours, 1000)
        if rng.random() < 0.5:  # favour towns and cities, so that carts find routes
            options = [o for o in options if o[0] in node_hexes] or options
        if options:
            hex_, tile, rotation, _cost = options[rng.integers(len(options))]
            board.lay_tile(hex_, tile, rotation)
    for _ in range(stations):
        c = in_play[rng.integers(len(in_play))]
        kind = "port" if rs.companies[c].kind == "major" else "manufactory"
        sites = board.station_sites(c, kind)
        if sites:
            board.place_station(c, sites[rng.integers(len(sites))], kind)
    return in_play


def random_vehicles(rs, rng, is_major, count):
    pool = [v for v in rs.vehicles.values() if is_major or v.kind == "cart"]
    picks = [pool[rng.integers(len(pool))] for _ in range(count)]
    return [(f"{v.id}#{i}", v.kind, v.range) for i, v in enumerate(picks)]
