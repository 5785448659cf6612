"""The dataset's integrity as every reader meets it (issue 39): part files the manifest
does not list (a copied part, a stray file) would be counted by any reader that globs a
table's folder, so `report`, `menorca_sim.analysis.open` and `run --resume` check them
the same way (parquet_store.CheckedDataset / check_dataset): refused with the part
named, or moved aside by a resume, which then completes the uninterrupted run's dataset.
A hand-edited manifest is refused in one line naming the key, never a traceback or a
hang; a dataset being written, or one with every chunk damaged, says so."""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import CliRunner
from helpers.faults import assert_same_rows, cli_playing, toy_study
from helpers.toy_games import toy_play

import menorca_sim.analysis as analysis
from menorca_sim.cli import main
from menorca_sim.cli import run as cli_run
from menorca_sim.run import dataset_lock
from menorca_sim.run import parquet_store as store

CHUNK = 8  # the toy study's 72 games: 9 chunks


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> tuple[Path, Path]:
    """The toy experiment's file and its uninterrupted dataset (read-only: copy it)."""
    folder = tmp_path_factory.mktemp("integrity")
    exp_path, _ = toy_study(folder, CHUNK)
    return exp_path, folder / "whole"


def copy_of(whole: Path, tmp_path: Path) -> Path:
    out = tmp_path / "data"
    shutil.copytree(whole, out)
    return out


def report(out: Path, *extra: str) -> Any:
    return CliRunner().invoke(main, ["report", str(out), "--out", str(out.parent / "report"), *extra])


def stray_parts(out: Path) -> list[Path]:
    """A copy of a part under a chunk number past the last, and a stray file."""
    copied, stray = out / "auctions" / "part-000099.parquet", out / "games" / "zzz.parquet"
    shutil.copy(store.part_path(out, "auctions", 0), copied)
    shutil.copy(store.part_path(out, "games", 0), stray)
    return [stray, copied]  # in the order they are named: table order, then file name


def test_unlisted_parts_are_refused_by_report_and_by_analysis_open(study, tmp_path):
    out = copy_of(study[1], tmp_path)
    whole = analysis.open(out).games().height
    stray, copied = stray_parts(out)
    refused = report(out)
    assert refused.exit_code == 2
    assert refused.output == (f"error: {stray}: {store.UNLISTED} (and 1 more damaged parts); `menorca-sim run ... "
                              f"--resume` moves damaged parts aside and plays their chunks again, or add "
                              f"--allow-partial to read the rest\n")
    with pytest.raises(store.DatasetRefused, match=rf"^{stray}: not a part the manifest lists .* add "
                                                   rf"allow_partial=True to read the rest$"):
        analysis.open(out)
    partial = analysis.open(out, allow_partial=True)  # the explicit choice: the listed parts only
    assert partial.games().height == whole and [d.path for d in partial.checked.check.damaged] == [stray, copied]
    assert report(out, "--allow-partial").exit_code == 0
    assert stray.exists() and copied.exists()  # readers move nothing


