"""Phases as fleet states and epochs (RULES.md §4); the RADM merger: test_engine_merger."""
from helpers.engine import (act, give_vehicles, matching, play_random, rnc_buys_next_tier, set_cash,
                            sr_game, start_directly)


def test_new_phase_retires_vehicles_and_opens_tiles():
    game = sr_game()
    give_vehicles(game, "RNC", ["xebec", "cart"])
    rnc_buys_next_tier(game, "ship_of_the_line", "6H", ["xebec", "polacca", "frigate"])
    st = game.state()
    assert st["phase"] == "7H" and st["companies"]["RNC"]["vehicles"] == ["ship_of_the_line"]


def test_ccm_becomes_available_in_epoch_3():
    game = sr_game()
    assert not matching(game, "start_company", company="CCM")
    rnc_buys_next_tier(game, "ship_of_the_line", "6H", ["xebec", "polacca", "frigate"])
    play_random(game, 8, until=lambda g: g.decision() == "stock_turn")
    assert game.state()["epoch"] == 3
    set_cash(game, game.current_actor(), 500)
    assert matching(game, "start_company", company="CCM")


def test_legacies_close_at_epoch_3():
    game = sr_game()
    rnc_buys_next_tier(game, "ship_of_the_line", "6H", ["xebec", "polacca", "frigate"])
    assert all(p["legacies"] == [] for p in game.state()["players"])


def test_lower_limit_forces_discards():
    game = sr_game()
    start_directly(game, "RCC", 1, 90)
    give_vehicles(game, "RCC", ["ship_of_the_line"] * 3)  # 7H limit 3; 8H limit 2
    rnc_buys_next_tier(game, "convoy", "7H", ["ship_of_the_line"])
    assert game.state()["phase"] == "8H"
    assert game.decision() == "discard_vehicle" and game.actor_label() == "RCC"
    assert game.current_actor() == 1
    act(game, "discard_vehicle", vehicle="ship_of_the_line")
    assert game.state()["companies"]["RCC"]["vehicles"] == ["ship_of_the_line"] * 2
    assert game.decision() == "buy_vehicles" and game.actor_label() == "RNC"


def test_epoch_2_event_adds_revenue_at_mao():
    game = sr_game()
    rnc_buys_next_tier(game, "frigate", "5H", ["xebec", "polacca"])
    eng = game._eng
    assert game.state()["epoch"] == 2 and eng.node_bonus == {"Maó": 10}
