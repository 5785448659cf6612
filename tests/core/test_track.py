"""Track and stations on the Board: rotations, upgrades, phase colours, terrain costs,
connectivity, the tile manifest and station slots (default map unless stated)."""
from __future__ import annotations

import pytest

from menorca_sim.core.board import Board
from menorca_sim.core.maptables import map_tables
from menorca_sim.rules import load_ruleset
from menorca_sim.rules.model import NODE

YELLOW = ["yellow"]
TO_GREEN = ["yellow", "green"]
ALL = ["yellow", "green", "brown", "grey"]
CASH = 1000


def rnc_at_mao(tables) -> Board:
    board = Board(tables)
    board.place_station("RNC", "Maó", "port")
    return board


def lay_hexes(board, company, colours=YELLOW, cash=CASH, discount=0) -> set[str]:
    return {lay[0] for lay in board.tile_lays(company, colours, cash, discount)}


def test_rotation_turns_edges_clockwise_and_keeps_the_node(tables):
    assert tables.paths[tables.tile_index["7"]][1] == ((1, 2),)  # 0-1 turned by one edge
    assert tables.paths[tables.tile_index["9"]][3] == ((0, 3),)
    assert tables.paths[tables.tile_index["3"]][5] == ((0, NODE), (5, NODE))  # 0-n 1-n


def test_distinct_rotations_only(tables):
    assert tables.rotations[tables.tile_index["9"]] == (0, 1, 2)  # a straight has 3 positions
    assert tables.rotations[tables.tile_index["7"]] == (0, 1, 2, 3, 4, 5)
    assert tables.rotations[tables.tile_index["X4"]] == (0,)  # all six edges


def test_lay_and_tile_at(tables):
    board = rnc_at_mao(tables)
    assert board.tile_at("J13") is None
    assert board.tile_at("J11") == ("preprinted:J11", 0)
    board.lay_tile("J13", "3", 2)
    assert board.tile_at("J13") == ("3", 2)
    with pytest.raises(ValueError):
        board.lay_tile("I12", "9", 0)  # a plain tile on a town hex
    with pytest.raises(ValueError):
        board.lay_tile("I10", "3", 0)  # a town tile on a plain hex


def test_every_upgrade_keeps_old_paths_one_colour_up(tables):
    for (old, rot), news in tables.upgrades.items():
        for new, new_rot in news:
            assert tables.tile_colour[new] == tables.tile_colour[old] + 1
            assert tables.tile_node[new] == tables.tile_node[old]
            assert set(tables.paths[old][rot]) <= set(tables.paths[new][new_rot])
    # and the relation is complete for a known case: Maó's printed S and NW roads
    mao = tables.tile_index["preprinted:J11"]
    offered = {(tables.tile_ids[n], r) for n, r in tables.upgrades[(mao, 0)]}
    assert offered == {("14", 2), ("15", 0), ("15", 5)}


def test_upgrade_must_keep_paths_and_go_one_colour_up(tables):
    board = rnc_at_mao(tables)
    with pytest.raises(ValueError):
        board.lay_tile("J11", "15", 1)  # edges 1-4: loses the road south
    with pytest.raises(ValueError):
        board.lay_tile("J11", "63", 0)  # brown straight onto yellow
    board.lay_tile("J11", "15", 0)
    assert board.tile_at("J11") == ("15", 0)


def test_phase_colours(tables):
    board = rnc_at_mao(tables)
    assert all(tile in ("3", "4", "58", "T1", "7", "8", "9") for _h, tile, _r, _c in board.tile_lays("RNC", YELLOW, CASH))
    green = {(h, t) for h, t, _r, _c in board.tile_lays("RNC", TO_GREEN, CASH)}
    assert ("J11", "15") in green and ("J11", "14") in green
    assert not any(tables.tile_colour[tables.tile_index[t]] > 1 for _h, t in green)
    board.lay_tile("J11", "15", 0)
    assert not any(h == "J11" for h, _t, _r, _c in board.tile_lays("RNC", TO_GREEN, CASH))
    assert {t for h, t, _r, _c in board.tile_lays("RNC", ALL, CASH) if h == "J11"} == {"63"}


def rcc_next_to_hills(tables, rs=None) -> Board:
    """RCC at Ciutadella with a straight on C8 pointing at the hills of D7."""
    board = Board(tables)
    board.place_station("RCC", "Ciutadella", "port")
    board.lay_tile("C8", "9", 1)
    return board


def test_terrain_cost_discount_and_cash(tables):
    board = rcc_next_to_hills(tables)
    costs = {c for h, _t, _r, c in board.tile_lays("RCC", YELLOW, CASH) if h == "D7"}
    assert costs == {20}
    assert {c for h, _t, _r, c in board.tile_lays("RCC", YELLOW, CASH, 10) if h == "D7"} == {10}
    assert {c for h, _t, _r, c in board.tile_lays("RCC", YELLOW, CASH, 30) if h == "D7"} == {0}
    assert "D7" not in lay_hexes(board, "RCC", cash=19)
    assert "C10" in lay_hexes(board, "RCC", cash=0)  # plain: free


