"""Planning a study (analysis/planning.py, `menorca-sim plan`): sample sizes from the
closed forms, the pairing gain from a pilot."""
from __future__ import annotations

import math

import pytest
from click.testing import CliRunner
from scipy import stats as sps

from menorca_sim.analysis import planning
from menorca_sim.cli import main


def test_games_for_a_seat_share_match_the_textbook_closed_form():
    # detect 53 % against a fair 50 %, two-sided 5 %, power 80 %
    z_a, z_b = sps.norm.ppf(0.975), sps.norm.ppf(0.8)
    expected = math.ceil(((z_a * 0.5 + z_b * math.sqrt(0.53 * 0.47)) / 0.03) ** 2)
    assert planning.games_for_rate(0.5, 0.03) == expected == 2178
    assert planning.games_for_rate(1 / 3, 0.05, alpha=0.005) > planning.games_for_rate(1 / 3, 0.05)


def test_pairs_for_a_paired_difference_match_the_closed_form():
    # a difference of half a standard deviation: ((1.96 + 0.84) / 0.5)^2 = 31.4 -> 32 pairs
    assert planning.games_for_paired(1.0, 0.5) == 32
    with pytest.raises(ValueError):
        planning.games_for_paired(0.0, 0.5)


def test_the_plan_command_and_a_pilots_pairing_gain(tmp_path):
    from helpers import synthetic_data

    pilot = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(
        games=300, player_counts=(2, 3), variants={"plain": 0.0, "longer": 2.0}, seed=8))
    pairing = planning.pilot_pairing(str(pilot), "ors")
    assert pairing.pairs == 300 and pairing.gain > 5  # the synthetic variants share each game but a jitter
    exp = tmp_path / "e.toml"
    exp.write_text('name = "e"\nseed = 1\ngames = 6\nplayers = [2]\nminors = "all"\n[policies]\nseats = "random_legal"\n')
    out = CliRunner().invoke(main, ["plan", str(exp), "--effect", "0.03"])
    assert out.exit_code == 0 and "in 2178 games per seat test (726 per cell of 3)" in out.output
    out = CliRunner().invoke(main, ["plan", str(exp), "--effect", "1", "--pilot", str(pilot)])
    assert out.exit_code == 0 and f"over {pairing.pairs} pilot pairs" in out.output


def test_a_run_of_an_experiment_with_a_target_says_first_how_many_games_it_needs(tmp_path):
    exp = tmp_path / "t.toml"
    exp.write_text('name = "t"\nseed = 1\ngames = 2\nplayers = [2]\nminors = [["Artesans", "Ramaders"]]\n'
                   '[policies]\nseats = "random_legal"\n[plan]\neffect = 0.05\ntests = 4\n')
    out = CliRunner().invoke(main, ["run", str(exp), "--out", str(tmp_path / "d"), "--quiet"])
    assert out.exit_code == 0, out.output
    need = planning.games_for_rate(0.5, 0.05, alpha=0.05 / 4)
    assert out.output.startswith(f"t, 2 players: a seat winning 55.0 % instead of 50.0 % is found with power 0.8 "
                                 f"at level 0.0125 in {need} games per seat test")


def test_a_value_plan_scales_a_pilots_intervals_to_the_one_asked(tmp_path):
    """A pilot sweep of seat 2's cash (2 players, 40 games a point): the games each value
    needs for +-H are the pilot's times (half-width / H)^2, and the last line the largest."""
    import numpy as np
    from helpers.experiment_files import one_draw_study, run_study

    from menorca_sim.analysis import sweeps, value_tables
    from menorca_sim.analysis.dataset import Dataset

    data = run_study(tmp_path, one_draw_study("pilot", 3, 40, 2, """
[populations.tuned]
seats = "heuristic_tuned"
[sweep]
"player_counts.0.seat_cash.1" = {values = [-60, 0, 60, 120]}
"""))
    ds = Dataset(data)
    [row] = value_tables.seat_values(ds, sweeps.sweep_points(ds), np.random.default_rng(0)).iter_rows(named=True)
    lines = planning.value_plan(str(data), 10)
    assert math.isfinite(row["high"] - row["low"]), row  # this pilot's seeds give a finite interval
    need = max(40, math.ceil(40 * ((row["high"] - row["low"]) / 2 / 10) ** 2))
    assert lines[0].endswith(f"-> {need} games per cell and variant")
    assert lines[-1].startswith(f"an interval of at most +-10 for every finite value: {need} games")
