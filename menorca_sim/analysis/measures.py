"""The building blocks every table shares: counts of games and distinct games (the
unit of evidence is the distinct game, by fingerprint), rates with Wilson intervals,
means with t intervals, win shares against the fair share, distributions."""
from __future__ import annotations

import numpy as np
import polars as pl

from menorca_sim.analysis import stats


SEP = "\x1f"  # joins two key values into one where a function groups by a single column


def unit_aggs() -> list[pl.Expr]:
    """A group's games and distinct games (by fingerprint): the unit of evidence is the
    distinct game, and `distinct_factor` turns the two into the share that counts."""
    return [pl.col("game_id").n_unique().alias("game_count"), pl.col("fingerprint").n_unique().alias("distinct")]


def distinct_factor(df: pl.DataFrame) -> np.ndarray:
    """Per row, the share of its games that are distinct (`stats.design_factor`); 1 for a
    table without `unit_aggs`."""
    if "distinct" not in df.columns:
        return np.ones(df.height)
    return stats.design_factor(df["distinct"].to_numpy(), df["game_count"].to_numpy())


def mean_aggs(name: str, expr: pl.Expr) -> list[pl.Expr]:
    """Aggregations whose summary `finish_means` turns into mean and t interval."""
    return [expr.mean().alias(name), expr.std().alias(f"{name}_sd"), expr.count().alias(f"{name}_n")]


def finish_means(df: pl.DataFrame, *names: str) -> pl.DataFrame:
    f = distinct_factor(df)
    for name in names:
        low, high = stats.mean_t_interval(df[name].to_numpy(), df[f"{name}_sd"].to_numpy(),
                                          df[f"{name}_n"].to_numpy() * f)
        position = df.columns.index(name) + 1
        df = df.drop(f"{name}_sd", f"{name}_n")
        df.insert_column(position, pl.Series(f"{name}_low", low))
        df.insert_column(position + 1, pl.Series(f"{name}_high", high))
    return df


def with_rate(df: pl.DataFrame, name: str, successes: str, n: str = "games") -> pl.DataFrame:
    """Add rate `name` = successes / n with its Wilson interval, on the distinct games."""
    s, total = df[successes].to_numpy().astype(float), df[n].to_numpy().astype(float)
    f = distinct_factor(df)
    low, high = stats.wilson_interval(s * f, total * f)
    return df.with_columns(pl.Series(name, s / total), pl.Series(f"{name}_low", low),
                           pl.Series(f"{name}_high", high))


def win_shares(lf: pl.LazyFrame, keys: list[str]) -> pl.DataFrame:
    """Win share per group of player-game rows, tested against the fair share 1/players."""
    df = (lf.group_by(keys).agg(pl.len().alias("games"), *unit_aggs(), wins=pl.col("win_share").sum(),
                                seats=pl.col("seat").n_unique())
          .sort(keys).collect())
    return rate_tested(with_rate(df, "win_share", "wins").with_columns(fair=1 / pl.col("players")))


def rate_tested(df: pl.DataFrame) -> pl.DataFrame:
    """Add the p-value of the win share against the fair share, on the distinct games."""
    f = distinct_factor(df)
    return df.with_columns(p_value=pl.Series(stats.rate_test(df["wins"].to_numpy() * f, df["games"].to_numpy() * f,
                                                             df["fair"].to_numpy())))


def distribution(lf: pl.LazyFrame, keys: list[str], column: str, categories: tuple = ()) -> pl.DataFrame:
    """Share of games per value of `column` within each group, listing every value of
    `categories` even when no game has it (so a zero is shown, not hidden)."""
    counts = lf.group_by([*keys, column]).agg(count=pl.len()).collect()
    totals = lf.group_by(keys).agg(pl.len().alias("games"), *unit_aggs()).collect()
    values = list(categories) + sorted(set(counts[column].to_list()) - set(categories))
    grid = (totals.join(pl.DataFrame({column: pl.Series(values, dtype=counts[column].dtype)}), how="cross")
            .join(counts, on=[*keys, column], how="left").with_columns(pl.col("count").fill_null(0))
            .sort([*keys, pl.col(column).replace_strict(values, range(len(values)))]))
    return with_rate(grid, "share", "count").select(*keys, column, "count", "games", "game_count", "distinct", "share",
                                                     "share_low", "share_high")


def distinct_pairs(pairs: pl.DataFrame, suffix: str) -> float:
    """The share of `pairs` (games joined with their counterparts, whose columns carry
    `suffix`) that are distinct pairs: a pair played again identically is no new evidence."""
    return pairs.select("fingerprint", f"fingerprint{suffix}").n_unique() / pairs.height
