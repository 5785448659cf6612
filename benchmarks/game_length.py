"""Average game length of all-heuristic tables: for 2 and 3 players and each draw of
two minors, play N seeded games and print SRs, ORs, time per game, the share of that
time spent in the policies' decisions, and the mixes of end reasons, final phases and
final epochs (whether the late game, epochs 3-4, is reached).

    .venv/bin/python benchmarks/game_length.py --games 100 [--policy heuristic]
"""
from __future__ import annotations

import argparse
import collections
import itertools
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repo's policies/

import numpy as np  # noqa: E402

from menorca_sim.play import play_game, seat_policies  # noqa: E402
from menorca_sim.rules import load_ruleset  # noqa: E402
from menorca_sim.run.records import game_summary  # noqa: E402
from timed import Timed  # noqa: E402  (benchmarks/, the script's folder)


def play_table(ruleset, spec: str, players: int, minors: list[str], games: int,
               first_seed: int) -> tuple[list[dict], float]:
    """The games' summaries and the seconds spent in the policies."""
    out, policy_seconds = [], 0.0
    for seed in range(first_seed, first_seed + games):
        policies = [Timed(p) for p in seat_policies([spec] * players, seed)]
        out.append(game_summary(play_game(ruleset, seed, policies, minors=minors)))
        policy_seconds += sum(p.seconds for p in policies)
    return out, policy_seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per table (players × minor draw)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--policy", default="heuristic", help="policy spec for every seat")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    args = parser.parse_args(argv)
    ruleset = load_ruleset()
    print(f"{'players':>7} {'minors':<28} {'games':>5} {'SRs':>6} {'ORs':>6} {'s/game':>7} {'policy':>6}  end reasons | final phase | final epoch")
    totals: collections.Counter = collections.Counter()
    for players in args.players:
        for minors in itertools.combinations(ruleset.minors, 2):
            start = time.perf_counter()
            rows, policy_seconds = play_table(ruleset, args.policy, players, list(minors), args.games, args.seed)
            total = time.perf_counter() - start
            secs = total / len(rows)
            reasons = collections.Counter(r["end_reason"] for r in rows)
            totals.update(reasons)
            print(f"{players:>7} {'+'.join(minors):<28} {len(rows):>5} {np.mean([r['srs'] for r in rows]):>6.2f} "
                  f"{np.mean([r['ors'] for r in rows]):>6.2f} {secs:>7.3f} {policy_seconds / total:>6.0%}  "
                  f"{_mix(reasons)} | phase {_mix(collections.Counter(r['phase'] for r in rows))} "
                  f"| epoch {_mix(collections.Counter(r['epoch'] for r in rows))}")
    print("all tables: " + _mix(totals, "{:.1%}"))


def _mix(counts: collections.Counter, fmt: str = "{:.0%}") -> str:
    n = sum(counts.values())
    return ", ".join(f"{k} {fmt.format(v / n)}" for k, v in sorted(counts.items()))


if __name__ == "__main__":
    main()
