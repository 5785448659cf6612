"""The values an experiment's arms give, by random assignment (`values` reads each off
its arms): the seat order's, from a sweep of one seat's starting cash
(`player_counts.I.seat_cash.S`): the extra cash at which that seat wins its fair share.

Each value is estimated twice, on the first and the second half of each cell's games
(different games have different seeds, so the halves are independent seed sets; halves
rather than alternate games keep the seatings' rotation whole in each), and is
**reproduced** when the second estimate lies within the first's interval. The value
and its interval shown are the first half's; the second estimate is shown beside it."""
from __future__ import annotations

import re

import numpy as np
import polars as pl

from menorca_sim.analysis import values
from menorca_sim.analysis.dataset import Dataset

SEAT_CASH = re.compile(r"^player_counts\.(\d+)\.seat_cash\.(\d+)$")

SCHEMA = {"key": pl.String, "subject": pl.String, "players": pl.Int64, "population": pl.String,
          "value": pl.Float64, "low": pl.Float64, "high": pl.Float64, "status": pl.String, "second": pl.Float64,
          "reproduced": pl.Boolean, "games": pl.Int64, "crossings": pl.String}


def seat_values(ds: Dataset, points: pl.DataFrame, rng: np.random.Generator) -> pl.DataFrame:
    """Per sweep of a seat's starting cash, population and player count: the extra cash
    at which that seat wins 1/N (its win share rises with its cash), first and second
    half, and whether the second reproduces the first. A player count the key does not
    belong to comes out flat (the cash is another count's)."""
    swept = points.filter(pl.col("key").str.contains(SEAT_CASH.pattern) & (pl.col("other") == ""))
    if swept.is_empty():
        return pl.DataFrame(schema=SCHEMA)
    rows = (ds.players.join(swept, on="variant")
            .join(ds.games.select("game_id", "variant", "cell", "game_index"), on=["game_id", "variant"])
            .filter(pl.col("seat") == pl.col("key").str.extract(SEAT_CASH.pattern, 2).cast(pl.Int64) + 1)
            .sort("variant", "game_id"))
    out = []
    for (key, population, n), group in rows.group_by("key", "population", "players", maintain_order=True):
        half = group["game_index"].max() // 2 + 1 if group["game_index"].max() > 0 else 1
        estimates = [values.value_at_target(part["x"].to_numpy(), part["win_share"].to_numpy(),
                                            (part["cell"] + "#" + part["game_index"].cast(pl.String)).to_numpy(),
                                            1 / n, rng, increasing=True)
                     for part in (group.filter(pl.col("game_index") < half), group.filter(pl.col("game_index") >= half))]
        first, second = estimates
        seat = int(SEAT_CASH.match(key)[2]) + 1
        out.append((key, f"seat {seat} wins 1/{n}", n, population, first.estimate, first.low, first.high,
                    first.status, second.estimate, values.reproduced(first, second), first.games + second.games,
                    ", ".join(f"{c:.3g}" for c in first.crossings)))
    return pl.DataFrame(out, schema=SCHEMA, orient="row")