def test_resume_moves_unlisted_parts_aside_and_keeps_the_dataset(study, tmp_path, monkeypatch):
    exp_path, whole = study
    out = copy_of(whole, tmp_path)
    stray, copied = stray_parts(out)
    cli_playing(monkeypatch, toy_play)
    resumed = CliRunner().invoke(cli_run.command, [str(exp_path), "--out", str(out), "--jobs", "1", "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout.startswith("toy: 0 games played")
    assert resumed.stderr.splitlines() == [f"warning: {p}: {store.UNLISTED}: moved to {out / 'damaged' / p.parent.name / p.name}"
                                           for p in (stray, copied)]
    assert_same_rows(out, whole, 72)
    assert report(out).exit_code == 0


def test_analysis_open_checks_what_report_checks(study, tmp_path):
    out = copy_of(study[1], tmp_path)
    deleted, emptied = store.part_path(out, "games", 2), store.part_path(out, "players", 4)
    deleted.unlink()
    emptied.write_bytes(b"")
    with pytest.raises(store.DatasetRefused, match=rf"^{deleted}: missing \(the manifest records it\) \(and 1 more"):
        analysis.open(out)
    assert analysis.open(out, allow_partial=True).games().height == 72 - 2 * CHUNK


def test_every_chunk_damaged_names_the_dataset_not_a_temporary_folder(study, tmp_path):
    out = copy_of(study[1], tmp_path)
    for chunk in range(72 // CHUNK):
        store.part_path(out, "companies", chunk).write_bytes(b"")
    result = report(out, "--allow-partial")
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {out}: every chunk has a damaged part, nothing is left to read (first: "
                                    f"{store.part_path(out, 'companies', 0)}: empty file)")
    assert "menorca-partial" not in result.output


def test_a_dataset_being_written_is_refused_while_its_lock_is_held(study, tmp_path):
    out = copy_of(study[1], tmp_path)
    lock = dataset_lock.acquire(out)
    try:
        result = report(out)
        assert result.exit_code == 2
        assert result.output.startswith(f"error: {out}: a run is writing this dataset (pid ")
        assert result.output.endswith("read it when the run has ended\n") and "interrupted" not in result.output
    finally:
        lock.release()
    assert report(out).exit_code == 0


Edit = Callable[[dict], Any]


def _set(*path: Any, value: Any) -> Edit:
    def edit(manifest: dict) -> None:
        for key in path[:-1]:
            manifest = manifest[key]
        manifest[path[-1]] = value
    return edit


def _drop(*path: Any) -> Edit:
    def edit(manifest: dict) -> None:
        for key in path[:-1]:
            manifest = manifest[key]
        manifest.pop(path[-1])
    return edit


# (what a hand edit did, the edit: a function of the manifest, or the text itself, the line's gist)
MANIFESTS = [
    ("invalid JSON", "{\"format\": 3,", "not valid JSON (Expecting property name enclosed in double quotes"),
    ("a list", "[1, 2]", "manifest.json: expected a JSON object, got a list"),
    ("null", "null", "manifest.json: expected a JSON object, got null"),
    ("chunks missing", _drop("chunks"), "manifest.json: chunks: missing"),
    ("chunks a string", _set("chunks", value="9"), "manifest.json: chunks: expected an integer, got a string"),
    ("chunks 1e9", _set("chunks", value=10 ** 9), "manifest.json: chunks: 1000000000 chunks cannot hold 72 games of 8"),
    ("chunks 1e9 as a float", _set("chunks", value=1e9), "manifest.json: chunks: expected an integer, got 1000000000.0"),
    ("a billion games", lambda m: m.update(total_games=10 ** 9, chunk_size=1, chunks=10 ** 9),
     "manifest.json: total_games: 1000000000 is not the 72 games the plan (experiment) holds"),
    ("finished missing", _drop("finished"), "manifest.json: finished: missing"),
    ("finished a list", _set("finished", value=[]), "manifest.json: finished: expected an object, got a list"),
    ("a finished chunk past the last", _set("finished", "9", value={}), "manifest.json: finished.9: not a chunk of "
                                                                        "this dataset (0-8)"),
    ("a chunk's games changed", _set("finished", "1", "games", value=[0, 8]),
     "manifest.json: finished.1.games: expected [8, 16], got [0, 8]"),
    ("a shortened checksum list", lambda m: m["finished"]["0"]["sha256"].pop(),
     "manifest.json: finished.0.sha256: expected 6 strings, one per table (games, players, companies, auctions, "
     "errors, rounds), got 5 values"),
    ("rows not numbers", _set("finished", "3", "rows", value=["1"] * 6), "manifest.json: finished.3.rows: expected 6 "
                                                                         "integers"),
    ("variants missing", _drop("experiment", "variants"), "manifest.json: experiment.variants: missing"),
    ("variants a string", _set("experiment", "variants", value="x"),
     "manifest.json: experiment.variants: expected a list, got a string"),
    ("a variant without a name", lambda m: m["experiment"]["variants"][0].pop("name"),
     "manifest.json: experiment.variants[0].name: missing"),
    ("a sweep without keys", _set("experiment", "sweeps", value=[{"name": "", "points": []}]),
     "manifest.json: experiment.sweeps[0].keys: missing"),
    ("a sweep of three keys", _set("experiment", "sweeps", value=[{"name": "", "keys": ["a", "b", "c"], "points": []}]),
     "manifest.json: experiment.sweeps[0].keys: expected one or two ruleset keys"),
    ("a sweep point that is no variant", _set("experiment", "sweeps", value=[{"name": "", "keys": ["a"],
                                                                              "points": ["nope"]}]),
     "manifest.json: experiment.sweeps[0].points: 'nope' is not a variant that sets a"),
    ("runs missing", _drop("runs"), "manifest.json: runs: missing"),
    ("a name that climbs out", _set("experiment", "name", value="../evil/x"),
     "manifest.json: experiment.name: '../evil/x' cannot name a file"),
]


@pytest.mark.parametrize("edit, gist", [c[1:] for c in MANIFESTS], ids=[c[0] for c in MANIFESTS])
def test_a_hand_edited_manifest_is_refused_in_one_line(study, tmp_path, monkeypatch, edit, gist):
    exp_path, whole = study
    out = copy_of(whole, tmp_path)
    path = out / store.MANIFEST
    if isinstance(edit, str):
        path.write_text(edit)
    else:
        manifest = json.loads(path.read_text())
        edit(manifest)
        path.write_text(json.dumps(manifest))
    cli_playing(monkeypatch, toy_play)
    began = time.monotonic()
    for result in (report(out), CliRunner().invoke(cli_run.command, [str(exp_path), "--out", str(out), "--jobs", "1",
                                                                     "--resume"])):
        assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
        assert result.output.startswith(f"error: {path}") and result.output.count("\n") == 1, result.output
        assert gist in result.output
    with pytest.raises(store.ManifestError):
        analysis.open(out)
    assert time.monotonic() - began < 10  # no hang, however many chunks it claims
    assert not (tmp_path / "evil").exists()


def test_the_check_reads_only_chunks_with_something_on_disk(tmp_path, monkeypatch):
    """A plan of many chunks with few finished (a long run stopped early) is checked in
    time proportional to its parts, not to its chunks."""
    out = tmp_path / "data"
    (out / "games").mkdir(parents=True)
    plan = {"name": "big", "games": 10 ** 7, "cells": ["p2|x"], "variants": [{"name": "", "overrides": {}}],
            "populations": [{"name": ""}], "sweeps": []}
    store.write_manifest(out, {"format": store.FORMAT, "experiment": plan, "total_games": 10 ** 7, "chunk_size": 1,
                               "chunks": 10 ** 7, "runs": [], "finished": {}, "status": "stopped"})
    began = time.monotonic()
    assert store.check_dataset(out) == store.DatasetCheck([], set(), 0)
    assert time.monotonic() - began < 2
