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
    spec = importlib.util.spec_from_file_location("routes_pure", ROOT / "menorca_sim" / "core" / "revenue" / "routes.py")
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
        search = loaded(routes_module, routes)
        picks = search.assign(list(ranges))
        assert (search.best, picks) == first_best(routes, ranges), (routes, ranges)


def loaded(routes_module, routes, trails=None):
    """A new search holding `routes` ((revenue, hexes, units) each) and their `trails`
    (vertices each; none if not given)."""
    search = routes_module._Search(8, WORDS)
    for r, (revenue, hexes, units) in enumerate(routes):
        search.r_rev[r], search.r_len[r] = revenue, hexes
        for u in units:
            search.r_mask[r * WORDS + (u >> 6)] |= 1 << (u & 63)
        trail = trails[r] if trails else []
        search.r_trail[search.r_off[r]:search.r_off[r] + len(trail)] = routes_module.array("i", trail)
        search.r_off[r + 1] = search.r_off[r] + len(trail)
    search.n = len(routes)
    return search


def test_fleets_asked_in_turn_answer_as_a_new_search():
    """One search asked fleets in turn, its revenues changed in between (`add_at_ends`,
    `add_on_trails`): each answer is a new search's over the routes as they are then,
    though a fleet asked again with nothing changed takes the last answer (and order)."""
    routes_module = pure_routes()
    rng = random.Random(11)
    for _ in range(200):
        routes = random_routes(rng)
        trails = [[rng.randrange(4) for _ in range(rng.randint(2, 4))] for _ in routes]
        fleets = [sorted((rng.randint(1, 7) for _ in range(rng.randint(1, 3))), reverse=True) for _ in range(2)]
        search = loaded(routes_module, routes, trails)
        asked = []
        added = []  # the changes made and not taken back: (how, vertex, amount) each
        for step in range(12):
            move = rng.choice(["A", "B", "A", "ends", "trails", "back"])
            if move in ("ends", "trails", "back"):  # taken back, as in the engine: revenues stay >= 0
                if move == "back":
                    if not added:
                        continue
                    how, v, amount = added.pop()
                    amount = -amount
                else:
                    how, v, amount = move, rng.randrange(4), rng.choice([10, 30])
                    added.append((how, v, amount))
                (search.add_at_ends if how == "ends" else search.add_on_trails)(v, amount)
                routes = [(search.r_rev[r], *routes[r][1:]) for r in range(len(routes))]
                asked.append((how, v, amount))
                continue
            ranges = fleets[move == "B"]
            again = search.assigned is ranges
            picks = search.assign(ranges)
            asked.append(move)
            fresh = loaded(routes_module, routes, trails)
            fresh_picks = fresh.assign(list(ranges))
            assert (search.best, picks) == (fresh.best, fresh_picks), (routes, fleets, asked)
            assert (search.best, picks) == first_best(routes, ranges)
            if again:  # the last answer, the order kept
                assert search.in_order and list(search.order[:len(routes)]) == list(fresh.order[:len(routes)])
