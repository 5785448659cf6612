"""`menorca-sim fuzz`: play many games with every invariant checked after every action."""
from __future__ import annotations

import sys

import click

from menorca_sim.cli.errors import Seed, one_line_errors


@click.command("fuzz")
@click.option("--games", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Games in all (rounded up to a multiple of player counts x minor draws).")
@click.option("--jobs", type=click.IntRange(min=1), help="Worker processes (default: all cores).")
@click.option("--seed", type=Seed(), default=0, show_default=True, help="Root seed of the games.")
@click.option("--rules", "rules_path", type=click.Path(dir_okay=False), default=None,
              help="Ruleset TOML (default: the built-in one).")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Keep the games' dataset in this folder (default: a temporary one).")
@click.option("--resume", is_flag=True, help="Finish an interrupted fuzz run in --out.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@one_line_errors
def command(games: int, jobs: int | None, seed: int, rules_path: str | None, out: str | None,
            resume: bool, quiet: bool) -> None:
    """Play GAMES games (every player count and minor draw; random-legal players, and one
    heuristic player at some tables) with the invariant checks on. Prints every failure
    with the command that replays it; exit 1 when any game failed."""
    from menorca_sim.run.fuzz import run_fuzz

    if resume and out is None:
        raise click.UsageError("--resume needs --out")
    report = run_fuzz(games, seed=seed, jobs=jobs, rules=rules_path, out=out, resume=resume,
                      progress=not quiet and sys.stderr.isatty())
    for line in report.lines():
        click.echo(line)
    if report.failures:
        raise SystemExit(1)
