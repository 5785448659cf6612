"""Operating rounds: order, set length, income, the steps of a company's turn
(RULES.md §4-5), and the seeds' Barcelona market-marker example."""
from helpers.engine import (RS, act, cell_of, company, fund, give_vehicles, load_ruleset_with, matching,
                            pass_stock_round, play_random, set_cash, set_phase, sr_game,
                            start_directly)

from menorca_sim.core.codes import POOL
from menorca_sim.core.operating import next_company
from menorca_sim.core.revenue import routes
from menorca_sim.core.revenue.context import RevenueContext, revenue_context


def _turn_of(game, cid):
    """Pass the stock round; the OR's first company must be `cid`."""
    pass_stock_round(game)
    assert game.actor_label() == cid, (game.actor_label(), game.decision())


def _skip_to(game, decision):
    while game.decision() != decision:
        act(game, "skip")


def test_or_order_by_market_value_and_ties():
    game = sr_game()
    eng = game._eng
    rnc = start_directly(game, "RNC", 0, 70)
    rcc = start_directly(game, "RCC", 1, 100)
    ram = start_directly(game, "Ramaders", 2, 60)
    assert next_company(eng, eng.operating) == rcc  # highest value first
    eng.operating.operated_this_or[rcc] = True
    assert next_company(eng, eng.operating) == rnc
    eng.place_token(rcc, 3, 6)  # also 70, one column further left than RNC's 70 at (4, 7)
    eng.operating.operated_this_or[rcc] = False
    assert eng.price(rcc) == eng.price(rnc) == 70
    assert next_company(eng, eng.operating) == rnc  # further right first
    eng.place_token(rcc, 4, 7)  # same cell, arrived after RNC
    assert next_company(eng, eng.operating) == rnc
    eng.place_token(rnc, 4, 7)  # RNC now arrived last
    assert next_company(eng, eng.operating) == rcc
    eng.operating.operated_this_or[rnc] = eng.operating.operated_this_or[rcc] = True
    assert next_company(eng, eng.operating) == ram


def _ors_in_next_set(game, seed=3):
    srs = game._eng.srs
    pass_stock_round(game)
    play_random(game, seed, until=lambda g: g._eng.srs > srs)
    return game.ors_played()


def test_two_or_three_ors_by_phase_at_set_start():
    game = sr_game()
    assert _ors_in_next_set(game) == 2  # 4H
    game = sr_game()
    set_phase(game, "8H")
    assert _ors_in_next_set(game) == 3


def test_phase_change_mid_set_does_not_change_set_length():
    game = sr_game()
    set_phase(game, "6H")
    eng = game._eng
    for v in ("xebec", "polacca", "frigate"):
        eng.vehicles_left[eng.t.vehicle_index[v]] = 0  # the 6H tier is sold out
    start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", 500)
    _turn_of(game, "RNC")
    assert game._eng.operating.set_length == 2
    _skip_to(game, "buy_vehicles")
    act(game, "buy_vehicle", vehicle="ship_of_the_line")
    assert game.state()["phase"] == "7H" and game.state()["epoch"] == 3
    play_random(game, 5, until=lambda g: g._eng.srs == 2)
    assert game.ors_played() == 2  # the set begun in 6H keeps its 2 ORs
    assert _ors_in_next_set(game) == 2 + 3  # the next one, begun in 7H, has 3


def test_legacy_income_at_each_or_start():
    game = sr_game()  # P1 owns L1 (5), P2 L2 (10), P3 L3 (10); no company runs
    before = [p["cash"] for p in game.state()["players"]]
    pass_stock_round(game)  # two ORs with nobody operating, then stock round 2
    assert game._eng.srs == 2 and game.ors_played() == 2
    after = [p["cash"] for p in game.state()["players"]]
    assert [a - b for a, b in zip(after, before)] == [10, 20, 20]
    income = {a["legacy"]: a["income_earned"] for a in game.summary()["auctions"]}
    assert income == {"L1": 10, "L2": 20, "L3": 20}


def _dividend_setup(value, vehicles=("xebec",)):
    """RNC (P1 holds 20 %, P2 10 %) at `value` with a xebec: Maó - València earns 20 + 30."""
    game = sr_game()
    c = start_directly(game, "RNC", 0, 60, sold_to=[(1, 1)])
    game._eng.place_token(c, *cell_of(value))
    give_vehicles(game, "RNC", vehicles)
    _turn_of(game, "RNC")
    _skip_to(game, "dividend") if vehicles else None
    return game


