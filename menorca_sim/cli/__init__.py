"""`menorca-sim`: the command line. Each subcommand lives in its own module."""
from __future__ import annotations

import click

from menorca_sim.cli import average_models, balance, compare, fuzz, learn, plan, play, report, rules, run, show, tune
from menorca_sim.cli.errors import OneLineGroup


@click.group(cls=OneLineGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="menorca-sim")
def main() -> None:
    """Simulate 1713 Menorca and report on its balance."""


for _module in (rules, play, run, report, compare, plan, fuzz, show, tune, learn, average_models, balance):
    main.add_command(_module.command)
