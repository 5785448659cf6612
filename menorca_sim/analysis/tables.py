"""The descriptive balance tables (polars). Every table is tidy: one row per group,
group keys first (`variant`, `population` and `players` always, "" being the only
variant of an experiment without variants), then counts, then each estimate `x` with
its interval `x_low`, `x_high`. Rates are fractions (0..1); money is in R. Seats are
numbered from 1 in playing order (seat 1 is the schema's seat 0)."""
from __future__ import annotations

import polars as pl

from menorca_sim.analysis.dataset import END_REASONS, KEYS, Dataset
from menorca_sim.analysis.measures import (distribution, finish_means, mean_aggs, rate_tested, unit_aggs,
                                           win_shares, with_rate)


def distinct_games(ds: Dataset) -> pl.DataFrame:
    """Per variant and player count: games played and distinct games among them (the
    same setup and the same actions are the same game, whatever its seed): the unit
    every interval of the report counts."""
    return (ds.games.lazy().group_by(KEYS).agg(pl.len().alias("games"), pl.col("fingerprint").n_unique()
                                                .alias("distinct"))
            .with_columns(distinct_share=pl.col("distinct") / pl.col("games")).sort(KEYS).collect())


def seat_win_share(ds: Dataset) -> pl.DataFrame:
    """Win share by seat for each player count, against the fair 1/N."""
    return win_shares(ds.players.lazy(), [*KEYS, "seat"]).drop("seats")


def draw_seat_win_share(ds: Dataset) -> pl.DataFrame:
    """Win share by seat for each minor draw and player count."""
    return win_shares(ds.players.lazy(), [*KEYS, "draw", "seat"]).drop("seats")


def draw_summary(ds: Dataset) -> pl.DataFrame:
    """Games, mean game length (ORs, SRs) per minor draw and player count."""
    df = (ds.games.lazy().group_by([*KEYS, "draw"])
          .agg(pl.len().alias("games"), *unit_aggs(), *mean_aggs("ors", pl.col("ors")),
               *mean_aggs("srs", pl.col("srs")))
          .sort([*KEYS, "draw"]).collect())
    return finish_means(df, "ors", "srs")


def draw_end_reasons(ds: Dataset) -> pl.DataFrame:
    return distribution(ds.games.lazy(), [*KEYS, "draw"], "end_reason", END_REASONS)


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
            .agg(pl.len().alias("games"), *unit_aggs(), pl.col("started").sum().alias("started_n"),
                 pl.col("floated").sum().alias("floated_n"),
                 *mean_aggs("revenue", pl.col("revenue")), *mean_aggs("final_price", pl.col("final_price")))
            .with_columns(pl.col("draw").cast(pl.String))
            # Whether a minor is in play depends on the draw alone, a group key: dropping the
            # minors not drawn group by group, not row by row, is much cheaper.
            .join(minors_of_draw, on="draw")
            .filter(~pl.col("company").is_in(all_minors) | pl.col("company").is_in(pl.col("minors")))
            .drop("minors")
            .sort([*KEYS, "draw", pl.col("company").replace_strict(order, range(order.len()))]).collect())


def _start_and_float_rates(df: pl.DataFrame) -> pl.DataFrame:
    return with_rate(with_rate(df, "start_rate", "started_n"), "float_rate", "floated_n")


def draw_companies(groups: pl.DataFrame) -> pl.DataFrame:
    """Per minor draw, player count and company in play (`company_groups`): how often it
    starts and floats, its route revenue over the game (games where it floated) and its
    final price (games where it started)."""
    return finish_means(_start_and_float_rates(groups), "revenue", "final_price").drop("started_n", "floated_n")


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
          .agg(pl.len().alias("games"), *unit_aggs(), *mean_aggs("ors", pl.col("ors")),
               *[(pl.col("end_reason") == r).sum().alias(f"{r}_n") for r in END_REASONS],
               (pl.col("epoch") >= last).sum().alias("last_epoch_n"))
          .sort(KEYS).collect())
    df = finish_means(df, "ors")
    for name in [*END_REASONS, "last_epoch"]:
        label = f"epoch_{last}_reached_rate" if name == "last_epoch" else f"ends_by_{name}_rate"
        df = with_rate(df, label, f"{name}_n").drop(f"{name}_n")
    return df


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
          .agg(pl.len().alias("games"), *unit_aggs(), pl.col("win_share").sum().alias("wins"),
               pl.col("min_price").mean().alias("min_price"),
               *[a for m in means for a in mean_aggs(m, pl.col(m))])
          .sort([*KEYS, "legacy"]).collect())
    return rate_tested(with_rate(finish_means(df, *means), "win_share", "wins")
                        .with_columns(fair=1 / pl.col("players")))


