"""The batched and remembered route queries answer exactly what one `best_routes` per
question on a copy of the board answers: `lay_revenues` (the wing's and the Game's, which
leave the board as they found it), `next_lay_revenues` (and `next_lay_revenues_each`, a level
of them at once), `marker_revenues`, and `route_revenue` as the Game remembers it.
Positions are the tile-lay decisions of seeded games between random and heuristic players."""
from __future__ import annotations

import collections

import numpy as np
import pytest

import policies
from menorca_sim.core.revenue import fleet as revenue_fleet
from menorca_sim.core.revenue import lays as revenue_lays
from menorca_sim.core.revenue import placements, routes
from menorca_sim.core.revenue.context import revenue_context
from menorca_sim.game import Game
from menorca_sim.rules import load_ruleset


def lay_positions(players: int, seed: int, style: str, limit: int = 30):
    """(game, legal tile lays) at the first `limit` tile-lay decisions of one game."""
    rs = load_ruleset()
    game = Game(rs, players=players, seed=seed)
    seats = [policies.make_policy(style, s, np.random.default_rng(seed * 7 + s)) for s in range(players)]
    while not game.is_over():
        legal = game.legal_actions()
        lays = [a for a in legal if a["type"] == "lay_tile"]
        if lays:
            yield game, lays
            limit -= 1
            if limit == 0:
                return
        game.apply_code(seats[game.current_actor()].act_code(game))


def fleets(game, company: str) -> list[list[str]]:
    """Its fleet plus every vehicle for sale, and that split into carts and ships."""
    rs = game.ruleset
    owned = game.observation()["companies"][company]["vehicles"]
    probe = list(owned) + sorted(set(game.vehicles_for_sale(company)))
    carts = [v for v in probe if rs.vehicles[v].kind == "cart"]
    return [probe, carts, [v for v in probe if v not in carts]]


def board_state(board) -> tuple:
    """Tiles, supply, stations and the live road arcs (slots past a vertex's degree are
    never read, so they may hold anything)."""
    degree, target, unit, stride = board.road
    arcs = [(target[v * stride + i], unit[v * stride + i]) for v in range(len(degree)) for i in range(degree[v])]
    return (bytes(board.tile), bytes(board.rot), bytes(board.left), bytes(board.station_company), bytes(degree),
            arcs)


@pytest.mark.parametrize("players,seed,style", [(2, 1, "random_legal"), (3, 3, "heuristic")])
def test_game_lay_revenues_equal_one_plan_per_lay(players, seed, style):
    checked = 0
    for game, lays in lay_positions(players, seed, style):
        company = game.actor_label()
        key = game.map_key()
        for fleet in fleets(game, company):
            expected = [game.route_revenue(company, fleet, [lay]) for lay in lays]
            assert game.lay_revenues(company, fleet, lays) == expected
            checked += any(expected)
        assert game.map_key() == key
    assert checked > 0  # some positions had lays that earn


@pytest.mark.parametrize("players,seed", [(2, 7), (3, 8)])
def test_game_lay_revenues_after_done_lays(players, seed):
    """With `done`, each answer is the plan after the done lays and then that lay."""
    for game, lays in lay_positions(players, seed, "random_legal", limit=10):
        company = game.actor_label()
        fleet = fleets(game, company)[0]
        done = lays[:1]
        later = game.next_lays(company, done)
        expected = [game.route_revenue(company, fleet, done + [lay]) for lay in later]
        assert game.lay_revenues(company, fleet, later, done) == expected


