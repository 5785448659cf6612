"""The Game API: decisions, legality, invariant checks, observation, clone, summary."""
import subprocess
import sys

import numpy as np
import pytest
from helpers.engine import RS, act, buy_out_auction, new_game, play_random, sr_game

import menorca_sim
from menorca_sim.core import operating
from menorca_sim.core.revenue.routes import best_revenue
from menorca_sim.game import Game, IllegalActionError, InvariantError
from menorca_sim.run.outcomes import AUCTIONS, COMPANIES, GAMES, PLAYERS


def test_game_is_exported_lazily():
    """`import menorca_sim` stays light: the Game (and the compiled core) load on first use."""
    probe = ("import sys, menorca_sim; light = 'menorca_sim.game' not in sys.modules; "
             "from menorca_sim.game import Game; print(light, menorca_sim.Game is Game)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True"]
    assert menorca_sim.Game is Game
    with pytest.raises(AttributeError):
        menorca_sim.NoSuchThing


def test_setup_draws_follow_the_seed():
    a, b = Game(RS, players=3, seed=7), Game(RS, players=3, seed=7)
    assert a.header() == b.header()
    assert len(a.header()["minors"]) == 2 and len(a.header()["legacies"]) == 3
    assert a.header()["events"] == ["utrecht", "capital_mao", "seven_years_war", "conquest"]
    draws = {tuple(Game(RS, players=3, seed=s).header()["minors"]) for s in range(30)}
    assert len(draws) == 3  # all three pairs come up


def test_players_start_with_the_cash_of_their_count():
    for players, cash in ((2, 420), (3, 380)):
        st = Game(RS, players=players).state()
        assert [p["cash"] for p in st["players"]] == [cash] * players
        assert st["bank"] == 10000 - players * cash


def test_unknown_player_count_is_rejected():
    with pytest.raises(ValueError, match="no row for 6 players"):
        Game(RS, players=6)


def test_illegal_action_is_rejected_with_its_name():
    game = new_game()
    with pytest.raises(IllegalActionError, match="sell_cert"):
        game.apply({"type": "sell_cert", "company": "RNC"})


def test_invariant_violation_raises_with_seed_and_action_index():
    game = new_game(seed=5)
    game._eng.p_cash[0] += 1  # money from nowhere
    with pytest.raises(InvariantError, match=r"seed 5, action index 0 .*money not conserved"):
        act(game, "pass")


def test_decisions_and_actors_through_a_game():
    game = new_game(seed=3)
    decisions = set()
    play_random(game, 3, until=lambda g: decisions.add(g.decision()))
    assert {"auction_turn", "stock_turn", "lay_tile", "buy_vehicles", "dividend"} <= decisions
    assert game.is_over() and game.legal_actions() == [] and game.current_actor() == -1
    assert game.result()["reason"] in ("bank", "bankruptcy", "conquest", "cap")


def test_clone_is_independent():
    game = sr_game()
    copy = game.clone()
    act(copy, "start_company", company="RNC", par=100)
    assert "RNC" not in game.state()["companies"] and "RNC" in copy.state()["companies"]
    assert game.legal_actions() != copy.legal_actions()


def test_observation_shows_the_decision_and_the_state():
    game = sr_game()
    obs = game.observation()
    assert obs["decision"] == "stock_turn" and obs["seat"] == 0 and obs["round"] == "stock"
    assert len(obs["players"]) == 3 and obs["bank"] == game.state()["bank"]


def test_summary_matches_the_outcome_tables():
    game = new_game(seed=2)
    play_random(game, 2)
    s = game.summary()
    game_fields = set(GAMES.names) - {"game_id", "variant", "population", "cell", "game_index", "policies",
                                      "duration_s"}
    assert game_fields <= set(s)
    seat_fields = set(PLAYERS.names) - {"game_id", "variant", "seat", "policy", "auction_strategy"}
    assert all(seat_fields <= set(row) for row in s["seats"])
    assert all(set(COMPANIES.names) - {"game_id", "variant"} <= set(row) for row in s["companies"])
    auction_fields = set(AUCTIONS.names) - {"game_id", "variant", "buyer_policy"}
    assert all(auction_fields <= set(row) for row in s["auctions"])
    assert [row["company"] for row in s["companies"]] == list(RS.companies)
    assert len(s["auctions"]) == 3 and sum(row["win_share"] for row in s["seats"]) == pytest.approx(1.0)


