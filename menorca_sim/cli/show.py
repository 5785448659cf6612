"""`menorca-sim show GAME.jsonl [--out DIR]`: the game viewer's page of a game log."""
from __future__ import annotations

from pathlib import Path

import click

from menorca_sim.cli.errors import fail, one_line_errors


@click.command("show")
@click.argument("log_path", metavar="GAME.jsonl", type=click.Path(dir_okay=False))
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Folder for index.html (default: a folder named after the log, beside it).")
@click.option("--rules", "rules_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Ruleset TOML the game was played with (default: the built-in one).")
@one_line_errors
def command(log_path: str, out_dir: str | None, rules_path: str | None) -> None:
    """Write one self-contained HTML page that replays the game in GAME.jsonl: the map
    after any action, the share market, holdings, routes and a line per action."""
    from menorca_sim.rules import load_ruleset
    from menorca_sim.viewer import LogError, write_page

    path = Path(log_path)
    try:
        page = write_page(path, out_dir if out_dir is not None else path.with_suffix(""),
                          load_ruleset(rules_path) if rules_path else None)
    except LogError as exc:
        fail(f"{log_path}: {exc}")
    click.echo(str(page))
