"""Route rules, one test each, on hand-built positions of the default map (values from
RULES.md §10: city 20, town 10 on yellow; València 30/40/50/60 by epoch)."""
from __future__ import annotations

from menorca_sim.core.board import Board
from menorca_sim.core.maptables import map_tables
from menorca_sim.core.revenue import routes
from menorca_sim.core.revenue.context import RevenueContext
from menorca_sim.rules import load_ruleset

XEBEC = ("xebec", "ship", 4)
CART = ("cart", "cart", 3)


def board_with(tables, lays=(), stations=()):
    board = Board(tables)
    for hex_, tile, rotation in lays:
        board.lay_tile(hex_, tile, rotation)
    for company, node, kind in stations:
        board.place_station(company, node, kind)
    return board


# Maó (J11, preprinted S and NW) - Sant Lluís (J13) - Sant Climent (I12)
SOUTH_TRACK = (("J13", "3", 2), ("I12", "T1", 5))
# Maó - I10 - J9 - Es Castell (K10)
EAST_TRACK = (("I10", "7", 4), ("J9", "8", 5), ("K10", "T1", 2))
# A loop from Sant Climent: I12 north to I10, south-west to H11, back to I12
LOOP_TRACK = (("I12", "3", 2), ("I10", "7", 0), ("H11", "7", 4))


def plan_of(board, company, vehicles, ctx=None, is_major=True):
    return routes.best_routes(board, company, is_major, vehicles, ctx or RevenueContext(epoch=1))


def test_seeds_route_example(tables):
    board = board_with(tables, SOUTH_TRACK, [("RNC", "Maó", "port")])
    plan = plan_of(board, "RNC", [XEBEC, CART])
    shown = {r.vehicle: r.as_dict() for r in plan.routes}
    print(plan.as_dict())
    assert shown["xebec"]["hexes"] == ["J11", "K12", "K14", "K16"]
    assert shown["xebec"]["nodes"] == ["Maó", "València"]
    assert shown["xebec"]["revenue"] == 20 + 30
    assert shown["cart"]["hexes"] == ["J11", "J13", "I12"]
    assert shown["cart"]["nodes"] == ["Maó", "Sant Lluís", "Sant Climent"]
    assert shown["cart"]["revenue"] == 20 + 10 + 10
    assert plan.revenue == 90


def test_range_counts_both_end_hexes(tables):
    board = board_with(tables, SOUTH_TRACK, [("RNC", "Maó", "port")])
    assert plan_of(board, "RNC", [("s", "ship", 3)]).revenue == 0  # València is the 4th hex
    assert plan_of(board, "RNC", [("s", "ship", 4)]).revenue == 50
    assert plan_of(board, "RNC", [("c", "cart", 2)]).revenue == 20 + 10  # Maó - Sant Lluís
    assert plan_of(board, "RNC", [("c", "cart", 3)]).revenue == 40


def test_no_track_shared_between_a_companys_routes(tables):
    board = board_with(tables, SOUTH_TRACK, [("RNC", "Maó", "port")])
    # one road leaves Maó southwards and one lane leaves it by sea: the second vehicle idles
    carts = plan_of(board, "RNC", [("c1", "cart", 3), ("c2", "cart", 3)])
    assert carts.revenue == 40 and len(carts.routes) == 1
    ships = plan_of(board, "RNC", [("s1", "ship", 4), ("s2", "ship", 4)])
    assert ships.revenue == 50 and len(ships.routes) == 1
    # with the road north-west built too, both carts run, on different track
    more = board_with(tables, SOUTH_TRACK + EAST_TRACK, [("RNC", "Maó", "port")])
    both = plan_of(more, "RNC", [("c1", "cart", 4), ("c2", "cart", 4)])
    assert both.revenue == 40 + 30 and len(both.routes) == 2


def test_revisited_node_pays_once():
    # with loops allowed (routes.min_distinct_nodes = 1; by default a loop from a node to
    # itself is no route: test_audit_options.py), the only route is the loop Sant Climent
    # - I10 - H11 - Sant Climent (4 hexes), and Sant Climent pays once
    tables = map_tables(load_ruleset(overrides={"routes.min_distinct_nodes": 1}))
    board = board_with(tables, LOOP_TRACK, [("Ramaders", "Sant Climent", "manufactory")])
    plan = plan_of(board, "Ramaders", [("c", "cart", 4)], is_major=False)
    assert [r.hexes for r in plan.routes] in (
        [["I12", "I10", "H11", "I12"]], [["I12", "H11", "I10", "I12"]])
    assert plan.revenue == 10
    assert plan_of(board, "Ramaders", [("c", "cart", 3)], is_major=False).revenue == 0


