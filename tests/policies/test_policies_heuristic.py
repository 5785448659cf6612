"""The heuristic player: strength against random play, healthy all-heuristic games,
and its rules on real game states."""
import itertools

import numpy as np
import pytest

from helpers.states import chosen
from menorca_sim.core.codes import START_COMPANY
from menorca_sim.game import Game
from menorca_sim.play import play_game, seat_policies
from policies import make_policy, stock_play
from policies.heuristic import HeuristicParams
from policies.operating_play import earns_within, investment_need, lookahead_revenue
from policies.valuation import COMPANY_FIELDS, DecisionCache, vehicle_shortfall

HEALTHY_ENDS = ("bank", "bankruptcy", "conquest")


def play(ruleset, specs, seed, minors=None):
    return play_game(ruleset, seed, seat_policies(specs, seed), minors=minors).summary()


def heuristic_win_share(ruleset, games, first_seed=1000):
    """Share of wins of one heuristic against two random players, its seat rotated."""
    won = 0.0
    for g in range(games):
        seat = g % 3
        specs = ["random_legal"] * 3
        specs[seat] = "heuristic"
        won += play(ruleset, specs, first_seed + g)["seats"][seat]["win_share"]
    return won / games


def test_heuristic_beats_random_legal(ruleset):
    assert heuristic_win_share(ruleset, 30) >= 0.8


@pytest.mark.slow
def test_heuristic_beats_random_legal_500(ruleset):
    assert heuristic_win_share(ruleset, 500) >= 0.9


def end_reasons(ruleset, games_per_table, first_seed=2000):
    tables = [(n, list(m)) for n in (2, 3) for m in itertools.combinations(ruleset.minors, 2)]
    reasons = []
    for i in range(games_per_table):
        for t, (players, minors) in enumerate(tables):
            reasons.append(play(ruleset, ["heuristic"] * players, first_seed + i * len(tables) + t, minors)["end_reason"])
    return reasons


def test_all_heuristic_tables_end_by_the_rules(ruleset):
    reasons = end_reasons(ruleset, 2)
    assert len(reasons) == 12 and all(r in HEALTHY_ENDS for r in reasons)


@pytest.mark.slow
def test_all_heuristic_tables_end_by_the_rules_500(ruleset):
    reasons = end_reasons(ruleset, 84)  # 6 tables × 84 = 504 games
    assert sum(r in HEALTHY_ENDS for r in reasons) >= 0.99 * len(reasons)


def test_heuristic_games_are_reproducible(ruleset):
    specs = ["heuristic_aggressive", "heuristic_cautious+wait_for_drop", "heuristic"]
    assert play(ruleset, specs, 7) == play(ruleset, specs, 7)


def advance_to(ruleset, decision, seed=3):
    """An all-heuristic 3-player game run until `decision` is pending."""
    game = Game(ruleset, players=3, seed=seed)
    policies = [make_policy("heuristic", i, np.random.default_rng(i)) for i in range(3)]
    while game.decision() != decision:
        game.apply_code(policies[game.current_actor()].act_code(game))
    return game


def test_payout_rules_on_real_dividends(ruleset):
    """At every dividend of two all-heuristic games, ask each payout rule what it would do."""
    choices = []
    for seed in (3, 4):
        game = Game(ruleset, players=3, seed=seed)
        players = [make_policy("heuristic", i, np.random.default_rng(i)) for i in range(3)]
        judges = {rule: make_policy(f"heuristic(payout={rule})", 0, np.random.default_rng(0))
                  for rule in ("always", "market", "growth")}
        while not game.is_over():
            legal = game.legal_actions()
            if game.decision() == "dividend":
                info = game.observation()["companies"][game.operating_company()]
                picks = {rule: chosen(judge, game)["type"] for rule, judge in judges.items()}
                choices.append((game.pending_revenue(), info["price"], picks))
            game.apply_code(players[game.current_actor()].act_code(game))
    assert len(choices) > 20
    assert all(picks["always"] == "payout" for _, _, picks in choices)
    withheld = [picks for _, _, picks in choices if picks["market"] == "withhold"]
    assert withheld  # the market rule does save for vehicles sometimes ...
    assert all(picks["growth"] == "withhold" for picks in withheld)  # ... and growth saves at least then
    # growth differs from market only when paying would not move the price right
    assert all(picks["growth"] == picks["market"] for revenue, price, picks in choices if revenue >= price)