def company_edges(ds: Dataset, top: int) -> pl.DataFrame:
    """Per company started: how often its final price is the market's top value `top`
    (a company pinned at the ceiling can rise no further: its payouts move nothing)."""
    df = (ds.scan("companies").filter(pl.col("started"))
          .join(ds.games.lazy().select("game_id", *KEYS, "fingerprint"), on=["game_id", "variant"])
          .group_by([*KEYS, "company"])
          .agg(pl.len().alias("games"), *unit_aggs(), (pl.col("final_price") >= top).sum().alias("at_top"))
          .sort([*KEYS, "company"]).collect())
    return with_rate(df, "top_rate", "at_top").drop("at_top")


def auction_prices(ds: Dataset) -> pl.DataFrame:
    """Distribution of the auction price per legacy and player count, the share of
    sales whose price fell (drops) and of those where it fell all the way to 0."""
    price = pl.col("price")
    df = (ds.scan("auctions").join(ds.games.lazy().select("game_id", "variant", "population", "players",
                                                          "fingerprint"), on=["game_id", "variant"])
          .group_by([*KEYS, "legacy"])
          .agg(pl.len().alias("games"), *unit_aggs(), pl.col("min_price").mean().alias("min_price"),
               price.mean().alias("mean_price"), price.quantile(0.1, "nearest").alias("p10"),
               price.median().alias("median"), price.quantile(0.9, "nearest").alias("p90"),
               (pl.col("drops") > 0).sum().alias("dropped"), (price == 0).sum().alias("at_zero"),
               (price > pl.col("min_price")).sum().alias("above"),
               pl.col("reservations").mean().alias("mean_reservations"))
          .sort([*KEYS, "legacy"]).collect())
    df = with_rate(with_rate(with_rate(df, "drop_rate", "dropped"), "zero_rate", "at_zero"), "above_min_rate", "above")
    return df.drop("dropped", "at_zero", "above")


def game_length(ds: Dataset) -> pl.DataFrame:
    """Stock rounds, operating rounds and the epoch reached, per player count."""
    df = (ds.games.lazy().group_by(KEYS)
          .agg(pl.len().alias("games"), *unit_aggs(),
               *[a for m in ("srs", "ors", "epoch") for a in mean_aggs(m, pl.col(m))])
          .sort(KEYS).collect())
    return finish_means(df, "srs", "ors", "epoch")


def final_phases(ds: Dataset) -> pl.DataFrame:
    return distribution(ds.games.lazy(), KEYS, "phase")


def phases_reached(ds: Dataset) -> pl.DataFrame:
    """Per phase, the share of games that reach it (their final phase is it or a later
    one; phases ordered by epoch, then name; a variant may move a phase to another epoch,
    so each phase is placed by its earliest): where play stops short of the content."""
    order = ds.games.group_by("phase").agg(pl.col("epoch").min()).sort("epoch", "phase")["phase"].to_list()
    rank = pl.col("phase").replace_strict(order, range(len(order)))
    games = ds.games.lazy().with_columns(rank=rank)
    df = (games.group_by(KEYS).agg(pl.len().alias("games"), *unit_aggs(),
                                   *[(pl.col("rank") >= k).sum().alias(f"n{k}") for k in range(len(order))])
          .unpivot(index=[*KEYS, "games", "game_count", "distinct"], variable_name="phase", value_name="reached")
          .with_columns(pl.col("phase").str.slice(1).cast(pl.Int64).replace_strict(range(len(order)), order,
                                                                                  return_dtype=pl.String))
          .collect().sort([*KEYS, pl.col("phase").replace_strict(order, range(len(order)))]))
    return with_rate(df, "share", "reached")


def epochs_reached(ds: Dataset) -> pl.DataFrame:
    return distribution(ds.games.lazy(), KEYS, "epoch")


def length_distribution(ds: Dataset) -> pl.DataFrame:
    """Share of games per number of operating rounds played."""
    return distribution(ds.games.lazy(), KEYS, "ors")


def end_reasons(ds: Dataset) -> pl.DataFrame:
    return distribution(ds.games.lazy(), KEYS, "end_reason", END_REASONS)


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
