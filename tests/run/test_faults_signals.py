"""SIGTERM to `menorca-sim run` alone (as a batch system or `kill PID` sends it): the run
ends as after Ctrl-C, with one line and exit 128 + 15, its loky workers ended with it
(none left playing), no warning of leaked semaphores, its lock released; `--resume`
then completes the uninterrupted run's dataset."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner
from helpers import TESTS
from helpers.faults import assert_same_rows, cli_playing, toy_study, wait_for_parts
from helpers.toy_games import toy_play

from menorca_sim.cli import run as cli_run
from menorca_sim.run.dataset_lock import LOCK

CHUNK = 4
# a toy game's seconds: after the two parts the test waits for, the run has some 15 s of
# games left, so that a slow or busy machine still sends SIGTERM to a run in progress
# (at 0.2 s, about 6 s, a CI run once saw the run finish first: exit 0)
GAME_S = 0.5
SLOW_CLI = f"""
import functools, sys
sys.path.insert(0, {str(TESTS)!r})
from helpers.faults import sleepy_play
from menorca_sim.cli import run as cli_run
from menorca_sim.run.runner import run_experiment
cli_run.run_experiment = functools.partial(run_experiment, play=functools.partial(sleepy_play, seconds={GAME_S}))
cli_run.check_policy_spec = lambda spec, ruleset: None
cli_run.command(sys.argv[1:])
"""


def _children(pid: int) -> set[int]:
    return {int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_sigterm_to_the_parent_ends_its_workers_and_releases_the_lock(tmp_path, monkeypatch):
    exp_path, exp = toy_study(tmp_path, CHUNK)
    out = tmp_path / "data"
    args = [str(exp_path), "--out", str(out), "--jobs", "2", "--chunk", str(CHUNK), "--quiet"]
    run = subprocess.Popen([sys.executable, "-c", SLOW_CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, start_new_session=True)
    try:
        wait_for_parts(out, 2)
        workers = _children(run.pid)
        assert len(workers) >= 2  # the loky workers (and its resource tracker)
        os.kill(run.pid, signal.SIGTERM)  # the parent alone, not its process group
        _, stderr = run.communicate(timeout=30)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    finished = len(list((out / "games").glob("part-*.parquet")))
    assert run.returncode == 128 + signal.SIGTERM, \
        f"exit {run.returncode} with {finished} of {exp.total_games // CHUNK} chunks played: {stderr}"
    assert stderr == "interrupted: finished chunks are kept; run again with --resume to finish\n"  # no semlock warning
    assert not (out / LOCK).exists()
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in workers):
        assert time.monotonic() < deadline, "a worker outlived the run"
        time.sleep(0.1)

    cli_playing(monkeypatch, toy_play)
    resumed = CliRunner().invoke(cli_run.command, args[:-1] + ["--jobs", "1", "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert_same_rows(out, tmp_path / "whole", exp.total_games)