def test_first_lay_raises_route_revenue(ruleset):
    game = advance_to(ruleset, "lay_tile")
    company = game.operating_company()
    legal = game.legal_actions()
    choice = chosen(make_policy("heuristic", game.current_actor(), np.random.default_rng(0)), game)
    # with one xebec and one cart (what it can buy now), the chosen lay earns more than no lay
    fleet = ["cart", "xebec"]
    if choice["type"] == "lay_tile":
        assert game.route_revenue(company, fleet, [choice]) > game.route_revenue(company, fleet)
    else:
        assert all(game.route_revenue(company, fleet, [a]) <= game.route_revenue(company, fleet)
                   for a in legal if a["type"] == "lay_tile" and a["cost"] == 0)


# --- vehicles --------------------------------------------------------------------------------
def _in_phase(ruleset, name):
    game = Game(ruleset, players=3, seed=0)
    game._eng.phase = ruleset.phase_index(name)  # test setup: only the phase matters here
    return game


def test_fleet_after_a_phase_change_loses_retired_and_cheapest_vehicles(ruleset):
    from policies.operating_play import after_phase_change, starts_phase
    # 5H -> 6H: the ship limit falls from 4 to 3, the cheapest ship goes
    game = _in_phase(ruleset, "5H")
    assert starts_phase(game, "frigate") and not starts_phase(game, "polacca")
    assert not starts_phase(game, "freight_wagon")  # carts never start a phase
    assert sorted(after_phase_change(game, ["xebec", "polacca", "xebec", "polacca", "cart"])) == \
        ["cart", "polacca", "polacca", "xebec"]
    # 6H -> 7H: xebecs and carts retire
    game = _in_phase(ruleset, "6H")
    assert sorted(after_phase_change(game, ["xebec", "frigate", "polacca", "cart", "freight_wagon"])) == \
        ["freight_wagon", "frigate", "polacca"]


def test_outlook_is_made_once_per_phase_and_remembers_each_fleet(ruleset):
    from policies.valuation import outlook
    in_5h, in_6h = _in_phase(ruleset, "5H"), _in_phase(ruleset, "6H")
    o6 = outlook(in_6h)
    assert outlook(in_5h) is not o6 and outlook(in_6h) is o6 and outlook(_in_phase(ruleset, "6H")) is o6
    # 6H -> 7H: xebecs and carts retire; the answer is kept for the fleet, whatever list names it
    assert o6.surviving(["xebec", "cart", "frigate"]) == ("frigate",)
    assert o6.surviving(("xebec", "cart", "frigate")) is o6.surviving(["xebec", "cart", "frigate"])


def _final_phases(ruleset, spec, seeds):
    return [ruleset.phase_index(play(ruleset, [spec] * 3, seed)["phase"]) for seed in seeds]


def test_vehicle_upgrades_carry_games_into_later_phases(ruleset):
    """Without upgrades and harm to rivals, networks full in the yellow phases stop all
    ship purchases and the bank breaks by 5H; with them, tiers sell out and games go on."""
    seeds = range(3000, 3006)
    without = _final_phases(ruleset, "heuristic(upgrade_ships=1000, rival_harm=0)", seeds)
    default = _final_phases(ruleset, "heuristic", seeds)
    assert max(without) <= ruleset.phase_index("5H")
    assert sum(default) > sum(without) and max(default) >= ruleset.phase_index("7H")


