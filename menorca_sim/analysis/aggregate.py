"""Balance tables from an experiment's Parquet dataset (polars).

Every table is tidy: one row per group, group keys first (`variant` and `players`
always, "" being the only variant of an experiment without variants), then counts,
then each estimate `x` with its interval `x_low`, `x_high`. Rates are fractions
(0..1); money is in R. Seats are numbered from 1 in playing order (seat 1 is the
schema's seat 0). Every significance test becomes a `Comparison`; `analyse` corrects
them all together with Holm."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl

from menorca_sim.analysis import stats
from menorca_sim.run.outcomes import TABLES

END_REASONS = ("bank", "bankruptcy", "conquest", "cap")  # games.end_reason values (outcomes.py)
KEYS = ["variant", "population", "players"]
_SEP = "\x1f"  # joins two key values into one where a function groups by a single column


class DatasetError(Exception):
    """The dataset folder is missing or holds no games."""


class Dataset:
    """An experiment's dataset folder: `{table}/part-*.parquet` plus `manifest.json`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            raise DatasetError(f"{self.path}: no such dataset folder")
        if not self._parts("games") or self.scan("games").select(pl.len()).collect().item() == 0:
            raise DatasetError(f"{self.path}: no games in the dataset (expected games/part-*.parquet)")
        manifest = self.path / "manifest.json"
        self.manifest: dict = json.loads(manifest.read_text()) if manifest.is_file() else {}

    def _parts(self, table: str) -> list[Path]:
        return sorted((self.path / table).glob("*.parquet"))

    def scan(self, table: str) -> pl.LazyFrame:
        """The table over all its part files (empty, with the schema, when it has none)."""
        if not self._parts(table):
            return pl.from_arrow(TABLES[table].empty_table()).lazy()
        return pl.scan_parquet(f"{self.path}/{table}/*.parquet")

    # Most tables start from the games or from the players joined with their game: each
    # is read (and joined) once here and shared, not once per table. The list columns no
    # table reads are left out: they are costly to load.

    @cached_property
    def games(self) -> pl.DataFrame:
        """The games with `draw`: the minors in play, sorted, joined by '+'."""
        games = self.scan("games").drop("legacies", "events", "policies", "winners").collect()
        for column in ("fingerprint", "population"):  # a dataset written before games had them
            if column not in games.columns:
                games = games.with_columns(pl.lit(None, pl.String).alias(column))
        games = games.with_columns(pl.col("population").fill_null(""))
        # a game without a fingerprint counts as distinct from every other
        games = games.with_columns(pl.col("fingerprint").fill_null(pl.format("{}#{}", "variant", "game_id")))
        # A few distinct draws among many games: spell each out once.
        draws = games.select(pl.col("minors").unique()).with_columns(
            draw=pl.col("minors").list.sort().list.join("+"))
        return games.join(draws, on="minors", how="left")

    @cached_property
    def players(self) -> pl.DataFrame:
        """Player-game rows with the game's player count and minor draw; seats from 1."""
        return (self.scan("players").drop("legacies", "legacy_prices")
                .join(self.games.lazy().select("game_id", "variant", "population", "players", "draw",
                                               "fingerprint"), on=["game_id", "variant"])
                .with_columns(seat=pl.col("seat") + 1)
                .collect())

    @property
    def experiment(self) -> str:
        """The experiment's name: the runner's manifest holds the plan under "experiment"."""
        named = self.manifest.get("experiment")
        if isinstance(named, dict):
            named = named.get("name")
        return str(named or self.path.parent.name)

    @property
    def description(self) -> str:
        return str(self.manifest.get("description") or "")

    @property
    def incomplete(self) -> str | None:
        """A sentence saying the dataset is not the whole experiment (its run stopped, or
        died before it could say), or None when the manifest says it is complete (or
        there is no manifest: a dataset made by other means)."""
        status = self.manifest.get("status")
        if status in (None, "complete"):
            return None
        have, total = self.games.height, self.manifest.get("total_games", "?")
        how = "stopped" if status == "stopped" else "did not finish (it was interrupted)"
        return (f"Incomplete dataset: its run {how} with {have} of {total} games; "
                f"`menorca-sim run EXPERIMENT --out {self.path} --resume` completes it.")



def planned(manifest: dict, kind: str) -> list[dict]:
    """The plan's entries of `kind` ("variants", "populations", "sweeps") in the
    experiment file's order, as the runner's manifest records them ([] without a plan)."""
    plan = manifest.get("experiment")
    entries = plan.get(kind, []) if isinstance(plan, dict) else []
    return [e for e in entries if isinstance(e, dict)]


def _planned_names(manifest: dict, kind: str) -> list[str]:
    return [e["name"] for e in planned(manifest, kind) if "name" in e]


# --- small building blocks -------------------------------------------------------------

def _variants(ds: Dataset) -> list[str]:
    return ds.games["variant"].unique().sort().to_list()


def _unit_aggs() -> list[pl.Expr]:
    """A group's games and distinct games (by fingerprint): the unit of evidence is the
    distinct game, and `_factor` turns the two into the share that counts."""
    return [pl.col("game_id").n_unique().alias("game_count"), pl.col("fingerprint").n_unique().alias("distinct")]


