"""The report's tables from Python, for a notebook: `open(DIR)` reads a dataset once
and hands out each table as a polars DataFrame, with the same rows and intervals the
report shows.

    from menorca_sim.analysis import open as open_study
    study = open_study("reports/balance/data")
    study.seats()                      # win share by seat, per variant, population, player count
    study.findings()                   # the report's sentences
    study.tables()                     # every table by name
"""
from __future__ import annotations

from functools import cached_property
from pathlib import Path

import polars as pl

from menorca_sim.analysis import advice
from menorca_sim.analysis import findings as find
from menorca_sim.analysis.dataset import Dataset
from menorca_sim.analysis.pipeline import Analysis, analyse
from menorca_sim.run.parquet_store import CheckedDataset


class Study:
    """One experiment's dataset and its analysis (computed on first use)."""

    def __init__(self, data_dir: str | Path, seed: int = 0, *, allow_partial: bool = False) -> None:
        # the report's checks: damaged or unlisted parts refused, or left out when allowed
        self.checked = CheckedDataset(data_dir, allow_partial, allow="allow_partial=True")
        self.dataset = Dataset(self.checked.path)
        self.seed = seed

    @cached_property
    def analysis(self) -> Analysis:
        from menorca_sim.analysis.report import market_top

        return analyse(self.dataset, seed=self.seed, market_top=market_top(self.dataset))

    def tables(self) -> dict[str, pl.DataFrame]:
        """Every table of the report by name (see docs/python-api.md for the list)."""
        return dict(self.analysis.tables)

    def games(self) -> pl.DataFrame:
        """The games table itself (one row per game, with its minor draw)."""
        return self.dataset.games

    def players(self) -> pl.DataFrame:
        """One row per player and game (seats from 1, as in the report)."""
        return self.dataset.players

    def seats(self) -> pl.DataFrame:
        return self.analysis.tables["seat"]

    def draws(self) -> pl.DataFrame:
        return self.analysis.tables["draw_seat"]

    def companies(self) -> pl.DataFrame:
        return self.analysis.tables["draw_companies"]

    def legacies(self) -> pl.DataFrame:
        """Each legacy's price, income and value, and its buyer's edge over the same seat."""
        t = self.analysis.tables
        return t["legacy_value"].join(t["legacy_edge"].select("variant", "population", "players", "legacy",
                                                              "edge", "edge_low", "edge_high"),
                                      on=["variant", "population", "players", "legacy"], how="left")

    def length(self) -> pl.DataFrame:
        return self.analysis.tables["game_length"]

    def ends(self) -> pl.DataFrame:
        return self.analysis.tables["end_reasons"]

    def comparisons(self) -> pl.DataFrame:
        """Every test the report made, with raw and Holm-adjusted p-values."""
        a = self.analysis
        return pl.DataFrame([{"section": c.section, "subject": c.subject, "estimate": c.estimate, "low": c.low,
                              "high": c.high, "reference": c.reference, "p_value": c.p_value, "p_holm": c.p_holm,
                              "significant": c.significant} for c in a.comparisons])

    def changes(self) -> list[str]:
        """What to change first (the report opens with it)."""
        return [c.line() for c in advice.what_to_change(self.analysis)]

    def findings(self) -> list[str]:
        """Dead content, then the findings about the rules."""
        a = self.analysis
        return [f.line() for f in find.dead_content(a) + find.findings(a)]


def open_study(data_dir: str | Path, seed: int = 0, *, allow_partial: bool = False) -> Study:
    """The study of the dataset in `data_dir` (a folder `menorca-sim run` wrote). A
    damaged part (or one the manifest does not list) is refused, as by `report`, unless
    `allow_partial`: then the study reads the sound chunks (`study.checked.check` says which
    were left out)."""
    return Study(data_dir, seed, allow_partial=allow_partial)
