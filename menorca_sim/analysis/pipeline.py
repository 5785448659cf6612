"""The whole analysis of a dataset: every table, and every comparison corrected
together by Holm (`analyse`)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from menorca_sim.analysis import comparisons as tests
from menorca_sim.analysis import effects, stats, strategies, strength, sweeps, tables, value_tables
from menorca_sim.analysis.dataset import KEYS, Dataset, variants


@dataclass
class Analysis:
    experiment: str
    manifest: dict
    variants: list[str]
    populations: list[str]
    tables: dict[str, pl.DataFrame]
    comparisons: list[stats.Comparison] = field(default_factory=list)
    roles: strength.Roles = field(default_factory=strength.Roles)  # rungs, styles, mixed-strength populations
    description: str = ""  # the experiment's own words on what it asks
    incomplete: str | None = None  # Dataset.incomplete

    @property
    def significant(self) -> list[stats.Comparison]:
        return [c for c in self.comparisons if c.significant]


def analyse(ds: Dataset, seed: int = 0, market_top: int | None = None) -> Analysis:
    """Every table of the report, and every comparison corrected together by Holm.
    `seed` seeds the bootstrap of the ratings' intervals; `market_top`, the market's
    highest value (from the dataset's own ruleset), adds `company_edges`. Rule effects
    are tested in the populations of one strength only (`strength.roles`): a population
    mixing stronger and weaker players feeds the strategy comparisons alone."""
    rng = np.random.default_rng(seed)
    names = variants(ds)
    populations = ds.games["population"].unique().sort().to_list()
    groups = tables.company_groups(ds)
    # When each policy has its own auction strategy, one grouping answers both questions.
    distinct = not strategies.same_grouping(ds.players, "policy", "auction_strategy")
    strategy_columns = ["policy", "auction_strategy"] if distinct else ["policy"]
    rating_columns = ["auction_strategy", "policy"] if distinct else [strategies.rating_column(ds.players)]
    t = {
        "distinct_games": tables.distinct_games(ds),
        "seat": tables.seat_win_share(ds),
        "draw_seat": tables.draw_seat_win_share(ds),
        "draw_summary": tables.draw_summary(ds),
        "draw_end_reasons": tables.draw_end_reasons(ds),
        "draw_companies": tables.draw_companies(groups),
        "variant_overview": tables.variant_overview(ds),
        "variant_companies": tables.variant_companies(groups),
        **{f"{c}_win_share": strategies.strategy_win_share(ds, c) for c in strategy_columns},
        **{f"{c}_ratings": strategies.strategy_ratings(ds, c, rng) for c in rating_columns},
        **{f"{c}_head_to_head": strategies.head_to_head(ds, c) for c in rating_columns},
        "legacy_value": tables.legacy_value(ds),
        "legacy_edge": effects.legacy_edge(ds),
        "auction_prices": tables.auction_prices(ds),
        "game_length": tables.game_length(ds),
        "phases": tables.final_phases(ds),
        "phases_reached": tables.phases_reached(ds),
        "epochs": tables.epochs_reached(ds),
        "length_distribution": tables.length_distribution(ds),
        "end_reasons": tables.end_reasons(ds),
        "variant_differences": effects.variant_differences(ds),
        "probe_effects": effects.probe_effects(ds),
        "errors": tables.errors(ds),
        "trajectories": tables.trajectories(ds),
    }
    if market_top is not None:
        t["company_edges"] = tables.company_edges(ds, market_top)
    points = sweeps.sweep_points(ds)
    if not points.is_empty():
        t["sweep_metrics"] = sweeps.sweep_metrics(points, t)
        t["fair_values"] = sweeps.fair_values(ds, points, rng)
        t["values"] = pl.concat([value_tables.seat_values(ds, points, rng),
                                 value_tables.legacy_values(ds, points, rng)])
    roles = strength.roles(ds, t[f"{rating_columns[-1]}_ratings"], rating_columns[-1])
    t["populations"] = roles.table()

    def prefix(row: dict) -> str:
        where = [f"in variant {row['variant']}"] if len(names) > 1 else []
        where += [f"among {row['population']} players"] if len(populations) > 1 else []
        return ", ".join(where + [f"with {row['players']} players"]) + ", "

    def of_one_strength(df: pl.DataFrame) -> pl.DataFrame:
        return df.filter(pl.col("population").is_in(roles.of_one_strength))

    comparisons = [
        *tests.win_share_comparisons(of_one_strength(t["seat"]), "seat", lambda r: f"seat {r['seat']}", prefix),
        *tests.win_share_comparisons(of_one_strength(t["draw_seat"]), "draw",
                                     lambda r: f"seat {r['seat']} (minors {r['draw']})", prefix),
        # A strategy alone at its tables wins exactly its fair share: nothing to test.
        # ... and where auction strategies split the players as policies do, one test answers both.
        *[c for col in strategy_columns for c in tests.win_share_comparisons(
            t[f"{col}_win_share"].filter((pl.col(col).n_unique().over(KEYS) > 1)
                                         & (pl.col("population").is_in(strategies.own_split(ds, "policy", col))
                                            if col == "auction_strategy" else True)), col,
            lambda r, col=col: f"{col.replace('_', ' ')} {r[col]}", prefix)],
        *tests.legacy_comparisons(of_one_strength(t["legacy_edge"]).filter(pl.col("separable")), prefix),
        *tests.difference_comparisons(of_one_strength(t["variant_differences"])),
        *tests.probe_comparisons(t["probe_effects"]),
    ]
    comparisons = [c for c in comparisons if not np.isnan(c.p_value)]  # too few games to test: no test
    stats.apply_holm(comparisons)
    return Analysis(ds.experiment, ds.manifest, names, populations, t, comparisons, roles,
                    description=ds.description, incomplete=ds.incomplete)
