"""Resume: a run killed with SIGKILL, then damaged parts, finish into exactly the
dataset of an uninterrupted run."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq

from helpers import TESTS
from helpers.toy_games import EXPERIMENT, dataset, toy_play
from menorca_sim.run.experiment import load_experiment
from menorca_sim.run.outcomes import TABLES
from menorca_sim.run.parquet_store import chunk_complete, part_path, write_chunk
from menorca_sim.run.runner import chunk_bounds, run_experiment

CHUNK = 8
KILLED_RUN = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
import pyarrow.parquet as pq

from helpers.toy_games import slow_play
from menorca_sim.run.experiment import load_experiment
from menorca_sim.run.runner import run_experiment
run_experiment(load_experiment(sys.argv[1]), sys.argv[2], jobs=2, chunk={CHUNK}, play=slow_play)
"""


def complete_chunks(out: Path, total: int) -> list[int]:
    n = -(-total // CHUNK)
    return [c for c in range(n)
            if chunk_complete(out, c, chunk_bounds(total, CHUNK, c)[1] - chunk_bounds(total, CHUNK, c)[0])]


def kill_mid_run(exp_path: Path, out: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", KILLED_RUN, str(exp_path), str(out)], start_new_session=True)
    deadline = time.monotonic() + 60
    while len(list((out / "players").glob("part-*.parquet"))) < 5 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)  # the runner and its loky workers, like kill -9
    proc.wait()


def test_killed_run_resumes_into_the_uninterrupted_dataset(tmp_path):
    exp_path = tmp_path / "toy.toml"
    exp_path.write_text(EXPERIMENT.replace("games = 6", "games = 24"), encoding="utf-8")
    exp = load_experiment(exp_path)
    total = exp.total_games
    run_experiment(exp, tmp_path / "whole", jobs=1, chunk=CHUNK, play=toy_play)

    out = tmp_path / "killed"
    kill_mid_run(exp_path, out)
    done = complete_chunks(out, total)
    assert 0 < len(done) < -(-total // CHUNK)
    # damage three finished chunks: a truncated part, a flipped byte, a missing part
    truncated, flipped, missing = done[:3] if len(done) >= 3 else (done * 3)[:3]
    players = part_path(out, "players", truncated)
    players.write_bytes(players.read_bytes()[: players.stat().st_size // 2])
    companies = part_path(out, "companies", flipped)
    column = pq.read_metadata(companies).row_group(0).column(TABLES["companies"].get_field_index("revenue_total"))
    data = bytearray(companies.read_bytes())
    start = column.dictionary_page_offset if column.has_dictionary_page else column.data_page_offset
    data[start + column.total_compressed_size - 1] ^= 0xFF  # the last byte of the column's last page
    companies.write_bytes(bytes(data))
    part_path(out, "errors", missing).unlink()
    kept = [c for c in done if c not in (truncated, flipped, missing)]

    summary = run_experiment(exp, out, jobs=2, resume=True, play=toy_play)
    assert summary.played == total - sum(min(CHUNK, total - c * CHUNK) for c in kept)
    assert summary.finished_games == total
    assert not list(out.rglob(".part-*"))  # no temporary left behind
    whole, resumed = dataset(tmp_path / "whole"), dataset(out)
    for name in TABLES:
        assert resumed[name].equals(whole[name]), name


def test_parts_of_two_writes_do_not_make_a_chunk(tmp_path):
    # a rewrite of a chunk killed half-way leaves parts of the old and the new write
    exp_path = tmp_path / "toy.toml"
    exp_path.write_text(EXPERIMENT, encoding="utf-8")
    run_experiment(load_experiment(exp_path), tmp_path / "out", jobs=1, chunk=CHUNK, play=toy_play)
    out = tmp_path / "out"
    assert chunk_complete(out, 0, CHUNK)
    old = part_path(out, "games", 0).read_bytes()
    tables = {name: pq.read_table(part_path(out, name, 0)) for name in TABLES}
    write_chunk(out, 0, CHUNK, tables)
    assert chunk_complete(out, 0, CHUNK)
    part_path(out, "games", 0).write_bytes(old)
    assert not chunk_complete(out, 0, CHUNK)
