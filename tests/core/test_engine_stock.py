"""Stock rounds, certificates and markers (RULES.md §3, §6-8)."""
from helpers.engine import (act, cell_of, company, matching, pass_stock_round, play_random,
                            sr_game, start_directly)

from menorca_sim.core.codes import POOL


def _to_second_sr(game, seed=1):
    play_random(game, seed, until=lambda g: g.context()["sr"] == 2 and g.decision() == "stock_turn")


def test_start_company_pays_twice_par_into_its_treasury_and_places_home():
    game = sr_game()
    act(game, "start_company", company="RNC", par=90)
    st = game.state()
    assert st["players"][0]["cash"] == 360 - 180
    rnc = st["companies"]["RNC"]
    assert (rnc["cash"], rnc["price"], rnc["treasury"]) == (180, 90, 80)
    assert rnc["stations"] == ["Maó"]
    assert st["players"][0]["shares"] == {"RNC": 20}


def test_incremental_capitalisation():
    game = sr_game()
    act(game, "start_company", company="RNC", par=90)
    act(game, "buy_cert", company="RNC", source="treasury")  # P2 pays RNC
    act(game, "place_market_marker", offboard="Palma")
    assert game.state()["companies"]["RNC"]["cash"] == 180 + 90
    bank = game.state()["bank"]
    eng = game._eng
    eng.set_owner(company(game, "RNC"), 8, POOL)  # a certificate lying in the Exchange
    act(game, "buy_cert", company="RNC", source="pool")  # P3 pays the bank
    assert game.state()["companies"]["RNC"]["cash"] == 270
    assert game.state()["bank"] == bank + 90


def test_no_selling_in_first_stock_round():
    game = sr_game()
    act(game, "start_company", company="RNC", par=100)
    act(game, "buy_cert", company="RNC", source="treasury")
    act(game, "place_market_marker", offboard="Barcelona")
    act(game, "pass")  # P3
    act(game, "pass")  # P1
    assert game.current_actor() == 1 and not matching(game, "sell_cert")
    act(game, "pass")
    _to_second_sr(game)
    while game.current_actor() != 1:
        act(game, "pass")
    assert matching(game, "sell_cert", company="RNC")


def test_first_passer_of_sr_takes_start_marker():
    game = sr_game()
    act(game, "start_company", company="RNC", par=100)  # P1
    act(game, "pass")  # P2 passes first
    act(game, "buy_cert", company="RNC", source="treasury")  # P3
    act(game, "place_market_marker", offboard="Barcelona")
    act(game, "pass")
    act(game, "pass")
    act(game, "pass")  # all passed in succession: the round ends
    assert game.decision() != "stock_turn"
    assert game.state()["start_player"] == 1
    _to_second_sr(game)
    assert game.current_actor() == 1


def test_trust_family_unsellable():
    game = sr_game()
    start_directly(game, "RNC", 0, 100, sold_to=[(1, 2)])
    game._eng.srs = 2  # a later stock round
    assert not matching(game, "sell_cert", company="RNC")  # P1 holds only the Trust Family
    act(game, "pass")
    assert matching(game, "sell_cert", company="RNC")  # P2's 10 % may be sold


def test_selling_moves_price_down_one_cell_per_certificate():
    game = sr_game()
    start_directly(game, "RNC", 1, 100, sold_to=[(0, 2)])
    game._eng.srs = 2
    cash = game.state()["players"][0]["cash"]
    act(game, "sell_cert", company="RNC")  # paid at 100, then one cell down to 90
    act(game, "sell_cert", company="RNC")  # paid at 90, then down to 80
    st = game.state()
    assert st["players"][0]["cash"] == cash + 100 + 90
    assert st["companies"]["RNC"]["price"] == 80
    assert st["companies"]["RNC"]["pool"] == 20


