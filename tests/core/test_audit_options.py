"""The four options the Dec 2026 audit of logged games asked for (RULES.md, "Dec 2026";
docs/rules.md), each played both ways: a minor's president keeps his last certificate,
a route visits two different revenue nodes, a company may or may not buy back in the OR
of its own sale, and the bank emptied in a stock round ends the game after the next OR
or with the round."""
from __future__ import annotations

import pytest

from helpers.engine import (act, company, fund, matching, new_game, pass_stock_round, play_random, set_cash,
                            sr_game, start_directly)

from menorca_sim.core.board import Board
from menorca_sim.core.codes import POOL
from menorca_sim.core.maptables import map_tables
from menorca_sim.core.revenue.routes import best_routes
from menorca_sim.core.revenue.context import RevenueContext
from menorca_sim.game import Game
from menorca_sim.log import read
from menorca_sim.play import play_game, seat_policies
from menorca_sim.rules import load_ruleset

MAY_SELL = {"minors.last_certificate": "may_sell"}
LOOPS = {"routes.min_distinct_nodes": 1}
XEBEC = ("xebec", "ship", 4)
AUDIT_SEATS = ["heuristic", "heuristic_tuned", "random_legal"]  # the audit's logged game: 3 players, seed 5


def _president_on_turn(ruleset, sold_to=()) -> Game:
    """A stock round in which sales are allowed, P1 on turn, presiding Ramaders with one
    certificate (and each (seat, count) of `sold_to` holding that many more)."""
    game = sr_game(ruleset=ruleset)
    start_directly(game, "Ramaders", 0, 60, sold_to=sold_to)
    game._eng.srs = 2  # past the first stock round, which has no sales
    return game


def _sole_president_sells(game: Game, action: dict) -> bool:
    """Is `action` a sale of a minor's certificate by its president, holding one, while no
    other player holds any?"""
    if action["type"] != "sell_cert" or action["company"] not in game.ruleset.minors:
        return False
    eng = game._eng
    c = company(game, action["company"])
    p = game.current_actor()
    return eng.president[c] == p and eng.count_of(c, p) == 1 and all(
        eng.count_of(c, q) == 0 for q in range(eng.n) if q != p)


def test_minors_last_certificate_keep_forbids_the_audit_sale(tmp_path):
    """The audit's game (3 players, seed 5), logged under the old reading: replayed under
    `keep` in lockstep, its first action that is not legal is the president of a minor
    selling the last certificate anyone holds; the old reading allowed it."""
    old = load_ruleset(overrides={**MAY_SELL, **LOOPS})
    log = tmp_path / "audit.jsonl"
    play_game(old, 5, seat_policies(AUDIT_SEATS, 5), log=log)
    records = read(log)
    header = records[0]
    keep = load_ruleset(overrides=LOOPS)  # only the last-certificate rule differs
    mirror = {name: Game(rs, players=3, seed=5, minors=header["minors"], legacies=header["legacies"], check=True)
              for name, rs in (("keep", keep), ("may_sell", old))}
    refused = None
    for record in records[1:]:
        if record["type"] != "action":
            continue
        action = record["action"]
        if action not in mirror["keep"].legal_actions():
            refused = action
            break
        for game in mirror.values():
            game.apply(action)
    assert refused is not None, "the audit's sale of a last minor certificate did not happen"
    assert _sole_president_sells(mirror["may_sell"], refused)
    assert refused in mirror["may_sell"].legal_actions()


def test_minors_last_certificate_keep_and_may_sell():
    keep = _president_on_turn(None)
    assert not matching(keep, "sell_cert", company="Ramaders")
    may = _president_on_turn(load_ruleset(overrides=MAY_SELL))
    act(may, "sell_cert", company="Ramaders")
    c = company(may, "Ramaders")
    assert may._eng.percent(c, 0) == 0 and may._eng.president[c] == 0  # the old reading: a president of nothing


def test_minors_last_certificate_may_go_when_another_player_holds_one():
    """With another player holding one, the president may sell his last: the holder presides."""
    game = _president_on_turn(None, sold_to=[(1, 1)])
    act(game, "sell_cert", company="Ramaders")
    assert game._eng.president[company(game, "Ramaders")] == 1


def _logged_heuristic_games(tmp_path, count: int) -> None:
    """`count` invariant-checked heuristic games (2 and 3 players), logged: the checker
    fails a game whose minor is presided by a player holding none of it (at every
    action), and every route the logs show visits two different revenue nodes."""
    rs = load_ruleset()
    routes = 0
    for seed in range(count):
        players = 2 + seed % 2
        log = tmp_path / f"{seed}.jsonl"
        play_game(rs, seed, seat_policies(["heuristic"] * players, seed), check=True, log=log)
        for record in read(log):
            for route in record.get("routes") or ():
                assert len(set(route["nodes"])) >= 2, (seed, record["i"], route)
                routes += 1
        log.unlink()
    assert routes > 100 * count  # the games did run routes


def test_minors_last_certificate_and_min_distinct_nodes_in_logged_games(tmp_path):
    _logged_heuristic_games(tmp_path, 10)


@pytest.mark.slow
def test_minors_last_certificate_and_min_distinct_nodes_in_200_logged_games(tmp_path):
    _logged_heuristic_games(tmp_path, 200)


# --- routes.min_distinct_nodes -------------------------------------------------------------
# A loop from Sant Climent: I12 north to I10, south-west to H11, back to I12
LOOP_TRACK = (("I12", "3", 2), ("I10", "7", 0), ("H11", "7", 4))


