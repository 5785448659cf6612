"""End of the game and scoring (RULES.md §9)."""
from helpers.engine import (act, cell_of, company, fund, load_ruleset_with, new_game, pass_stock_round,
                            play_random, set_cash, set_phase, sr_game, start_directly)


def _in_first_or_of_a_set(seed=11):
    """A random game stopped inside the first OR of a set, with a company to operate."""
    game = new_game(players=3, seed=seed)
    play_random(game, seed, until=lambda g: g._eng.round == "operating" and g._eng.operating.company >= 0
                and g._eng.operating.in_set == 1 and g._eng.srs >= 2)
    assert not game.is_over()
    return game


def test_bank_broken_finishes_the_current_or():
    game = _in_first_or_of_a_set()
    eng = game._eng
    this_or, srs = eng.ors + 1, eng.srs
    eng.pay_player(0, eng.bank)  # a payment that empties the bank
    play_random(game, 1)
    assert game.result()["reason"] == "bank"
    assert (eng.ors, eng.srs) == (this_or, srs)  # the second OR of the set is not played


def test_bankruptcy_finishes_the_current_or():
    game = _in_first_or_of_a_set(seed=12)
    eng = game._eng
    this_or = eng.ors + 1
    c = eng.operating.company
    eng.place_token(c, *eng.t.market.bankrupt_cell(eng.co_col[c]))
    play_random(game, 2)
    assert game.result()["reason"] == "bankruptcy"
    assert eng.ors == this_or
    assert game.summary()["companies"][c]["bankrupt"]


def test_conquest_finishes_the_current_set():
    game = sr_game()
    set_phase(game, "7H")
    eng = game._eng
    eng.vehicles_left[eng.t.vehicle_index["ship_of_the_line"]] = 0  # the 7H tier is sold out
    start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", 1000)
    pass_stock_round(game)
    assert eng.operating.set_length == 3
    while game.decision() != "buy_vehicles":
        act(game, "skip")
    act(game, "buy_vehicle", vehicle="convoy")  # 8H: epoch 4 by default, "Conquest 1756"
    assert game.state()["epoch"] == 4 and not game.is_over()
    play_random(game, 3)
    assert game.result()["reason"] == "conquest"
    assert (eng.ors, eng.srs) == (3, 1)  # the whole set, begun in 7H, was finished


def test_cap_ends_the_game():
    game = new_game(players=2, seed=4, ruleset=load_ruleset_with({"end.max_ors": 3}))
    play_random(game, 4)
    assert game.result()["reason"] == "cap" and game.ors_played() == 3


def test_scoring_example_920():
    """400 R. cash, three RNC 10 % at 120, two RADM 10 % at 80: 400 + 360 + 160 = 920."""
    game = sr_game()
    eng = game._eng
    rnc = start_directly(game, "RNC", 1, 120, sold_to=[(0, 3)])
    radm = company(game, "RADM")
    eng.started[radm] = True
    eng.place_token(radm, *cell_of(80))
    eng.set_owner(radm, 0, 0)
    eng.set_owner(radm, 1, 0)
    set_cash(game, 0, 400)
    assert eng.price(rnc) == 120
    assert game.result()["wealth"][0] == 920
    assert game.summary()["seats"][0]["cert_value"] == 520


def test_twenty_percent_certificate_counts_twice():
    game = sr_game()
    start_directly(game, "RNC", 0, 100)
    set_cash(game, 0, 0)
    assert game.result()["wealth"][0] == 200


def test_scoring_tie_more_cash_wins_then_shared():
    game = sr_game(players=2)
    start_directly(game, "RNC", 0, 100)  # P1: 100 cash + 200 certificate
    set_cash(game, 0, 100)
    set_cash(game, 1, 300)  # P2: 300 cash: same wealth, more cash
    res = game.result()
    assert res["wealth"] == [300, 300] and res["winners"] == [1] and res["rank"] == [2, 1]
    game = sr_game(players=2)
    set_cash(game, 0, 250)
    set_cash(game, 1, 250)
    res = game.result()
    assert res["winners"] == [0, 1] and res["win_share"] == [0.5, 0.5] and res["rank"] == [1, 1]


def test_epoch_4_begins_at_8h_so_conquest_is_reached_in_play():
    """Default epochs 1 = 4H-5H, 2 = 6H, 3 = 7H, 4 = 8H-9H: Conquest 1756, epoch 4's
    card, ends some all-heuristic games (at 9H alone it never did: the bank broke first)."""
    from menorca_sim.run.chunk_worker import play_one
    from menorca_sim.run.experiment import GameSpec
    from menorca_sim.rules import load_ruleset

    rs = load_ruleset()
    assert [(p.name, p.epoch) for p in rs.phases] == [("4H", 1), ("5H", 1), ("6H", 2), ("7H", 3), ("8H", 4),
                                                      ("9H", 4)]
    ends = []
    for seed in range(12):
        spec = GameSpec(game_id=seed, variant="", cell="", game_index=seed, seed=seed, players=2,
                        minors=("Artesans", "Destil·ladors"), policies=("heuristic", "heuristic"))
        ends.append(play_one(rs, spec)["end_reason"])
    assert "conquest" in ends and set(ends) <= {"bank", "conquest"}
