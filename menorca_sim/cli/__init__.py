"""`menorca-sim`: the command line. Each subcommand lives in its own module."""
from __future__ import annotations

import importlib

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="menorca-sim")
def main() -> None:
    """Simulate 1713 Menorca and report on its balance."""


# Subcommand modules, each exposing `command` (a click command or group).
_SUBCOMMANDS = ("rules", "play", "run", "report")
for _name in _SUBCOMMANDS:
    main.add_command(importlib.import_module(f"menorca_sim.cli.{_name}").command)