def test_payout_with_revenue_at_least_market_value_moves_right():
    game = _dividend_setup(50)
    cash = [p["cash"] for p in game.state()["players"]]
    act(game, "payout")
    st = game.state()
    assert st["companies"]["RNC"]["price"] == 55
    assert st["companies"]["RNC"]["cash"] == 7 * 5  # the seven treasury 10 % pay the company
    assert st["players"][0]["cash"] - cash[0] == 10 and st["players"][1]["cash"] - cash[1] == 5
    assert game.summary()["companies"][0]["revenue_total"] == 50


def test_payout_below_market_value_does_not_move():
    game = _dividend_setup(70)
    act(game, "payout")
    assert game.state()["companies"]["RNC"]["price"] == 70


def test_withholding_moves_left_and_pays_the_company():
    game = _dividend_setup(70)
    act(game, "withhold")
    rnc = game.state()["companies"]["RNC"]
    assert (rnc["price"], rnc["cash"]) == (65, 50)


def test_running_no_route_moves_left():
    game = sr_game()
    start_directly(game, "RNC", 0, 70)
    give_vehicles(game, "RNC", ["cart"])  # no road leaves Maó yet: the cart cannot run
    _turn_of(game, "RNC")
    assert game.company_state("RNC", ["price"])["price"] == 70
    act(game, "skip")  # no tile; then nothing to decide (no cash) until after the run
    assert game.decision() == "company_sells"
    assert game.company_state("RNC", ["price"])["price"] == 65 and game.summary()["companies"][0]["revenue_total"] == 0


def test_company_sells_and_buys_back_its_certificates():
    game = _dividend_setup(70)
    act(game, "withhold")
    assert game.decision() == "company_sells"
    act(game, "company_sells_certs", count=1)  # at 65, then one cell down
    rnc = game.state()["companies"]["RNC"]
    assert (rnc["cash"], rnc["price"], rnc["pool"], rnc["treasury"]) == (50 + 65, 60, 10, 60)
    assert game.decision() == "company_buys_back"  # the sale was the step's one decision
    act(game, "company_buys_back")
    rnc = game.state()["companies"]["RNC"]
    assert (rnc["cash"], rnc["pool"], rnc["treasury"]) == (115 - 60, 0, 70)


def test_company_sells_several_certificates_at_one_price_then_drops():
    """Seeds: "in beliebiger Menge zum aktuellen Marktwert. Ihr Kurs fällt dann senkrecht
    um so viele Felder wie verkaufte Verträge": all at the current value, then the drop."""
    game = _dividend_setup(70)
    act(game, "withhold")  # 70 -> 65, RNC holds 50
    row, col = game.state()["companies"]["RNC"]["cell"]
    sales = matching(game, "company_sells_certs")
    assert [a["count"] for a in sales] == [1, 2, 3, 4, 5]  # the Exchange takes at most 5
    act(game, "company_sells_certs", count=3)
    rnc = game.state()["companies"]["RNC"]
    # 3 x 65 (not 65 + 60 + 55), then three cells straight down: 65 -> 60 -> 55 -> 50
    assert (rnc["cash"], rnc["price"], rnc["pool"], rnc["treasury"]) == (50 + 3 * 65, 50, 30, 40)
    assert tuple(rnc["cell"]) == (row + 3, col)


def test_company_sales_are_bounded_by_the_exchange_limit():
    game = _dividend_setup(70)
    c = company(game, "RNC")
    game._eng.set_owner(c, 8, POOL)  # one already in the Exchange: four more fit
    act(game, "withhold")
    assert [a["count"] for a in matching(game, "company_sells_certs")] == [1, 2, 3, 4]


def test_ccm_does_not_operate_below_60_percent():
    game = sr_game()
    eng = game._eng
    set_phase(game, "7H")
    c = start_directly(game, "CCM", 0, 100, sold_to=[(1, 2), (2, 1)])  # 50 % sold
    assert not eng.operates(c) and next_company(eng, eng.operating) < 0
    eng.set_owner(c, 4, 2)  # 60 %
    assert eng.operates(c) and next_company(eng, eng.operating) == c


def test_forced_vehicle_purchase_by_the_trust_family():
    game = sr_game()
    start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", 10)
    set_cash(game, 0, 100)
    _turn_of(game, "RNC")
    _skip_to(game, "buy_vehicles")
    assert game.legal_actions() == [{"type": "forced_buy_vehicle", "vehicle": "cart", "price": 40}]
    act(game, "forced_buy_vehicle")
    st = game.state()
    assert st["companies"]["RNC"]["vehicles"] == ["cart"] and st["companies"]["RNC"]["cash"] == 0
    assert st["players"][0]["cash"] == 100 + 5 - 30  # L1's income came first