def _factor(df: pl.DataFrame) -> np.ndarray:
    """Per row, the share of its games that are distinct (`stats.design_factor`); 1 for a
    table without `_unit_aggs`."""
    if "distinct" not in df.columns:
        return np.ones(df.height)
    return stats.design_factor(df["distinct"].to_numpy(), df["game_count"].to_numpy())


def _mean_aggs(name: str, expr: pl.Expr) -> list[pl.Expr]:
    """Aggregations whose summary `_finish_means` turns into mean and t interval."""
    return [expr.mean().alias(name), expr.std().alias(f"{name}_sd"), expr.count().alias(f"{name}_n")]


def _finish_means(df: pl.DataFrame, *names: str) -> pl.DataFrame:
    f = _factor(df)
    for name in names:
        low, high = stats.mean_t_interval(df[name].to_numpy(), df[f"{name}_sd"].to_numpy(),
                                          df[f"{name}_n"].to_numpy() * f)
        position = df.columns.index(name) + 1
        df = df.drop(f"{name}_sd", f"{name}_n")
        df.insert_column(position, pl.Series(f"{name}_low", low))
        df.insert_column(position + 1, pl.Series(f"{name}_high", high))
    return df


def _with_rate(df: pl.DataFrame, name: str, successes: str, n: str = "games") -> pl.DataFrame:
    """Add rate `name` = successes / n with its Wilson interval, on the distinct games."""
    s, total = df[successes].to_numpy().astype(float), df[n].to_numpy().astype(float)
    f = _factor(df)
    low, high = stats.wilson_interval(s * f, total * f)
    return df.with_columns(pl.Series(name, s / total), pl.Series(f"{name}_low", low),
                           pl.Series(f"{name}_high", high))


def _win_shares(lf: pl.LazyFrame, keys: list[str]) -> pl.DataFrame:
    """Win share per group of player-game rows, tested against the fair share 1/players."""
    df = (lf.group_by(keys).agg(pl.len().alias("games"), *_unit_aggs(), wins=pl.col("win_share").sum(),
                                seats=pl.col("seat").n_unique())
          .sort(keys).collect())
    return _rate_tested(_with_rate(df, "win_share", "wins").with_columns(fair=1 / pl.col("players")))


def _rate_tested(df: pl.DataFrame) -> pl.DataFrame:
    """Add the p-value of the win share against the fair share, on the distinct games."""
    f = _factor(df)
    return df.with_columns(p_value=pl.Series(stats.rate_test(df["wins"].to_numpy() * f, df["games"].to_numpy() * f,
                                                             df["fair"].to_numpy())))


def _distribution(lf: pl.LazyFrame, keys: list[str], column: str, categories: tuple = ()) -> pl.DataFrame:
    """Share of games per value of `column` within each group, listing every value of
    `categories` even when no game has it (so a zero is shown, not hidden)."""
    counts = lf.group_by([*keys, column]).agg(count=pl.len()).collect()
    totals = lf.group_by(keys).agg(pl.len().alias("games"), *_unit_aggs()).collect()
    values = list(categories) + sorted(set(counts[column].to_list()) - set(categories))
    grid = (totals.join(pl.DataFrame({column: pl.Series(values, dtype=counts[column].dtype)}), how="cross")
            .join(counts, on=[*keys, column], how="left").with_columns(pl.col("count").fill_null(0))
            .sort([*keys, pl.col(column).replace_strict(values, range(len(values)))]))
    return _with_rate(grid, "share", "count").select(*keys, column, "count", "games", "game_count", "distinct", "share",
                                                     "share_low", "share_high")


# --- the tables ---------------------------------------------------------------------------

def distinct_games(ds: Dataset) -> pl.DataFrame:
    """Per variant and player count: games played and distinct games among them (the
    same setup and the same actions are the same game, whatever its seed): the unit
    every interval of the report counts."""
    return (ds.games.lazy().group_by(KEYS).agg(pl.len().alias("games"), pl.col("fingerprint").n_unique()
                                                .alias("distinct"))
            .with_columns(distinct_share=pl.col("distinct") / pl.col("games")).sort(KEYS).collect())


def seat_win_share(ds: Dataset) -> pl.DataFrame:
    """Win share by seat for each player count, against the fair 1/N."""
    return _win_shares(ds.players.lazy(), [*KEYS, "seat"]).drop("seats")


def draw_seat_win_share(ds: Dataset) -> pl.DataFrame:
    """Win share by seat for each minor draw and player count."""
    return _win_shares(ds.players.lazy(), [*KEYS, "draw", "seat"]).drop("seats")


def draw_summary(ds: Dataset) -> pl.DataFrame:
    """Games, mean game length (ORs, SRs) per minor draw and player count."""
    df = (ds.games.lazy().group_by([*KEYS, "draw"])
          .agg(pl.len().alias("games"), *_unit_aggs(), *_mean_aggs("ors", pl.col("ors")),
               *_mean_aggs("srs", pl.col("srs")))
          .sort([*KEYS, "draw"]).collect())
    return _finish_means(df, "ors", "srs")


def draw_end_reasons(ds: Dataset) -> pl.DataFrame:
    return _distribution(ds.games.lazy(), [*KEYS, "draw"], "end_reason", END_REASONS)