@pytest.mark.parametrize("seed", [5, 6])
def test_board_lay_revenues_restore_the_board(seed):
    for game, lays in lay_positions(3, seed, "random_legal"):
        eng = game._eng
        company = game.actor_label()
        c = eng.t.company_index[company]
        fleet = [(v, game.ruleset.vehicles[v].kind, game.ruleset.vehicles[v].range)
                 for v in fleets(game, company)[0]]
        ctx = revenue_context(eng, c)
        before, version = board_state(eng.board), eng.board.version
        triples = [(a["hex"], a["tile"], a["rotation"]) for a in lays]
        base, got = revenue_lays.lay_revenues(eng.board, company, eng.is_major(c), fleet, ctx, triples)
        assert board_state(eng.board) == before and eng.board.version == version
        assert base == routes.best_routes(eng.board, company, eng.is_major(c), fleet, ctx).revenue
        expected = []
        for hex_, tile, rotation in triples:
            copy = eng.board.clone()
            copy.lay_tile(hex_, tile, rotation)
            expected.append(routes.best_routes(copy, company, eng.is_major(c), fleet, ctx).revenue)
        assert got == expected


def test_a_board_version_changes_with_the_board_and_only_then():
    """The version keys the Game's map key and the engine's board memo: any change of
    tiles, manifest or stations gives a version never seen before; a copy keeps its
    original's version until one of them changes."""
    game, lays = next(lay_positions(3, 5, "random_legal"))
    board = game._eng.board
    seen = {board.version}
    copy = board.clone()
    assert copy.version == board.version and board_state(copy) == board_state(board)
    copy.lay_tile(lays[0]["hex"], lays[0]["tile"], lays[0]["rotation"])
    assert copy.version not in seen and board.version in seen
    seen.add(copy.version)
    company = game.actor_label()
    sites = copy.station_sites(company, "manufactory") or copy.station_sites(company, "port")
    kind = "manufactory" if copy.station_sites(company, "manufactory") else "port"
    copy.place_station(company, sites[0], kind)
    assert copy.version not in seen
    seen.add(copy.version)
    other = next(c for c in game.ruleset.companies if c != company)
    copy.replace_company(company, other)
    assert copy.version not in seen
    key = game.map_key()
    game.apply(lays[0])
    assert game._eng.board.version not in seen and game.map_key() != key


def test_lay_revenues_reject_other_actions():
    game = next(g for g, _ in lay_positions(2, 1, "random_legal"))
    company = game.actor_label()
    with pytest.raises(ValueError):
        game.lay_revenues(company, fleets(game, company)[0], [{"type": "skip"}])


def test_lays_of_one_effect_earn_the_same():
    """Lays that `lay_revenues` answers with one search (equal effects) earn the same
    for every company and fleet, and the lays without effect (a bare hex whose new track
    dead-ends) what the map earns without them."""
    revenues: dict = {}
    shared = collections.Counter()  # lays per (position, live effect)
    for game, lays in lay_positions(3, 3, "heuristic"):
        board = game._eng.board
        effects = revenue_lays.lay_effects(board, [(a["hex"], a["tile"], a["rotation"]) for a in lays])  # -1: none
        shared.update((game.action_count(), effect) for effect in effects)
        for company in game.company_states():
            for fleet in fleets(game, company):
                for lay, effect in zip(lays, effects):
                    revenue = game.route_revenue(company, fleet, [lay])
                    key = (game.action_count(), company, tuple(fleet), effect)
                    assert revenues.setdefault(key, revenue) == revenue
                    if effect == -1:
                        assert revenue == game.route_revenue(company, fleet)
    assert any(effect == -1 for _, effect in shared)
    assert any(effect != -1 and lays > 1 for (_, effect), lays in shared.items())


def test_lay_revenues_check_every_lay():
    """A lay answered without a search is still checked like one laid on the map."""
    game, lays = next(lay_positions(2, 1, "random_legal"))
    company = game.actor_label()
    fleet = fleets(game, company)[0]
    bad_tile = dict(lays[0], tile="no-such-tile")
    with pytest.raises(ValueError, match="unknown tile"):
        game.lay_revenues(company, fleet, [bad_tile])
    bad_hex = dict(lays[0], hex="Z99")
    with pytest.raises(ValueError, match="not a land hex"):
        game.lay_revenues(company, fleet, [bad_hex])


def _core_fleet(game, fleet: list[str]) -> list[tuple]:
    return [(v, game.ruleset.vehicles[v].kind, game.ruleset.vehicles[v].range) for v in fleet]


