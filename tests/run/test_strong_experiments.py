"""The strong players' committed studies load with every policy they name buildable,
and the tuning file names only parameters the heuristic has."""
from __future__ import annotations

import pytest
from helpers import ROOT

from menorca_sim.run.experiment import check_policy_spec, load_experiment
from menorca_sim.tuning.space import load_tune_spec

EXPERIMENTS = ROOT / "experiments"


@pytest.mark.parametrize("name", ["ladder", "tuned_vs_heuristic"])
def test_the_study_loads_with_its_players(name):
    experiment = load_experiment(EXPERIMENTS / f"{name}.toml", check_policy=check_policy_spec)
    names = {spec for population in experiment.populations
             for seatings in population.arrangements.values() for seating in seatings for spec in seating}
    assert "heuristic_tuned" in names


def test_the_ladder_has_every_step_and_all_four_together():
    ladder = load_experiment(EXPERIMENTS / "ladder.toml", check_policy=check_policy_spec)
    assert [p.name for p in ladder.populations] == ["heuristic_vs_random", "tuned_vs_heuristic", "mcts_vs_tuned", "all"]
    assert {len(p.arrangements[2]) for p in ladder.populations} == {2, 12}
    assert len(ladder.populations[-1].arrangements[3]) == 24


def test_the_tuning_file_reads():
    spec = load_tune_spec(EXPERIMENTS / "tune_heuristic.toml")
    assert spec.name == "heuristic_tuned" and spec.players == 2 and len(spec.bounds) == 13
