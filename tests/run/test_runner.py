"""The runner's mechanics with a toy game: identical datasets whatever the schedule,
error rows, fail-fast, flat memory, the CLI's checks."""
from __future__ import annotations

import functools
import json
import tracemalloc
from pathlib import Path

import pyarrow.compute as pc
import pytest
from click.testing import CliRunner

from helpers.toy_games import EXPERIMENT, dataset, failing_play, toy_play
from menorca_sim.cli import run as cli_run
from menorca_sim.run.experiment import load_experiment
from menorca_sim.run.outcomes import TABLES
from menorca_sim.run.parquet_store import read_table
from menorca_sim.run.runner import RunError, run_experiment

TOTAL = 2 * 6 * 6  # variants x cells x games


@pytest.fixture
def experiment(tmp_path):
    path = tmp_path / "toy.toml"
    path.write_text(EXPERIMENT, encoding="utf-8")
    return load_experiment(path)


def test_dataset_holds_every_game_once_with_its_plan(experiment, tmp_path):
    summary = run_experiment(experiment, tmp_path / "out", jobs=1, chunk=10, play=toy_play)
    assert (summary.played, summary.errors, summary.finished_games, summary.stopped_by) == (TOTAL, 0, TOTAL, None)
    data = dataset(tmp_path / "out")
    games = data["games"]
    assert games["game_id"].to_pylist() == list(range(TOTAL))
    for row in games.slice(0, TOTAL, ).to_pylist()[::7]:
        spec = experiment.game(row["game_id"])
        assert (row["variant"], row["cell"], row["seed"], row["policies"]) == \
            (spec.variant, spec.cell, spec.seed, list(spec.policies))
    assert data["players"].num_rows == 2 * (3 * 2 + 3 * 3) * 6
    assert data["players"]["policy"].to_pylist()[:2] == ["a!", "b!"]  # from the seated policy object
    # same seeds in both variants; the toy's bank depends on the variant's market bonus
    base, bonus = (games.filter(pc.equal(games["variant"], v)) for v in ("base", "bonus20"))
    assert base["seed"].equals(bonus["seed"])
    assert pc.subtract(bonus["bank"], base["bank"]).unique().to_pylist() == [10]
    auctions = data["auctions"].to_pylist()
    assert all(a["buyer_policy"].rstrip("!") == experiment.game(a["game_id"]).policies[a["buyer_seat"]]
               for a in auctions)
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["chunks"] == 8
    assert manifest["counts"] == {name: t.num_rows for name, t in data.items()}
    assert manifest["experiment"]["variants"][1]["ruleset_sha256"] == experiment.variants[1].ruleset_sha256


def test_same_tables_for_jobs_chunks_and_dask(experiment, tmp_path):
    from dask.distributed import LocalCluster

    run_experiment(experiment, tmp_path / "j1", jobs=1, chunk=7, play=toy_play)
    run_experiment(experiment, tmp_path / "j2", jobs=2, chunk=7, play=toy_play)
    run_experiment(experiment, tmp_path / "c25", jobs=2, chunk=25, play=toy_play)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        run_experiment(experiment, tmp_path / "dask", backend="dask", scheduler=cluster.scheduler_address,
                       chunk=5, play=toy_play)
    reference = dataset(tmp_path / "j1")
    assert reference["games"].num_rows == TOTAL
    for other in ("j2", "c25", "dask"):
        tables = dataset(tmp_path / other)
        for name in TABLES:
            assert tables[name].equals(reference[name]), (other, name)


def test_failing_games_become_error_rows(experiment, tmp_path):
    summary = run_experiment(experiment, tmp_path / "out", jobs=2, chunk=10, play=failing_play)
    data = dataset(tmp_path / "out")
    failed = [g for g in experiment.games_in(0, TOTAL) if g.seed % 5 == 0]
    assert failed and summary.errors == len(failed) and summary.finished_games == TOTAL
    errors = data["errors"].to_pylist()
    assert [e["game_id"] for e in errors] == [g.game_id for g in failed]
    first = errors[0]
    assert (first["seed"], first["cell"], first["policies"]) == (failed[0].seed, failed[0].cell, list(failed[0].policies))
    assert first["error"] == f"ValueError: policy {failed[0].policies[0]} chose an illegal action"
    assert "in failing_play" in first["traceback"] and first["traceback"].startswith("Traceback")
    # the other games are complete, with all their rows
    ok = set(range(TOTAL)) - {g.game_id for g in failed}
    assert data["games"]["game_id"].to_pylist() == sorted(ok)
    assert set(data["players"]["game_id"].to_pylist()) == ok
    assert data["players"].num_rows == sum(experiment.game(i).players for i in ok)