def company_groups(ds: Dataset) -> pl.DataFrame:
    """Per variant, player count, minor draw and company in play: games, starts, floats
    and the aggregations of revenue (games where it floated) and final price (games
    where it started). A minor that was not drawn is not in play."""
    all_minors = ds.games["minors"].explode().unique().to_list()
    minors_of_draw = ds.games.lazy().group_by("draw").agg(pl.col("minors").first())
    # Companies in the order the dataset lists them (the ruleset's order).
    order = ds.scan("companies").select(pl.col("company").unique(maintain_order=True)).collect().to_series()
    return (ds.scan("companies")
            # Null where it did not float: a column, not a filter in each group, is faster.
            .with_columns(revenue=pl.when(pl.col("floated")).then(pl.col("revenue_total")))
            # The draw as a categorical while the rows are many: faster to join and group.
            .join(ds.games.lazy().select("game_id", "variant", "population", "players",
                                         pl.col("draw").cast(pl.Categorical), "fingerprint"), on=["game_id", "variant"])
            .group_by([*KEYS, "draw", "company"])
            .agg(pl.len().alias("games"), *_unit_aggs(), pl.col("started").sum().alias("started_n"),
                 pl.col("floated").sum().alias("floated_n"),
                 *_mean_aggs("revenue", pl.col("revenue")), *_mean_aggs("final_price", pl.col("final_price")))
            .with_columns(pl.col("draw").cast(pl.String))
            # Whether a minor is in play depends on the draw alone, a group key: dropping the
            # minors not drawn group by group, not row by row, is much cheaper.
            .join(minors_of_draw, on="draw")
            .filter(~pl.col("company").is_in(all_minors) | pl.col("company").is_in(pl.col("minors")))
            .drop("minors")
            .sort([*KEYS, "draw", pl.col("company").replace_strict(order, range(order.len()))]).collect())


def _start_and_float_rates(df: pl.DataFrame) -> pl.DataFrame:
    return _with_rate(_with_rate(df, "start_rate", "started_n"), "float_rate", "floated_n")


def draw_companies(groups: pl.DataFrame) -> pl.DataFrame:
    """Per minor draw, player count and company in play (`company_groups`): how often it
    starts and floats, its route revenue over the game (games where it floated) and its
    final price (games where it started)."""
    return _finish_means(_start_and_float_rates(groups), "revenue", "final_price").drop("started_n", "floated_n")


def variant_companies(groups: pl.DataFrame) -> pl.DataFrame:
    """Per variant, player count and company, over every draw that put it in play: how
    often it starts and floats (a rule change's effect on the companies at a glance)."""
    df = (groups.with_columns(order=pl.int_range(pl.len()).over(KEYS))
          .group_by([*KEYS, "company"])
          .agg(pl.col("games", "game_count", "distinct", "started_n", "floated_n").sum(), pl.col("order").min())
          .sort([*KEYS, "order"]).drop("order"))
    return _start_and_float_rates(df).drop("started_n", "floated_n")


def variant_overview(ds: Dataset) -> pl.DataFrame:
    """Per variant and player count: operating rounds, how games end and how many reach
    the last epoch any game of the dataset reached (a rule change's effect at a glance)."""
    last = ds.games["epoch"].max()
    df = (ds.games.lazy().group_by(KEYS)
          .agg(pl.len().alias("games"), *_unit_aggs(), *_mean_aggs("ors", pl.col("ors")),
               *[(pl.col("end_reason") == r).sum().alias(f"{r}_n") for r in END_REASONS],
               (pl.col("epoch") >= last).sum().alias("last_epoch_n"))
          .sort(KEYS).collect())
    df = _finish_means(df, "ors")
    for name in [*END_REASONS, "last_epoch"]:
        label = f"epoch_{last}_reached_rate" if name == "last_epoch" else f"ends_by_{name}_rate"
        df = _with_rate(df, label, f"{name}_n").drop(f"{name}_n")
    return df


def strategy_win_share(ds: Dataset, column: str) -> pl.DataFrame:
    """Win share per policy (column="policy") or auction strategy, per player count,
    against the fair 1/N; `seats` = how many different seats it played from."""
    return _win_shares(ds.players.lazy(), [*KEYS, column])


