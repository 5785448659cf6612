"""Toy games for the runner's mechanics tests: EXPERIMENT (a toy study's TOML), the play
functions, and `dataset` (a run's tables, comparable across schedules).

Each play function returns a summary shaped like `records.game_summary(game)`, computed from the seed with numpy
alone, so that a run's tables depend only on the plan; they must live in an importable
module so that loky and Dask workers can unpickle them."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
from helpers.experiment_files import study_toml

from menorca_sim.rules import Ruleset
from menorca_sim.run.experiment import GameSpec
from menorca_sim.run.outcomes import TABLES
from menorca_sim.run.parquet_store import read_table

EXPERIMENT = study_toml("toy", 42, """[variants.base]
[variants.bonus20]
"markers.market_bonus" = 20
""")


def dataset(out: Path) -> dict[str, pa.Table]:
    """All tables, without the wall-clock column (the one thing a schedule may change)."""
    tables = {name: read_table(out, name) for name in TABLES}
    tables["games"] = tables["games"].drop(["duration_s"])
    return tables


def toy_play(ruleset: Ruleset, game: GameSpec) -> dict[str, Any]:
    rng = np.random.default_rng(game.seed)
    n = game.players
    wealth = rng.integers(300, 2000, n)
    winners = [int(s) for s in np.flatnonzero(wealth == wealth.max())]
    legacies = sorted(ruleset.legacies)[: 2 * n]
    minors = list(game.minors) if game.minors else list(rng.choice(ruleset.minors, 2, replace=False))
    summary = {
        "seed": game.seed, "players": n, "minors": minors, "legacies": legacies,
        "events": [str(e) for e in rng.choice(sorted(ruleset.events), 3)],
        "srs": int(rng.integers(3, 12)), "ors": int(rng.integers(5, 30)), "phase": "4H",
        "epoch": int(rng.integers(1, 4)), "end_reason": "bank",
        # depends on the variant's ruleset, so that variants differ
        "bank": int(rng.integers(0, 500)) + ruleset.markers.market_bonus,
        "winners": winners, "actions": int(rng.integers(200, 900)), "fingerprint": f"{game.seed:016x}",
        "seats": [{"policy": f"{spec}!", "auction_strategy": "toy", "wealth": int(w), "cash": int(w) // 2,
                   "cert_value": int(w) - int(w) // 2, "rank": int((wealth > w).sum()) + 1,
                   "win_share": 1 / len(winners) if i in winners else 0.0,
                   "legacies": legacies[2 * i: 2 * i + 2], "legacy_prices": [20, 30]}
                  for i, (spec, w) in enumerate(zip(game.policies, wealth))],
        "companies": [{"company": c, "started": bool(s), "floated": bool(s), "par": 60 if s else None,
                       "final_price": int(rng.integers(20, 200)) if s else None,
                       "revenue_total": int(rng.integers(0, 900)), "dividends_paid": 0,
                       "vehicles_bought": int(rng.integers(0, 5)), "stations": 1, "market_markers": 0,
                       "bankrupt": False}
                      for c, s in zip(ruleset.companies, rng.integers(0, 2, len(ruleset.companies)))],
        "auctions": [{"legacy": leg, "price": 20 + 5 * k, "min_price": 20, "drops": k, "buyer_seat": k % n,
                      "reservations": 0, "income_earned": 10}
                     for k, leg in enumerate(legacies)],
    }
    return {**summary, "rounds": _toy_rounds(summary)}


def _toy_rounds(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Two snapshots, the start (OR 0) and the end (every seat's final wealth, the final
    bank): a trajectory's rows, without the ORs between."""
    rows = []
    for k, bank in ((0, 5000), (summary["ors"], summary["bank"])):
        head = {"or": k, "phase": summary["phase"], "bank": bank}
        rows += [{**head, "kind": "player", "seat": i, "company": None, "cash": s["cash"],
                  "wealth": s["wealth"] if k else 400, "price": None, "revenue": None}
                 for i, s in enumerate(summary["seats"])]
        rows += [{**head, "kind": "company", "seat": None, "company": c["company"], "cash": 0,
                  "wealth": None, "price": c["final_price"], "revenue": c["revenue_total"] if k else 0}
                 for c in summary["companies"] if c["started"]]
    return rows


def failing_play(ruleset: Ruleset, game: GameSpec) -> dict[str, Any]:
    """Raises in about one game in five, as a buggy policy would."""
    if game.seed % 5 == 0:
        raise ValueError(f"policy {game.policies[0]} chose an illegal action\nsecond line")
    return toy_play(ruleset, game)


def slow_play(ruleset: Ruleset, game: GameSpec) -> dict[str, Any]:
    """Slow enough that a run can be killed half-way."""
    time.sleep(0.03)
    return toy_play(ruleset, game)
