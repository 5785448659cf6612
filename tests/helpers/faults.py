"""Helpers of the fault tests (tests/run/test_faults_*.py): toy games that misbehave the way
a user policy or a machine does, a run in a process of its own, and the check that a
dataset holds exactly an uninterrupted run's rows. The play functions live here, in an
importable module, so that loky and Dask workers can unpickle them."""
from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from helpers import TESTS
from helpers.toy_games import EXPERIMENT, dataset, toy_play
from menorca_sim.cli import run as cli_run
from menorca_sim.rules import Ruleset
from menorca_sim.run.chunk_worker import PlayFn
from menorca_sim.run.experiment import Experiment, GameSpec, load_experiment
from menorca_sim.run.outcomes import TABLES
from menorca_sim.run.runner import run_experiment

_LEAKED: list[bytearray] = []  # what misbehaving_play leaks into, as a leaking policy's module would


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
    monkeypatch.setattr(cli_run, "check_policy_spec", lambda spec, ruleset: None)


def sleepy_play(ruleset: Ruleset, game: GameSpec, seconds: float = 0.05) -> dict[str, Any]:
    """A toy game slow enough that a run is still going when a fault is made."""
    time.sleep(seconds)
    return toy_play(ruleset, game)


def misbehaving_play(ruleset: Ruleset, game: GameSpec, hang: frozenset[int] = frozenset(),
                     die: frozenset[int] = frozenset(), leak: frozenset[int] = frozenset()) -> dict[str, Any]:
    """The toy game, except in the games named: a policy stuck in a pure-Python loop, a
    crash that kills the process playing the game, a policy leaking 64 MiB per game."""
    if game.game_id in hang:
        while True:
            pass
    if game.game_id in die:
        os.kill(os.getpid(), signal.SIGKILL)
    if game.game_id in leak:
        _LEAKED.append(bytearray(64 * 2**20))
    return toy_play(ruleset, game)


def bulky_play(ruleset: Ruleset, game: GameSpec, from_game: int) -> dict[str, Any]:
    """The toy game, with a long list of events from game `from_game` on: parts many times
    the size of the first chunks' (for a file-size limit that only later writes exceed)."""
    summary = toy_play(ruleset, game)
    if game.game_id >= from_game:
        summary["events"] = [f"{game.seed}-{i}" for i in range(500)]
    return summary


def dying_once_play(ruleset: Ruleset, game: GameSpec, marker: str, game_id: int) -> dict[str, Any]:
    """Kills the worker playing game `game_id` the first time (as the kernel's OOM killer
    would); `marker` remembers that it happened."""
    if game.game_id == game_id and not os.path.exists(marker):
        Path(marker).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return toy_play(ruleset, game)


BULKY_FROM = 16
CLI_SCRIPT = f"""
import functools, sys
sys.path.insert(0, {str(TESTS)!r})
from helpers.faults import bulky_play
from menorca_sim.cli import run as cli_run
from menorca_sim.run.runner import run_experiment
cli_run.run_experiment = functools.partial(run_experiment, play=functools.partial(bulky_play, from_game={BULKY_FROM}))
cli_run.check_policy_spec = lambda spec, ruleset: None
cli_run.command(sys.argv[1:])
"""
"""`menorca-sim run ARGS` with the bulky toy game (from game BULKY_FROM on)."""

RUN_SCRIPT = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from helpers.faults import sleepy_play
from menorca_sim.run.experiment import load_experiment
from menorca_sim.run.runner import run_experiment
run_experiment(load_experiment(sys.argv[1]), sys.argv[2], jobs=2, chunk=int(sys.argv[3]), play=sleepy_play)
"""


def start_run(experiment: Path, out: Path, chunk: int) -> subprocess.Popen:
    """A run of the slow toy game in a process (and session) of its own."""
    return subprocess.Popen([sys.executable, "-c", RUN_SCRIPT, str(experiment), str(out), str(chunk)],
                            start_new_session=True)


def wait_for_parts(out: Path, parts: int, timeout: float = 60) -> None:
    """Until `parts` games parts are in place."""
    deadline = time.monotonic() + timeout
    while len(list((out / "games").glob("part-*.parquet"))) < parts:
        assert time.monotonic() < deadline, f"no {parts} parts in {out} after {timeout} s"
        time.sleep(0.02)


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