def strategy_ratings(ds: Dataset, column: str, rng: np.random.Generator) -> pl.DataFrame:
    """Bradley-Terry ratings of the values of `column` across all tables of a variant
    and population (every player count): each game is decomposed into its pairs of
    seats with different strategies; the better rank wins, a tie counts half."""
    # one key for the variant and the population (split again at the end)
    p = ds.players.lazy().select("game_id", pl.concat_str("variant", "population", separator=_SEP).alias("variant"),
                                 "rank", pl.col(column).alias("name"))
    names_by_variant = p.group_by("variant").agg(pl.col("name").unique().sort()).sort("variant").collect()
    index = names_by_variant.explode("name").with_columns(index=pl.int_range(pl.len()).over("variant"))
    # A game's pairs depend only on its line-up, the multiset of (strategy, rank): the
    # games of one line-up are decomposed once, and stand for `copies` games. A player is
    # coded index * 2**32 + rank (ranks are small and positive).
    lineups = (p.join(index.lazy(), on=["variant", "name"])
               .select("game_id", "variant", code=pl.col("index").cast(pl.Int64) * 2**32 + pl.col("rank"))
               # Sorted first, as a group keeps its rows' order: faster than sorting each list.
               .sort("code").group_by("variant", "game_id").agg("code")
               .group_by("variant", "code").agg(copies=pl.len())
               .with_columns(lineup=pl.int_range(pl.len()))
               .explode("code")
               .with_columns(position=pl.int_range(pl.len()).over("lineup"), index=pl.col("code") // 2**32,
                             rank=pl.col("code") % 2**32))
    pairs = (lineups.join(lineups.select("lineup", "position", "index", "rank"), on="lineup", suffix="_b")
             .filter((pl.col("position") < pl.col("position_b")) & (pl.col("index") != pl.col("index_b")))
             .select("variant", "lineup", "copies", "index", "index_b",
                     score=pl.when(pl.col("rank") < pl.col("rank_b")).then(1.0)
                     .when(pl.col("rank") == pl.col("rank_b")).then(0.5).otherwise(0.0))
             .collect())
    frames = []
    for group, names in names_by_variant.iter_rows():
        v = pairs.filter(pl.col("variant") == group)
        r = stats.bradley_terry(names, v["lineup"].to_numpy(), v["index"].to_numpy(), v["index_b"].to_numpy(),
                                v["score"].to_numpy(), rng, copies=v["copies"].to_numpy())
        variant, population = group.split(_SEP)
        frames.append(pl.DataFrame({"variant": variant, "population": population, column: names, "games": r.games,
                                    "strength": r.strength, "strength_low": r.low, "strength_high": r.high}))
    if not frames:
        return pl.DataFrame(schema={"variant": pl.String, "population": pl.String, column: pl.String,
                                    "games": pl.Int64, "strength": pl.Float64, "strength_low": pl.Float64,
                                    "strength_high": pl.Float64})
    return pl.concat(frames).sort("variant", "population", "strength", descending=[False, False, True])


def legacy_value(ds: Dataset) -> pl.DataFrame:
    """Per legacy and player count: how often its buyer wins (against the fair 1/N),
    the price paid against the printed minimum, the income it paid before closing, its
    net value (income - price) and the buyer's wealth edge: final wealth minus the mean
    final wealth of the other players of the game, who hold the other legacies."""
    buyers = ds.players.lazy().select("game_id", "variant", "population", "seat", "players", "win_share", "wealth",
                                      "fingerprint",
                                      table_wealth=pl.col("wealth").sum().over("game_id", "variant"))
    lf = (ds.scan("auctions").with_columns(seat=pl.col("buyer_seat") + 1)
          .join(buyers, on=["game_id", "variant", "seat"])
          .with_columns(net_value=pl.col("income_earned") - pl.col("price"),
                        wealth_edge=pl.col("wealth") - (pl.col("table_wealth") - pl.col("wealth"))
                        / (pl.col("players") - 1)))
    means = ("price", "income_earned", "net_value", "wealth_edge")
    df = (lf.group_by([*KEYS, "legacy"])
          .agg(pl.len().alias("games"), *_unit_aggs(), pl.col("win_share").sum().alias("wins"),
               pl.col("min_price").mean().alias("min_price"),
               *[a for m in means for a in _mean_aggs(m, pl.col(m))])
          .sort([*KEYS, "legacy"]).collect())
    return _rate_tested(_with_rate(_finish_means(df, *means), "win_share", "wins")
                        .with_columns(fair=1 / pl.col("players")))


def company_edges(ds: Dataset, top: int) -> pl.DataFrame:
    """Per company started: how often its final price is the market's top value `top`
    (a company pinned at the ceiling can rise no further: its payouts move nothing)."""
    df = (ds.scan("companies").filter(pl.col("started"))
          .join(ds.games.lazy().select("game_id", *KEYS, "fingerprint"), on=["game_id", "variant"])
          .group_by([*KEYS, "company"])
          .agg(pl.len().alias("games"), *_unit_aggs(), (pl.col("final_price") >= top).sum().alias("at_top"))
          .sort([*KEYS, "company"]).collect())
    return _with_rate(df, "top_rate", "at_top").drop("at_top")


def head_to_head(ds: Dataset, column: str) -> pl.DataFrame:
    """For each pair of strategies (values of `column`) that met at a table: how often
    the first finished ahead of the second (a tie counts half), with its interval, and
    the first's win share in the games where the second sat at its table."""
    p = ds.players.select("game_id", "variant", "population", "fingerprint", "rank", "win_share",
                          name=pl.col(column))
    pairs = (p.join(p.select("game_id", "variant", "rank", name_b="name"), on=["game_id", "variant"],
                    suffix="_b")
             .filter(pl.col("name") != pl.col("name_b"))
             .with_columns(ahead=pl.when(pl.col("rank") < pl.col("rank_b")).then(1.0)
                           .when(pl.col("rank") == pl.col("rank_b")).then(0.5).otherwise(0.0)))
    df = (pairs.group_by("variant", "population", "name", "name_b")
          .agg(pl.len().alias("games"), *_unit_aggs(), pl.col("ahead").sum().alias("ahead_n"),
               pl.col("win_share").sum().alias("wins"))
          .sort("variant", "population", "name", "name_b"))
    df = _with_rate(_with_rate(df, "ahead_share", "ahead_n"), "win_share", "wins").drop("ahead_n", "wins")
    return df.rename({"name": column, "name_b": "opponent"})


