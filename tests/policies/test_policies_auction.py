"""Each auction strategy's characteristic behaviour, shown on real auctions."""
import numpy as np
import pytest

from helpers.states import chosen
from menorca_sim.game import Game
from policies import make_policy
from policies.auction import auction_lot

AUCTION = ("auction_turn", "auction_contest")


def run_auction(ruleset, specs, legacies, seed=0):
    """Play the auction only; returns (game, [(seat, lot, lot price, action, strategy)])."""
    game = Game(ruleset, players=len(specs), seed=seed, legacies=legacies)
    policies = [make_policy(s, i, np.random.default_rng([seed, i])) for i, s in enumerate(specs)]
    moves = []
    while game.decision() in AUCTION:
        seat = game.current_actor()
        lot, price = auction_lot(game)
        strategy = policies[seat].policy.strategy.policy  # Checked(WithAuction(style, ByDicts(strategy)))
        caps = {l: strategy.cap(game, l) for l in game.auction_state()["left"]} \
            if hasattr(strategy, "cap") else {}
        action = chosen(policies[seat], game)
        moves.append((seat, lot, price, action, caps))
        game.apply(action)
    return game, moves


def buyers(game):
    return {a["legacy"]: (a["buyer_seat"], a["price"]) for a in game.summary()["auctions"]}


def test_cheapest_first_buys_at_once(ruleset):
    game, moves = run_auction(ruleset, ["random_legal+cheapest_first"] * 3, ["L1", "L5", "L9"])
    assert [m[3]["type"] for m in moves] == ["buy_legacy"] * 3
    assert buyers(game) == {"L1": (0, 20), "L5": (1, 75), "L9": (2, 160)}


@pytest.mark.parametrize("seed", range(3))
def test_wait_for_drop_never_buys_above_its_limit(ruleset, seed):
    drops = (0.3, 0.5, 0.8)
    specs = [f"random_legal+wait_for_drop(drop={d})" for d in drops]
    game, moves = run_auction(ruleset, specs, ["L2", "L5", "L7"], seed)
    bought = 0
    for seat, lot, price, action, _ in moves:
        if action["type"] == "buy_legacy":
            bought += 1
            assert price <= ruleset.legacies[lot].price * (1 - drops[seat])
        else:
            assert action["type"] == "pass"  # it never reserves
    assert bought == 3 and len(buyers(game)) == 3
    # prices really fell: somebody bought below the minimum
    assert any(price < ruleset.legacies[l].price for l, (_, price) in buyers(game).items())


def test_value_bidder_estimate_is_income_times_ors_plus_ability(ruleset):
    game = Game(ruleset, players=3, seed=0, legacies=["L1", "L5", "L9"])
    bidder = make_policy("random_legal+value_bidder(premium=0.2, ability_share=0.5)", 0,
                         np.random.default_rng(0)).policy.strategy.policy
    # 4H, 5H, 6H pay before epoch 3 closes the legacies: 2 + 2 + 2 ORs, one set each
    assert bidder.estimate(game, "L9") == 30 * 6
    assert bidder.estimate(game, "L5") == 15 * 6 + 75 // 2  # vehicle_discount: half its price
    assert bidder.estimate(game, "L1") == 5 * 6 + 10 * 6 // 2  # revenue bonus +10, half of it


@pytest.mark.parametrize("seed", range(3))
def test_value_bidder_never_bids_above_estimate_plus_premium(ruleset, seed):
    specs = ["random_legal+value_bidder(premium=0.2, budget=1)", "random_legal+value_bidder(premium=0.5, budget=1)",
             "random_legal+reserve_sniper(premium=0.3)"]
    premiums = (0.2, 0.5)
    game, moves = run_auction(ruleset, specs, ["L3", "L7", "L8"], seed)
    checked = 0
    for seat, lot, price, action, caps in moves:
        if seat == 2:
            continue
        strategy_estimate = {l: c / (1 + premiums[seat]) for l, c in caps.items()}
        cost = {"buy_legacy": (lot, price), "raise": (lot, action.get("bid")),
                "reserve": (action.get("legacy"), action.get("bid"))}.get(action["type"])
        if cost is not None:
            checked += 1
            legacy, amount = cost
            assert amount <= strategy_estimate[legacy] * (1 + premiums[seat]) + 1e-9
    assert checked >= 2
    assert any(m[3]["type"] in ("raise", "drop") for m in moves)  # there were contests


def test_reserve_sniper_reserves_and_defends_its_top_legacy(ruleset):
    # two snipers want L9 (worth 30 × 6 = 180): the one with the higher premium keeps it
    specs = ["random_legal+reserve_sniper(premium=0.5, budget=1)", "random_legal+reserve_sniper(budget=1)",
             "random_legal+cheapest_first"]
    game, moves = run_auction(ruleset, specs, ["L1", "L5", "L9"])
    first = {seat: next(m[3] for m in moves if m[0] == seat) for seat in (0, 1)}
    assert first[0] == {"type": "reserve", "legacy": "L9", "bid": 160}
    assert first[1] == {"type": "reserve", "legacy": "L9", "bid": 165}
    bids = {seat: [m[3]["bid"] for m in moves if m[0] == seat and "bid" in m[3]] for seat in (0, 1)}
    assert max(bids[1]) <= 180 and max(bids[1]) < max(bids[0]) <= 270  # each defends up to its own cap
    assert buyers(game)["L9"] == (0, max(bids[0]))


def test_random_auction_is_seeded(ruleset):
    specs = ["heuristic+random_legal"] * 3
    first = run_auction(ruleset, specs, ["L1", "L5", "L9"], seed=4)[1]
    again = run_auction(ruleset, specs, ["L1", "L5", "L9"], seed=4)[1]
    assert [m[3] for m in first] == [m[3] for m in again]
