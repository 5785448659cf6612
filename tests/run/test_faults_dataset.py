"""A damaged dataset: part files cut short, emptied, swapped for another chunk's or
another dataset's, deleted. `report` names the first in one line and refuses, or with
--allow-partial reports the sound chunks under a banner; `run --resume` names each one,
moves it aside and plays its chunk again, into the uninterrupted run's dataset."""
from __future__ import annotations

import functools
import shutil

from click.testing import CliRunner
from helpers.faults import assert_same_rows, cli_playing, toy_study
from helpers.synthetic_data import Spec, write_dataset
from helpers.toy_games import EXPERIMENT, toy_play

from menorca_sim.cli import main
from menorca_sim.cli import run as cli_run
from menorca_sim.run import parquet_store as store
from menorca_sim.run.experiment import load_experiment
from menorca_sim.run.runner import run_experiment

CHUNK = 8


def test_damaged_parts_are_refused_by_report_and_played_again_by_resume(tmp_path, monkeypatch):
    exp_path, exp = toy_study(tmp_path, CHUNK)
    other_path = tmp_path / "other.toml"
    other_path.write_text(EXPERIMENT.replace("seed = 42", "seed = 43"), encoding="utf-8")
    run_experiment(load_experiment(other_path), tmp_path / "other", jobs=1, chunk=CHUNK, play=toy_play)
    out = tmp_path / "data"
    shutil.copytree(tmp_path / "whole", out)

    part = functools.partial(store.part_path, out)
    truncated, empty, swapped, foreign, missing = (part("games", 1), part("players", 2), part("companies", 3),
                                                   part("games", 5), part("errors", 6))
    truncated.write_bytes(truncated.read_bytes()[:10])  # as in the issue: `report` gave a polars traceback
    empty.write_bytes(b"")
    swapped.write_bytes(part("companies", 4).read_bytes())
    foreign.write_bytes(store.part_path(tmp_path / "other", "games", 5).read_bytes())  # same ids, other seeds
    missing.unlink()
    problems = {
        truncated: "truncated or corrupt (not a readable Parquet file)",
        empty: "empty file",
        swapped: "foreign: a part of chunk 4, not of chunk 3",
        foreign: "foreign: not the bytes the manifest records (sha256 differs)",
        missing: "missing (the manifest records it)",
    }

    refused = CliRunner().invoke(main, ["report", str(out), "--out", str(tmp_path / "report")])
    assert refused.exit_code == 2
    assert refused.output == (f"error: {truncated}: {problems[truncated]} (and 4 more damaged parts); "
                              "`menorca-sim run ... --resume` moves damaged parts aside and plays their chunks "
                              "again, or add --allow-partial to read the rest\n")

    partial = CliRunner().invoke(main, ["report", str(out), "--out", str(tmp_path / "report"), "--allow-partial"])
    assert partial.exit_code == 0, partial.output
    banner = (f"Partial dataset: 5 chunks (40 games) left out of every table, for 5 damaged part files "
              f"(first: {truncated}: {problems[truncated]}). `menorca-sim run ... --resume` plays them again.")
    assert (tmp_path / "report" / "summary.md").read_text().startswith(f"**{banner}**\n")
    assert f"<h1>Balance report: toy</h1>\n<p class='partial'><strong>{banner}</strong>" in \
        (tmp_path / "report" / "index.html").read_text()
    assert store.part_path(out, "games", 1).read_bytes() == truncated.read_bytes()  # the report moved nothing

    cli_playing(monkeypatch, toy_play)
    resumed = CliRunner().invoke(cli_run.command, [str(exp_path), "--out", str(out), "--jobs", "1", "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout.startswith("toy: 40 games played, 0 errors")
    assert resumed.stderr.splitlines() == [
        f"warning: {path}: {problem}: " + (f"moved to {out / 'damaged' / path.parent.name / path.name}; "
                                           if path != missing else "") + "its chunk is played again"
        for path, problem in problems.items()]
    assert_same_rows(out, tmp_path / "whole", exp.total_games)
    assert not store.check_dataset(out).damaged


def test_a_dataset_without_a_manifest_names_a_truncated_part_too(tmp_path):
    data = write_dataset(tmp_path, Spec(games=30))
    (data / "manifest.json").unlink()
    cut = sorted((data / "players").glob("*.parquet"))[1]
    cut.write_bytes(cut.read_bytes()[:10])
    result = CliRunner().invoke(main, ["report", str(data)])
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {cut}: truncated or corrupt (not a readable Parquet file); ")
