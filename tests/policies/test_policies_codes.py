"""The one player protocol (`act_code`: a choice by index; a policy on dicts plays
through `ByDicts`) and the WhatIf's revenue memo (a typed table whose hits compare the
full key)."""
from types import SimpleNamespace

import numpy as np
import pytest

from menorca_sim.core.revenue.memo import RevenueMemo
from menorca_sim.game import Game, IllegalActionError
from menorca_sim.play import play_game, seat_policies
from menorca_sim.run.limits import DecisionLimitExceeded, counted, decision_limit
from policies import PolicyFailure
from policies.base import ByDicts


class DictsOnly:
    """A policy as a user writes it: `act` on the legal dicts only (here answering what
    `policy` chooses by index)."""

    def __init__(self, policy) -> None:
        self.policy = policy
        self.name, self.auction_strategy = policy.name, policy.auction_strategy

    def act(self, game, legal):
        return legal[self.policy.act_code(game)]


def test_a_dict_policy_plays_through_by_dicts_the_games_it_plays_by_index(ruleset):
    """The play loop asks every policy `act_code`; one with `act` only is adapted by
    `ByDicts`: the same players play the same games either way (heuristic styles with
    their own and with other auction strategies, themselves dict-based)."""
    specs = ["heuristic", "heuristic_aggressive+reserve_sniper", "heuristic_cautious+wait_for_drop"]
    for seed in (11, 12):
        by_code = play_game(ruleset, seed, seat_policies(specs, seed))
        by_dict = play_game(ruleset, seed, [DictsOnly(p) for p in seat_policies(specs, seed)])
        assert by_code.fingerprint() == by_dict.fingerprint()
        assert by_code.result() == by_dict.result()


def test_by_dicts_answers_the_index_of_the_dict_chosen_or_refuses_another(ruleset):
    game = Game(ruleset, players=3, seed=5)
    legal = game.legal_actions()
    last = ByDicts(SimpleNamespace(name="last", auction_strategy="last", act=lambda g, dicts: dicts[-1]))
    assert last.act_code(game) == len(legal) - 1 and last.name == "last"
    copy = ByDicts(SimpleNamespace(name="copy", auction_strategy="copy", act=lambda g, dicts: dict(dicts[1])))
    assert copy.act_code(game) == 1  # an equal dict, not the same one: found by equality
    moon = ByDicts(SimpleNamespace(name="moon", auction_strategy="moon", act=lambda g, dicts: {"type": "moon"}))
    with pytest.raises(IllegalActionError, match="an illegal action {'type': 'moon'} for P"):
        moon.act_code(game)


class BadIndex:
    name = auction_strategy = "bad"

    def act_code(self, game):
        return game.legal_count()  # one past the last


def test_a_bad_index_fails_with_the_policy_named(ruleset, monkeypatch):
    from policies import base
    monkeypatch.setitem(base._REGISTRY, "bad_index", lambda args, seat, rng: BadIndex())
    players = seat_policies(["bad_index", "heuristic"], 1)
    with pytest.raises(PolicyFailure, match="'bad_index' .* illegal action index"):
        play_game(ruleset, 1, players)


def test_the_decision_limit_counts_decisions_by_int(ruleset):
    with decision_limit(40):
        players = counted(seat_policies(["heuristic"] * 3, 2))
    with pytest.raises(DecisionLimitExceeded, match="past 40 decisions"):
        play_game(ruleset, 2, players)


def test_the_revenue_memo_returns_only_the_revenue_of_the_key_asked():
    """Thousands of keys (many sharing a slot's probe chain as the table grows): each
    returns its own revenue, every key never put returns -1, and so does a fleet
    without a code."""
    memo = RevenueMemo()
    rng = np.random.default_rng(0)
    keys = {(int(n), int(f)) for n, f in zip(rng.integers(0, 50, 6000), rng.integers(0, 1 << 40, 6000))}
    for n, f in keys:
        memo.put(n, f, (n * 7 + f) % 1000)
    assert all(memo.get(n, f) == (n * 7 + f) % 1000 for n, f in keys)
    absent = [(n, f + 1) for n, f in keys if (n, f + 1) not in keys]
    assert absent and all(memo.get(n, f) == -1 for n, f in absent)
    memo.put(3, -1, 10)
    assert memo.get(3, -1) == -1


def test_a_fleet_code_names_the_fleet_in_any_order(ruleset):
    whatif = Game(ruleset, players=3, seed=0).whatif
    code = whatif._fleet_code
    assert code(("xebec", "cart", "xebec")) == code(("cart", "xebec", "xebec")) == code(["xebec", "xebec", "cart"])
    assert len({code(()), code(("xebec",)), code(("xebec", "xebec")), code(("polacca",)),
                code(("xebec", "polacca")), code(("cart",))}) == 6
    assert code(("cart",) * 200) == -1  # too many of a type for its bits: no code, never remembered


def test_a_fleet_code_cuts_into_the_codes_of_its_ships_and_its_carts(ruleset):
    """The ship mask splits a fleet's code into its ships' and its carts' (the parts the
    memo keeps apart), so a part's code needs no list of its vehicles."""
    whatif = Game(ruleset, players=3, seed=0).whatif
    code, mask = whatif._fleet_code, whatif._ship_mask
    ships = {v for v, spec in ruleset.vehicles.items() if spec.kind == "ship"}
    names = list(ruleset.vehicles)
    rng = np.random.default_rng(1)
    for _ in range(300):
        fleet = [names[i] for i in rng.integers(0, len(names), rng.integers(0, 10))]
        assert code(fleet) & mask == code([v for v in fleet if v in ships])
        assert code(fleet) & ~mask == code([v for v in fleet if v not in ships])