def test_a_new_game_clones_before_its_moves_are_built():
    game = new_game(seed=1)
    copy = game.clone()
    assert copy.legal_actions() == game.legal_actions() != []
    assert copy.state() == game.state()


def test_clones_taken_mid_game_leave_the_original_untouched():
    game = new_game(seed=9)
    for stop in (40, 120, 250):
        play_random(game, stop, until=lambda g: g.action_count() >= stop)
        if game.is_over():
            break
        before = (game.state(), game.legal_actions(), game.decision())
        copy = game.clone()
        play_random(copy, stop + 1)  # plays the copy to its end
        assert (game.state(), game.legal_actions(), game.decision()) == before
        replayed = game.clone()
        action = game.legal_actions()[0]
        game.apply(action)
        replayed.apply(action)
        assert replayed.state() == game.state()


# --- the queries players use ---------------------------------------------------------------
def test_auction_state_shows_the_lot_and_the_reservations():
    game = new_game(legacies=["L3", "L1", "L2"])
    auction = game.auction_state()
    assert auction == {"lot": "L1", "price": RS.legacies["L1"].price, "left": ["L1", "L2", "L3"],
                       "reservations": {}}
    reserve = act(game, "reserve", legacy="L3")  # P1
    assert game.auction_state()["reservations"] == {"L3": {0: reserve["bid"]}}
    buy_out_auction(game)
    assert game.decision() == "stock_turn" and game.auction_state() is None


def _at_track_step(seed: int = 3):
    game = new_game(seed=seed)
    play_random(game, seed, until=lambda g: g.decision() == "lay_tile" and g._eng.srs >= 2)
    return game, game.actor_label()


def test_route_revenue_with_changes_equals_the_revenue_after_them():
    game, company = _at_track_step()
    fleet = game.state()["companies"][company]["vehicles"] + game.vehicles_for_sale(company)
    map_before = game.map_key()
    for lay in [a for a in game.legal_actions() if a["type"] == "lay_tile"][:8]:
        after = game.clone()
        after.apply(lay)
        assert game.route_revenue(company, fleet, [lay]) == after.route_revenue(company, fleet)
        assert game.next_lays(company, [lay]) == after.next_lays(company)
    assert game.map_key() == map_before  # asking changed nothing
    assert game.route_revenue(company, []) == 0 and game.route_plan(company, []) is None


def test_a_fleets_revenue_is_that_of_the_fleet_searched_whole():
    """`route_revenue` sums its ships' and its carts' revenues, each kept apart in the
    memo (under the part of the fleet's code): the same as one search of the whole fleet,
    whether the parts were asked before or not."""
    game, company = _at_track_step()
    whatif, eng = game.whatif, game._eng
    c = eng.t.company_index[company]
    ships = [v for v, spec in RS.vehicles.items() if spec.kind == "ship"][:3]
    carts = [v for v, spec in RS.vehicles.items() if spec.kind != "ship"][:2]
    fleets = [ships[:1] + carts[:1], ships[:2], carts, ships[1:] + carts, ships + carts[::-1], carts[::-1] + ships]
    for fleet in fleets:
        whole = best_revenue(eng.board, c, eng.is_major(c), whatif._fleet(fleet), whatif._context_of(c))
        assert game.route_revenue(company, fleet) == whole
    assert any(game.route_revenue(company, fleet) > 0 for fleet in fleets)


def _fresh_for_sale(game, company):
    """`vehicles_for_sale` asked of the engine itself, without the Game's kept answers."""
    t, kinds = game._eng.t, game.ruleset.companies[company].vehicle_kinds
    return [t.vehicle_ids[v] for v in operating.bank_vehicles(game._eng) if t.vehicles[v].kind in kinds]


SALE_SEED = 2  # a random game that changes phase and sells a type out within one