def legacy_buyers(ds: Dataset) -> pl.DataFrame:
    """One row per legacy bought: its buyer's win share, the mean win share of the
    players of the same seat and minor draw (`expected`, in the same variant, population
    and player count) and the difference (`edge`)."""
    players = ds.players.lazy()
    expected = players.group_by([*KEYS, "draw", "seat"]).agg(expected=pl.col("win_share").mean())
    return (ds.scan("auctions").with_columns(seat=pl.col("buyer_seat") + 1)
            .join(players.select("game_id", *KEYS, "draw", "seat", "win_share", "fingerprint"),
                  on=["game_id", "variant", "seat"])
            .join(expected, on=[*KEYS, "draw", "seat"])
            .with_columns(edge=pl.col("win_share") - pl.col("expected"))
            .collect())


def legacy_edge(ds: Dataset) -> pl.DataFrame:
    """Per legacy and player count: how much more often its buyer wins than the players
    of the same seat and minor draw win on average (a win share difference, with the
    stratified score test of `stats.excess_rate`): the legacy's effect with the seat's
    and the draw's taken out, so that a seat which tends to buy one legacy does not make
    that legacy look strong."""
    df = (legacy_buyers(ds).group_by([*KEYS, "legacy"])
          .agg(pl.len().alias("games"), *_unit_aggs(), pl.col("win_share").sum().alias("wins"),
               pl.col("expected").sum().alias("expected"),
               (pl.col("expected") * (1 - pl.col("expected"))).sum().alias("variance"))
          .sort([*KEYS, "legacy"]))
    f = _factor(df)
    edge, low, high, p = stats.excess_rate(df["wins"].to_numpy() * f, df["expected"].to_numpy() * f,
                                           df["variance"].to_numpy() * f, df["games"].to_numpy() * f)
    return df.drop("wins", "expected", "variance").with_columns(
        pl.Series("edge", edge), pl.Series("edge_low", low), pl.Series("edge_high", high), pl.Series("p_value", p))


def auction_prices(ds: Dataset) -> pl.DataFrame:
    """Distribution of the auction price per legacy and player count, the share of
    sales whose price fell (drops) and of those where it fell all the way to 0."""
    price = pl.col("price")
    df = (ds.scan("auctions").join(ds.games.lazy().select("game_id", "variant", "population", "players",
                                                          "fingerprint"), on=["game_id", "variant"])
          .group_by([*KEYS, "legacy"])
          .agg(pl.len().alias("games"), *_unit_aggs(), pl.col("min_price").mean().alias("min_price"),
               price.mean().alias("mean_price"), price.quantile(0.1, "nearest").alias("p10"),
               price.median().alias("median"), price.quantile(0.9, "nearest").alias("p90"),
               (pl.col("drops") > 0).sum().alias("dropped"), (price == 0).sum().alias("at_zero"),
               (price > pl.col("min_price")).sum().alias("above"),
               pl.col("reservations").mean().alias("mean_reservations"))
          .sort([*KEYS, "legacy"]).collect())
    df = _with_rate(_with_rate(_with_rate(df, "drop_rate", "dropped"), "zero_rate", "at_zero"), "above_min_rate", "above")
    return df.drop("dropped", "at_zero", "above")


def game_length(ds: Dataset) -> pl.DataFrame:
    """Stock rounds, operating rounds and the epoch reached, per player count."""
    df = (ds.games.lazy().group_by(KEYS)
          .agg(pl.len().alias("games"), *_unit_aggs(),
               *[a for m in ("srs", "ors", "epoch") for a in _mean_aggs(m, pl.col(m))])
          .sort(KEYS).collect())
    return _finish_means(df, "srs", "ors", "epoch")


def phases_reached(ds: Dataset) -> pl.DataFrame:
    return _distribution(ds.games.lazy(), KEYS, "phase")


def epochs_reached(ds: Dataset) -> pl.DataFrame:
    return _distribution(ds.games.lazy(), KEYS, "epoch")


def length_distribution(ds: Dataset) -> pl.DataFrame:
    """Share of games per number of operating rounds played."""
    return _distribution(ds.games.lazy(), KEYS, "ors")


def end_reasons(ds: Dataset) -> pl.DataFrame:
    return _distribution(ds.games.lazy(), KEYS, "end_reason", END_REASONS)


def errors(ds: Dataset) -> pl.DataFrame:
    """Failed games per error line (they are not in the other tables)."""
    return ds.scan("errors").group_by("variant", "error").agg(games=pl.len()).sort("games", descending=True).collect()


def trajectories(ds: Dataset) -> pl.DataFrame:
    """Median paths over the ORs with their 10-90 % bands, from the `rounds` table: each
    seat's wealth ("seat 1".."seat N"), each company's share price (its id) and the bank,
    per variant, population, player count and minor draw ("all": the draws pooled). At
    OR k each path counts the games then running (`games`): a company's, those in which
    it runs. Empty for a dataset without the rounds table (written before it existed)."""
    games = ds.games.lazy().select("game_id", "variant", "population", "players", "draw")
    rounds = ds.scan("rounds").join(games, on=["game_id", "variant"])
    players = rounds.filter(pl.col("kind") == "player")

    def path(rows: pl.LazyFrame, measure: str, who: pl.Expr) -> pl.LazyFrame:
        return rows.select(*KEYS, "draw", pl.lit(measure).alias("measure"), who.alias("who"), "or",
                           pl.col(measure).alias("value"))

    paths = pl.concat([
        path(players, "wealth", pl.format("seat {}", pl.col("seat") + 1)),
        path(rounds.filter((pl.col("kind") == "company") & pl.col("price").is_not_null()), "price", pl.col("company")),
        path(players.filter(pl.col("seat") == 0), "bank", pl.lit("bank")),  # seat 0: one row per game and OR
    ])
    value = pl.col("value")
    return (pl.concat([paths, paths.with_columns(draw=pl.lit("all"))]).group_by(*KEYS, "draw", "measure", "who", "or")
            .agg(pl.len().alias("games"), value.median().alias("median"),
                 value.quantile(0.1, "nearest").alias("low"), value.quantile(0.9, "nearest").alias("high"))
            .sort(*KEYS, "draw", "measure", "who", "or").collect())