@pytest.mark.parametrize("on_upgrade, cost", [(False, 0), (True, 20)])
def test_terrain_on_upgrade_option(on_upgrade, cost):
    tables = map_tables(load_ruleset(overrides={"operating.terrain_on_upgrade": on_upgrade}))
    board = rcc_next_to_hills(tables)
    board.lay_tile("D7", "9", 1)
    upgrades = {c for h, _t, _r, c in board.tile_lays("RCC", TO_GREEN, CASH) if h == "D7"}
    assert upgrades == {cost}


def test_lays_connect_to_the_network(tables):
    board = rnc_at_mao(tables)
    assert lay_hexes(board, "RNC") == {"I10", "J13"}  # Maó's printed roads point there
    board.lay_tile("J13", "3", 2)  # Sant Lluís: roads N (Maó) and NW (Sant Climent)
    assert lay_hexes(board, "RNC") == {"I10", "I12"}
    assert lay_hexes(board, "RCC") == set()  # no station, no network
    ccm = Board(tables)
    ccm.place_station("CCM", "Fornells", "port")
    assert lay_hexes(ccm, "CCM") == {"F5"}  # the station's own (empty) hex


def test_full_node_stops_the_network(tables):
    board = rnc_at_mao(tables)
    board.lay_tile("J13", "3", 2)
    board.place_station("Artesans", "Sant Lluís", "manufactory")
    assert lay_hexes(board, "RNC") == {"I10"}  # cannot build on beyond a full node
    assert "I12" in lay_hexes(board, "Artesans")  # its owner can


def test_manifest_counts_and_returned_tiles(tables):
    board = rnc_at_mao(tables)
    assert board.tiles_left("3") == 2
    board.lay_tile("J13", "3", 2)
    board.lay_tile("I12", "3", 4)
    assert board.tiles_left("3") == 0
    assert not any(t == "3" for _h, t, _r, _c in board.tile_lays("RNC", YELLOW, CASH))
    with pytest.raises(ValueError):
        board.lay_tile("K10", "3", 0)
    board.lay_tile("J13", "87", 2)  # green town keeps 2-n and 3-n; the yellow tile returns
    assert board.tiles_left("3") == 1 and board.tiles_left("87") == 2


def test_stations_and_slots(tables):
    board = Board(tables)
    assert board.free_slots("Maó") == 2
    board.place_station("RNC", "Maó", "port")
    assert board.free_slots("Maó") == 1
    assert board.stations("RNC") == [("Maó", "port")]
    with pytest.raises(ValueError):
        board.place_station("RNC", "Maó", "port")  # one station per company and node
    with pytest.raises(ValueError):
        board.place_station("RCC", "Sant Lluís", "port")  # not a port node
    board.place_station("RCC", "Maó", "port")
    assert board.free_slots("Maó") == 0
    with pytest.raises(ValueError):
        board.place_station("CCM", "Maó", "port")  # full


def test_station_sites(tables):
    board = rnc_at_mao(tables)
    # ports: the port nodes reachable over roads and lanes, with a free slot
    assert board.station_sites("RNC", "port") == ["Ciutadella", "Fornells", "Es Castell"]
    board.place_station("RCC", "Es Castell", "port")
    assert board.station_sites("RNC", "port") == ["Ciutadella", "Fornells"]
    # manufactories: over roads only
    board.lay_tile("J13", "3", 2)
    board.lay_tile("I12", "T1", 5)
    board.place_station("Destil·ladors", "Sant Climent", "manufactory")
    assert board.station_sites("Destil·ladors", "manufactory") == ["Maó", "Sant Lluís"]


def test_replace_company_and_clone(tables):
    board = Board(tables)
    board.place_station("Ramaders", "Es Mercadal", "manufactory")
    board.place_station("Artesans", "Ferreries", "manufactory")
    copy = board.clone()
    copy.replace_company("Ramaders", "RADM")
    copy.replace_company("Artesans", "RADM")
    assert copy.stations("RADM") == [("Ferreries", "manufactory"), ("Es Mercadal", "manufactory")]
    assert copy.stations("Ramaders") == [] and board.stations("Ramaders") == [("Es Mercadal", "manufactory")]
    copy.lay_tile("F9", "T1", 0)
    assert board.tile_at("F9") is None and copy.tile_at("F9") == ("T1", 0)


def test_only_a_stubs_arcs_into_its_node_cross_no_unit(tables):
    """What the route walk relies on to stop past a vehicle's range (routes' `free_from`):
    a node's arcs lead to an edge, each edge with a neighbour has its track unit, and
    every lane crosses one."""
    arcs = tables.local_arcs
    assert not any(arcs[i] == NODE and arcs[i + 1] == NODE for i in range(0, len(arcs), 2))
    assert all(tables.side_unit[s] >= 0 for s in range(len(tables.neighbour)) if tables.neighbour[s] >= 0)
    degree, _target, unit, stride = tables.lanes_graph
    assert all(unit[v * stride + i] >= 0 for v in range(len(degree)) for i in range(degree[v]))