def test_no_turning_back_at_a_junction(tables):
    # Alaior (H9) - I10 - H11 - Sant Climent (I12), with RNC's port closing Maó to the minor
    ends = (("H9", "T1", 5), ("H11", "7", 4), ("I12", "T1", 2))
    stations = [("Destil·ladors", "Alaior", "manufactory"), ("RNC", "Maó", "port")]
    curve = board_with(tables, ends + (("I10", "7", 1),), stations)  # I10: NW - SW
    assert plan_of(curve, "Destil·ladors", [("c", "cart", 9)], is_major=False).revenue == 20
    # I10 as a junction towards Maó (SE-NW and SE-SW): going NW in and SW out would reuse
    # the stub at the SE edge
    junction = board_with(tables, ends + (("I10", "9", 2), ("I10", "24", 5)), stations)
    assert plan_of(junction, "Destil·ladors", [("c", "cart", 9)], is_major=False).revenue == 0


def test_cart_never_ends_in_another_port(tables):
    stations = [("RNC", "Maó", "port")]
    free = board_with(tables, EAST_TRACK, stations)
    assert plan_of(free, "RNC", [("c", "cart", 4)]).revenue == 20 + 10
    rival_port = board_with(tables, EAST_TRACK, stations + [("RCC", "Es Castell", "port")])
    assert plan_of(rival_port, "RNC", [("c", "cart", 4)]).revenue == 0
    # a full node without a port is a legal end (blocking stops passing, not ending)
    factory = board_with(tables, EAST_TRACK, stations + [("Artesans", "Es Castell", "manufactory")])
    assert plan_of(factory, "RNC", [("c", "cart", 4)]).revenue == 30


def test_cart_never_passes_a_port(tables):
    track = SOUTH_TRACK + EAST_TRACK
    # RCC runs from its port at Es Castell through Maó to Sant Lluís (5 hexes)
    open_mao = board_with(tables, track, [("RCC", "Es Castell", "port")])
    assert plan_of(open_mao, "RCC", [("c", "cart", 5)]).revenue == 10 + 20 + 10
    # the same through Maó holding RNC's port (a free slot remains: no blocking)
    port_mao = board_with(tables, track, [("RCC", "Es Castell", "port"), ("RNC", "Maó", "port")])
    assert port_mao.free_slots("Maó") == 1
    assert plan_of(port_mao, "RCC", [("c", "cart", 5)]).revenue == 0
    # a manufactory in Maó instead is no port: RCC passes
    factory_mao = board_with(tables, track, [("RCC", "Es Castell", "port"), ("Artesans", "Maó", "manufactory")])
    assert plan_of(factory_mao, "RCC", [("c", "cart", 5)]).revenue == 40


def test_minor_carts_include_their_manufactory_and_avoid_ports(tables):
    track = SOUTH_TRACK + EAST_TRACK
    board = board_with(tables, track, [("Artesans", "Sant Climent", "manufactory")])
    plan = plan_of(board, "Artesans", [("c", "cart", 6)], is_major=False)
    assert plan.revenue == 10 + 10 + 20 + 10  # Sant Climent - Sant Lluís - Maó - ... - Es Castell
    assert "Sant Climent" in plan.routes[0].nodes
    with_port = board_with(tables, track, [("Artesans", "Sant Climent", "manufactory"), ("RNC", "Maó", "port")])
    assert plan_of(with_port, "Artesans", [("c", "cart", 6)], is_major=False).revenue == 10 + 10


def test_full_slots_block_passing(tables):
    stations = [("RNC", "Maó", "port")]
    board = board_with(tables, SOUTH_TRACK, stations)
    assert plan_of(board, "RNC", [CART]).revenue == 40
    blocked = board_with(tables, SOUTH_TRACK, stations + [("Artesans", "Sant Lluís", "manufactory")])
    assert blocked.free_slots("Sant Lluís") == 0
    plan = plan_of(blocked, "RNC", [CART])
    assert plan.revenue == 30 and plan.routes[0].nodes == ["Maó", "Sant Lluís"]
    # the station's owner is not blocked by its own station
    assert plan_of(blocked, "Artesans", [CART], is_major=False).revenue == 10 + 10


