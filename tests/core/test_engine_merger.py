"""The RADM merger at the start of epoch 3 (RULES.md §3): unconditional, its value by
`merger.price`, and RADM formed unowned where neither minor was started."""

from helpers.engine import (act, cell_of, company, fund, give_vehicles, load_ruleset_with, matching,
                            pass_stock_round, play_random, rnc_at_purchase, rnc_buys_next_tier, set_phase,
                            sr_game, start_directly)

from helpers import ROOT
from menorca_sim.core.codes import BOX, POOL, TREASURY
from menorca_sim.run.chunk_worker import play_one, ruleset_for
from menorca_sim.run.experiment import load_experiment

SOLD_OUT_6H = ["xebec", "polacca", "frigate"]


def _minors(game):
    eng = game._eng
    ram = start_directly(game, "Ramaders", 0, 60, sold_to=[(0, 1), (1, 1)])  # P1 40 %, P2 20 %
    art = start_directly(game, "Artesans", 1, 60, sold_to=[(1, 2), (2, 1), (POOL, 1)])
    eng.place_token(art, *cell_of(75, par=False))  # Artesans is worth more
    eng.goods[art][eng.t.offboards.index("Palma")] = 2
    eng.goods_left[ram], eng.goods_left[art] = 2, 0  # a marker for each certificate sold
    fund(game, "Ramaders", 30)
    fund(game, "Artesans", 50)
    give_vehicles(game, "Artesans", ["freight_wagon"])
    return ram, art


def _wealth_across_the_merger(game):
    """Each seat's wealth just before and just after RNC's ship of the line starts 7H."""
    rnc_at_purchase(game, "6H", SOLD_OUT_6H)
    eng = game._eng
    before = [eng.wealth(p) for p in range(eng.n)]
    act(game, "buy_vehicle", vehicle="ship_of_the_line", source="bank")
    assert game.state()["phase"] == "7H"
    return before, [eng.wealth(p) for p in range(eng.n)]


def test_radm_merger_certificate_conversion():
    game = sr_game()
    ram, art = _minors(game)
    rnc_buys_next_tier(game, "ship_of_the_line", "6H", SOLD_OUT_6H)
    eng = game._eng
    st = game.state()
    assert "Ramaders" not in st["companies"] and "Artesans" not in st["companies"]
    radm = st["companies"]["RADM"]
    shares = [p["shares"].get("RADM", 0) for p in st["players"]]
    assert shares == [20, 40, 10]  # each 20 % became one 10 %
    assert (radm["treasury"], radm["pool"]) == (20, 10)
    assert radm["price"] == 140 and radm["cell"][0] == cell_of(75, par=False)[0]  # 60 + 75 = 135: nearest 140
    assert radm["cash"] == 80 and radm["vehicles"] == ["freight_wagon"]
    assert sorted(radm["stations"]) == ["Es Mercadal", "Ferreries"]
    assert radm["goods_markers"] == {"Palma": 2}
    r = company(game, "RADM")
    assert eng.director(r) == 1  # the largest holder
    assert eng.goods_left[r] == 2  # one unplaced marker per certificate never sold by a minor
    assert all(o == BOX for o in list(eng.cert_owner[ram]) + list(eng.cert_owner[art]))
    play_random(game, 2, until=lambda g: g.actor_label() == "RADM" or g.ors_played() > 0)
    assert game.actor_label() == "RADM" and game.ors_played() == 0  # it operates in this OR


