"""An experiment's dataset folder (`{table}/part-*.parquet` and `manifest.json`) read
once into polars frames, and what its manifest says about the plan (variants,
populations, sweeps in the experiment file's order)."""
from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path

import polars as pl

from menorca_sim.run.outcomes import TABLES


END_REASONS = ("bank", "bankruptcy", "conquest", "cap")  # games.end_reason values (outcomes.py)


KEYS = ["variant", "population", "players"]


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


def planned_names(manifest: dict, kind: str) -> list[str]:
    return [e["name"] for e in planned(manifest, kind) if "name" in e]


def variants(ds: Dataset) -> list[str]:
    return ds.games["variant"].unique().sort().to_list()


def planned_populations(ds: Dataset) -> list[str]:
    """Population names in the experiment file's order (by name without a plan)."""
    present = ds.games["population"].unique().to_list()
    return [p for p in planned_names(ds.manifest, "populations") if p in present] or sorted(present)


def baseline_variant(manifest: dict, variants: list[str]) -> str:
    """The first variant of the experiment file (per the manifest), else the first by name."""
    return next((v for v in planned_names(manifest, "variants") if v in variants), sorted(variants)[0])