def test_no_buy_and_sell_of_one_company_in_a_turn():
    game = sr_game()
    start_directly(game, "RNC", 1, 100, sold_to=[(0, 2)])
    start_directly(game, "RCC", 1, 100)
    game._eng.srs = 2
    act(game, "sell_cert", company="RNC")
    assert not matching(game, "buy_cert", company="RNC")
    assert matching(game, "buy_cert", company="RCC")


def test_sixty_percent_cap_outside_yellow():
    game = sr_game()
    c = start_directly(game, "RNC", 0, 100, sold_to=[(0, 4)])  # P1 holds 60 %
    assert not matching(game, "buy_cert", company="RNC")
    game._eng.place_token(c, *cell_of(55, flag="yellow"))
    assert matching(game, "buy_cert", company="RNC")  # the yellow zone allows more


def test_certificate_limit_with_orange_exemption():
    game = sr_game()
    start_directly(game, "RNC", 0, 100, sold_to=[(0, 4)])  # 5 certificates
    start_directly(game, "RCC", 0, 100, sold_to=[(0, 4)])  # 10
    start_directly(game, "Ramaders", 0, 60, sold_to=[(0, 2)])  # 13 = the 3-player limit
    a = start_directly(game, "Artesans", 1, 60)
    assert game.state()["players"][0]["certs"] == 13
    assert not matching(game, "buy_cert", company="Artesans")
    game._eng.place_token(a, *cell_of(35, flag="orange"))
    assert matching(game, "buy_cert", company="Artesans")  # orange certificates do not count
    act(game, "buy_cert", company="Artesans")
    assert game.state()["players"][0]["certs"] == 13


def test_player_over_the_limit_must_sell_down_on_his_turn():
    game = sr_game()
    start_directly(game, "RNC", 0, 100, sold_to=[(0, 4)])
    start_directly(game, "RCC", 0, 100, sold_to=[(0, 4)])
    start_directly(game, "Ramaders", 0, 60, sold_to=[(0, 3)])  # 14 certificates: over the limit
    game._eng.srs = 2
    kinds = {a["type"] for a in game.legal_actions()}
    assert kinds == {"sell_cert"}
    act(game, "sell_cert", company="RNC")
    assert "end_turn" in {a["type"] for a in game.legal_actions()}


def test_pool_holds_at_most_five():
    game = sr_game()
    c = start_directly(game, "RNC", 1, 100, sold_to=[(POOL, 4), (0, 1)])
    game._eng.srs = 2
    assert matching(game, "sell_cert", company="RNC")
    game._eng.set_owner(c, 6, POOL)  # a fifth certificate in the Exchange
    assert not matching(game, "sell_cert", company="RNC")


def test_sold_out_moves_up():
    game = sr_game()
    start_directly(game, "RNC", 0, 100, sold_to=[(0, 4), (1, 4)])  # nothing left to buy
    start_directly(game, "RCC", 1, 100, sold_to=[(2, 7), (POOL, 1)])  # one in the Exchange
    pass_stock_round(game)
    companies = game.state()["companies"]
    assert companies["RNC"]["price"] == 110
    assert companies["RCC"]["price"] == 100


def test_marked_certificates_place_market_markers():
    game = sr_game(players=2)
    act(game, "start_company", company="RNC", par=60)
    asked = 0
    for _ in range(6):  # P2, P1, P2, ... each buy one 10 % from the treasury
        act(game, "buy_cert", company="RNC", source="treasury")
        if game.decision() == "place_market_marker":
            asked += 1
            act(game, "place_market_marker", offboard="Barcelona")
    assert asked == 5  # only the first five 10 % certificates are marked
    assert game.state()["companies"]["RNC"]["market_markers"] == {"Barcelona": 5}


def test_minor_first_sale_places_goods_marker():
    game = sr_game()
    act(game, "start_company", company="Ramaders", par=60)
    assert game.decision() == "place_goods_marker"
    act(game, "place_goods_marker", offboard="Alger")
    assert game.state()["companies"]["Ramaders"]["goods_markers"] == {"Alger": 1}
    assert game.state()["companies"]["Ramaders"]["cash"] == 120