def test_forced_purchase_sells_directors_shares_or_bankrupts():
    game = sr_game()
    start_directly(game, "RNC", 0, 100)
    start_directly(game, "RCC", 1, 60, sold_to=[(0, 1)])  # P1 may sell one RCC 10 % for 60
    set_cash(game, 0, 0)
    _turn_of(game, "RNC")
    _skip_to(game, "buy_vehicles")
    act(game, "forced_buy_vehicle")
    st = game.state()
    assert st["players"][0]["shares"] == {"RNC": 20}
    assert st["players"][0]["cash"] == 5 + 60 - 40 and st["companies"]["RCC"]["pool"] == 10
    game = sr_game()
    start_directly(game, "RNC", 0, 100)
    set_cash(game, 0, 0)
    _turn_of(game, "RNC")
    _skip_to(game, "buy_vehicles")
    act(game, "forced_buy_vehicle")  # nothing to sell: bankrupt
    assert game.state()["companies"]["RNC"]["price"] == 0
    assert game.summary()["companies"][0]["bankrupt"]


def test_vehicle_limits_counted_apart_for_ships_and_carts():
    game = sr_game()
    start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", 1000)
    give_vehicles(game, "RNC", ["cart"] * 4)  # 4H limit: 4 of each kind
    _turn_of(game, "RNC")
    _skip_to(game, "buy_vehicles")
    bought = {a["vehicle"] for a in matching(game, "buy_vehicle")}
    assert bought == {"xebec"}
    give_vehicles(game, "RNC", ["xebec"] * 4)
    plain = {a["vehicle"] for a in matching(game, "buy_vehicle") if "return" not in a}
    assert plain == {"cart"}


def test_return_a_ship_to_buy():
    game = sr_game()
    eng = game._eng
    start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", 1000)
    give_vehicles(game, "RNC", ["xebec"] * 4)
    _turn_of(game, "RNC")
    _skip_to(game, "buy_vehicles")
    xebec = eng.t.vehicle_index["xebec"]
    left = eng.vehicles_left[xebec]
    act(game, "buy_vehicle", vehicle="xebec", source="bank", **{"return": "xebec"})
    rnc = game.state()["companies"]["RNC"]
    assert rnc["vehicles"] == ["xebec"] * 4 and rnc["cash"] == 1000 - 80
    assert eng.vehicles_left[xebec] == left - 1  # the returned ship left the game


def test_company_buys_a_legacy_from_its_director():
    game = sr_game()
    set_phase(game, "5H")
    start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", 100)
    _turn_of(game, "RNC")
    assert game.decision() == "company_buys_legacy"
    prices = [a["price"] for a in matching(game, "company_buys_legacy", legacy="L1")]
    assert prices == [10, 20, 30]  # 50 %, 100 %, 150 % of 20
    cash = game.state()["players"][0]["cash"]
    act(game, "company_buys_legacy", legacy="L1", price=30)
    st = game.state()
    assert st["players"][0]["cash"] == cash + 30 and st["companies"]["RNC"]["legacies"] == ["L1"]
    assert game.decision() == "lay_tile"


def test_barcelona_market_markers_add_ten_each():
    """Seeds' example: Barcelona is worth 50 (epoch 3); RCC with two own markers there values it 70."""
    game = sr_game()
    eng = game._eng
    c = start_directly(game, "RCC", 0, 100)
    eng.epoch = 3
    xebec = [("xebec", "ship", RS.vehicles["xebec"].range)]
    plain = routes.best_routes(eng.board, "RCC", True, xebec, revenue_context(eng, c))
    eng.mmarkers[c][eng.t.offboards.index("Barcelona")] = 2
    ctx = revenue_context(eng, c)
    assert isinstance(ctx, RevenueContext) and ctx.market_markers == {"Barcelona": 2}
    marked = routes.best_routes(eng.board, "RCC", True, xebec, ctx)
    assert plain.routes[0].nodes == ["Ciutadella", "Gibraltar"]  # 20 + 60 beats 20 + 50
    assert marked.routes[0].nodes == ["Ciutadella", "Barcelona"]
    assert marked.revenue == 20 + 50 + 10 + 10


def test_goods_markers_pay_their_owner_when_a_ship_route_reaches_them():
    for option, paid in (("minor", 2 * 10), ("none", 0)):
        game = sr_game(ruleset=load_ruleset_with({"markers.goods_pay_before_merger": option}))
        eng = game._eng
        art = start_directly(game, "Artesans", 1, 60)
        eng.goods[art][eng.t.offboards.index("València")] = 2
        c = start_directly(game, "RNC", 0, 100)
        give_vehicles(game, "RNC", ["xebec"])
        _turn_of(game, "RNC")
        _skip_to(game, "dividend")  # the xebec ran Maó - València
        assert game.state()["companies"]["Artesans"]["cash"] == paid
        assert eng.operating.plan.revenue == 20 + 30  # the sea route's revenue is unchanged
        assert eng.price(c) == 100


def _owning(game, cid, legacy):
    eng = game._eng
    l = eng.t.legacy_index[legacy]
    eng.leg_player[l] = -1
    eng.leg_company[l] = company(game, cid)


