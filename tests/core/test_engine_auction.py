"""The Family Legacy auction (RULES.md §2)."""
from helpers.engine import act, matching, new_game

from menorca_sim.run.records import game_summary


def _summary_row(game, legacy):
    return next(a for a in game_summary(game)["auctions"] if a["legacy"] == legacy)


def test_auction_price_drops_down_to_zero():
    game = new_game(players=2, legacies=["L1", "L2"])  # L1 is the cheapest at 20
    for _ in range(4):  # two passes in succession drop it by 5: 20 -> 15 -> 10 -> 5 -> 0
        act(game, "pass")
        act(game, "pass")
    assert game.legal_actions() == [{"type": "buy_legacy"}]  # at 0 the next player must take it
    seat = game.current_actor()
    cash = game.state()["players"][seat]["cash"]
    act(game, "buy_legacy")
    assert game.state()["players"][seat]["cash"] == cash
    row = _summary_row(game, "L1")
    assert (row["price"], row["drops"], row["buyer_seat"]) == (0, 4, seat)


def test_price_drops_only_after_everybody_passed_in_succession():
    game = new_game(players=3, legacies=["L1", "L2", "L3"])
    act(game, "pass")
    act(game, "pass")
    act(game, "reserve", legacy="L3")  # not a pass: the count starts again
    act(game, "pass")
    act(game, "pass")
    assert game.auction_state()["price"] == 20
    act(game, "pass")
    assert game.auction_state()["price"] == 15


def test_auction_last_passer_keeps_start_marker():
    game = new_game(players=3, legacies=["L1", "L2", "L3"])
    act(game, "buy_legacy")  # P1 buys L1
    act(game, "pass")  # P2
    act(game, "pass")  # P3: the last to pass
    act(game, "buy_legacy")  # P1 buys L2
    act(game, "buy_legacy")  # P2 buys L3: the auction ends
    assert game.decision() == "stock_turn"
    assert game.state()["start_player"] == 2
    assert game.current_actor() == 2


def test_single_reserver_buys_at_his_bid():
    game = new_game(players=2, legacies=["L1", "L2"])
    act(game, "reserve", legacy="L2", bid=35)  # P1
    act(game, "buy_legacy")  # P2 buys L1; L2 becomes the cheapest and goes to P1 at 35
    row = _summary_row(game, "L2")
    assert (row["buyer_seat"], row["price"], row["reservations"]) == (0, 35, 1)
    assert game.state()["players"][0]["cash"] == 420 - 35


def test_reservation_bid_must_beat_the_highest_by_the_step():
    game = new_game(players=2, legacies=["L1", "L3"])
    act(game, "reserve", legacy="L3", bid=45)
    assert matching(game, "reserve", legacy="L3")[0]["bid"] == 50


def test_reservation_contest_goes_up_in_steps_and_winner_pays_his_bid():
    game = new_game(players=3, legacies=["L1", "L2", "L3"])
    act(game, "reserve", legacy="L3", bid=45)  # P1
    act(game, "reserve", legacy="L3", bid=50)  # P2
    act(game, "buy_legacy")  # P3 buys L1; L2 is unreserved: normal turns go on with P1
    act(game, "buy_legacy")  # P1 buys L2; L3 has two reservations: a contest
    assert game.decision() == "auction_contest"
    assert game.current_actor() == 0  # P1 must beat P2's 50
    act(game, "raise", bid=55)
    assert game.current_actor() == 1
    act(game, "drop")
    row = _summary_row(game, "L3")
    assert (row["buyer_seat"], row["price"]) == (0, 55)
    assert game.decision() == "stock_turn"


def test_open_reservations_may_not_exceed_cash():
    game = new_game(players=2, legacies=["L1", "L8", "L9"])
    eng = game._eng
    eng.bank += eng.p_cash[0] - 200  # P1 has only 200 (the rest back to the bank)
    eng.p_cash[0] = 200
    act(game, "reserve", legacy="L9", bid=160)
    act(game, "pass")  # P2
    assert not matching(game, "reserve", legacy="L8")  # 160 + 130 > 200


def test_grant_certificate_gives_an_unmarked_certificate_at_auction():
    game = new_game(players=2, legacies=["L1", "L6"])
    act(game, "buy_legacy")  # P1 takes L1
    act(game, "buy_legacy")  # P2 takes L6: one RCC 10 % from RCC's treasury, free
    st = game.state()
    assert st["players"][1]["shares"] == {"RCC": 10} and st["players"][1]["cash"] == 420 - 90
    act(game, "start_company", company="RCC", par=60)  # P1 (first to act: nobody passed)
    markers = 0
    for _ in range(5):
        act(game, "buy_cert", company="RCC", source="treasury")
        if game.decision() == "place_market_marker":
            markers += 1
            act(game, "place_market_marker", offboard="Palma")
    assert markers == 5  # the granted certificate was not one of the five marked ones


def test_seat_cash_adds_to_a_seats_starting_cash_out_of_the_bank():
    from helpers.engine import load_ruleset_with

    plain = new_game(players=2, seed=3)
    game = new_game(players=2, seed=3, ruleset=load_ruleset_with({"player_counts.0.seat_cash.1": 30}))
    assert [game.player_state(p)["cash"] for p in range(2)] == [420, 450]
    assert game.state()["bank"] == plain.state()["bank"] - 30