@pytest.mark.parametrize("players,seed,style", [(2, 4, "random_legal"), (3, 3, "heuristic")])
def test_next_lay_revenues_equal_lay_revenues_of_the_next_lays(players, seed, style):
    for game, lays in lay_positions(players, seed, style, limit=12):
        company = game.actor_label()
        for fleet in fleets(game, company):
            for done in ([], lays[:1]):
                later = game.next_lays(company, done)
                assert game.next_lay_revenues(company, fleet, done) == game.lay_revenues(company, fleet, later, done)


@pytest.mark.parametrize("players,seed,style", [(2, 4, "random_legal"), (3, 3, "heuristic")])
def test_next_lay_revenues_each_equal_next_lay_revenues_after_each_lay(players, seed, style):
    """A lookahead's level in one call: the same answers as one `next_lay_revenues` per
    first lay, and the game's own board (laid and undone in place) as it was."""
    earning = 0
    for game, lays in lay_positions(players, seed, style, limit=8):
        company = game.actor_label()
        before, key = board_state(game._eng.board), game.map_key()
        for fleet in fleets(game, company)[:2] + [[]]:
            for done in ([], lays[:1]):
                firsts = game.next_lays(company, done)[:12] if done else lays[:12]
                got = game.next_lay_revenues_each(company, fleet, firsts, done)
                assert got == [game.next_lay_revenues(company, fleet, done + [lay]) for lay in firsts]
                earning += sum(any(revenues) for revenues in got)
                # until_earning: the same answers, up to the first that holds a revenue
                first = next((i for i, revenues in enumerate(got) if any(revenues)), len(got) - 1)
                assert game.next_lay_revenues_each(company, fleet, firsts, done, until_earning=True) == got[:first + 1]
        assert board_state(game._eng.board) == before and game.map_key() == key
    assert earning > 0


def test_next_lay_revenues_each_check_the_first_lays():
    game, lays = next(lay_positions(2, 1, "random_legal"))
    company = game.actor_label()
    fleet = fleets(game, company)[0]
    before = board_state(game._eng.board)
    with pytest.raises(ValueError, match="unknown tile"):
        game.next_lay_revenues_each(company, fleet, [lays[0], dict(lays[0], tile="no-such-tile")])
    with pytest.raises(ValueError, match="not a tile lay"):
        game.next_lay_revenues_each(company, fleet, [{"type": "skip"}])
    assert board_state(game._eng.board) == before


def station_positions(players: int, seed: int, limit: int = 12):
    """(game, legal station placements) at the first `limit` station decisions of one game."""
    rs = load_ruleset()
    game = Game(rs, players=players, seed=seed)
    seats = [policies.make_policy("heuristic", s, np.random.default_rng(seed * 7 + s)) for s in range(players)]
    while not game.is_over() and limit > 0:
        legal = game.legal_actions()
        sites = [a for a in legal if a["type"] == "place_station"]
        if sites:
            yield game, sites
            limit -= 1
        game.apply_code(seats[game.current_actor()].act_code(game))


@pytest.mark.parametrize("players,seed", [(2, 4), (3, 3)])
def test_game_station_revenues_equal_one_plan_per_station(players, seed):
    """One core call answers what each station would earn, as a search on a copy does,
    and leaves the board as it was."""
    gained = 0
    for game, sites in station_positions(players, seed):
        company = game.actor_label()
        board = game._eng.board
        before, version = board_state(board), board.version
        for fleet in fleets(game, company):
            expected = [game.route_revenue(company, fleet, [site]) for site in sites]
            assert game.station_revenues(company, fleet, sites) == expected
            assert board_state(board) == before and board.version == version
            gained += max(expected, default=0) > game.route_revenue(company, fleet)
    assert gained > 0  # some stations earn


