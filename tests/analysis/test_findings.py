"""The report's first screen (analysis/findings.py): dead content, folded findings, and
strength and style labels across player populations."""
from __future__ import annotations

import polars as pl
import pyarrow.parquet as pq

from helpers import synthetic_data
from menorca_sim.analysis import findings as find
from menorca_sim.analysis.dataset import Dataset
from menorca_sim.analysis.pipeline import analyse

STRONG_FIRST = {2: (2.2, 1.0)}


def _analysis(tmp_path, **spec):
    return analyse(Dataset(synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(
        games=600, player_counts=(2,), seed=41, **spec))))


def test_a_planted_seat_effect_holds_across_styles_and_is_said_once(tmp_path):
    a = _analysis(tmp_path, populations={"calm": STRONG_FIRST, "warm": STRONG_FIRST, "mixed": STRONG_FIRST})
    assert a.roles.styles == ("calm", "warm", "mixed")  # three names of one strength at each table
    lines = [f.line() for f in find.findings(a)]
    seat = [line for line in lines if "seat" in line]
    assert len(seat) == 1, lines  # seat 2 is seat 1's complement; the draws fold into it
    assert seat[0].startswith("In 2-player games seat 1 wins against a fair 50 %: calm ")
    assert "found in every minor draw on its own [holds across styles]" in seat[0]
    assert "Look at: the seat order" in seat[0]
    table = find.strength_table(a)
    assert table.filter(pl.col("fact").str.contains("seat 1$"))["label"].to_list() == ["holds across styles"]


def test_a_seat_effect_of_one_style_only_is_style_dependent(tmp_path):
    a = _analysis(tmp_path, populations={"biased": STRONG_FIRST, "fair": {2: (1.0, 1.0)}})
    seat = [f for f in find.findings(a) if f.text.startswith("In 2-player games seat 1")]
    assert len(seat) == 1 and seat[0].label == "style-dependent"


def test_without_populations_a_finding_has_no_label(tmp_path):
    a = _analysis(tmp_path, seat_strength=STRONG_FIRST)
    seat = [f for f in find.findings(a) if "seat" in f.text]
    assert len(seat) == 1 and seat[0].label == ""
    assert seat[0].text.startswith("In 2-player games seat 1 wins ") and "against a fair 50 %" in seat[0].text


def test_dead_content_names_what_never_happens(tmp_path):
    data = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(games=300, player_counts=(2, 3), seed=42))
    for part in (data / "companies").glob("*.parquet"):  # CCM never starts
        df = pl.read_parquet(part)
        ccm = pl.col("company") == "CCM"
        df.with_columns(started=pl.when(ccm).then(False).otherwise(pl.col("started")),
                        floated=pl.when(ccm).then(False).otherwise(pl.col("floated"))).write_parquet(part)
    for part in (data / "auctions").glob("*.parquet"):  # L9 always sells at its minimum or below
        df = pl.read_parquet(part)
        df.with_columns(price=pl.when(pl.col("legacy") == "L9").then(pl.col("min_price"))
                        .otherwise(pl.col("price"))).write_parquet(part)
    lines = [f.line() for f in find.dead_content(analyse(Dataset(data)))]
    assert any(line.startswith("CCM is never started: 0 % (0–") and "Look at: CCM's" in line for line in lines), lines
    assert any(line.startswith("L9 never sells above its minimum price: 0 %") for line in lines)
    assert not any(line.startswith("RNC") for line in lines)
    assert pq.read_table(data / "games").num_rows == 300
