"""One writer per folder: a second run on a folder another run is writing refuses at
once with one line naming the holder; the lock of a run killed with SIGKILL is taken
over with a warning, and the resumed dataset is the uninterrupted run's."""
from __future__ import annotations

import json
import os
import signal
import socket
import time

from click.testing import CliRunner
from helpers.faults import assert_same_rows, cli_playing, start_run, toy_study, wait_for_parts
from helpers.toy_games import toy_play

from menorca_sim.cli import run as cli_run
from menorca_sim.run.dataset_lock import LOCK

CHUNK = 8


def test_a_busy_folder_refuses_a_second_run_and_a_dead_runs_lock_is_taken_over(tmp_path, monkeypatch):
    exp_path, exp = toy_study(tmp_path, CHUNK)
    cli_playing(monkeypatch, toy_play)
    out = tmp_path / "data"
    args = [str(exp_path), "--jobs", "1", "--chunk", str(CHUNK), "--out", str(out), "--quiet"]

    first = start_run(exp_path, out, CHUNK)
    wait_for_parts(out, 2)
    holder = json.loads((out / LOCK).read_text())
    assert (holder["pid"], holder["host"]) == (first.pid, socket.gethostname())
    for extra in ([], ["--resume"]):
        began = time.monotonic()
        second = CliRunner().invoke(cli_run.command, args + extra)
        assert time.monotonic() - began < 2  # at once, not after waiting
        assert second.exit_code == 2
        assert second.output == (f"error: {out}: another run is writing this dataset (pid {first.pid} on "
                                 f"{holder['host']} since {holder['since']})\n")

    os.killpg(first.pid, signal.SIGKILL)  # the holder dies without releasing its lock
    first.wait()
    assert (out / LOCK).exists()
    resumed = CliRunner().invoke(cli_run.command, args + ["--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stderr == (f"warning: {out}: took over the lock left by pid {first.pid} on {holder['host']} "
                              f"since {holder['since']}, which no longer runs\n")
    assert "dataset complete: 72/72 games" in resumed.stdout
    assert not (out / LOCK).exists()  # released at the end
    assert_same_rows(out, tmp_path / "whole", exp.total_games)
