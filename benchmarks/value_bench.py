"""`make bench`'s learned value: what one evaluation of a state costs a search's leaf,
in µs: the features (menorca_sim/value/features.py, read from the engine's arrays) and the
model (menorca_sim/value/model.py, its trees walked by menorca_sim/value/trees.py).

    .venv/bin/python benchmarks/value_bench.py [--model policies/models/value_v1] [--players 3]

The states are those after each OR of a few heuristic_tuned games; each is evaluated
many times and the best of five rounds per state kept, in CPU time (process time: on a
shared machine, the time others hold the core is not counted; their noise only adds).
The features are read from a copy of the state, as a search's leaf is: a copy starts
with the what-if answers its original holds (WhatIf._share), so the route revenues the
game asked, and those the first evaluation asked, are known, as they are at a leaf in
its node's state."""
from __future__ import annotations

import argparse
import time

import numpy as np

from menorca_sim.play import play_game, seat_policies
from menorca_sim.rules import load_ruleset
from menorca_sim.value.features import seat_features
from menorca_sim.value.model import load_model


def states(players: int, games: int) -> list:
    """Copies of the state after each OR of `games` games, before their ends."""
    kept, seen = [], set()

    def watch(game) -> None:
        key = (game.seed, game.ors_played())
        if key not in seen and game.ors_played() > 0 and not game.is_over():
            seen.add(key)
            kept.append(game.clone())

    for seed in range(games):
        play_game(load_ruleset(), seed, seat_policies(["heuristic_tuned"] * players, seed), watch=watch)
    return kept


def best_us(fn, repeat: int) -> float:
    """The best of five rounds of `repeat` calls, in µs of CPU time per call."""
    rounds = []
    for _ in range(5):
        began = time.process_time()
        for _ in range(repeat):
            fn()
        rounds.append((time.process_time() - began) / repeat * 1e6)
    return min(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="policies/models/value_v1")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    model = load_model(args.model)
    found = states(args.players, args.games)
    features = [best_us(lambda: seat_features(g.clone()), 100) - best_us(g.clone, 100) for g in found]
    rows = [seat_features(g) for g in found]
    evaluation = [best_us(lambda: model.win_shares(r), 500) for r in rows]
    print(f"{len(found)} states of {args.players}-player games; model: {model.feature.shape[0]} trees of depth "
          f"{model.depth}")
    print(f"features: median {np.median(features):.0f} µs per state (all seats)")
    print(f"model:    median {np.median(evaluation):.1f} µs per state (all seats)")


if __name__ == "__main__":
    main()
