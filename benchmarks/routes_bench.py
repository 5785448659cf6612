"""Route optimizer throughput: positions solved per second for early, middle and late
game positions, with the compiled core and the pure-Python core (a subprocess with
MENORCA_SIM_PURE=1).  Usage: python benchmarks/routes_bench.py [--positions N]"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the random position generator of the route tests

ALL = ["RNC", "RCC", "CCM", "Ramaders", "Artesans", "Destil·ladors"]
LATE_FLEET = ["escorted_convoy", "convoy", "road_convoy", "freight_wagon"]  # 2 ships + 2 carts
# stage: (phase colours, tile lays, extra stations, companies building, RNC's vehicles)
STAGES = {
    "early (4H)": (["yellow"], 10, 0, ALL, ["xebec", "cart"]),
    "middle (6H)": (["yellow", "green"], 40, 3, ALL, ["frigate", "polacca", "freight_wagon", "cart"]),
    "late (9H)": (["yellow", "green", "brown", "grey"], 200, 8, ALL, LATE_FLEET),
    # RNC builds the whole map alone: the densest network of its own (most routes)
    "late, RNC only": (["yellow", "green", "brown", "grey"], 200, 3, ["RNC"], LATE_FLEET),
}
REPEATS = 3


def measure(positions: int) -> dict[str, float]:
    """Seconds per position for each stage, in this process's mode."""
    import numpy as np

    import routes_reference as ref
    from menorca_sim.core.board import Board
    from menorca_sim.core.maptables import map_tables
    from menorca_sim.core.revenue import routes
    from menorca_sim.core.revenue.context import RevenueContext
    from menorca_sim.rules import load_ruleset

    rs = load_ruleset()
    tables = map_tables(rs)
    out = {}
    for stage, (colours, lays, stations, companies, fleet) in STAGES.items():
        rng = np.random.default_rng(7)
        vehicles = [(v, rs.vehicles[v].kind, rs.vehicles[v].range) for v in fleet]
        cases = []
        for _ in range(positions):
            board = Board(tables)
            ref.random_position(rs, board, rng, lays, colours, stations, in_play=companies)
            ctx = RevenueContext(epoch=4 if "late" in stage else 1, market_markers={"València": 1},
                                 market_bonus=rs.markers.market_bonus)
            cases.append((board, ctx))
        runs = []
        for _ in range(REPEATS):  # the best of a few runs: the machine may be shared
            start = time.perf_counter()
            for board, ctx in cases:
                routes.best_routes(board, "RNC", True, vehicles, ctx)
            runs.append((time.perf_counter() - start) / positions)
        out[stage] = min(runs)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--json", action="store_true", help="print this mode's timings as JSON")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.positions)))
        return
    from menorca_sim.core import is_compiled
    from menorca_sim.core.revenue import routes

    compiled = measure(args.positions) if is_compiled(routes) else None
    env = dict(os.environ, MENORCA_SIM_PURE="1")
    pure = json.loads(subprocess.run([sys.executable, __file__, "--json", "--positions", str(args.positions)],
                                     env=env, capture_output=True, text=True, check=True).stdout)
    print(f"{'stage':<15} {'compiled pos/s':>15} {'µs/pos':>9} {'pure pos/s':>11} {'µs/pos':>9}")
    for stage, pure_s in pure.items():
        comp = f"{1 / compiled[stage]:>15.0f} {compiled[stage] * 1e6:>9.1f}" if compiled else f"{'not built':>15} {'':>9}"
        print(f"{stage:<15} {comp} {1 / pure_s:>11.0f} {pure_s * 1e6:>9.1f}")


if __name__ == "__main__":
    main()