def test_station_revenues_reject_other_actions_and_taken_sites():
    game, sites = next(station_positions(3, 3))
    company = game.actor_label()
    fleet = fleets(game, company)[0]
    with pytest.raises(ValueError):
        game.station_revenues(company, fleet, [{"type": "skip"}])
    own = game.company_state(company, ("stations",))["stations"][0]
    with pytest.raises(ValueError, match="cannot place"):
        game.station_revenues(company, fleet, [dict(sites[0], node=own)])


def test_marker_revenues_equal_one_plan_per_marker():
    markers = [{"type": "place_market_marker", "offboard": o} for o in load_ruleset().map.offboards]
    gained = 0
    for game, _ in lay_positions(3, 3, "heuristic", limit=12):
        for company in game.company_states():
            for fleet in fleets(game, company):
                expected = [game.route_revenue(company, fleet, [m]) for m in markers]
                assert game.marker_revenues(company, fleet, markers) == expected
                gained += max(expected, default=0) > game.route_revenue(company, fleet)
    assert gained > 0
    node = next(iter(load_ruleset().map.nodes))  # markers go on offboards only
    with pytest.raises(ValueError, match="not an offboard"):
        placements.marker_revenues(game._eng.board, company, False, _core_fleet(game, fleets(game, company)[0]),
                                   revenue_context(game._eng, game._eng.t.company_index[company]), [node])


def test_a_shorter_fleet_after_a_longer_one_earns_what_a_fresh_search_finds():
    """`routes.best_revenue` and `best_routes` serve a fleet from the routes enumerated for
    a question before (same map state, company, kind and values, a longer range): the
    same revenue as a fresh search (a `FleetSearch` enumerates in a buffer of its own)."""
    rs = load_ruleset()
    earning = 0
    for game, _ in lay_positions(3, 3, "heuristic", limit=12):
        eng = game._eng
        for company in game.company_states():
            c = eng.t.company_index[company]
            ctx = revenue_context(eng, c)
            fleets_asked = []  # of each kind in a row: shorter, longer (searched anew), shorter
            for kind in ("ship", "cart"):
                by_range = sorted((v for v, spec in rs.vehicles.items() if spec.kind == kind),
                                  key=lambda v: -rs.vehicles[v].range)
                shorter, longer = _core_fleet(game, by_range[-2:]), _core_fleet(game, by_range[:2])
                fleets_asked += [shorter, longer, shorter]
            got = [routes.best_revenue(eng.board, c, eng.is_major(c), fleet, ctx) for fleet in fleets_asked]
            assert got == [routes.best_routes(eng.board, company, eng.is_major(c), fleet, ctx).revenue
                           for fleet in fleets_asked]
            assert got == [revenue_fleet.fleet_search(eng.board, c, eng.is_major(c), fleet, ctx).revenue(-1)
                           for fleet in fleets_asked]
            earning += any(got)
    assert earning > 0


def test_remembered_route_revenue_equals_a_fresh_search():
    """Every company, fleet and order of it, at positions of one game whose players asked
    thousands of revenues before (the memo is shared by the seats): the same fleet asked
    for two companies with equal maps and bonuses is not mixed up, and an answer does
    not outlive a change of the map."""
    for game, _ in lay_positions(3, 3, "heuristic", limit=20):
        eng = game._eng
        everything = sorted(set(v for c in game.company_states() for v in fleets(game, c)[0]))
        for company in game.company_states():
            c = eng.t.company_index[company]
            ctx = revenue_context(eng, c)
            for fleet in fleets(game, company) + [everything]:
                fresh = routes.best_revenue(eng.board, c, eng.is_major(c), _core_fleet(game, fleet), ctx)
                assert game.route_revenue(company, fleet) == fresh
                assert game.route_revenue(company, fleet[::-1]) == fresh


