"""`menorca-sim run EXP.toml`: play an experiment into a Parquet dataset."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click

from menorca_sim.cli.errors import Finite, fail, interruptible, one_line_errors, one_line_warnings
from menorca_sim.run.experiment import ExperimentError, check_policy_spec, load_experiment
from menorca_sim.run.limits import Limits
from menorca_sim.run.runner import BACKENDS, RunWarning, run_experiment


@click.command("run")
@click.argument("experiment", type=click.Path(dir_okay=False))
@click.option("--games", type=click.IntRange(min=1), help="Games per cell and variant (replaces the file's).")
@click.option("--jobs", type=click.IntRange(min=1),
              help="Worker processes (default: all cores); with --backend dask and no --scheduler, "
                   "the local cluster's workers.")
@click.option("--backend", type=click.Choice(BACKENDS), default="loky", show_default=True)
@click.option("--scheduler", metavar="ADDR", help="Dask scheduler, e.g. tcp://host:8786 (default: a local cluster).")
@click.option("--out", type=click.Path(file_okay=False), help="Dataset folder (default: reports/<name>/data).")
@click.option("--resume", is_flag=True, help="Finish an interrupted run in --out.")
@click.option("--fail-fast", is_flag=True, help="Stop at the first game that raises.")
@click.option("--quiet", is_flag=True, help="No progress bar, only the summary line.")
@click.option("--chunk", type=click.IntRange(min=1), help="Games per chunk (default: a few chunks per worker, at most 100).")
@click.option("--max-decisions", type=click.IntRange(min=1), metavar="N",
              help="Decisions a game may take; a game past it is an error row (default: no limit).")
@click.option("--chunk-timeout", type=Finite(min=0, min_open=True), metavar="SECONDS",
              help="Time a chunk's games may take: the game in play when it runs out is stopped and is an "
                   "error row, and the chunk goes on (default: no limit).")
@click.option("--max-memory", type=click.IntRange(min=1), metavar="MB",
              help="Memory a chunk's games may add to their worker: a game past it is an error row "
                   "(default: no limit).")
@click.option("--record-states", is_flag=True,
              help="Also write the states table: each seat's features after each OR, labelled with its final "
                   "win share (training data for `menorca-sim learn`; the file's record_states = true).")
@click.option("--population", "populations", multiple=True, metavar="NAME",
              help="Play only this population of the file (repeatable): its games are the same as in a run "
                   "of them all (a game's seed and seating do not depend on the other populations).")
@one_line_errors
def command(experiment: str, games: int | None, jobs: int | None, backend: str, scheduler: str | None,
            out: str | None, resume: bool, fail_fast: bool, quiet: bool, chunk: int | None,
            max_decisions: int | None, chunk_timeout: float | None, max_memory: int | None,
            record_states: bool, populations: tuple[str, ...]) -> None:
    """Play EXPERIMENT (a TOML study) into Parquet tables: games, players, companies,
    auctions, errors. Exit 0 when done, 1 when --fail-fast stopped it, 2 on bad input or
    when the run cannot go on (the line says why; --resume then finishes it)."""
    if scheduler and backend != "dask":
        fail("--scheduler needs --backend dask")
    exp = load_experiment(experiment, games=games, check_policy=check_policy_spec)
    if record_states:
        exp = dataclasses.replace(exp, record_states=True)
    if populations:
        exp = exp.only_populations(populations)
    if exp.target is not None:  # [plan]: say before the games whether there will be enough of them
        from menorca_sim.analysis.planning import PlanError, seat_plan

        t = exp.target
        try:
            lines = seat_plan(exp, t["effect"], t["power"], t["alpha"] / t["tests"])
        except PlanError as exc:  # a target no study can reach: the file's [plan] says so
            raise ExperimentError(exp.file, "plan", str(exc)) from None
        for line in lines:
            click.echo(line, err=True)
    with interruptible("finished chunks are kept; run again with --resume to finish"), one_line_warnings(RunWarning):
        summary = run_experiment(exp, Path(out) if out else Path("reports") / exp.name / "data", jobs=jobs,
                                 backend=backend, scheduler=scheduler, chunk=chunk, resume=resume,
                                 fail_fast=fail_fast, progress=not quiet and sys.stderr.isatty(),
                                 limits=Limits(max_decisions, chunk_timeout, max_memory))
    click.echo(summary.line())
    if summary.stopped_by:
        raise SystemExit(1)

