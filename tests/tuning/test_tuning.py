"""The tuner: CMA-ES finds a planted optimum through a noisy win-share objective, a killed
search resumes to the same record, the tuning file is checked, and a written preset
becomes a registered policy."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from menorca_sim.run.experiment import ExperimentError
from menorca_sim.tuning.matches import generation_seeds, lineups, resolve_opponents
from menorca_sim.tuning.preset import record_path, write_preset
from menorca_sim.tuning.search import Score, TuneError, run_search
from menorca_sim.tuning.space import load_tune_spec

PLANTED = {"risk": 0.8, "horizon": 6, "concentration": 0.02}


def _spec_file(tmp_path: Path, generations: int = 25, seeds: int = 100) -> Path:
    path = tmp_path / "tune.toml"
    path.write_text(f"""
name = "toy_tuned"
base = "heuristic"
opponents = ["heuristic"]
players = 2
seed = 1
seeds = {seeds}
generations = {generations}
popsize = 8
sigma = 0.3
[params]
risk = [0.0, 1.0]
horizon = [2, 8]
concentration = [0.0, 0.15]
""")
    return path


def _planted(candidates, mean, generation, advance):
    """Win probability falls off with the (range-normalised) distance from PLANTED;
    the games are binomial draws, so the objective is as noisy as real games."""
    rng = np.random.default_rng(generation)
    spans = {"risk": 1.0, "horizon": 6.0, "concentration": 0.15}
    scores = []
    for c in candidates:
        distance = sum(((c[k] - v) / spans[k]) ** 2 for k, v in PLANTED.items())
        games = 200
        scores.append(Score(float(rng.binomial(games, 0.8 * np.exp(-4 * distance))), games))
        advance(games)
    return scores


def test_the_search_finds_a_planted_optimum(tmp_path):
    spec = load_tune_spec(_spec_file(tmp_path))
    start = spec.params(spec.start())
    assert start == {"risk": 0.5, "horizon": 4, "concentration": 0.05}  # the base preset's values
    played = []
    record = run_search(spec, _planted, tmp_path / "state", advance=played.append)
    best = record["best"]
    assert abs(best["risk"] - PLANTED["risk"]) < 0.1
    assert best["horizon"] == PLANTED["horizon"]
    assert abs(best["concentration"] - PLANTED["concentration"]) < 0.025
    assert len(record["generations"]) == 25 and sum(played) == 25 * 8 * 200
    assert record["generations"][0]["drawn_around"] == start
    assert record["generations"][-1]["drawn_around"] == record["generations"][-2]["mean"]
    last = record["generations"][-1]["candidates"][0]
    assert last["low"] <= last["win_share"] <= last["high"] and last["games"] == 200


def test_a_killed_search_resumes_to_the_same_record(tmp_path):
    spec = load_tune_spec(_spec_file(tmp_path, generations=6))
    whole = run_search(spec, _planted, tmp_path / "whole")
    short = load_tune_spec(_spec_file(tmp_path, generations=3))
    run_search(short, _planted, tmp_path / "part")
    resumed = run_search(spec, _planted, tmp_path / "part")
    assert resumed == whole
    other = load_tune_spec(_spec_file(tmp_path, generations=6, seeds=50))
    with pytest.raises(TuneError, match="another tuning plan"):
        run_search(other, _planted, tmp_path / "part")


def test_a_tuning_file_names_its_problems(tmp_path):
    head = 'name = "x"\nopponents = ["heuristic"]\nseed = 1\nseeds = 1\ngenerations = 1\n[params]\n'
    path = tmp_path / "bad.toml"
    path.write_text(head + "payout = [0, 1]\n")
    with pytest.raises(ExperimentError, match="params.payout: not a numeric heuristic parameter"):
        load_tune_spec(path)
    path.write_text(head + "risk = [1, 0]\n")
    with pytest.raises(ExperimentError, match=r"params.risk: expected \[low, high\]"):
        load_tune_spec(path)
    path.write_text(head.replace('["heuristic"]', '["heuristic", "mean", "heurstic"]') + "risk = [0, 1]\n")
    with pytest.raises(ExperimentError, match=r"opponents\[2\]: unknown policy 'heurstic'; did you mean 'heuristic'"):
        load_tune_spec(path)


def test_candidates_play_every_seat_on_common_seeds(tmp_path):
    spec = load_tune_spec(_spec_file(tmp_path))
    assert lineups("c", ("a", "b"), 3) == [("c", "a", "b"), ("a", "c", "b"), ("a", "b", "c")]
    assert lineups("c", ("a", "b"), 2, first=1) == [("c", "b"), ("b", "c")]  # the next seed faces the next
    assert generation_seeds(spec, 0) == generation_seeds(spec, 0)
    assert not set(generation_seeds(spec, 0)) & set(generation_seeds(spec, 1))
    assert spec.policy({"risk": 0.25, "horizon": 5}) == "heuristic(risk=0.25, horizon=5)"


def test_the_search_itself_can_be_an_opponent(tmp_path):
    path = _spec_file(tmp_path)
    path.write_text(path.read_text().replace('opponents = ["heuristic"]', 'opponents = ["heuristic", "mean"]'))
    spec = load_tune_spec(path)
    assert resolve_opponents(spec, {"risk": 0.25, "horizon": 5, "concentration": 0.1}) == (
        "heuristic", "heuristic(risk=0.25, horizon=5, concentration=0.1)")


def test_a_written_preset_is_a_policy(tmp_path):
    from policies import base, make_policy
    from policies.heuristic import PRESETS
    from policies.tuned import load_presets

    spec = load_tune_spec(_spec_file(tmp_path, generations=1))
    record = run_search(spec, _planted, tmp_path / "state")
    out = tmp_path / "presets" / "toy_tuned.toml"
    write_preset(out, record, "menorca-sim tune tune.toml")
    assert json.loads(record_path(out).read_text()) == record
    try:
        assert load_presets(out.parent) == ["toy_tuned"]
        params = make_policy("toy_tuned", 0, np.random.default_rng(0)).policy.params
        assert (params.risk, params.horizon, params.concentration) == tuple(record["best"].values())
        assert params.sell_drop == PRESETS["heuristic"].sell_drop  # the rest from the base
    finally:
        PRESETS.pop("toy_tuned", None)
        base._REGISTRY.pop("toy_tuned", None)


def test_tune_plays_real_games_and_writes_the_preset(tmp_path):
    from click.testing import CliRunner

    from menorca_sim.cli import main

    spec = tmp_path / "tune.toml"
    spec.write_text('name = "tiny_tuned"\nopponents = ["heuristic", "mean"]\nseed = 3\nseeds = 2\n'
                    'generations = 1\npopsize = 2\n[params]\nrisk = [0.2, 0.8]\nhorizon = [2, 8]\n')
    out = tmp_path / "tiny_tuned.toml"
    result = CliRunner().invoke(main, ["tune", str(spec), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    record = json.loads(record_path(out).read_text())
    candidates = record["generations"][0]["candidates"]
    assert len(candidates) == 2 and all(c["games"] == 4 for c in candidates)  # 2 seeds x 2 seats
    assert all(c["wins"] * 2 == int(c["wins"] * 2) for c in candidates)  # a tie counts half
    assert "[params]" in out.read_text() and (tmp_path / "tiny_tuned.toml.state").exists()
