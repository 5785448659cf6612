"""A full disk: a write that fails (a tiny tmpfs that fills up; a file-size limit on the
process) stops the run with one line naming the folder and about how much free space
it needs, every finished chunk stays sound, and `--resume` completes the run, once
there is space again, into the uninterrupted run's dataset."""
from __future__ import annotations

import functools
import os
import re
import resource
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner
from helpers.faults import BULKY_FROM, CLI_SCRIPT, assert_same_rows, bulky_play, cli_playing, toy_study
from helpers.toy_games import toy_play

from menorca_sim.cli import run as cli_run
from menorca_sim.run import parquet_store as store

CHUNK = 8
STOPPED = re.compile(r"error: (?P<out>\S+): stopped: cannot write chunk (?P<chunk>\d+)'s parts \((?P<why>[^)]+)\): "
                     r"about (?P<need>[\d.]+ (kB|MB)) of free space is needed to finish, [\d.]+ (bytes|kB|MB|GB) is free; "
                     r"the finished chunks are kept: run again with --resume\n")


@pytest.fixture
def small_disk(tmp_path):
    """A 128 KiB tmpfs (room for three or four of the toy run's nine chunks)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", str(disk)], capture_output=True).returncode == 0
    if not mounted:
        pytest.skip("cannot mount a tmpfs here (needs root); test_a_file_size_limit_stops_the_run covers the fault")
    yield disk
    subprocess.run(["umount", str(disk)], check=True)


def finished_parts(out, chunks: int) -> dict:
    """The bytes of every part of the chunks that are sound on disk."""
    return {p: p.read_bytes() for c in range(chunks) if store.chunk_complete(out, c, CHUNK)
            for p in (store.part_path(out, name, c) for name in store.TABLES)}


def test_a_full_disk_stops_the_run_in_one_line_and_resume_completes_it(tmp_path, small_disk, monkeypatch):
    exp_path, exp = toy_study(tmp_path, CHUNK)
    cli_playing(monkeypatch, toy_play)
    out = small_disk / "data"
    args = [str(exp_path), "--out", str(out), "--jobs", "1", "--chunk", str(CHUNK)]

    full = CliRunner().invoke(cli_run.command, args)
    assert full.exit_code == 2
    stop = STOPPED.fullmatch(full.output)
    assert stop and (stop["out"], stop["why"]) == (str(out), "No space left on device"), full.output
    kept = finished_parts(out, 9)
    assert len(kept) == len(store.TABLES) * int(stop["chunk"]) > 0  # every chunk before the one that failed

    subprocess.run(["mount", "-o", "remount,size=2m", str(small_disk)], check=True)  # space is back
    resumed = CliRunner().invoke(cli_run.command, args + ["--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout.startswith(f"toy: {72 - CHUNK * int(stop['chunk'])} games played")
    assert all(path.read_bytes() == data for path, data in kept.items())  # kept, not played again
    assert_same_rows(out, tmp_path / "whole", exp.total_games)

TOO_LARGE = re.compile(r"error: (?P<out>\S+): stopped: cannot write chunk (?P<chunk>\d+)'s parts \(File too large: "
                       r"the process's file-size limit, `ulimit -f`, is too low for it; not a lack of disk space\); "
                       r"the finished chunks are kept: run again with --resume\n")


def test_a_file_size_limit_stops_the_run(tmp_path, monkeypatch):
    bulky = functools.partial(bulky_play, from_game=BULKY_FROM)  # chunks 2 and on: too big for the limit
    exp_path, exp = toy_study(tmp_path, CHUNK, bulky)
    limit = max(p.stat().st_size for c in (0, 1) for p in (store.part_path(tmp_path / "whole", name, c)
                                                             for name in store.TABLES)) + 4096

    def file_size_limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit then fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    out = tmp_path / "data"
    args = [sys.executable, "-c", CLI_SCRIPT, str(exp_path), "--out", str(out), "--jobs", "1", "--chunk", str(CHUNK)]
    limited = subprocess.run(args, preexec_fn=file_size_limit, capture_output=True, text=True)
    assert limited.returncode == 2
    stop = TOO_LARGE.fullmatch(limited.stderr)
    assert stop and (stop["out"], stop["chunk"]) == (str(out), "2"), limited.stderr
    assert len(finished_parts(out, 9)) == 2 * len(store.TABLES)

    cli_playing(monkeypatch, bulky)
    resumed = CliRunner().invoke(cli_run.command, args[3:] + ["--resume"])  # no limit now
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout.startswith("toy: 56 games played")
    assert_same_rows(out, tmp_path / "whole", exp.total_games)


def test_a_file_size_limit_of_zero_is_one_line_naming_the_file(tmp_path):
    """`ulimit -f 0`: not even the lock can be written; the line names it and says that a
    size limit, not the disk, is short."""
    exp_path, _ = toy_study(tmp_path, CHUNK)

    def no_file_size() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))

    out = tmp_path / "data"
    limited = subprocess.run([sys.executable, "-c", CLI_SCRIPT, str(exp_path), "--out", str(out), "--jobs", "1"],
                             preexec_fn=no_file_size, capture_output=True, text=True)
    assert limited.returncode == 2
    assert limited.stderr == (f"error: {out / '.lock'}: File too large (the process's file-size limit, `ulimit -f`, "
                              f"is too low for it; not a lack of disk space)\n")
