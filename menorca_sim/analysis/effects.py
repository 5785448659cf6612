"""Effects of a rule, like with like: a legacy's buyer against players of the same
policy spec, seat, minor draw, player count, population and variant; a variant or a
probe against the same seat on the same seeds. The unit is the distinct game."""
from __future__ import annotations

import polars as pl

from menorca_sim.analysis import stats
from menorca_sim.analysis.dataset import END_REASONS, KEYS, Dataset, baseline_variant, planned_populations, variants
from menorca_sim.analysis.measures import distinct_factor, distinct_pairs, unit_aggs


STRATUM = [*KEYS, "draw", "seat", "policy"]
"""Who a legacy's buyer is compared with: players of the same variant, population,
player count, minor draw, seat and policy spec who did not buy it."""
SEPARABLE = 0.9  # a legacy whose purchases one policy makes at this share or more (among several) is not separable


def _strata(ds: Dataset) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """The purchases (one row per legacy bought, with its buyer's `STRATUM` and win
    share) and, per stratum and legacy, its players and buyers: counts, wins and the
    sum of squared win shares (for the permutation variance)."""
    players = ds.players.lazy().select("game_id", *STRATUM, "win_share", "fingerprint")
    bought = (ds.scan("auctions").select("game_id", "variant", "legacy", seat=pl.col("buyer_seat") + 1)
              .join(players, on=["game_id", "variant", "seat"]))
    everyone = players.group_by(STRATUM).agg(n_all=pl.len(), wins_all=pl.col("win_share").sum(),
                                             squares_all=(pl.col("win_share") ** 2).sum())
    buyers = bought.group_by([*STRATUM, "legacy"]).agg(n_buy=pl.len(), wins_buy=pl.col("win_share").sum())
    return bought, everyone.join(buyers, on=STRATUM)


def legacy_edge(ds: Dataset) -> pl.DataFrame:
    """Per legacy and player count: how much more often its buyer wins than players of
    the same policy, seat and minor draw who did not buy it: the Mantel-Haenszel
    weighted difference of mean win shares over the strata (weight n1 n0 / N) with the
    Cochran-Mantel-Haenszel test, its variance the permutation variance of the buyers'
    wins within each stratum (exact for fractional wins, and nothing where every
    player of a stratum did alike, so a tiny stratum cannot look certain).

    Stratified, not a regression: the strata are exact (a policy x seat x draw cell has
    many games), shared wins are fractional outcomes a conditional logit cannot take,
    and the stratified test stays honest where a stratum is small or wins are rare. A
    strong policy that buys a legacy more often does not make the legacy look strong,
    nor does a seat. `separable` is false where one policy makes `SEPARABLE` of the
    purchases among several policies, or where fewer than half the buyers have anyone
    to be compared with: the legacy's effect is then not separable from who buys it,
    and the report never makes it a finding."""
    bought, strata = _strata(ds)
    n, n1, w = pl.col("n_all"), pl.col("n_buy"), pl.col("wins_all")
    mean = w / n
    per_stratum = strata.with_columns(
        compared=pl.when(n > n1).then(n1).otherwise(0),
        weight=n1 * (n - n1) / n, observed=pl.col("wins_buy"), expected=n1 * mean,
        variance=pl.when(n > 1).then(n1 * (n - n1) / (n - 1) * (pl.col("squares_all") / n - mean ** 2)).otherwise(0.0))
    units = (bought.join(per_stratum.filter(pl.col("weight") > 0).select(*STRATUM, "legacy"), on=[*STRATUM, "legacy"])
             .group_by([*KEYS, "legacy"]).agg(*unit_aggs()))
    top = (bought.group_by([*KEYS, "legacy", "policy"]).agg(bought=pl.len())
           .sort("bought", "policy", descending=[True, False])
           .group_by([*KEYS, "legacy"], maintain_order=True)
           .agg(top_policy=pl.col("policy").first(), top_share=pl.col("bought").first() / pl.col("bought").sum()))
    policies = ds.players.lazy().group_by(KEYS).agg(policies=pl.col("policy").n_unique())
    df = (per_stratum.group_by([*KEYS, "legacy"])
          .agg(pl.col("n_buy").sum().alias("games"), pl.col("compared").sum(),
               *[pl.col(c).sum() for c in ("weight", "observed", "expected", "variance")])
          .join(units, on=[*KEYS, "legacy"], how="left").join(top, on=[*KEYS, "legacy"]).join(policies, on=KEYS)
          .with_columns(pl.col("game_count", "distinct").fill_null(0),
                        separable=((pl.col("policies") == 1) | (pl.col("top_share") < SEPARABLE))
                        & (pl.col("compared") >= 0.5 * pl.col("games")))
          .sort([*KEYS, "legacy"]).collect())
    f = distinct_factor(df)
    edge, low, high, p = stats.excess_rate(*(df[c].to_numpy() * f for c in ("observed", "expected", "variance",
                                                                             "weight")))
    return (df.drop("observed", "expected", "variance", "weight", "policies")
            .select(*KEYS, "legacy", "games", "compared", "game_count", "distinct", "top_policy", "top_share",
                    "separable")
            .with_columns(pl.Series("edge", edge), pl.Series("edge_low", low), pl.Series("edge_high", high),
                          pl.Series("p_value", p)))


