"""`menorca-sim report DATA_DIR [--out DIR]`."""
from __future__ import annotations

import click

from menorca_sim.analysis.aggregate import DatasetError
from menorca_sim.analysis.report import build_report
from menorca_sim.cli.errors import one_line_errors


@click.command("report")
@click.argument("data_dir", type=click.Path(file_okay=False))
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Folder for index.html, summary.md and the charts (default: DATA_DIR's parent).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the ratings' bootstrap.")
@one_line_errors
def command(data_dir: str, out_dir: str | None, seed: int) -> None:
    """Write the balance report of the experiment dataset in DATA_DIR."""
    try:
        files = build_report(data_dir, out_dir, seed=seed)
    except DatasetError as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(2)
    click.echo(f"{files.index} ({len(files.charts)} charts), {files.summary}")