def test_vehicles_for_sale_follow_the_bank_in_a_game_and_its_clones():
    """The answers kept per state of the bank (its phase, the types sold out) equal fresh
    ones as vehicles are bought and sold out and the phase changes, in a game and in its
    clones, which take its answers, then play on apart while it is asked again."""
    game = new_game(seed=SALE_SEED)
    rng = np.random.default_rng(SALE_SEED)

    def asked_right(g):
        return all(g.vehicles_for_sale(c) == _fresh_for_sale(g, c) for c in RS.companies)

    offers = []  # per state: (phase, the answers)
    while not game.is_over():
        assert asked_right(game)
        offers.append((game.phase_index(), [game.vehicles_for_sale(c) for c in RS.companies]))
        legal = game.legal_actions()
        clone = game.clone()
        for _ in range(4):
            if not clone.is_over():
                assert asked_right(clone)
                clone.apply(clone.legal_actions()[int(rng.integers(clone.legal_count()))])
        assert asked_right(clone) and asked_right(game)
        game.apply(legal[int(rng.integers(len(legal)))])
    assert len({phase for phase, _ in offers}) > 1  # a phase change
    assert any(a[0] == b[0] and a[1] != b[1] for a, b in zip(offers, offers[1:]))  # a type sold out


def test_market_marker_what_ifs_leave_the_company_as_it_is():
    """A what-if marker changes the answer, never the company's own context (shared by
    the queries of one state)."""
    game, company = _at_track_step()
    fleet = game.state()["companies"][company]["vehicles"] + game.vehicles_for_sale(company)
    key, base = game.revenue_key(company), game.route_revenue(company, fleet)
    gains = [game.route_revenue(company, fleet, [{"type": "place_market_marker", "offboard": o}] * 2) - base
             for o in RS.map.offboards]
    assert min(gains) >= 0 and max(gains) > 0
    assert (game.revenue_key(company), game.route_revenue(company, fleet)) == (key, base)


def test_state_records_in_part_equal_the_full_state():
    game = new_game(seed=6)
    for stop in (60, 160, 300):
        play_random(game, 6, until=lambda g: g.action_count() >= stop)
        state = game.state()
        assert game.company_states() == state["companies"] and state["companies"]
        assert game.company_states(["vehicles", "cash"]) == {
            c: {"vehicles": r["vehicles"], "cash": r["cash"]} for c, r in state["companies"].items()}
        for company, record in state["companies"].items():
            assert game.company_state(company) == record
            assert game.company_state(company, ("price",)) == {"price": record["price"]}
        for seat, record in enumerate(state["players"]):
            assert game.player_state(seat) == record
            assert game.player_state(seat, ("certs",)) == {"certs": record["certs"]}
    with pytest.raises(ValueError, match="'colour'"):
        game.company_states(["cash", "colour"])
    unstarted = next(c for c in RS.companies if c not in game.company_states())
    with pytest.raises(KeyError, match=unstarted):
        game.company_state(unstarted)


def test_pending_revenue_is_what_the_routes_earned():
    game = new_game(seed=4)
    play_random(game, 4, until=lambda g: g.decision() == "buy_vehicles")
    assert game.pending_revenue() == 0  # the routes have not run yet
    play_random(game, 4, until=lambda g: g.decision() == "dividend")
    company = game.actor_label()
    vehicles = game.state()["companies"][company]["vehicles"]
    assert game.pending_revenue() == game.route_revenue(company, vehicles) > 0


def test_state_names_each_companys_par_and_director():
    game = sr_game()
    act(game, "start_company", company="RNC", par=100)
    rnc = game.state()["companies"]["RNC"]
    assert (rnc["par"], rnc["director"]) == (100, 0) and game.director("RNC") == 0
    assert game.director("RCC") == -1 and "RCC" not in game.state()["companies"]


class _Cheater:
    name = "cheater"  # not built by make_policy

    def act(self, game, legal):
        return {"type": "fly_to_the_moon"}


def test_play_names_the_seat_seed_and_decision_of_an_illegal_action():
    from menorca_sim.play import play_game
    with pytest.raises(IllegalActionError) as err:
        play_game(RS, 9, [_Cheater(), _Cheater()])
    seat = Game(RS, players=2, seed=9).current_actor()
    assert str(err.value) == (f"an illegal action {{'type': 'fly_to_the_moon'}} for P{seat + 1} at decision "
                              "'auction_turn' (seed 9, action index 0)")


def test_marker_company_names_whose_marker_is_placed():
    game = sr_game()
    act(game, "start_company", company="RNC", par=100)
    assert game.marker_company() is None
    act(game, "buy_cert", company="RNC", source="treasury")  # a marked certificate sold for the first time
    assert game.decision() == "place_market_marker" and game.marker_company() == "RNC"