def probe_effects(ds: Dataset) -> pl.DataFrame:
    """Per probe (a seat forced to one thing: policies/probe.py), variant and player
    count: the prober's win share in the games where its item is in play, against the
    win share of the same seat on the same seeds in the reference population (the first
    without a probe): the paired difference with its t interval and test."""
    from policies.probe import probe_target  # here: the analysis loads no players unless it reads probes

    schema = {"variant": pl.String, "population": pl.String, "players": pl.Int64, "probe": pl.String,
              "forces": pl.String, "item": pl.String, "pairs": pl.Int64, "win_share": pl.Float64,
              "reference_win_share": pl.Float64, "change": pl.Float64, "change_low": pl.Float64,
              "change_high": pl.Float64, "p_value": pl.Float64}
    players = ds.players.join(ds.games.select("game_id", "variant", "cell", "seed", "minors"),
                              on=["game_id", "variant"])
    probers = players.filter(pl.col("policy").str.starts_with("probe("))
    plain = [p for p in planned_populations(ds) if p not in set(probers["population"])]
    if probers.is_empty() or not plain:
        return pl.DataFrame(schema=schema)
    reference = players.filter(pl.col("population") == plain[0]).select(
        "variant", "cell", "seed", "seat", "fingerprint", reference_win_share=pl.col("win_share"))
    sold = ds.scan("auctions").select("game_id", "variant", "legacy").collect()
    rows = []
    for (variant, population, n, spec), group in probers.group_by("variant", "population", "players", "policy",
                                                                   maintain_order=True):
        target = probe_target(spec)
        if target is None:
            continue
        forces, item = target
        if forces == "legacy":  # the games where the legacy was in play (every legacy in play is sold)
            group = group.join(sold.filter(pl.col("legacy") == item).select("game_id", "variant"),
                               on=["game_id", "variant"])
        elif item in set(ds.games["minors"].explode()):  # a minor is in play only where it was drawn
            group = group.filter(pl.col("minors").list.contains(item))
        both = group.join(reference, on=["variant", "cell", "seed", "seat"], suffix=" [ref]")
        if both.is_empty():
            continue
        d = stats.paired_difference(both["win_share"].to_numpy(), both["reference_win_share"].to_numpy(),
                                    units=both.height * distinct_pairs(both, " [ref]"))
        rows.append((variant, population, n, spec, forces, item, both.height, float(both["win_share"].mean()),
                     float(both["reference_win_share"].mean()), d.mean, d.low, d.high, d.p_value))
    return pl.DataFrame(rows, schema=schema, orient="row")


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


def variant_differences(ds: Dataset) -> pl.DataFrame:
    """For each variant against the baseline, per player count and metric: the mean of
    the per-game difference over games played on the same seed in the same cell, with
    its t interval and paired t test. Share metrics are fractions (0..1)."""
    names = variants(ds)
    schema = {"variant": pl.String, "baseline": pl.String, "population": pl.String, "players": pl.Int64,
              "metric": pl.String,
              "pairs": pl.Int64, "difference": pl.Float64, "difference_low": pl.Float64,
              "difference_high": pl.Float64, "p_value": pl.Float64}
    if len(names) < 2:  # checked first: the wide per-game table is the costly part
        return pl.DataFrame(schema=schema)
    wide = _per_game_metrics(ds)
    base = baseline_variant(ds.manifest, names)
    fixed = {"game_id", "variant", "population", "cell", "game_index", "seed", "players", "fingerprint"}
    metrics = [c for c in wide.columns if c not in fixed]
    rows = []
    for variant in (v for v in names if v != base):
        paired = wide.filter(pl.col("variant") == variant).join(
            wide.filter(pl.col("variant") == base), on=["population", "cell", "seed"], suffix=" [base]")
        for (population, players), group in paired.group_by("population", "players", maintain_order=True):
            distinct = distinct_pairs(group, " [base]")
            for metric in metrics:
                both = group.select(metric, f"{metric} [base]").drop_nulls()
                if both.height == 0:
                    continue
                d = stats.paired_difference(both[metric].to_numpy(), both[f"{metric} [base]"].to_numpy(),
                                            units=both.height * distinct)
                rows.append((variant, base, population, players, metric, d.n, d.mean, d.low, d.high, d.p_value))
    return pl.DataFrame(rows, schema=schema, orient="row").sort("variant", "population", "players", "metric")
