"""A worker lost mid-run. On a Dask cluster whose nannies restart workers, a worker
process killed with SIGKILL costs nothing: its chunks are played again elsewhere and the
dataset is an uninterrupted run's. With no worker left (nanny-less workers, all
killed), or a loky worker killed, the run stops in one line instead of waiting for
ever, and `--resume` completes it."""
from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import TESTS
from helpers.faults import assert_same_rows, dying_once_play, sleepy_play, toy_study, wait_for_parts
from helpers.toy_games import toy_play

from menorca_sim.run.runner import RunError, run_experiment

CHUNK = 4


@pytest.fixture
def toy(tmp_path):
    """The toy experiment (72 games); its uninterrupted dataset is tmp_path/whole."""
    return toy_study(tmp_path, CHUNK)[1]


def in_thread(run) -> tuple[threading.Thread, dict]:
    """Start `run()` in a thread; the dict gets its "result" or its "error"."""
    outcome: dict = {}

    def target() -> None:
        try:
            outcome["result"] = run()
        except Exception as exc:  # handed to the test
            outcome["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    return thread, outcome


def test_a_killed_dask_worker_costs_nothing(toy, tmp_path):
    from dask.distributed import Client, LocalCluster

    out = tmp_path / "data"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        pids = client.run(os.getpid)
        thread, outcome = in_thread(lambda: run_experiment(toy, out, backend="dask", chunk=CHUNK, play=sleepy_play,
                                                           scheduler=cluster.scheduler_address))
        wait_for_parts(out, 3)
        os.kill(next(iter(pids.values())), signal.SIGKILL)  # mid-run: both workers are playing chunks
        thread.join(60)
        assert not thread.is_alive() and "error" not in outcome, outcome
        client.wait_for_workers(2, timeout=30)  # the nanny brought a new worker process up
        assert set(client.run(os.getpid).values()) != set(pids.values())
    summary = outcome["result"]
    assert (summary.played, summary.finished_games) == (72, 72)
    assert_same_rows(out, tmp_path / "whole", toy.total_games)


def test_a_cluster_without_workers_stops_in_one_line_and_resume_completes(toy, tmp_path):
    from dask.distributed import Client, LocalCluster

    out = tmp_path / "data"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    with LocalCluster(n_workers=0, dashboard_address=None) as cluster, Client(cluster) as client:
        workers = [subprocess.Popen([str(Path(sys.executable).with_name("dask")), "worker", cluster.scheduler_address,
                                     "--no-nanny", "--nthreads", "1"], env=env, stderr=subprocess.DEVNULL)
                   for _ in range(2)]  # no nanny: nothing brings a killed worker back
        client.wait_for_workers(2, timeout=30)
        thread, outcome = in_thread(lambda: run_experiment(toy, out, backend="dask", chunk=CHUNK, play=sleepy_play,
                                                           scheduler=cluster.scheduler_address, worker_wait=1))
        wait_for_parts(out, 3)
        for worker in workers:
            worker.send_signal(signal.SIGKILL)
            worker.wait()
        began = time.monotonic()
        thread.join(30)
        assert not thread.is_alive(), "the run waits for ever"
        assert time.monotonic() - began < 10
    error = outcome["error"]
    assert isinstance(error, RunError)
    assert str(error).startswith(f"{out}: stopped: the Dask cluster has had no worker for 1 s (")
    assert str(error).endswith(" chunks waiting); the finished chunks are kept: run again with --resume")

    resumed = run_experiment(toy, out, jobs=2, resume=True, play=toy_play)
    assert resumed.played < 72 and resumed.finished_games == 72
    assert_same_rows(out, tmp_path / "whole", toy.total_games)


def test_a_killed_loky_worker_stops_in_one_line_and_resume_completes(toy, tmp_path):
    out = tmp_path / "data"
    play = functools.partial(dying_once_play, marker=str(tmp_path / "died"), game_id=30)
    with pytest.raises(RunError) as stopped:
        run_experiment(toy, out, jobs=2, chunk=CHUNK, play=play)
    assert str(stopped.value) == (f"{out}: stopped: a worker process died (exit codes {{SIGKILL(-9)}}); "
                                  "the finished chunks are kept: run again with --resume")
    resumed = run_experiment(toy, out, jobs=2, resume=True, play=play)
    assert resumed.played < 72 and resumed.finished_games == 72
    assert_same_rows(out, tmp_path / "whole", toy.total_games)