def test_full_port_blocks_ships_passing(tables):
    ctx = RevenueContext(epoch=3, market_markers={"Livorno": 2}, market_bonus=10)
    ship = [("s", "ship", 9)]
    # Maó - K12 - L11 - Es Castell - L9 - K8 - J7 - I6 - Livorno: 20 + 10 + 50 + 20
    free = board_with(tables, (), [("RNC", "Maó", "port")])
    assert plan_of(free, "RNC", ship, ctx).routes[0].nodes == ["Maó", "Es Castell", "Livorno"]
    assert plan_of(free, "RNC", ship, ctx).revenue == 100
    # RCC's port fills Es Castell: RNC sails past it on the lane L11 - L9 (one hex less)
    full = board_with(tables, (), [("RNC", "Maó", "port"), ("RCC", "Es Castell", "port")])
    assert plan_of(full, "RNC", ship, ctx).revenue == 90
    assert plan_of(full, "RNC", ship, ctx).routes[0].hexes == ["J11", "K12", "L11", "L9", "K8", "J7", "I6", "I4"]
    # ending there stays legal (a bonus makes Es Castell worth more than València)
    bonus = RevenueContext(epoch=1, node_bonus={"Es Castell": 100})
    plan = plan_of(full, "RNC", [("s", "ship", 4)], bonus)
    assert plan.routes[0].nodes == ["Maó", "Es Castell"] and plan.revenue == 20 + 10 + 100


def test_markers_pay_and_never_block(tables):
    board = board_with(tables, (), [("RNC", "Maó", "port")])
    ctx = RevenueContext(epoch=3, market_markers={"València": 2}, market_bonus=10,
                         goods_markers={"València": 3, "Palma": 1})
    plan = plan_of(board, "RNC", [XEBEC], ctx)
    assert plan.routes[0].nodes == ["Maó", "València"]
    assert plan.revenue == 20 + 50 + 2 * 10  # Maó (yellow) + València in epoch 3 + 2 markers
    assert plan.goods_reached == {"València": 1}


def test_node_bonus_counts(tables):
    board = board_with(tables, SOUTH_TRACK, [("RNC", "Maó", "port")])
    ctx = RevenueContext(epoch=2, node_bonus={"Maó": 10, "Sant Lluís": 10})
    # xebec: Maó 20+10, València 40; cart: Maó 30, Sant Lluís 20, Sant Climent 10
    assert plan_of(board, "RNC", [XEBEC, CART], ctx).revenue == 70 + 60


def test_ships_only_on_lanes_and_carts_only_on_roads(tables):
    bare = board_with(tables, (), [("RNC", "Maó", "port")])
    assert plan_of(bare, "RNC", [("c", "cart", 9)]).revenue == 0  # no laid road leads anywhere
    board = board_with(tables, SOUTH_TRACK, [("RNC", "Maó", "port")])
    # Maó - Sant Lluís - Sant Climent is 3 hexes by road; a 3-hex ship reaches nothing
    assert plan_of(board, "RNC", [("s", "ship", 3)]).revenue == 0
    assert all(r.kind == "ship" for r in plan_of(board, "RNC", [("s", "ship", 9)]).routes)


def test_ship_routes_need_an_own_port(tables):
    board = board_with(tables, (), [("RNC", "Maó", "port")])
    assert plan_of(board, "RCC", [XEBEC]).revenue == 0  # RCC has no port
    assert plan_of(board, "RNC", [("s", "ship", 2)]).revenue == 0  # Maó - K12 only


def test_plan_is_readable(tables):
    board = board_with(tables, SOUTH_TRACK, [("RNC", "Maó", "port")])
    plan = plan_of(board, "RNC", [CART])
    assert plan.as_dict() == {
        "revenue": 40,
        "routes": [{"vehicle": "cart", "kind": "cart", "hexes": ["J11", "J13", "I12"],
                    "nodes": ["Maó", "Sant Lluís", "Sant Climent"], "revenue": 40}],
        "goods_reached": {},
    }
