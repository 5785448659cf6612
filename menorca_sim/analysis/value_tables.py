"""The values an experiment's arms give, by random assignment (`values` reads each off
its arms):

- the seat order's, from a sweep of one seat's starting cash
  (`player_counts.I.seat_cash.S`): the extra cash at which that seat wins its fair share;
- a legacy's, from a sweep of `setup.assigned_price` with `setup.assigned_legacy = X`
  (arm "hold": a seat drawn by the seed holds X, bought at that price before the auction)
  against the variant with `setup.assigned_arm = "out"` for X (X out of the game), the
  other legacies drawn and auctioned alike: per game, the holder's win share less the
  same seat's in the "out" arm, and X's value is the price at which that difference is 0.

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
from menorca_sim.analysis.dataset import Dataset, planned

SEAT_CASH = re.compile(r"^player_counts\.(\d+)\.seat_cash\.(\d+)$")

ASSIGNED_PRICE = "setup.assigned_price"
ASSIGNED_LEGACY, ASSIGNED_ARM = "setup.assigned_legacy", "setup.assigned_arm"

SCHEMA = {"key": pl.String, "subject": pl.String, "legacy": pl.String, "players": pl.Int64, "population": pl.String,
          "value": pl.Float64, "low": pl.Float64, "high": pl.Float64, "status": pl.String, "second": pl.Float64,
          "reproduced": pl.Boolean, "games": pl.Int64, "crossings": pl.String}


def seat_values(ds: Dataset, points: pl.DataFrame, rng: np.random.Generator, split: bool = True) -> pl.DataFrame:
    """Per sweep of a seat's starting cash, population and player count: the extra cash
    at which that seat wins 1/N (its win share rises with its cash), first and second
    half, and whether the second reproduces the first. A player count the key does not
    belong to comes out flat (the cash is another count's)."""
    swept = points.filter(pl.col("key").str.contains(SEAT_CASH.pattern) & (pl.col("other") == ""))
    if swept.is_empty():
        return pl.DataFrame(schema=SCHEMA)
    rows = (_rows(ds, swept)
            .filter(pl.col("seat") == pl.col("key").str.extract(SEAT_CASH.pattern, 2).cast(pl.Int64) + 1))
    out = []
    for (key, population, n), group in rows.group_by("key", "population", "players", maintain_order=True):
        seat = int(SEAT_CASH.match(key)[2]) + 1
        out.append((key, f"seat {seat} wins 1/{n}", "", n, population,
                    *_two_halves(group, "win_share", 1 / n, True, rng, split)))
    return pl.DataFrame(out, schema=SCHEMA, orient="row")


def legacy_values(ds: Dataset, points: pl.DataFrame, rng: np.random.Generator, split: bool = True) -> pl.DataFrame:
    """Per assigned legacy, population and player count: the price at which holding it
    leaves its holder's win share where the same seat's is with it out of the game
    (module docstring), first and second half, and whether the second reproduces the
    first. A legacy whose "out" arm the experiment lacks has no value."""
    overrides = {v["name"]: v.get("overrides", {}) for v in planned(ds.manifest, "variants")}
    out_arm = {o[ASSIGNED_LEGACY]: name for name, o in overrides.items()
               if o.get(ASSIGNED_ARM) == "out" and o.get(ASSIGNED_LEGACY, "none") != "none"}
    swept = (points.filter((pl.col("key") == ASSIGNED_PRICE) & (pl.col("other") == ""))
             .with_columns(legacy=pl.col("variant").replace_strict(
                 {v: o.get(ASSIGNED_LEGACY, "none") for v, o in overrides.items()}, default="none"))
             .filter(pl.col("legacy").is_in(list(out_arm))))
    if swept.is_empty():
        return pl.DataFrame(schema=SCHEMA)
    pair = ["legacy", "population", "players", "cell", "game_index", "seat"]
    holders = (ds.scan("auctions").select("game_id", "variant", "legacy", seat=pl.col("buyer_seat") + 1)
               .collect())  # the auctions table also has the legacy held before the auction
    held = _rows(ds, swept).join(holders, on=["game_id", "variant", "legacy", "seat"])
    without = (_rows(ds, pl.DataFrame({"variant": list(out_arm.values()), "legacy": list(out_arm)}))
               .select(*pair, win_share_out="win_share"))
    rows = (held.join(without, on=pair).with_columns(response=pl.col("win_share") - pl.col("win_share_out"))
            .sort("legacy", "players", "variant", "game_id"))
    out = []
    for (legacy, population, n), group in rows.group_by("legacy", "population", "players", maintain_order=True):
        out.append((ASSIGNED_PRICE, f"{legacy}'s holder wins as often as without it", legacy, n, population,
                    *_two_halves(group, "response", 0.0, False, rng, split)))
    return pl.DataFrame(out, schema=SCHEMA, orient="row")


def _rows(ds: Dataset, arms: pl.DataFrame) -> pl.DataFrame:
    """Each seat of each game of the variants `arms` names, with the arm's columns and
    the game's cell and index (what pairs it with the same setup in another arm)."""
    return (ds.players.join(arms, on="variant")
            .join(ds.games.select("game_id", "variant", "cell", "game_index"), on=["game_id", "variant"])
            .sort("variant", "game_id", "seat"))


def _two_halves(group: pl.DataFrame, response: str, target: float, increasing: bool,
                rng: np.random.Generator, split: bool = True) -> tuple:
    """The value on the first half of the games and on the second (independent seed
    sets): the first's estimate, interval and status, the second's estimate, whether it
    reproduced, the games, the first's crossings. Not `split`: the value on all the
    games (no second estimate: nan, not reproduced), for a reader that needs the
    narrowest interval and tests no reproduction (the price-list solver)."""
    last = group["game_index"].max()
    half = last // 2 + 1 if last > 0 else 1
    parts = (group.filter(pl.col("game_index") < half), group.filter(pl.col("game_index") >= half)) if split else (group,)
    found = [values.value_at_target(part["x"].to_numpy(), part[response].to_numpy(),
                                    (part["cell"] + "#" + part["game_index"].cast(pl.String)).to_numpy(),
                                    target, rng, increasing=increasing) for part in parts]
    first = found[0]
    second, again = (found[1].estimate, values.reproduced(first, found[1])) if split else (float("nan"), False)
    return (first.estimate, first.low, first.high, first.status, second, again, sum(v.games for v in found),
            ", ".join(f"{c:.3g}" for c in first.crossings))
