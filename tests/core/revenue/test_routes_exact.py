"""The optimizer against the brute-force reference (tests/routes_reference.py) on random
positions of the default map, and the compiled module against the pure one."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from helpers import ROOT, TESTS
from helpers import routes_reference as ref
from menorca_sim.core import is_compiled
from menorca_sim.core.board import Board
from menorca_sim.core.maptables import map_tables
from menorca_sim.core.revenue import routes
from menorca_sim.core.revenue.context import RevenueContext
from menorca_sim.rules import load_ruleset
from menorca_sim.rules.model import COLOURS

STAGES = (  # (tile lays, colours allowed, extra stations): early, middle, late game
    (8, COLOURS[:1], 0),
    (25, COLOURS[:2], 3),
    (60, COLOURS, 6),
)


def random_case(rs, tables, seed: int):
    """A random position, company, fleet of 1-4 vehicles and revenue context."""
    rng = np.random.default_rng(seed)
    board = Board(tables)
    lays, colours, stations = STAGES[seed % len(STAGES)]
    in_play = ref.random_position(rs, board, rng, lays, colours, stations)
    company = in_play[rng.integers(len(in_play))]
    is_major = rs.companies[company].kind == "major"
    vehicles = ref.random_vehicles(rs, rng, is_major, int(rng.integers(1, 5)))
    offboards = list(rs.map.offboards)
    ctx = RevenueContext(
        epoch=int(rng.integers(1, 5)),
        node_bonus={n: 10 for n in rs.map.nodes if rng.random() < 0.1},
        market_markers={o: int(rng.integers(1, 3)) for o in offboards if rng.random() < 0.3},
        market_bonus=rs.markers.market_bonus,
        goods_markers={o: 1 for o in offboards if rng.random() < 0.3},
    )
    return board, company, is_major, vehicles, ctx


def check_positions(seeds) -> None:
    rs = load_ruleset()
    tables = map_tables(rs)
    for seed in seeds:
        board, company, is_major, vehicles, ctx = random_case(rs, tables, seed)
        plan = routes.best_routes(board, company, is_major, vehicles, ctx)
        expected = ref.best_revenue(rs, board, company, is_major, vehicles, ctx)
        assert plan.revenue == expected, (seed, company, vehicles, plan.as_dict())
        assert plan.revenue == sum(r.revenue for r in plan.routes)
        by_id = {v[0]: v for v in vehicles}
        for route in plan.routes:
            _vid, kind, rng = by_id[route.vehicle]
            legal = ref.legal_routes(rs, board, company, is_major, kind, rng, ctx)
            assert (route.hexes, route.nodes, route.revenue) in [(h, s, r) for h, s, r, _u in legal], seed
        # a vehicle idles only where every vehicle of its kind that runs reaches at least as far
        # (the assignment stops at the first vehicle, longest range first, that runs none)
        running = [by_id[r.vehicle] for r in plan.routes]
        for _vid, kind, rng in vehicles:
            if sum(v == (_vid, kind, rng) for v in running) < sum(v == (_vid, kind, rng) for v in vehicles):
                assert all(rng <= r for _v, k, r in running if k == kind), (seed, vehicles, plan.as_dict())


def test_optimizer_equals_brute_force_on_500_positions():
    check_positions(range(500))


@pytest.mark.slow
def test_optimizer_equals_brute_force_on_5000_more_positions():
    check_positions(range(500, 5500))


def plans_json(seeds) -> str:
    """Plans of the random cases, as JSON (run in both modes)."""
    rs = load_ruleset()
    tables = map_tables(rs)
    out = []
    for seed in seeds:
        board, company, is_major, vehicles, ctx = random_case(rs, tables, seed)
        out.append(routes.best_routes(board, company, is_major, vehicles, ctx).as_dict())
    return json.dumps(out, ensure_ascii=False)


def test_compiled_and_pure_give_identical_plans():
    if not is_compiled(routes):
        pytest.skip("the core is not compiled (make build)")
    here = Path(__file__).parent
    code = (f"import sys; sys.path[:0] = [{str(here)!r}, {str(TESTS)!r}]; import test_routes_exact as t; "
            "assert not t.is_compiled(t.routes); print(t.plans_json(range(150)))")
    env = dict(os.environ, MENORCA_SIM_PURE="1")
    pure = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                          cwd=ROOT)
    assert json.loads(pure.stdout) == json.loads(plans_json(range(150)))
