"""Sweeps through the whole pipeline: a [sweep] experiment run, its report's measures
per point, the fair-value table and the values by random assignment (stats.fair_value's
planted-root tests are in test_stats, values.value_at_target's in test_values)."""
from __future__ import annotations

import polars as pl
from helpers.experiment_files import one_draw_study, run_study

from menorca_sim.analysis.report import build_report


def test_a_sweep_report_puts_each_measure_against_the_swept_value_and_solves_for_fairness(tmp_path):
    data = run_study(tmp_path, one_draw_study("s", 3, 12, 2, """
[policies]
seats = "heuristic"
[sweeps.cash]
"player_counts.0.seat_cash.1" = {values = [0, 60, 120]}
[sweeps.bank]
"bank.cash" = {values = [9000, 11000]}
"""))
    files = build_report(data)
    from menorca_sim.analysis.dataset import Dataset
    from menorca_sim.analysis.pipeline import analyse
    a = analyse(Dataset(data))
    metrics = a.tables["sweep_metrics"].filter((pl.col("metric") == "seat 1 win share") & (pl.col("sweep") == "bank"))
    assert metrics["x"].to_list() == [9000.0, 11000.0] and metrics["value"].is_between(0, 1).all()
    assert a.tables["fair_values"].equals(analyse(Dataset(data)).tables["fair_values"])  # same seed, same answer
    fair = a.tables["fair_values"].filter(pl.col("target") == "seat 1 wins 1/2").row(0, named=True)
    assert fair["key"] == "bank.cash" and fair["games"] == 24
    assert fair["status"] in ("in range", "below the range", "above the range", "no trend")
    # a seat's cash is read by random assignment, on two halves of the games, not by the logistic fit
    assert a.tables["fair_values"].filter(pl.col("key").str.starts_with("player_counts.")).is_empty()
    [value] = a.tables["values"].iter_rows(named=True)
    assert value["key"] == "player_counts.0.seat_cash.1" and value["subject"] == "seat 2 wins 1/2"
    assert value["games"] == 12 and value["status"] in ("in range", "below the range", "above the range", "flat",
                                                          "not monotone")
    assert value["reproduced"] == (value["status"] == "in range" and value["low"] <= value["second"] <= value["high"])
    assert a.tables["values"].equals(analyse(Dataset(data)).tables["values"])
    written = pl.read_csv(files.index.parent / "values.csv")
    assert written["key"].to_list() == ["player_counts.0.seat_cash.1"] and "reproduced" in written.columns
    summary = files.summary.read_text(encoding="utf-8")
    assert "## Sweeps and fair values" in summary and "sweeps.png" in summary
    assert "## Values by random assignment" in summary
    assert "Seat 2 wins 1/2" in summary.split("## Findings", 1)[1].split("##", 1)[0]


def test_a_sweep_of_a_legacys_price_offers_no_fair_value(tmp_path):
    """The price moves the legacy through the auction (issue 41): neither the buyer's
    edge nor a seat's share is solved for a price; the measures per point stay."""
    data = run_study(tmp_path, one_draw_study("l", 4, 6, 3, """
[policies]
seats = "heuristic"
[sweep]
"legacies.L9.price" = {values = [100, 160]}
"setup.legacies" = "fixed"
"setup.fixed_legacies" = ["L1", "L5", "L9"]
"""))
    files = build_report(data)
    from menorca_sim.analysis.dataset import Dataset
    from menorca_sim.analysis.pipeline import analyse
    a = analyse(Dataset(data))
    assert a.tables["fair_values"].is_empty()
    assert a.tables["sweep_metrics"].filter(pl.col("metric") == "L9 buyer's edge")["x"].to_list() == [100.0, 160.0]
    summary = files.summary.read_text(encoding="utf-8")
    assert "No fair value is read off a sweep of a legacy's price" in summary
    assert "legacies.L9.price =" not in summary
