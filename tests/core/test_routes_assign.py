"""The assignment of routes to vehicles (`_Search._assign`) on made-up routes, against
every assignment: the best revenue, and of the assignments earning it the first in the
search's order (routes by revenue, then as enumerated; none after every route), the plan
the branch and bound's pruning (bounds, vehicles' swaps) must keep."""
from __future__ import annotations

import importlib.util
import itertools
import random

from helpers import ROOT

WORDS = 2  # 64-bit words of a set of units, as on the default map


def pure_routes():
    """routes.py as plain Python whatever the build: the test sets its search's buffers,
    which the compiled module keeps from Python."""
    spec = importlib.util.spec_from_file_location("routes_pure", ROOT / "menorca_sim" / "core" / "routes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_routes(rng: random.Random) -> list[tuple[int, int, set[int]]]:
    """(revenue, hexes, units) each, with ties in revenue."""
    return [(rng.choice([rng.randint(10, 60), rng.choice([20, 30, 40])]), rng.randint(1, 7),
             set(rng.sample(range(rng.randint(4, 64 * WORDS)), rng.randint(1, 4))))
            for _ in range(rng.randint(0, 8))]


def first_best(routes, ranges: list[int]) -> tuple[int, list[int]]:
    """Of every assignment, the best revenue and the first assignment earning it."""
    order = sorted(range(len(routes)), key=lambda r: -routes[r][0])  # stable: ties as enumerated
    place = {r: i for i, r in enumerate(order)}
    best = None
    for picks in itertools.product([-1, *range(len(routes))], repeat=len(ranges)):
        chosen = [r for r in picks if r >= 0]
        units = [u for r in chosen for u in routes[r][2]]
        if len(units) != len(set(units)) or any(r >= 0 and routes[r][1] > v for r, v in zip(picks, ranges)):
            continue
        key = (-sum(routes[r][0] for r in chosen), [place[r] if r >= 0 else len(routes) for r in picks])
        if best is None or key < best:
            best = key
    return -best[0], [order[i] if i < len(routes) else -1 for i in best[1]]


def test_assignment_is_the_first_best_of_every_assignment():
    routes_module = pure_routes()
    rng = random.Random(7)
    for _ in range(500):
        routes = random_routes(rng)
        ranges = sorted((rng.randint(1, 7) for _ in range(rng.randint(1, 4))), reverse=True)
        search = routes_module._Search(8, WORDS)
        for r, (revenue, hexes, units) in enumerate(routes):
            search.r_rev[r], search.r_len[r] = revenue, hexes
            for u in units:
                search.r_mask[r * WORDS + (u >> 6)] |= 1 << (u & 63)
        search.n = len(routes)
        picks = search.assign(list(ranges))
        assert (search.best, picks) == first_best(routes, ranges), (routes, ranges)