def test_dividend_values_purchases_only_where_they_could_decide(ruleset):
    """The market and growth rules skip valuing purchases where no need could make them
    withhold: at every dividend of two games each still answers what the full rule
    (the need always valued) answers."""
    def full_rule(game, legal, params):
        company = game.operating_company()
        info = game.company_state(company, COMPANY_FIELDS)
        revenue = game.pending_revenue()
        need = investment_need(game, company, info, params, DecisionCache())
        withhold = vehicle_shortfall(game, company, info) > 0 or 0 < need <= revenue or (
            params.payout == "growth" and need > 0 and revenue < info["price"])
        return "withhold" if withhold else "payout"

    # a long horizon values more purchases: more needs for the rules to weigh
    rules = {f"heuristic(payout={rule}, horizon={horizon})": HeuristicParams(payout=rule, horizon=horizon)
             for rule in ("market", "growth") for horizon in (4, 12)}
    judged = 0
    for seed in (3, 4):
        game = Game(ruleset, players=3, seed=seed)
        players = [make_policy("heuristic", i, np.random.default_rng(i)) for i in range(3)]
        judges = {spec: make_policy(spec, 0, np.random.default_rng(0)) for spec in rules}
        while not game.is_over():
            legal = game.legal_actions()
            if game.decision() == "dividend":
                # and the same company with less cash (more needs): none, or just what
                # leaves the cheapest vehicle's need at the revenue (the rule's edge)
                company = game.operating_company()
                prices = [ruleset.vehicles[v].price for v in game.vehicles_for_sale(company)]
                states = [game]
                for cash in (0, max(0, min(prices) - game.pending_revenue())) if prices else ():
                    states.append(game.clone())
                    states[-1]._eng.co_cash[game._eng.t.company_index[company]] = cash
                for state in states:
                    for spec, judge in judges.items():
                        assert chosen(judge, state)["type"] == full_rule(state, legal, rules[spec])
                judged += 1
            game.apply_code(players[game.current_actor()].act_code(game))
    assert judged > 20


def test_prospects_ask_each_level_at_once_and_agree_with_the_lookahead(ruleset):
    """`earns_within` (a started company's prospects) says yes exactly where the
    lookahead finds a sequence of at most `depth` lays that earns; both answers occur."""
    answers = set()
    for seed in (3, 5):
        game = Game(ruleset, players=3, seed=seed)
        players = [make_policy("heuristic", i, np.random.default_rng(i)) for i in range(3)]
        asked = 0
        while not game.is_over() and asked < 6:
            legal = game.legal_actions()
            if game.decision() == "lay_tile":
                company = game.operating_company()
                for fleet in (["cart"], sorted(set(game.vehicles_for_sale(company)))):
                    for depth in (0, 1, 2):
                        expected = lookahead_revenue(game, company, fleet, [], depth, DecisionCache()) > 0
                        assert earns_within(game, company, fleet, depth, DecisionCache()) == expected
                        answers.add(expected)
                asked += 1
            game.apply_code(players[game.current_actor()].act_code(game))
    assert answers == {True, False}


def test_the_prospects_bound_says_no_only_where_the_lookahead_does(ruleset):
    """`_could_run` (the lays a cart route needs at least, from the map's track) spares
    the lookahead only where it finds no earning sequence of lays either, at every
    lookahead depth; and it spares most lookaheads of these games."""
    spared = searched = 0
    for seed in (1, 4):
        game = Game(ruleset, players=3, seed=seed)
        players = seat_policies(["heuristic"] * 3, seed)
        while not game.is_over():
            if game.decision() == "stock_turn":
                for i, action in game.legal_moves(START_COMPANY):
                    company = game.tables.company_ids[action[1]]
                    for depth in (0, 1, 2):
                        if not stock_play._could_run(game, company, depth):
                            assert not stock_play._search_prospects(game, i, company, depth)
                            spared += 1
                        else:
                            searched += 1
            game.apply_code(players[game.current_actor()].act_code(game))
    assert spared > searched > 0
