"""The `mcts` player: a game depends only on its seed, the player ends its stock rounds,
and with a large budget it finds the winning choice of a real endgame that the
heuristic misses."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from helpers.states import chosen
from menorca_sim.game import Game
from menorca_sim.play import seat_policies
from menorca_sim.rules import load_ruleset
from policies import make_policy
from policies.heuristic import PRESETS, Heuristic

RULES = load_ruleset()
MAX_ACTIONS = 2000  # a 2-player game has a few hundred actions: far past this, a player loops


def _play(specs: list[str], seed: int, stop: int = MAX_ACTIONS) -> Game:
    """Play as `play_one` does (each seat its stream of the seed) until the game ends or
    `stop` actions were played."""
    policies = seat_policies(specs, seed)
    game = Game(RULES, players=len(specs), seed=seed)
    while not game.is_over() and game.action_count() < stop:
        game.apply_code(policies[game.current_actor()].act_code(game))
    return game


@pytest.mark.parametrize("mcts", ["mcts(playouts=8, depth=8, ors=0)", "mcts(playouts=4)"])
def test_the_same_seed_plays_the_same_mcts_game(mcts):
    # seed 0: before its stock-round guard the first sold and bought back for ever here
    specs = [mcts, "heuristic"]
    first, second = _play(specs, 0), _play(specs, 0)
    assert first.is_over()
    assert first.fingerprint() == second.fingerprint()
    assert first.fingerprint() != _play(["heuristic", "heuristic"], 0).fingerprint()


def test_mcts_parameters_are_checked():
    with pytest.raises(Exception, match=r"playouts must be at least 1, got 0$"):
        make_policy("mcts(playouts=0)", 0, np.random.default_rng(0))
    with pytest.raises(Exception, match="base must be a heuristic preset"):
        make_policy("mcts(base=random_legal)", 0, np.random.default_rng(0))


def _greedy_finish(game: Game) -> list[float]:
    """The win shares when every seat plays the heuristic at temperature 0 to the end."""
    greedy = replace(PRESETS["heuristic"], temperature=0.0)
    players = [Heuristic("heuristic", greedy, s, np.random.default_rng(0)) for s in range(game.players)]
    while not game.is_over():
        game.apply_code(players[game.current_actor()].act_code(game))
    return game.result()["win_share"]


def test_a_large_search_finds_the_endgame_win_the_heuristic_misses():
    # Seed 118, two heuristics: 74 actions before the end, the second player's company
    # decides whether to buy a freight wagon. Skipping it (the heuristic's choice) loses
    # the game; buying it wins, and keeps winning whatever the search lets the rival try.
    position = _play(["heuristic", "heuristic"], 118, stop=169)
    legal = position.legal_actions()
    wagon = {"type": "buy_vehicle", "vehicle": "freight_wagon", "source": "bank", "price": 100}
    assert position.decision() == "buy_vehicles" and position.current_actor() == 1
    assert legal == [wagon, {"type": "skip"}]
    outcome = {}
    for i, action in enumerate(legal):
        after = position.clone()
        after.apply_code(i)
        outcome[action["type"]] = _greedy_finish(after)[1]
    assert outcome == {"buy_vehicle": 1.0, "skip": 0.0}
    heuristic = make_policy("heuristic", 1, np.random.default_rng(0))
    assert chosen(heuristic, position.clone()) == {"type": "skip"}
    shallow = make_policy("mcts(playouts=50, depth=10, ors=0, base=heuristic)", 1, np.random.default_rng(0))
    assert chosen(shallow, position.clone()) == {"type": "skip"}  # its horizon ends before the game
    deep = make_policy("mcts(playouts=200, depth=100, ors=0, base=heuristic)", 1, np.random.default_rng(0))
    assert chosen(deep, position.clone()) == wagon