def _loop_plan(overrides: dict | None, vehicles=(("c", "cart", 4),)):
    rs = load_ruleset(overrides=overrides)
    board = Board(map_tables(rs))
    for hex_, tile, rotation in LOOP_TRACK:
        board.lay_tile(hex_, tile, rotation)
    board.place_station("Ramaders", "Sant Climent", "manufactory")
    return best_routes(board, "Ramaders", False, list(vehicles), RevenueContext(epoch=1))


def test_routes_min_distinct_nodes_no_loop_from_a_node_to_itself():
    """The only track is a loop back to Sant Climent: one node, so no route by default."""
    assert _loop_plan(None).revenue == 0 and not _loop_plan(None).routes
    old = _loop_plan(LOOPS)
    assert old.revenue == 10 and [r.nodes for r in old.routes] == [["Sant Climent"]]


def test_routes_min_distinct_nodes_es_castell_loop_is_no_route():
    """The audit's loop Es Castell - L9 - L11 - Es Castell (445 such routes in its logs):
    RNC with ports at Maó and Es Castell and two xebecs. One sails Maó - València; the
    other has no lane left but the loop, which earns Es Castell's 10 R. only the old way."""
    for overrides, revenue in ((None, 50), (LOOPS, 60)):
        rs = load_ruleset(overrides=overrides)
        board = Board(map_tables(rs))
        board.place_station("RNC", "Maó", "port")
        board.place_station("RNC", "Es Castell", "port")
        plan = best_routes(board, "RNC", True, [XEBEC, XEBEC], RevenueContext(epoch=1))
        assert plan.revenue == revenue
        loops = [r.hexes for r in plan.routes if r.nodes == ["Es Castell"]]
        assert loops == ([] if overrides is None else [["K10", "L9", "L11", "K10"]])


def test_routes_min_distinct_nodes_three():
    """A stricter table: three different nodes, so Maó - Sant Lluís (2 hexes) is no route."""
    rs = load_ruleset(overrides={"routes.min_distinct_nodes": 3})
    board = Board(map_tables(rs))
    for hex_, tile, rotation in (("J13", "3", 2), ("I12", "T1", 5)):
        board.lay_tile(hex_, tile, rotation)
    board.place_station("RNC", "Maó", "port")
    ctx = RevenueContext(epoch=1)
    assert best_routes(board, "RNC", True, [("c", "cart", 2)], ctx).revenue == 0
    assert best_routes(board, "RNC", True, [("c", "cart", 3)], ctx).revenue == 20 + 10 + 10


# --- company_shares.buy_back_after_sale --------------------------------------------------
def _rnc_at_its_sale(ruleset) -> Game:
    """RNC (P1's, at 100, rich) operating, at step 6 with certificates in its treasury."""
    game = sr_game(ruleset=ruleset)
    start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", 2000)
    pass_stock_round(game)
    assert game.actor_label() == "RNC"
    while game.decision() != "company_sells":
        skip = matching(game, "skip")
        act(game, "skip") if skip else game.apply(game.legal_actions()[0])
    return game


def test_company_shares_buy_back_after_sale_allowed():
    game = _rnc_at_its_sale(None)
    c = company(game, "RNC")
    eng = game._eng
    price = eng.price(c)
    act(game, "company_sells_certs", count=2)
    assert eng.count_of(c, POOL) == 2 and eng.price(c) < price
    act(game, "company_buys_back")  # at the lower value: the seeds' literal reading
    assert eng.count_of(c, POOL) == 1


def test_company_shares_buy_back_after_sale_next_or():
    rs = load_ruleset(overrides={"company_shares.buy_back_after_sale": "next_or"})
    game = _rnc_at_its_sale(rs)
    c = company(game, "RNC")
    act(game, "company_sells_certs", count=2)
    # step 7 offers nothing in the OR of the sale, so it passes: RNC, alone, lays in the next OR
    assert game.decision() == "lay_tile" and game._eng.count_of(c, POOL) == 2
    # without a sale in this OR, the same step offers the buy-back
    other = _rnc_at_its_sale(rs)
    other._eng.set_owner(c, 8, POOL)
    act(other, "skip")
    assert other.decision() == "company_buys_back" and matching(other, "company_buys_back")


# --- end.bank_empty_in_stock_round --------------------------------------------------------
def _bank_broken_in_second_sr(ruleset) -> Game:
    game = new_game(players=3, seed=11, ruleset=ruleset)
    play_random(game, 11, until=lambda g: g._eng.srs == 2 and g.decision() == "stock_turn")
    eng = game._eng
    set_cash(game, 0, eng.p_cash[0] + eng.bank)  # into a player's hands: the bank is empty
    eng.pay_player(1, 1)  # a payment out of the empty bank breaks it
    assert eng.end_reason == "bank"
    return game


def test_end_bank_empty_in_stock_round_next_or():
    game = _bank_broken_in_second_sr(None)
    eng = game._eng
    ors = eng.ors
    play_random(game, 4)
    assert game.result()["reason"] == "bank" and eng.ors == ors + 1 and eng.srs == 2


def test_end_bank_empty_in_stock_round_end_of_round():
    game = _bank_broken_in_second_sr(load_ruleset(overrides={"end.bank_empty_in_stock_round": "end_of_round"}))
    eng = game._eng
    ors = eng.ors
    play_random(game, 4)
    assert game.result()["reason"] == "bank" and eng.ors == ors and eng.srs == 2
