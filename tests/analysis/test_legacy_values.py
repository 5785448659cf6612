"""A legacy's value by random assignment, read off real games (analysis/value_tables.py):
planted legacies whose worth is known get it back. L9 is planted with no income and a
list price of 0, so that selling it to a company pays nothing (at its list price of
160 R., a worthless L9 held at 0 R. raised its holder's win share by 18 points: its sale
to a company is worth that much):

- with no ability, holding it changes nothing but the price paid: its value is about 0;
- with the ability `grant_cash` of 100 R. (the bank pays its buyer 100 R. when it is
  bought), it is worth 100 R. of starting cash: its value must hold 100 within its
  interval and tell it from 0.

Why not a planted income: 7 R. an OR paid its holder 107 R. over a game on average, and
was worth about 3 R. (-10 to 18) of starting cash to its chance to win: cash at the start
buys the first shares, income comes when the game is largely decided (docs/prices.md).

2 players, tuned heuristics in both seats, one minor draw: 840 games each."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from helpers.experiment_files import one_draw_study, run_study

from menorca_sim.analysis import advice, sweeps, value_tables, values
from menorca_sim.analysis.dataset import Dataset
from menorca_sim.analysis.pipeline import analyse
from menorca_sim.rules import default_ruleset_path

STUDY = """
ruleset = "rules.toml"
seating = "rotate"
[populations.tuned]
seats = "heuristic_tuned"
[overrides]
"legacies.L9.income" = 0
"legacies.L9.price" = 0
[variants.out]
"setup.assigned_legacy" = "L9"
"setup.assigned_arm" = "out"
[sweeps.hold]
"setup.assigned_price" = {values = [-50, 0, 50, 100, 150, 200]}
"setup.assigned_legacy" = "L9"
"""
L9_ABILITY = 'ability = { type = "none" }'
GAMES = 120


def _value(folder: Path, ability: str) -> tuple[dict, Dataset]:
    """L9's value, its ability `ability` (an override can set a key, not replace a table)."""
    rules = default_ruleset_path().read_text(encoding="utf-8")
    assert rules.count(L9_ABILITY) == 1
    (folder / "rules.toml").write_text(rules.replace(L9_ABILITY, f"ability = {ability}"), encoding="utf-8")
    ds = Dataset(run_study(folder, one_draw_study("planted", 5, GAMES, 2, STUDY)))
    [row] = value_tables.legacy_values(ds, sweeps.sweep_points(ds), np.random.default_rng(0)).iter_rows(named=True)
    assert (row["legacy"], row["games"], row["players"], row["population"]) == ("L9", GAMES, 2, "tuned")
    return row, ds


def test_a_worthless_legacy_is_worth_about_nothing(tmp_path) -> None:
    row, ds = _value(tmp_path, '{type = "none"}')
    assert row["status"] == values.IN_RANGE and row["low"] <= 0 <= row["high"], row
    assert abs(row["value"]) < 25 and row["high"] - row["low"] < 60, row
    assert not [c for c in advice.what_to_change(analyse(ds)) if c.key == "legacies.L9.price"]  # listed at 0: fair
    # on all the games at once (the price-list solver's reading): no second half, a narrower interval
    [whole] = value_tables.legacy_values(ds, sweeps.sweep_points(ds), np.random.default_rng(0),
                                         split=False).iter_rows(named=True)
    assert whole["games"] == GAMES and np.isnan(whole["second"]) and not whole["reproduced"]
    assert whole["low"] <= 0 <= whole["high"] and whole["high"] - whole["low"] < row["high"] - row["low"], whole


def test_a_legacy_planted_with_100_reales_is_worth_100(tmp_path) -> None:
    row, ds = _value(tmp_path, '{type = "grant_cash", amount = 100}')
    assert row["status"] == values.IN_RANGE and row["low"] <= 100 <= row["high"], row
    assert row["low"] > 50 and row["high"] - row["low"] < 70, row
    # the report's first change: listed at 0, it should cost about its value (not a buyer's edge: it is never sold)
    first = advice.what_to_change(analyse(ds))[0]
    assert (first.key, first.direction) == ("legacies.L9.price", "raise it"), first.line()
    assert first.suggested == f"about {row['value']:.0f} with 2 players"