def test_merger_price_sum_keeps_each_holders_wealth():
    """Both minors at 60: one 20 % at 60 (120 R.) becomes one 10 % at 60 + 60 = 120."""
    game = sr_game()
    start_directly(game, "Ramaders", 0, 60, sold_to=[(0, 1), (1, 1)])  # P1 2, P2 1 certificates
    start_directly(game, "Artesans", 1, 60, sold_to=[(2, 2)])  # P2 1, P3 2
    before, after = _wealth_across_the_merger(game)
    assert game.state()["companies"]["RADM"]["price"] == 120
    assert after == before
    players = game.state()["players"]
    assert [p["shares"]["RADM"] // 10 * 120 for p in players] == [240, 240, 240]  # as their minors were


def test_merger_price_average_halves_each_holders_stake():
    game = sr_game(ruleset=load_ruleset_with({"merger.price": "average"}))
    start_directly(game, "Ramaders", 0, 60, sold_to=[(0, 1), (1, 1)])
    start_directly(game, "Artesans", 1, 60, sold_to=[(2, 2)])
    before, after = _wealth_across_the_merger(game)
    assert game.state()["companies"]["RADM"]["price"] == 60
    assert [b - a for b, a in zip(before, after)] == [120, 120, 120]  # 240 R. of minors became 120


def test_merger_price_sum_with_one_minor_started_doubles_its_value():
    game = sr_game()
    ram = start_directly(game, "Ramaders", 0, 60, sold_to=[(0, 1), (1, 2)])
    game._eng.place_token(ram, *cell_of(70, par=True))
    before, after = _wealth_across_the_merger(game)
    assert game.state()["companies"]["RADM"]["price"] == 140  # one 20 % at 70 = one 10 % at 140
    assert after == before


def test_merger_price_sum_is_clamped_to_the_grid():
    game = sr_game()
    eng = game._eng
    minors = [start_directly(game, cid, seat, 60) for cid, seat in (("Ramaders", 0), ("Artesans", 1))]
    rnc_at_purchase(game, "6H", SOLD_OUT_6H)
    for c in minors:
        eng.place_token(c, *cell_of(230))
    act(game, "buy_vehicle", vehicle="ship_of_the_line", source="bank")
    assert game.state()["companies"]["RADM"]["price"] == 350  # 460 is beyond the top cell


def test_merger_happens_with_no_minor_started():
    """`form_unowned`: RADM exists in every game from 7H; nobody holds it yet."""
    game = sr_game()
    rnc_buys_next_tier(game, "ship_of_the_line", "6H", SOLD_OUT_6H)
    eng = game._eng
    r = company(game, "RADM")
    radm = game.state()["companies"]["RADM"]
    assert (radm["treasury"], radm["pool"], radm["price"], radm["cash"]) == (100, 0, 60, 0)  # the minors' par
    assert sorted(radm["stations"]) == ["Es Mercadal", "Ferreries"]  # both minors' homes
    assert eng.goods_left[r] == 10 and not eng.operates(r)
    assert all(eng.closed[m] and all(o == BOX for o in eng.cert_owner[m]) for m in eng.minors_in_play)
    play_random(game, 3, until=lambda g: g.decision() == "stock_turn")
    buyer = game.current_actor()
    act(game, "buy_cert", company="RADM", source="treasury")  # bought like a major's certificate
    assert game.decision() == "place_goods_marker"  # a minor's certificate would have brought one
    act(game, "place_goods_marker", offboard="Palma")
    assert eng.co_cash[r] == 60 and eng.operates(r) and eng.director(r) == buyer
    assert game.state()["companies"]["RADM"]["goods_markers"] == {"Palma": 1}


def test_merger_not_formed_option_keeps_radm_out_of_the_game():
    game = sr_game(ruleset=load_ruleset_with({"merger.no_minor_started": "not_formed"}))
    rnc_buys_next_tier(game, "ship_of_the_line", "6H", SOLD_OUT_6H)
    eng = game._eng
    assert not eng.started[company(game, "RADM")]
    play_random(game, 3, until=lambda g: g.decision() == "stock_turn")
    assert not matching(game, "buy_cert", company="RADM")


def test_radm_does_not_operate_if_a_minor_already_operated():
    game = sr_game()
    ram, art = _minors(game)
    game._eng.place_token(art, *cell_of(190))  # Artesans goes first
    set_phase(game, "6H")
    for v in SOLD_OUT_6H:
        game._eng.vehicles_left[game._eng.t.vehicle_index[v]] = 0
    start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", 1000)
    pass_stock_round(game)
    assert game.actor_label() == "Artesans"
    play_random(game, 4, until=lambda g: g.actor_label() == "RNC")
    while game.decision() != "buy_vehicles":
        act(game, "skip")
    act(game, "buy_vehicle", vehicle="ship_of_the_line", source="bank")
    labels = set()
    play_random(game, 4, until=lambda g: g.ors_played() > 0 or labels.add(g.actor_label()))
    assert "RADM" not in labels


def test_merger_unstarted_minor_option():
    for option, treasury, goods in (("join", 50 + 10, 10), ("discard", 10, 5)):
        game = sr_game(ruleset=load_ruleset_with({"merger.unstarted_minor": option}))
        start_directly(game, "Ramaders", 0, 60, sold_to=[(1, 1), (2, 2)])  # one left in its treasury
        rnc_buys_next_tier(game, "ship_of_the_line", "6H", SOLD_OUT_6H)
        eng = game._eng
        r = company(game, "RADM")
        assert eng.percent(r, TREASURY) == treasury
        assert eng.percent(r, BOX) == 100 - 40 - treasury
        assert eng.goods_left[r] == goods  # a joined minor's unplaced goods markers come along


def test_merger_may_leave_a_holder_above_sixty_percent():
    """Minor holdings bought in the yellow zone convert as they are (check=True is on)."""
    game = sr_game()
    start_directly(game, "Ramaders", 0, 60, sold_to=[(0, 3)])  # 80 %
    start_directly(game, "Artesans", 0, 60, sold_to=[(0, 2), (1, 1)])  # 60 %
    rnc_buys_next_tier(game, "ship_of_the_line", "6H", SOLD_OUT_6H)
    assert game.state()["players"][0]["shares"]["RADM"] == 70


def test_radm_exists_in_every_balance_study_game_that_reaches_7h():
    """A small sample of the default study (`make report`): every player count and draw."""
    exp = load_experiment(ROOT / "experiments" / "balance.toml", games=6)
    ruleset = ruleset_for(exp.variants[0])
    seven = ruleset.phase_index("7H")
    reached = set()
    for game_id in range(len(exp.cells) * exp.games):  # its first population's games
        spec = exp.game(game_id)
        summary = play_one(ruleset, spec)
        radm = next(c for c in summary["companies"] if c["company"] == "RADM")
        if ruleset.phase_index(summary["phase"]) >= seven:
            assert radm["started"], (spec.cell, spec.seed)
            reached.add(spec.cell)
    assert len(reached) == len(exp.cells)  # each player count and draw was checked
