"""Property test of the route optimizer: on generated positions (track, stations,
fleet, revenue context) it earns exactly what the brute-force reference
(tests/routes_reference.py) finds, with routes the reference calls legal."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import routes_reference as ref
from menorca_sim.core.board import Board
from menorca_sim.core.maptables import map_tables
from menorca_sim.core.revenue import routes
from menorca_sim.core.revenue.context import RevenueContext
from menorca_sim.rules import load_ruleset
from menorca_sim.rules.model import COLOURS

FAST = settings(max_examples=12, deadline=None)
SLOW = settings(max_examples=400, deadline=None)
RS = load_ruleset()
TABLES = map_tables(RS)
OFFBOARDS = list(RS.map.offboards)


@st.composite
def positions(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    board = Board(TABLES)
    colours = COLOURS[: draw(st.integers(1, len(COLOURS)))]
    in_play = ref.random_position(RS, board, rng, draw(st.integers(0, 50)), colours, draw(st.integers(0, 6)))
    company = draw(st.sampled_from(in_play))
    is_major = RS.companies[company].kind == "major"
    vehicles = ref.random_vehicles(RS, rng, is_major, draw(st.integers(1, 4)))
    ctx = RevenueContext(
        epoch=draw(st.integers(1, len(RS.epochs))),
        node_bonus=draw(st.dictionaries(st.sampled_from(list(RS.map.nodes)), st.sampled_from([10, 20]), max_size=3)),
        market_markers=draw(st.dictionaries(st.sampled_from(OFFBOARDS), st.integers(1, 3), max_size=3)),
        market_bonus=RS.markers.market_bonus,
        goods_markers=draw(st.dictionaries(st.sampled_from(OFFBOARDS), st.integers(1, 2), max_size=3)),
    )
    return board, company, is_major, vehicles, ctx


def check_optimal(position) -> None:
    board, company, is_major, vehicles, ctx = position
    plan = routes.best_routes(board, company, is_major, vehicles, ctx)
    assert plan.revenue == ref.best_revenue(RS, board, company, is_major, vehicles, ctx)
    assert plan.revenue == sum(r.revenue for r in plan.routes)
    assert len({r.vehicle for r in plan.routes}) == len(plan.routes)  # one route per vehicle
    by_id = {v[0]: v for v in vehicles}
    for route in plan.routes:
        _vid, kind, reach = by_id[route.vehicle]
        legal = ref.legal_routes(RS, board, company, is_major, kind, reach, ctx)
        assert (route.hexes, route.nodes, route.revenue) in [(h, s, r) for h, s, r, _u in legal]


@FAST
@given(positions())
def test_optimizer_equals_brute_force(position):
    check_optimal(position)


@pytest.mark.slow
@SLOW
@given(positions())
def test_optimizer_equals_brute_force_many(position):
    check_optimal(position)
