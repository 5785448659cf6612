"""Phases as fleet states, epochs, and the RADM merger (RULES.md §3-4)."""
from engine_helpers import (act, cell_of, company, fund, give_vehicles, load_ruleset_with, matching,
                            pass_stock_round, play_random, set_cash, set_phase, sr_game, start_directly)

from menorca_sim.core.codes import BOX, POOL, TREASURY


def _open_tier(game, sold_out):
    eng = game._eng
    for v in sold_out:
        eng.vehicles_left[eng.t.vehicle_index[v]] = 0


def _rnc_buys(game, vehicle, phase, sold_out, cash=1000):
    """RNC operates first and buys the first vehicle of the next tier."""
    set_phase(game, phase)
    _open_tier(game, sold_out)
    start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", cash)
    pass_stock_round(game)
    assert game.actor_label() == "RNC"
    while game.decision() != "buy_vehicles":
        act(game, "skip")
    act(game, "buy_vehicle", vehicle=vehicle, source="bank")


def _minors(game):
    eng = game._eng
    ram = start_directly(game, "Ramaders", 0, 60, sold_to=[(0, 1), (1, 1)])  # P1 40 %, P2 20 %
    art = start_directly(game, "Artesans", 1, 60, sold_to=[(1, 2), (2, 1), (POOL, 1)])
    eng.place_token(art, *cell_of(75, par=False))  # Artesans is worth more
    eng.goods[art][eng.t.offboards.index("Palma")] = 2
    fund(game, "Ramaders", 30)
    fund(game, "Artesans", 50)
    give_vehicles(game, "Artesans", ["freight_wagon"])
    return ram, art


def test_new_phase_retires_vehicles_and_opens_tiles():
    game = sr_game()
    give_vehicles(game, "RNC", ["xebec", "cart"])
    _rnc_buys(game, "ship_of_the_line", "6H", ["xebec", "polacca", "frigate"])
    st = game.state()
    assert st["phase"] == "7H" and st["companies"]["RNC"]["vehicles"] == ["ship_of_the_line"]


def test_radm_merger_certificate_conversion():
    game = sr_game()
    ram, art = _minors(game)
    _rnc_buys(game, "ship_of_the_line", "6H", ["xebec", "polacca", "frigate"])
    eng = game._eng
    st = game.state()
    assert "Ramaders" not in st["companies"] and "Artesans" not in st["companies"]
    radm = st["companies"]["RADM"]
    shares = [p["shares"].get("RADM", 0) for p in st["players"]]
    assert shares == [20, 40, 10]  # each 20 % became one 10 %
    assert (radm["treasury"], radm["pool"]) == (20, 10)
    row, _ = cell_of(75, par=False)
    assert radm["cell"][0] == row and radm["price"] == 65  # average 67, down to a cell of that row
    assert radm["cash"] == 80 and radm["vehicles"] == ["freight_wagon"]
    assert sorted(radm["stations"]) == ["Es Mercadal", "Ferreries"]
    assert radm["goods_markers"] == {"Palma": 2}
    r = company(game, "RADM")
    assert eng.director(r) == 1  # the largest holder
    assert all(o == BOX for o in eng.cert_owner[ram] + eng.cert_owner[art])
    play_random(game, 2, until=lambda g: g.actor_label() == "RADM" or g._eng.ors > 0)
    assert game.actor_label() == "RADM" and game._eng.ors == 0  # it operates in this OR


def test_radm_does_not_operate_if_a_minor_already_operated():
    game = sr_game()
    ram, art = _minors(game)
    game._eng.place_token(art, *cell_of(190))  # Artesans goes first
    set_phase(game, "6H")
    _open_tier(game, ["xebec", "polacca", "frigate"])
    start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", 1000)
    pass_stock_round(game)
    assert game.actor_label() == "Artesans"
    play_random(game, 4, until=lambda g: g.actor_label() == "RNC")
    while game.decision() != "buy_vehicles":
        act(game, "skip")
    act(game, "buy_vehicle", vehicle="ship_of_the_line", source="bank")
    labels = set()
    play_random(game, 4, until=lambda g: g._eng.ors > 0 or labels.add(g.actor_label()))
    assert "RADM" not in labels


def test_merger_unstarted_minor_option():
    for option, treasury in (("join", 50 + 10), ("discard", 10)):
        game = sr_game(ruleset=load_ruleset_with({"merger.unstarted_minor": option}))
        start_directly(game, "Ramaders", 0, 60, sold_to=[(1, 1), (2, 2)])  # one left in its treasury
        _rnc_buys(game, "ship_of_the_line", "6H", ["xebec", "polacca", "frigate"])
        eng = game._eng
        r = company(game, "RADM")
        assert eng.percent(r, TREASURY) == treasury
        assert eng.percent(r, BOX) == 100 - 40 - treasury


def test_ccm_becomes_available_in_epoch_3():
    game = sr_game()
    assert not matching(game, "start_company", company="CCM")
    _rnc_buys(game, "ship_of_the_line", "6H", ["xebec", "polacca", "frigate"])
    play_random(game, 8, until=lambda g: g.decision() == "stock_turn")
    assert game.state()["epoch"] == 3
    set_cash(game, game.current_actor(), 500)
    assert matching(game, "start_company", company="CCM")


def test_legacies_close_at_epoch_3():
    game = sr_game()
    _rnc_buys(game, "ship_of_the_line", "6H", ["xebec", "polacca", "frigate"])
    assert all(p["legacies"] == [] for p in game.state()["players"])


def test_lower_limit_forces_discards():
    game = sr_game()
    start_directly(game, "RCC", 1, 90)
    give_vehicles(game, "RCC", ["ship_of_the_line"] * 3)  # 7H limit 3; 8H limit 2
    _rnc_buys(game, "convoy", "7H", ["ship_of_the_line"])
    assert game.state()["phase"] == "8H"
    assert game.decision() == "discard_vehicle" and game.actor_label() == "RCC"
    assert game.current_actor() == 1
    act(game, "discard_vehicle", vehicle="ship_of_the_line")
    assert game.state()["companies"]["RCC"]["vehicles"] == ["ship_of_the_line"] * 2
    assert game.decision() == "buy_vehicles" and game.actor_label() == "RNC"


def test_epoch_2_event_adds_revenue_at_mao():
    game = sr_game()
    _rnc_buys(game, "frigate", "5H", ["xebec", "polacca"])
    eng = game._eng
    assert game.state()["epoch"] == 2 and eng.node_bonus == {"Maó": 10}


def test_merger_may_leave_a_holder_above_sixty_percent():
    """Minor holdings bought in the yellow zone convert as they are (check=True is on)."""
    game = sr_game()
    start_directly(game, "Ramaders", 0, 60, sold_to=[(0, 3)])  # 80 %
    start_directly(game, "Artesans", 0, 60, sold_to=[(0, 2), (1, 1)])  # 60 %
    _rnc_buys(game, "ship_of_the_line", "6H", ["xebec", "polacca", "frigate"])
    assert game.state()["players"][0]["shares"]["RADM"] == 70
