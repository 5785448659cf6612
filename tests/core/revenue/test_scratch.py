"""One scratch object per map (core/revenue/scratch.py): the searches' buffers and
caches live in the `Scratch` its `MapTables` owns, and no core module keeps one of its
own at module level."""
from __future__ import annotations

import importlib
from array import array

from menorca_sim import compiled
from menorca_sim.core.board import Board
from menorca_sim.core.maptables import map_tables
from menorca_sim.core.revenue import routes
from menorca_sim.core.revenue.context import RevenueContext
from menorca_sim.core.revenue.scratch import scratch_of
from menorca_sim.play import play_game, seat_policies
from menorca_sim.rules import load_ruleset

CART = ("c", "cart", 3)


def test_each_map_has_its_own_scratch():
    tables = map_tables(load_ruleset())
    other = map_tables(load_ruleset(overrides={"routes.min_distinct_nodes": 1}))
    assert scratch_of(tables) is scratch_of(tables) is tables.scratch
    assert scratch_of(other) is not scratch_of(tables)
    for tb in (tables, other):
        board = Board(tb)
        board.place_station("RNC", tb.rs.companies["RNC"].home, "port")
        routes.best_routes(board, "RNC", True, [CART], RevenueContext(epoch=1))
    assert scratch_of(tables).search is not None and scratch_of(other).search is not None
    assert scratch_of(tables).search is not scratch_of(other).search


def test_no_core_module_keeps_a_buffer_of_its_own():
    """After a whole game (every search run), no module of the core holds a buffer or a
    search object among its globals: they are all in the maps' scratch."""
    rs = load_ruleset()
    play_game(rs, seed=3, policies=seat_policies(["heuristic"] * 3, seed=3))
    scratch = scratch_of(map_tables(rs))
    kept = [scratch.search, scratch.fleet, scratch.table_views, scratch.board_views, scratch.lays, scratch.reached,
            scratch.graphs[0]]
    assert all(item is not None for item in kept)
    buffer_types = {type(item) for item in kept} | {array, bytearray, memoryview}
    for source in compiled.core_sources():
        module = importlib.import_module(compiled.module_name(source))
        held = [name for name, value in vars(module).items() if type(value) in buffer_types
                or (type(value) is list and any(type(item) in buffer_types for item in value))]
        assert held == [], f"{module.__name__} keeps {held} at module level"
