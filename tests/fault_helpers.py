"""Helpers of the fault tests (tests/test_faults_*.py): the toy study and its
uninterrupted run, the command line playing a toy game, and the check that a dataset
holds exactly an uninterrupted run's rows."""
from __future__ import annotations

import functools
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from menorca_sim.chunk_worker import PlayFn
from menorca_sim.cli import run as cli_run
from menorca_sim.experiment import Experiment, load_experiment
from menorca_sim.outcomes import TABLES
from menorca_sim.runner import run_experiment
from test_runner import EXPERIMENT, dataset
from test_runner_toy import toy_play


def toy_study(folder: Path, chunk: int, play: PlayFn = toy_play) -> tuple[Path, Experiment]:
    """The toy experiment (72 games) as folder/toy.toml, and its uninterrupted dataset
    in folder/whole."""
    path = folder / "toy.toml"
    path.write_text(EXPERIMENT, encoding="utf-8")
    experiment = load_experiment(path)
    run_experiment(experiment, folder / "whole", jobs=1, chunk=chunk, play=play)
    return path, experiment


def cli_playing(monkeypatch: pytest.MonkeyPatch, play: PlayFn) -> None:
    """`menorca-sim run` (cli_run.command) plays `play`, not the engine, for this test."""
    monkeypatch.setattr(cli_run, "run_experiment", functools.partial(run_experiment, play=play))
    monkeypatch.setattr(cli_run, "check_policy_spec", lambda spec: None)


def assert_same_rows(out: Path, reference: Path, total: int, errors: frozenset[int] = frozenset()) -> int:
    """The dataset in `out` holds every game of the plan once, in `games` or `errors`, the
    games in `errors` (if any) as error rows, and every other row exactly as the
    uninterrupted run in `reference` has it. Returns the rows compared."""
    got, want = dataset(out), dataset(reference)
    ids = sorted(got["games"]["game_id"].to_pylist() + got["errors"]["game_id"].to_pylist())
    assert ids == list(range(total)), "a game lost or counted twice"
    assert set(got["errors"]["game_id"].to_pylist()) == set(errors)
    assert got["errors"]["seed"].to_pylist() == want["games"].filter(
        pc.is_in(want["games"]["game_id"], pa.array(sorted(errors), pa.int64())))["seed"].to_pylist()
    compared = 0
    for name in TABLES:
        if name == "errors":
            continue
        kept = want[name].filter(pc.invert(pc.is_in(want[name]["game_id"], pa.array(sorted(errors), pa.int64()))))
        assert got[name].equals(kept), name
        compared += kept.num_rows
    return compared + got["errors"].num_rows