PROBE = re.compile(r"^probe\(.*\b(start|legacy|pump|loot)=['\"]?([^,'\")]+)")  # policies/probe.py's specs


def probe_effects(ds: Dataset) -> pl.DataFrame:
    """Per probe (a seat forced to one thing: policies/probe.py), variant and player
    count: the prober's win share in the games where its item is in play, against the
    win share of the same seat on the same seeds in the reference population (the first
    without a probe): the paired difference with its t interval and test."""
    schema = {"variant": pl.String, "population": pl.String, "players": pl.Int64, "probe": pl.String,
              "forces": pl.String, "item": pl.String, "pairs": pl.Int64, "win_share": pl.Float64,
              "reference_win_share": pl.Float64, "change": pl.Float64, "change_low": pl.Float64,
              "change_high": pl.Float64, "p_value": pl.Float64}
    players = ds.players.join(ds.games.select("game_id", "variant", "cell", "seed", "minors"),
                              on=["game_id", "variant"])
    probers = players.filter(pl.col("policy").str.starts_with("probe("))
    plain = [p for p in _planned_populations(ds) if p not in set(probers["population"])]
    if probers.is_empty() or not plain:
        return pl.DataFrame(schema=schema)
    reference = players.filter(pl.col("population") == plain[0]).select(
        "variant", "cell", "seed", "seat", "fingerprint", reference_win_share=pl.col("win_share"))
    sold = ds.scan("auctions").select("game_id", "variant", "legacy").collect()
    rows = []
    for (variant, population, n, spec), group in probers.group_by("variant", "population", "players", "policy",
                                                                   maintain_order=True):
        match = PROBE.match(spec)
        if match is None:
            continue
        forces, item = match.groups()
        if forces == "legacy":  # the games where the legacy was in play (every legacy in play is sold)
            group = group.join(sold.filter(pl.col("legacy") == item).select("game_id", "variant"),
                               on=["game_id", "variant"])
        elif item in set(ds.games["minors"].explode()):  # a minor is in play only where it was drawn
            group = group.filter(pl.col("minors").list.contains(item))
        both = group.join(reference, on=["variant", "cell", "seed", "seat"], suffix=" [ref]")
        if both.is_empty():
            continue
        d = stats.paired_difference(both["win_share"].to_numpy(), both["reference_win_share"].to_numpy(),
                                    units=both.height * _distinct_pairs(both, " [ref]"))
        rows.append((variant, population, n, spec, forces, item, both.height, float(both["win_share"].mean()),
                     float(both["reference_win_share"].mean()), d.mean, d.low, d.high, d.p_value))
    return pl.DataFrame(rows, schema=schema, orient="row")


def _planned_populations(ds: Dataset) -> list[str]:
    """Population names in the experiment file's order (by name without a plan)."""
    present = ds.games["population"].unique().to_list()
    return [p for p in _planned_names(ds.manifest, "populations") if p in present] or sorted(present)


def _distinct_pairs(pairs: pl.DataFrame, suffix: str) -> float:
    """The share of `pairs` (games joined with their counterparts, whose columns carry
    `suffix`) that are distinct pairs: a pair played again identically is no new evidence."""
    return pairs.select("fingerprint", f"fingerprint{suffix}").n_unique() / pairs.height


def _per_game_metrics(ds: Dataset) -> pl.DataFrame:
    """One row per game with every metric the variant comparison pairs: length, bank,
    end reason (0/1), each seat's win share and each company's revenue and floating."""
    games = ds.games.lazy().with_columns(
        *[(pl.col("end_reason") == r).cast(pl.Float64).alias(f"share of games ending by {r}") for r in END_REASONS]
    ).rename({"ors": "ORs played", "srs": "SRs played", "epoch": "epoch reached", "bank": "bank cash at the end (R.)"})
    seats = (ds.players.lazy().select("game_id", "variant", pl.format("seat {} win share", "seat").alias("metric"),
                                 "win_share").collect()
             .pivot(on="metric", index=["game_id", "variant"], values="win_share"))
    companies = (ds.scan("companies").select(
        "game_id", "variant", "company", pl.col("revenue_total").cast(pl.Float64).alias("revenue"),
        pl.col("floated").cast(pl.Float64).alias("floats")).collect()
        .pivot(on="company", index=["game_id", "variant"], values=["revenue", "floats"]))
    companies = companies.rename({c: f"{c.split('_', 1)[1]} route revenue (R.)" if c.startswith("revenue_")
                                  else f"share of games where {c.split('_', 1)[1]} floats"
                                  for c in companies.columns if c not in ("game_id", "variant")})
    return (games.drop("minors", "phase", "end_reason", "actions", "duration_s", "draw").collect()
            .join(seats, on=["game_id", "variant"], how="left")
            .join(companies, on=["game_id", "variant"], how="left"))


