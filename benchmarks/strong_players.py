"""`make bench`'s strong players: what a game costs with `heuristic_tuned` and with `mcts`
at its default budget (on the learned value, and on rollouts: `value=rollout`), against
the default heuristic's game on the same seeds, and the MCTS player's decisions per
second (its searched and delegated decisions together).

    .venv/bin/python benchmarks/strong_players.py [--games 4] [--players 3]

CPU time (process time) per game, the games interleaved seed by seed so the machine's
drift falls on every line-up alike. `mcts x1` seats one MCTS player with two
`heuristic_tuned`, `mcts xN` fills every seat with one: issue 42's bound is on `mcts x1`
of 3 players at the default budget, at most 15 heuristic games."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo's policies/

from menorca_sim.play import play_game, seat_policies  # noqa: E402
from menorca_sim.rules import load_ruleset  # noqa: E402
from timed import Timed  # noqa: E402  (benchmarks/, the script's folder)


def lineups(players: int) -> dict[str, list[str]]:
    return {"heuristic": ["heuristic"] * players,
            "heuristic_tuned": ["heuristic_tuned"] * players,
            "mcts x1": ["mcts"] + ["heuristic_tuned"] * (players - 1),
            "mcts(value=rollout) x1": ["mcts(value=rollout)"] + ["heuristic_tuned"] * (players - 1),
            f"mcts x{players}": ["mcts"] * players}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="seeds per line-up")
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    rules = load_ruleset()
    cpu = {name: 0.0 for name in lineups(args.players)}
    mcts_decisions = mcts_cpu = 0.0
    for seed in range(args.games):
        for name, specs in lineups(args.players).items():
            seats = [Timed(p, clock=time.process_time) for p in seat_policies(specs, seed)]
            began = time.process_time()
            play_game(rules, seed, seats)
            cpu[name] += time.process_time() - began
            if name == "mcts x1":
                mcts_decisions += seats[0].decisions
                mcts_cpu += seats[0].seconds
    base = cpu["heuristic"] / args.games
    print(f"{args.players} players, {args.games} seeds each, CPU time per game:")
    for name, total in cpu.items():
        per_game = total / args.games
        print(f"  {name:24s} {per_game * 1000:10.1f} ms  {per_game / base:7.1f}x heuristic  "
              f"{3600 / per_game:9.0f} games/h on one core")
    print(f"  mcts decisions/s (its seat in `mcts x1`, searched and delegated): {mcts_decisions / mcts_cpu:.1f}")


if __name__ == "__main__":
    main()
