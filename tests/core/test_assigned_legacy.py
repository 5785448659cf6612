"""Random assignment of a legacy (setup.assigned_*): the two arms of analysis/values.py.

In the "hold" arm the designated seat owns the legacy before the auction, having paid
its price to the bank; in the "out" arm it is out of the game; in both the same n - 1
other legacies are drawn and auctioned, and the rest of the setup is the seed's."""
from __future__ import annotations

import pytest

from menorca_sim.game import Game
from menorca_sim.play import play_game, seat_policies
from menorca_sim.rules import RulesetError, load_ruleset


def _game(players: int, seed: int, **setup) -> Game:
    overrides = {f"setup.{k}": v for k, v in setup.items()}
    return Game(load_ruleset(None, overrides), players=players, seed=seed)


@pytest.mark.parametrize("players", [2, 3])
def test_hold_gives_the_seat_the_legacy_before_the_auction(players: int) -> None:
    cash = load_ruleset().player_counts[players].cash
    for seed in range(6):
        g = _game(players, seed, assigned_legacy="L6", assigned_price=70, assigned_seat=1)
        obs = g.observation()
        holder = obs["players"][1]
        assert holder["legacies"] == ["L6"] and holder["cash"] == cash - 70
        assert holder["shares"] == {"RCC": 10} and holder["certs"] == 1  # L6 grants 10 % of RCC
        assert obs["bank"] == load_ruleset().bank - cash * players + 70
        assert "L6" not in g.auction_state()["left"]
        assert len(g.auction_state()["left"]) == players - 1
        assert all(p["legacies"] == [] for i, p in enumerate(obs["players"]) if i != 1)


@pytest.mark.parametrize("players", [2, 3])
def test_both_arms_auction_the_same_others_and_share_the_setup(players: int) -> None:
    for seed in range(8):
        hold = _game(players, seed, assigned_legacy="L3", assigned_price=20)
        out = _game(players, seed, assigned_legacy="L3", assigned_arm="out")
        h, o = hold.header(), out.header()
        assert "L3" in h["legacies"] and "L3" not in o["legacies"]
        assert sorted(set(h["legacies"]) - {"L3"}) == sorted(o["legacies"])
        assert len(o["legacies"]) == players - 1
        assert (h["minors"], h["events"]) == (o["minors"], o["events"])
        assert hold.auction_state()["left"] == out.auction_state()["left"]


def test_the_designated_seat_is_drawn_by_seed_and_every_seat_is_drawn() -> None:
    holders = set()
    for seed in range(30):
        obs = _game(3, seed, assigned_legacy="L9", assigned_price=0).observation()
        seat = [i for i, p in enumerate(obs["players"]) if p["legacies"] == ["L9"]]
        assert len(seat) == 1
        again = _game(3, seed, assigned_legacy="L9", assigned_price=0).observation()
        assert again["players"][seat[0]]["legacies"] == ["L9"]
        holders.add(seat[0])
    assert holders == {0, 1, 2}


def test_without_assignment_the_setup_is_untouched() -> None:
    for seed in range(5):
        assert _game(3, seed).header() == Game(load_ruleset(), players=3, seed=seed).header()


@pytest.mark.parametrize("arm", ["hold", "out"])
def test_games_play_to_the_end_in_both_arms(arm: str) -> None:
    rs = load_ruleset(None, {"setup.assigned_legacy": "L7", "setup.assigned_arm": arm,
                             "setup.assigned_price": 40})
    for seed in range(3):
        game = play_game(rs, seed, seat_policies(["heuristic"] * 3, seed), check=True)
        assert game.is_over()
        bought = [seat["legacies"] for seat in game.tallies()["seats"]]  # held ones may have closed since
        assert sum("L7" in b for b in bought) == (arm == "hold")


@pytest.mark.parametrize("key, value, says", [
    ("assigned_legacy", "L42", "unknown legacy"),
    ("assigned_seat", 5, "does not exist"),
    ("assigned_price", 100000, "more, either way, than a seat may start with"),
    ("assigned_price", -100000, "more, either way, than a seat may start with"),
    ("assigned_arm", "both", "expected one of"),
])
def test_bad_assignment_names_the_key(key: str, value, says: str) -> None:
    overrides = {"setup.assigned_legacy": "L1", f"setup.{key}": value}
    with pytest.raises(RulesetError, match=f"setup.{key}.*{says}"):
        load_ruleset(None, overrides)
