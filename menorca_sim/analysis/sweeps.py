"""Sweeps: each point of an experiment's [sweep] is a variant on the same seeds; these
tables put the report's measures against the swept value and solve for the fair value
of the rule (where a seat wins its fair share, where a company starts in half its games).

No fair value is read off a sweep of a legacy's price: legacies are auctioned cheapest
first, so its price moves it through the auction and changes who buys it, and a seat
that always buys it has no one to be compared with (issue 41). A legacy's worth comes
from random assignment instead (`values`: paired arms on common seeds); such a sweep
still shows its measures at each point."""
from __future__ import annotations

import re

import numpy as np
import polars as pl

from menorca_sim.analysis import stats, value_tables
from menorca_sim.analysis.dataset import KEYS, Dataset, planned

NO_LEGACY_FAIR_VALUE = ("No fair value is read off a sweep of a legacy's price: the price moves the legacy through the "
                        "auction (cheapest first) and changes who buys it. A legacy's worth comes from random "
                        "assignment: analysis/values.py, the price at which a seat that holds it wins as often as "
                        "without it on the same seeds.")
START_LEVEL = 0.5  # a company's start rate a designer would call alive
_LEGACY_KEY = re.compile(r"^legacies\.([^.]+)\.")
_COMPANY_KEY = re.compile(r"^companies\.([^.]+)\.")


def sweep_points(ds: Dataset) -> pl.DataFrame:
    """One row per variant a sweep made: its sweep, its swept key and value (the first
    key's; `other` names the second key's value in a two-key grid)."""
    overrides = {v["name"]: v.get("overrides", {}) for v in planned(ds.manifest, "variants")}
    rows = []
    for sweep in planned(ds.manifest, "sweeps"):
        key, *more = sweep["keys"]
        for point in sweep["points"]:
            values = overrides.get(point, {})
            rows.append((sweep["name"], key, point, float(values[key]),
                         ", ".join(f"{k}={values[k]}" for k in more)))
    return pl.DataFrame(rows, schema={"sweep": pl.String, "key": pl.String, "variant": pl.String,
                                      "x": pl.Float64, "other": pl.String}, orient="row")


def sweep_metrics(points: pl.DataFrame, tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """Each measure at each point, with its interval: the seats' win shares, the swept
    legacy's buyer edge, operating rounds, and the share of games ending each way."""
    frames = [
        tables["seat"].select(*KEYS, metric=pl.format("seat {} win share", "seat"), value="win_share",
                              low="win_share_low", high="win_share_high"),
        tables["game_length"].select(*KEYS, metric=pl.lit("ORs played"), value="ors", low="ors_low",
                                     high="ors_high"),
        tables["end_reasons"].select(*KEYS, metric=pl.format("share ending by {}", "end_reason"), value="share",
                                     low="share_low", high="share_high"),
        tables["legacy_edge"].select(*KEYS, metric=pl.format("{} buyer's edge", "legacy"), value="edge",
                                     low="edge_low", high="edge_high"),
    ]
    long = pl.concat([f.with_columns(pl.col("value", "low", "high").cast(pl.Float64)) for f in frames])
    return (points.join(long, on="variant")
            .sort("sweep", "other", "population", "players", "metric", "x"))


def fair_values(ds: Dataset, points: pl.DataFrame, rng: np.random.Generator) -> pl.DataFrame:
    """For each sweep (and value of a grid's second key), population and player count:
    the swept value at which each seat wins its fair share, or the swept company starts
    in `START_LEVEL` of its games; none for a sweep of a legacy's key (module docstring),
    nor of a seat's starting cash: `value_tables.seat_values` reads that one by random
    assignment, on two independent halves of the games."""
    schema = {"sweep": pl.String, "key": pl.String, "other": pl.String, "population": pl.String,
              "players": pl.Int64, "target": pl.String, "games": pl.Int64, "fair_value": pl.Float64,
              "fair_value_low": pl.Float64, "fair_value_high": pl.Float64, "status": pl.String}
    if points.is_empty():
        return pl.DataFrame(schema=schema)
    # in a fixed order (joins keep none): the bootstrap's draws then pick the same games
    # every time, and a report is the same for the same seed
    points = points.filter(~pl.col("key").str.contains(_LEGACY_KEY.pattern)
                           & ~pl.col("key").str.contains(value_tables.SEAT_CASH.pattern)
                           & (pl.col("key") != value_tables.ASSIGNED_PRICE))
    seats = (ds.players.join(points, on="variant").sort("variant", "game_id", "seat")
             .select("sweep", "key", "other", "population", "players", "x", "seat", "win_share"))
    started = (ds.scan("companies").select("game_id", "variant", "company", "started").collect()
               .join(ds.games.select("game_id", "variant", "population", "players"), on=["game_id", "variant"])
               .join(points, on="variant").sort("variant", "game_id", "company"))
    rows = []
    for (sweep, key, other, population, n), group in seats.group_by("sweep", "key", "other", "population",
                                                                     "players", maintain_order=True):
        for seat in range(1, n + 1):
            mine = group.filter(pl.col("seat") == seat)
            rows.append(_row(sweep, key, other, population, n, f"seat {seat} wins 1/{n}", mine["x"],
                             mine["win_share"], 1 / n, rng))
        company = _COMPANY_KEY.match(key)
        if company:
            mine = started.filter((pl.col("sweep") == sweep) & (pl.col("other") == other)
                                  & (pl.col("population") == population) & (pl.col("players") == n)
                                  & (pl.col("company") == company.group(1)))
            rows.append(_row(sweep, key, other, population, n,
                             f"{company.group(1)} starts in {START_LEVEL:.0%} of games", mine["x"],
                             mine["started"].cast(pl.Float64), START_LEVEL, rng))
    return pl.DataFrame(rows, schema=schema, orient="row")


def _row(sweep: str, key: str, other: str, population: str, players: int, target: str, x: pl.Series,
         y: pl.Series, level: float, rng: np.random.Generator) -> tuple:
    fv = stats.fair_value(x.to_numpy(), y.to_numpy(), level, rng)
    return (sweep, key, other, population, players, target, x.len(), fv.estimate, fv.low, fv.high, fv.status)