def baseline_variant(manifest: dict, variants: list[str]) -> str:
    """The first variant of the experiment file (per the manifest), else the first by name."""
    return next((v for v in _planned_names(manifest, "variants") if v in variants), sorted(variants)[0])


def variant_differences(ds: Dataset) -> pl.DataFrame:
    """For each variant against the baseline, per player count and metric: the mean of
    the per-game difference over games played on the same seed in the same cell, with
    its t interval and paired t test. Share metrics are fractions (0..1)."""
    variants = _variants(ds)
    schema = {"variant": pl.String, "baseline": pl.String, "population": pl.String, "players": pl.Int64,
              "metric": pl.String,
              "pairs": pl.Int64, "difference": pl.Float64, "difference_low": pl.Float64,
              "difference_high": pl.Float64, "p_value": pl.Float64}
    if len(variants) < 2:  # checked first: the wide per-game table is the costly part
        return pl.DataFrame(schema=schema)
    wide = _per_game_metrics(ds)
    base = baseline_variant(ds.manifest, variants)
    fixed = {"game_id", "variant", "population", "cell", "game_index", "seed", "players", "fingerprint"}
    metrics = [c for c in wide.columns if c not in fixed]
    rows = []
    for variant in (v for v in variants if v != base):
        paired = wide.filter(pl.col("variant") == variant).join(
            wide.filter(pl.col("variant") == base), on=["population", "cell", "seed"], suffix=" [base]")
        for (population, players), group in paired.group_by("population", "players", maintain_order=True):
            distinct = _distinct_pairs(group, " [base]")
            for metric in metrics:
                both = group.select(metric, f"{metric} [base]").drop_nulls()
                if both.height == 0:
                    continue
                d = stats.paired_difference(both[metric].to_numpy(), both[f"{metric} [base]"].to_numpy(),
                                            units=both.height * distinct)
                rows.append((variant, base, population, players, metric, d.n, d.mean, d.low, d.high, d.p_value))
    return pl.DataFrame(rows, schema=schema, orient="row").sort("variant", "population", "players", "metric")


# --- comparisons and the whole analysis ------------------------------------------------

def _percent(x: float) -> str:
    return f"{100 * x:.0f}"


def _win_share_comparisons(df: pl.DataFrame, section: str, subject: Callable[[dict], str],
                           prefix: Callable[[dict], str]) -> list[stats.Comparison]:
    out = []
    for row in df.iter_rows(named=True):
        who = f"{prefix(row)}{subject(row)}"
        out.append(stats.Comparison(
            section, who, row["win_share"], row["win_share_low"], row["win_share_high"], row["fair"],
            row["p_value"],
            f"{who[0].upper()}{who[1:]} wins {_percent(row['win_share'])} % ({_percent(row['win_share_low'])}–"
            f"{_percent(row['win_share_high'])} %) against a fair {_percent(row['fair'])} %.", row=row))
    return out


def _difference_comparisons(df: pl.DataFrame) -> list[stats.Comparison]:
    out = []
    # A metric identical in every pair (e.g. a company never in play) is not a test.
    informative = df.filter((pl.col("difference") != 0) | (pl.col("difference_low") != pl.col("difference_high")))
    for row in informative.iter_rows(named=True):
        share = row["metric"].startswith("share of") or row["metric"].endswith("win share")
        scale, unit = (100, " percentage points") if share else (1, "")
        d, lo, hi = (scale * row[k] for k in ("difference", "difference_low", "difference_high"))
        out.append(stats.Comparison(
            "variants", f"with {row['players']} players, {row['metric']}, {row['variant']} vs. {row['baseline']}",
            row["difference"], row["difference_low"], row["difference_high"], 0.0, row["p_value"],
            f"With {row['players']} players, variant {row['variant']} changes {row['metric']} by {d:+.1f}{unit} "
            f"({lo:+.1f} to {hi:+.1f}) on average against {row['baseline']}.", row=row))
    return out


def _probe_comparisons(df: pl.DataFrame) -> list[stats.Comparison]:
    out = []
    for row in df.iter_rows(named=True):
        d, lo, hi = (100 * row[k] for k in ("change", "change_low", "change_high"))
        out.append(stats.Comparison(
            "probe", f"with {row['players']} players, {row['probe']}", row["change"], row["change_low"],
            row["change_high"], 0.0, row["p_value"],
            f"With {row['players']} players, {row['probe']} wins {d:+.0f} points ({lo:+.0f} to {hi:+.0f}) against "
            f"the same seat on the same seeds without it.", row=row))
    return out


def _legacy_comparisons(df: pl.DataFrame, prefix: Callable[[dict], str]) -> list[stats.Comparison]:
    out = []
    for row in df.iter_rows(named=True):
        where = prefix(row)
        d, lo, hi = (100 * row[k] for k in ("edge", "edge_low", "edge_high"))
        out.append(stats.Comparison(
            "legacy", f"{where}the buyer of {row['legacy']}", row["edge"], row["edge_low"], row["edge_high"], 0.0,
            row["p_value"],
            f"{where[0].upper()}{where[1:]}the buyer of {row['legacy']} wins {d:+.0f} points ({lo:+.0f} to "
            f"{hi:+.0f}) against players of the same seat and minor draw.", row=row))
    return out