def test_fail_fast_stops_after_the_first_failing_chunk(experiment, tmp_path):
    summary = run_experiment(experiment, tmp_path / "out", jobs=1, chunk=10, fail_fast=True, play=failing_play)
    first = next(g for g in experiment.games_in(0, TOTAL) if g.seed % 5 == 0)
    assert summary.stopped_by.startswith(f"game {first.game_id} (seed {first.seed}): ValueError: policy")
    assert summary.played == (first.game_id // 10 + 1) * 10 < TOTAL
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["status"] == "stopped"
    # what was written is a valid start: resuming finishes it into the full dataset
    resumed = run_experiment(experiment, tmp_path / "out", jobs=1, resume=True, play=failing_play)
    assert resumed.played == TOTAL - summary.played and resumed.finished_games == TOTAL


def test_progress_bar_only_when_asked(experiment, tmp_path, capsys):
    run_experiment(experiment, tmp_path / "bar", jobs=1, chunk=30, play=toy_play, progress=True)
    bar = capsys.readouterr().err
    assert f"{TOTAL}/{TOTAL}" in bar and "game/s" in bar
    run_experiment(experiment, tmp_path / "quiet", jobs=1, chunk=30, play=toy_play)
    assert capsys.readouterr() == ("", "")


def test_memory_stays_flat_as_games_grow(experiment, tmp_path):
    def peak(games: int) -> int:
        path = tmp_path / f"e{games}.toml"
        path.write_text(EXPERIMENT.replace("games = 6", f"games = {games}"), encoding="utf-8")
        exp = load_experiment(path)
        tracemalloc.start()
        run_experiment(exp, tmp_path / f"o{games}", jobs=1, chunk=12, play=toy_play)
        size = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return size
    run_experiment(experiment, tmp_path / "warm", jobs=1, play=toy_play)  # first imports out of the measure
    small, large = peak(6), peak(36)  # 72 and 432 games, 6 and 36 chunks
    assert large < 1.2 * small, (small, large)


def test_non_empty_folder_needs_resume_and_resume_needs_the_same_plan(experiment, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(RunError, match="output folder is not empty"):
        run_experiment(experiment, out, jobs=1, play=toy_play)
    with pytest.raises(RunError, match="no manifest.json of this runner"):
        run_experiment(experiment, out, jobs=1, resume=True, play=toy_play)
    run_experiment(experiment, tmp_path / "done", jobs=1, chunk=30, play=toy_play)
    with pytest.raises(RunError, match="started with --chunk 30, not 20"):
        run_experiment(experiment, tmp_path / "done", jobs=1, chunk=20, resume=True, play=toy_play)
    other = load_experiment(experiment_file(tmp_path, EXPERIMENT.replace("seed = 42", "seed = 43")))
    with pytest.raises(RunError, match=r"started from another plan \(differs in: seed\)"):
        run_experiment(other, tmp_path / "done", jobs=1, resume=True, play=toy_play)


def experiment_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "other.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_cli_runs_and_refuses_a_used_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(cli_run, "run_experiment", functools.partial(run_experiment, play=toy_play))
    monkeypatch.setattr(cli_run, "check_policy_spec", lambda spec, ruleset: None)
    exp = experiment_file(tmp_path, EXPERIMENT)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(cli_run.command, [str(exp), "--jobs", "1", "--games", "6", "--quiet"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("toy: 72 games played, 0 errors, ")
    assert result.output.rstrip().endswith("dataset complete: 72/72 games in reports/toy/data")
    assert read_table(tmp_path / "reports" / "toy" / "data", "games").num_rows == 72
    again = runner.invoke(cli_run.command, [str(exp), "--jobs", "1", "--games", "6"])
    assert again.exit_code == 2
    assert again.output == "error: reports/toy/data: output folder is not empty (add --resume to finish an interrupted " \
                           "run, or choose another --out)\n"
    resumed = runner.invoke(cli_run.command, [str(exp), "--jobs", "1", "--games", "6", "--resume"])
    assert resumed.exit_code == 0 and "0 games played" in resumed.output
    bad = runner.invoke(cli_run.command, [str(exp), "--scheduler", "tcp://h:1"])
    assert (bad.exit_code, bad.output) == (2, "error: --scheduler needs --backend dask\n")