def test_a_dividend_decision_answers_the_fleets_revenue_from_the_routes_just_run(monkeypatch):
    """At a dividend decision the engine has just searched the operating company's routes:
    the Game answers `route_revenue` for the fleet that ran from that plan, without a
    search of its own, and the answer is a fresh search's."""
    rs = load_ruleset()
    game = Game(rs, players=3, seed=4)
    seats = [policies.make_policy("heuristic", s, np.random.default_rng(s)) for s in range(3)]
    checked = 0
    while not game.is_over() and checked < 10:
        if game.decision() == "dividend":
            eng = game._eng
            company = game.actor_label()
            fleet = game.company_state(company, ["vehicles"])["vehicles"]
            c = eng.t.company_index[company]
            fresh = routes.best_revenue(eng.board, c, eng.is_major(c), _core_fleet(game, fleet),
                                        revenue_context(eng, c))

            def no_search(*args):
                raise AssertionError("searched again")

            with monkeypatch.context() as patched:
                patched.setattr(routes, "best_revenue", no_search)
                assert game.route_revenue(company, fleet) == fresh == game.pending_revenue() > 0
            checked += 1
        game.apply_code(seats[game.current_actor()].act_code(game))
    assert checked == 10


def test_revenues_kept_across_actions_equal_a_fresh_search():
    """The Game keeps the revenues asked from action to action while neither the map
    nor the rest of what they depend on changes (`Engine.revenue_version`): at every
    state of two whole games (phases, epochs and their events, legacies bought by
    companies, market markers), each revenue it holds is a fresh search's (every company's
    own fleet asked at every state)."""
    rs = load_ruleset()
    checked = kept = 0  # revenues compared; actions after which the Game kept them
    for seed, players in ((5, 3), (1, 2)):  # companies buy revenue-bonus legacies in both
        game = Game(rs, players=players, seed=seed)
        seats = [policies.make_policy(name, s, np.random.default_rng(seed * 7 + s))
                 for s, name in enumerate(["heuristic", "heuristic_aggressive", "heuristic_cautious"][:players])]
        while not game.is_over():
            eng = game._eng
            for (company, fleet), revenue in game._asked.items():
                c = eng.t.company_index[company]
                assert revenue == routes.best_revenue(eng.board, c, eng.is_major(c), _core_fleet(game, list(fleet)),
                                                      revenue_context(eng, c))
            checked += len(game._asked)
            for company, record in game.company_states(["vehicles"]).items():
                game.route_revenue(company, record["vehicles"])  # kept, if the next action allows
            before = game._asked
            game.apply_code(seats[game.current_actor()].act_code(game))
            kept += game._asked is before and len(before) > 0
    assert checked > 1000 and kept > 100


def test_lays_out_of_a_fleets_reach_earn_what_the_map_earns():
    """`FleetSearch.affects`: a lay where no route of the fleet can reach changes nothing
    for it (and such lays and others occur)."""
    reach = collections.Counter()
    for game, lays in lay_positions(3, 3, "heuristic", limit=12):
        eng = game._eng
        for company in game.company_states():
            c = eng.t.company_index[company]
            for fleet in fleets(game, company):
                if not fleet:
                    continue
                search = revenue_fleet.fleet_search(eng.board, c, eng.is_major(c), _core_fleet(game, fleet),
                                                    revenue_context(eng, c))
                base = game.route_revenue(company, fleet)
                for lay in lays:
                    inside = search.affects(eng.board.tables.land_index[lay["hex"]])
                    reach[inside] += 1
                    if not inside:
                        assert game.route_revenue(company, fleet, [lay]) == base
    assert reach[True] > 0 and reach[False] > 0


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 3)])
def test_ship_lay_revenues_follow_a_ports_new_colour(players, seed):
    """A fleet search enumerates the ships' routes once and values them again per lay
    (`FleetSearch._ship_revenue`): the lays that change what ships earn (a port's new
    colour) earn what a fresh search finds, with the lays that change nothing between."""
    changed = 0
    for game, lays in lay_positions(players, seed, "heuristic", limit=60):
        company = game.actor_label()
        ships = fleets(game, company)[2]
        if not ships:
            continue
        base = game.route_revenue(company, ships)
        expected = [game.route_revenue(company, ships, [lay]) for lay in lays]
        assert game.lay_revenues(company, ships, lays) == expected
        changed += sum(revenue != base for revenue in expected)
    assert changed > 0  # some lays changed what the ships earn