def _same_grouping(players: pl.DataFrame, a: str, b: str) -> bool:
    """Whether two player columns split the player-games identically (then testing
    both would count one question twice)."""
    pairs = players.select(a, b).unique()
    return pairs[a].n_unique() == pairs[b].n_unique() == pairs.height


def _rating_column(players: pl.DataFrame) -> str:
    """The one column to rate by when policy and auction strategy group alike: the
    auction strategy when the players differ in nothing else (an auction tournament),
    else the policy, which names the player (a ladder of heuristic_tuned, mcts, ...)."""
    from policies.spec import split_spec

    styles = {split_spec(p)[0] for p in players["policy"].unique().to_list()}
    return "auction_strategy" if len(styles) <= 1 else "policy"


def _own_split(ds: Dataset, a: str, b: str) -> list[str]:
    """The populations in which column `b` splits the players otherwise than `a`."""
    return [pop for (pop,), players in ds.players.group_by("population") if not _same_grouping(players, a, b)]


@dataclass
class Analysis:
    experiment: str
    manifest: dict
    variants: list[str]
    populations: list[str]
    tables: dict[str, pl.DataFrame]
    comparisons: list[stats.Comparison] = field(default_factory=list)
    description: str = ""  # the experiment's own words on what it asks
    incomplete: str | None = None  # Dataset.incomplete

    @property
    def significant(self) -> list[stats.Comparison]:
        return [c for c in self.comparisons if c.significant]


def analyse(ds: Dataset, seed: int = 0, market_top: int | None = None) -> Analysis:
    """Every table of the report, and every comparison corrected together by Holm.
    `seed` seeds the bootstrap of the ratings' intervals; `market_top`, the market's
    highest value where the ruleset is known, adds `company_edges`."""
    rng = np.random.default_rng(seed)
    variants = _variants(ds)
    populations = ds.games["population"].unique().sort().to_list()
    groups = company_groups(ds)
    # When each policy has its own auction strategy, one grouping answers both questions.
    distinct = not _same_grouping(ds.players, "policy", "auction_strategy")
    strategy_columns = ["policy", "auction_strategy"] if distinct else ["policy"]
    rating_columns = ["auction_strategy", "policy"] if distinct else [_rating_column(ds.players)]
    tables = {
        "distinct_games": distinct_games(ds),
        "seat": seat_win_share(ds),
        "draw_seat": draw_seat_win_share(ds),
        "draw_summary": draw_summary(ds),
        "draw_end_reasons": draw_end_reasons(ds),
        "draw_companies": draw_companies(groups),
        "variant_overview": variant_overview(ds),
        "variant_companies": variant_companies(groups),
        **{f"{c}_win_share": strategy_win_share(ds, c) for c in strategy_columns},
        **{f"{c}_ratings": strategy_ratings(ds, c, rng) for c in rating_columns},
        **{f"{c}_head_to_head": head_to_head(ds, c) for c in rating_columns},
        "legacy_value": legacy_value(ds),
        "legacy_edge": legacy_edge(ds),
        "auction_prices": auction_prices(ds),
        "game_length": game_length(ds),
        "phases": phases_reached(ds),
        "epochs": epochs_reached(ds),
        "length_distribution": length_distribution(ds),
        "end_reasons": end_reasons(ds),
        "variant_differences": variant_differences(ds),
        "probe_effects": probe_effects(ds),
        "errors": errors(ds),
        "trajectories": trajectories(ds),
    }
    if market_top is not None:
        tables["company_edges"] = company_edges(ds, market_top)
    from menorca_sim.analysis import sweeps  # it builds on this module's tables

    points = sweeps.sweep_points(ds)
    if not points.is_empty():
        tables["sweep_metrics"] = sweeps.sweep_metrics(points, tables)
        tables["fair_values"] = sweeps.fair_values(ds, points, rng)

    def prefix(row: dict) -> str:
        where = [f"in variant {row['variant']}"] if len(variants) > 1 else []
        where += [f"among {row['population']} players"] if len(populations) > 1 else []
        return ", ".join(where + [f"with {row['players']} players"]) + ", "

    comparisons = [
        *_win_share_comparisons(tables["seat"], "seat", lambda r: f"seat {r['seat']}", prefix),
        *_win_share_comparisons(tables["draw_seat"], "draw",
                                lambda r: f"seat {r['seat']} (minors {r['draw']})", prefix),
        # A strategy alone at its tables wins exactly its fair share: nothing to test.
        # ... and where auction strategies split the players as policies do, one test answers both.
        *[c for col in strategy_columns for c in _win_share_comparisons(
            tables[f"{col}_win_share"].filter((pl.col(col).n_unique().over(KEYS) > 1)
                                              & (pl.col("population").is_in(_own_split(ds, "policy", col))
                                                 if col == "auction_strategy" else True)), col,
            lambda r, col=col: f"{col.replace('_', ' ')} {r[col]}", prefix)],
        *_legacy_comparisons(tables["legacy_edge"], prefix),
        *_difference_comparisons(tables["variant_differences"]),
        *_probe_comparisons(tables["probe_effects"]),
    ]
    comparisons = [c for c in comparisons if not np.isnan(c.p_value)]  # too few games to test: no test
    stats.apply_holm(comparisons)
    return Analysis(ds.experiment, ds.manifest, variants, populations, tables, comparisons,
                    description=ds.description, incomplete=ds.incomplete)
