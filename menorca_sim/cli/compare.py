"""`menorca-sim compare RULES_A.toml RULES_B.toml --out DIR`: two rules files on the same
seeds and players, one report side by side."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from menorca_sim.cli.errors import Seed, fail, interruptible, one_line_errors, one_line_warnings

DEFAULT_POPULATION = "heuristic_tuned"


def _players(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    parts = [p.strip() for p in value.split(",")]
    if not all(p.isdigit() for p in parts) or len(set(parts)) != len(parts):
        raise click.BadParameter(f"expected distinct player counts separated by commas (2,3), got {value!r}")
    return tuple(int(p) for p in parts)


@click.command("compare")
@click.argument("rules_a")
@click.argument("rules_b")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Folder for the experiment file, its dataset (DIR/data) and the report.")
@click.option("--players", default="2,3", show_default=True, callback=_players, help="Player counts, e.g. 2,3.")
@click.option("--games", type=click.IntRange(min=1), default=300, show_default=True,
              help="Games per player count, minor draw and rules file.")
@click.option("--population", "populations", multiple=True, metavar="SPEC",
              help=f"A policy in every seat (repeat for several populations; default {DEFAULT_POPULATION}).")
@click.option("--seed", type=Seed(), default=1, show_default=True, help="Root seed of the games.")
@click.option("--jobs", type=click.IntRange(min=1), help="Worker processes (default: all cores).")
@click.option("--resume", is_flag=True, help="Finish an interrupted comparison in --out.")
@one_line_errors
def command(rules_a: str, rules_b: str, out_dir: str, players: tuple[int, ...], games: int,
            populations: tuple[str, ...], seed: int, jobs: int | None, resume: bool) -> None:
    """Play RULES_A and RULES_B (rules files, or `default`) as variants A and B on the same
    seeds, players and seatings, and write one report: every tested fact of each, side by
    side with its difference, the paired per-game differences, and what to change in B
    relative to A."""
    from policies import PolicyError

    from menorca_sim.analysis.report import build_report
    from menorca_sim.run.comparison import comparison_toml
    from menorca_sim.run.experiment import check_policy_spec, load_experiment
    from menorca_sim.run.runner import RunWarning, run_experiment

    for rules in (rules_a, rules_b):
        if rules != "default" and not Path(rules).is_file():
            fail(f"{rules}: no such rules file (give a ruleset TOML, or `default` for the built-in rules)")
    for spec in populations:
        try:
            check_policy_spec(spec)
        except PolicyError as exc:
            fail(f"--population {spec!r}: {exc}")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        fail(f"--out {out}: not a folder")
    if not resume and (out / "data").exists():
        fail(f"--out {out}: it holds a comparison already (--resume finishes it; or give another folder)")
    text = comparison_toml(rules_a, rules_b, players, games, populations or (DEFAULT_POPULATION,), seed)
    experiment = out / "compare.toml"
    if resume and experiment.is_file() and experiment.read_text(encoding="utf-8") != text:
        fail(f"--resume: these rules files and options differ from those of the comparison in {out} "
             f"({experiment}); give the same ones, or another --out")
    out.mkdir(parents=True, exist_ok=True)
    experiment.write_text(text, encoding="utf-8")
    exp = load_experiment(experiment, check_policy=check_policy_spec)
    with interruptible("finished chunks are kept; run again with --resume to finish"), one_line_warnings(RunWarning):
        summary = run_experiment(exp, out / "data", jobs=jobs, resume=resume, progress=sys.stderr.isatty())
    click.echo(summary.line())
    if summary.stopped_by:
        raise SystemExit(1)
    files = build_report(out / "data", out)
    click.echo(f"{files.index} ({len(files.charts)} charts), {files.summary}")