def test_legacy_abilities_act_for_the_owning_company():
    game = sr_game(legacies=("L1", "L4", "L5"))
    eng = game._eng
    c = start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", 500)
    _owning(game, "RNC", "L1")  # Sant Lluís +10
    _owning(game, "RNC", "L4")  # two tile lays
    _owning(game, "RNC", "L5")  # ships 10 % cheaper
    assert revenue_context(eng, c).node_bonus == {"Sant Lluís": 10}
    _turn_of(game, "RNC")
    act(game, "lay_tile")
    assert game.decision() == "lay_tile"  # a second lay
    _skip_to(game, "buy_vehicles")
    prices = {a["vehicle"]: a["price"] for a in matching(game, "buy_vehicle")}
    assert prices == {"xebec": 72, "cart": 40}


def test_seeds_route_example_through_the_game():
    """RNC with a 4H xebec and a 3H cart: Maó - K12 - K14 - València by sea, Maó - Sant
    Lluís - one hex further inland by road (the Board's route search, run by the engine)."""
    game = sr_game()
    board = game._eng.board
    board.lay_tile("J13", "3", 2)  # Sant Lluís, joined to Maó
    board.lay_tile("I12", "T1", 5)  # Sant Climent, one hex further inland
    start_directly(game, "RNC", 0, 100)
    give_vehicles(game, "RNC", ["xebec", "cart"])
    _turn_of(game, "RNC")
    _skip_to(game, "dividend")
    routes = {r.vehicle: r.as_dict() for r in game._eng.operating.plan.routes}
    assert routes["xebec"]["hexes"] == ["J11", "K12", "K14", "K16"]
    assert routes["cart"]["nodes"] == ["Maó", "Sant Lluís", "Sant Climent"]
    cash = game.state()["players"][0]["cash"]
    act(game, "payout")
    assert game.state()["players"][0]["cash"] == cash + 2 * (90 // 10)  # the Trust Family's 20 %


def test_vehicle_trades_between_directors_need_consent_by_option():
    rules = load_ruleset_with({"operating.vehicle_trade": "any_with_consent"})
    for answer, rnc_fleet in (("accept_offer", ["xebec"]), ("decline_offer", [])):
        game = _rnc_buying_beside_rcc_xebec(rules)
        act(game, "buy_vehicle", vehicle="xebec", source="RCC", price=1)
        assert game.decision() == "consent_vehicle_sale"
        assert (game.current_actor(), game.actor_label()) == (1, "RCC")
        act(game, answer)
        assert game.state()["companies"]["RNC"]["vehicles"] == rnc_fleet
        assert not matching(game, "buy_vehicle", source="RCC")  # one offer per seller and turn


def test_vehicle_trades_only_between_one_directors_companies_by_default():
    game = _rnc_buying_beside_rcc_xebec()
    assert not matching(game, "buy_vehicle", source="RCC")


def _rnc_buying_beside_rcc_xebec(ruleset=None):
    """RNC (P1's) at its vehicle purchases, funded, while RCC (P2's) holds a xebec."""
    game = sr_game(ruleset=ruleset)
    start_directly(game, "RNC", 0, 100)
    start_directly(game, "RCC", 1, 90)
    fund(game, "RNC", 100)
    give_vehicles(game, "RCC", ["xebec"])
    _turn_of(game, "RNC")
    _skip_to(game, "buy_vehicles")
    return game


def _station_sites_at_start_of_turn(rules) -> list[str]:
    game = sr_game(ruleset=rules)
    start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", 500)
    _turn_of(game, "RNC")
    _skip_to(game, "place_station")
    return [a["node"] for a in matching(game, "place_station")]


def test_reserve_home_slots_keeps_ccms_home_free_by_option():
    """Fornells has one slot and is CCM's home: with the option (the default) RNC may
    not take it before CCM starts; without it, it may (and CCM would start homeless)."""
    assert RS.operating.reserve_home_slots and RS.map.nodes["Fornells"].slots == 1
    reserved = _station_sites_at_start_of_turn(RS)
    unreserved = _station_sites_at_start_of_turn(load_ruleset_with({"operating.reserve_home_slots": False}))
    assert "Fornells" in unreserved and "Fornells" not in reserved
    assert set(reserved) == set(unreserved) - {"Fornells"}


def test_a_blocked_home_is_no_longer_reserved_once_its_company_started():
    game = sr_game()
    eng = game._eng
    start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", 500)
    ccm = company(game, "CCM")
    eng.started[ccm] = True  # started with its home blocked elsewhere: nothing is owed any more
    _turn_of(game, "RNC")
    _skip_to(game, "place_station")
    assert matching(game, "place_station", node="Fornells")
