"""The strong players' committed studies (and the search's budget ladder) load with every
policy they name buildable, and the tuning file names only parameters the heuristic has."""
from __future__ import annotations

import pytest
from helpers import ROOT

from menorca_sim.run.experiment import check_policy_spec, load_experiment
from menorca_sim.tuning.space import load_tune_spec

EXPERIMENTS = ROOT / "experiments"


def _players(name: str) -> set[str]:
    """Every policy spec seated in the committed study `name` (each checked buildable on load)."""
    experiment = load_experiment(EXPERIMENTS / f"{name}.toml", check_policy=check_policy_spec)
    return {spec for population in experiment.populations
            for seatings in population.arrangements.values() for seating in seatings for spec in seating}


@pytest.mark.parametrize("name", ["ladder", "tuned_vs_heuristic"])
def test_the_study_loads_with_its_players(name):
    assert "heuristic_tuned" in _players(name)


def test_the_ladder_has_every_step_and_all_four_together():
    ladder = load_experiment(EXPERIMENTS / "ladder.toml", check_policy=check_policy_spec)
    assert [p.name for p in ladder.populations] == ["heuristic_vs_random", "tuned_vs_heuristic", "mcts_vs_tuned", "all"]
    assert {len(p.arrangements[2]) for p in ladder.populations} == {2, 12}
    assert len(ladder.populations[-1].arrangements[3]) == 24


@pytest.mark.parametrize("name", ["budget_ladder", "mcts_value", "mcts_value_3p"])
def test_the_search_studies_load_with_their_players(name):
    assert {"mcts", "mcts(value=rollout)"} <= _players(name)


def test_the_budget_ladder_doubles_each_step():
    ladder = load_experiment(EXPERIMENTS / "budget_ladder.toml", check_policy=check_policy_spec)
    assert {p.name: sorted(p.arrangements[2][0]) for p in ladder.populations} == {
        "default_vs_rollout": ["mcts", "mcts(value=rollout)"], "p32_vs_p16": ["mcts", "mcts(playouts=32)"],
        "p64_vs_p32": ["mcts(playouts=32)", "mcts(playouts=64)"], "p128_vs_p64": ["mcts(playouts=128)", "mcts(playouts=64)"],
        "p128_vs_v7_p64": ["mcts(model=value_v7, playouts=64)", "mcts(playouts=128)"]}


def test_the_tuning_file_reads():
    spec = load_tune_spec(EXPERIMENTS / "tune_heuristic.toml")
    assert spec.name == "heuristic_tuned" and spec.players == 2 and len(spec.bounds) == 13
