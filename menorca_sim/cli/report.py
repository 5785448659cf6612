"""`menorca-sim report DATA_DIR [--out DIR] [--allow-partial]`."""
from __future__ import annotations

import contextlib
import re
import warnings
from pathlib import Path
from typing import Iterator

import click

from menorca_sim.analysis.report import build_report, default_out
from menorca_sim.cli.errors import Seed, one_line_errors
from menorca_sim.run import parquet_store as store


@click.command("report")
@click.argument("data_dir", type=click.Path(file_okay=False))
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Folder for index.html, summary.md and the charts (default: reports/NAME/ for the "
                   "reports/NAME/data a run makes, else NAME-report/ beside DATA_DIR, NAME the experiment's; "
                   "never another dataset's report).")
@click.option("--seed", type=Seed(), default=0, show_default=True, help="Seed of the ratings' bootstrap.")
@click.option("--allow-partial", is_flag=True,
              help="Report a damaged dataset from its sound chunks (saying so at the top) instead of refusing it.")
@one_line_errors
def command(data_dir: str, out_dir: str | None, seed: int, allow_partial: bool) -> None:
    """Write the balance report of the experiment dataset in DATA_DIR. Every part file is
    checked first: a damaged one (truncated, empty, foreign, not the bytes the manifest
    records) is named and the dataset refused, unless --allow-partial."""
    data = Path(data_dir)
    with store.CheckedDataset(data, allow_partial) as checked, _missing_glyphs_told_once():
        if not checked.check.damaged:
            files = build_report(data, out_dir, seed=seed)
        else:
            files = build_report(checked.path, out_dir or default_out(data), seed=seed,
                                 partial=_banner(checked.check), source=data)
    click.echo(f"{files.index} ({len(files.charts)} charts), {files.summary}")


_MISSING_GLYPH = re.compile(r"Glyph \d+ \((.*)\) missing from font\(s\) (.*)\.")


@contextlib.contextmanager
def _missing_glyphs_told_once() -> Iterator[None]:
    """matplotlib warns once per missing glyph and chart (a name in a script its fonts
    lack: dozens of lines); say it in one line, and let other warnings through."""
    with warnings.catch_warnings(record=True) as caught:
        yield
    glyphs, fonts = [], set()
    for w in caught:
        match = _MISSING_GLYPH.fullmatch(str(w.message))
        if match:
            glyphs.append(match[1])
            fonts.add(match[2])
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    if glyphs:
        click.echo(f"warning: the charts' fonts ({', '.join(sorted(fonts))}) lack {len(set(glyphs))} characters of "
                   f"the names they show: those characters are drawn as boxes", err=True)


def _banner(check: store.DatasetCheck) -> str:
    chunks, parts = len(check.left_out), len(check.damaged)
    games = f" ({check.games_left_out} games)" if check.games_left_out is not None else ""
    return (f"Partial dataset: {_count(chunks, 'chunk')}{games} left out of every table, for "
            f"{_count(parts, 'damaged part file')} (first: {check.damaged[0].line()}). "
            f"`menorca-sim run ... --resume` plays {'it' if chunks == 1 else 'them'} again.")


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"
