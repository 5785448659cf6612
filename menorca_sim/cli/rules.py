"""`menorca-sim rules check|show`."""
from __future__ import annotations

import click

from menorca_sim.rules import RulesetError, load_ruleset


@click.group("rules")
def command() -> None:
    """Check or summarise a ruleset file."""


@command.command("check")
@click.argument("file", type=click.Path(dir_okay=False))
def check(file: str) -> None:
    """Validate FILE: exit 0 with a summary, or exit 2 with the error line."""
    try:
        r = load_ruleset(file)
    except RulesetError as exc:
        click.echo(str(exc), err=True)
        raise SystemExit(2)
    click.echo(f"{file}: ok ({r.name}: {len(r.companies)} companies, {len(r.vehicles)} vehicles, "
               f"{len(r.phases)} phases, {len(r.map.land)} land hexes, {len(r.tiles)} tile types)")
