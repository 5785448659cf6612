"""Strategy comparisons: win share per policy or auction strategy, Bradley-Terry
ratings and head-to-head tables. These are the only tables a population that mixes
players of different strength feeds (see `strength`)."""
from __future__ import annotations

import numpy as np
import polars as pl

from menorca_sim.analysis import stats
from menorca_sim.analysis.dataset import KEYS, Dataset
from menorca_sim.analysis.measures import SEP, unit_aggs, win_shares, with_rate


def strategy_win_share(ds: Dataset, column: str) -> pl.DataFrame:
    """Win share per policy (column="policy") or auction strategy, per player count,
    against the fair 1/N; `seats` = how many different seats it played from."""
    return win_shares(ds.players.lazy(), [*KEYS, column])


def strategy_ratings(ds: Dataset, column: str, rng: np.random.Generator) -> pl.DataFrame:
    """Bradley-Terry ratings of the values of `column` across all tables of a variant
    and population (every player count): each game is decomposed into its pairs of
    seats with different strategies; the better rank wins, a tie counts half."""
    # one key for the variant and the population (split again at the end)
    p = ds.players.lazy().select("game_id", pl.concat_str("variant", "population", separator=SEP).alias("variant"),
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
        variant, population = group.split(SEP)
        frames.append(pl.DataFrame({"variant": variant, "population": population, column: names, "games": r.games,
                                    "strength": r.strength, "strength_low": r.low, "strength_high": r.high}))
    if not frames:
        return pl.DataFrame(schema={"variant": pl.String, "population": pl.String, column: pl.String,
                                    "games": pl.Int64, "strength": pl.Float64, "strength_low": pl.Float64,
                                    "strength_high": pl.Float64})
    return pl.concat(frames).sort("variant", "population", "strength", descending=[False, False, True])


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
          .agg(pl.len().alias("games"), *unit_aggs(), pl.col("ahead").sum().alias("ahead_n"),
               pl.col("win_share").sum().alias("wins"))
          .sort("variant", "population", "name", "name_b"))
    df = with_rate(with_rate(df, "ahead_share", "ahead_n"), "win_share", "wins").drop("ahead_n", "wins")
    return df.rename({"name": column, "name_b": "opponent"})


def same_grouping(players: pl.DataFrame, a: str, b: str) -> bool:
    """Whether two player columns split the player-games identically (then testing
    both would count one question twice)."""
    pairs = players.select(a, b).unique()
    return pairs[a].n_unique() == pairs[b].n_unique() == pairs.height


def rating_column(players: pl.DataFrame) -> str:
    """The one column to rate by when policy and auction strategy group alike: the
    auction strategy when the players differ in nothing else (an auction tournament),
    else the policy, which names the player (a ladder of heuristic_tuned, mcts, ...)."""
    from policies.spec import split_spec

    styles = {split_spec(p)[0] for p in players["policy"].unique().to_list()}
    return "auction_strategy" if len(styles) <= 1 else "policy"


def own_split(ds: Dataset, a: str, b: str) -> list[str]:
    """The populations in which column `b` splits the players otherwise than `a`."""
    return [pop for (pop,), players in ds.players.group_by("population") if not same_grouping(players, a, b)]
