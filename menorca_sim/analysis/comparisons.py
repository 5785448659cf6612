"""Each tested row of a table as a `stats.Comparison`: its estimate, interval,
reference, p-value and the sentence that states it."""
from __future__ import annotations

from typing import Callable

import polars as pl

from menorca_sim.analysis import stats


def _percent(x: float) -> str:
    return f"{100 * x:.0f}"


def win_share_comparisons(df: pl.DataFrame, section: str, subject: Callable[[dict], str],
                           prefix: Callable[[dict], str]) -> list[stats.Comparison]:
    out = []
    for row in df.iter_rows(named=True):
        who = f"{prefix(row)}{subject(row)}"
        out.append(stats.Comparison(
            section, who, row["win_share"], row["win_share_low"], row["win_share_high"], row["fair"],
            row["p_value"],
            f"{who[0].upper()}{who[1:]} wins {_percent(row['win_share'])} % ({_percent(row['win_share_low'])}–"
            f"{_percent(row['win_share_high'])} %) against a fair {_percent(row['fair'])} %.", row=row,
            bounds=(0.0, 1.0)))
    return out


def difference_comparisons(df: pl.DataFrame) -> list[stats.Comparison]:
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


def probe_comparisons(df: pl.DataFrame) -> list[stats.Comparison]:
    out = []
    for row in df.iter_rows(named=True):
        d, lo, hi = (100 * row[k] for k in ("change", "change_low", "change_high"))
        out.append(stats.Comparison(
            "probe", f"with {row['players']} players, {row['probe']}", row["change"], row["change_low"],
            row["change_high"], 0.0, row["p_value"],
            f"With {row['players']} players, {row['probe']} wins {d:+.0f} points ({lo:+.0f} to {hi:+.0f}) against "
            f"the same seat on the same seeds without it.", row=row, bounds=(-1.0, 1.0)))
    return out


def legacy_comparisons(df: pl.DataFrame, prefix: Callable[[dict], str]) -> list[stats.Comparison]:
    out = []
    for row in df.iter_rows(named=True):
        where = prefix(row)
        d, lo, hi = (100 * row[k] for k in ("edge", "edge_low", "edge_high"))
        out.append(stats.Comparison(
            "legacy", f"{where}the buyer of {row['legacy']}", row["edge"], row["edge_low"], row["edge_high"], 0.0,
            row["p_value"],
            f"{where[0].upper()}{where[1:]}the buyer of {row['legacy']} wins {d:+.0f} points ({lo:+.0f} to "
            f"{hi:+.0f}) against players of the same policy, seat and minor draw.", row=row, bounds=(-1.0, 1.0)))
    return out
