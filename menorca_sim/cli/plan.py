"""`menorca-sim plan`: how many games a study needs for the effect it should find."""
from __future__ import annotations

import math

import click

from menorca_sim.cli.errors import Finite, one_line_errors
from menorca_sim.run.experiment import ALPHA_MAX, POWER, check_policy_spec, load_experiment


@click.command("plan")
@click.argument("experiment", type=click.Path(dir_okay=False))
@click.option("--effect", type=Finite(), callback=lambda ctx, param, effect: _non_zero(effect),
              help="The smallest effect worth finding: a win-share difference (0.03 = 3 points) or, with "
                   "--pilot, a difference in the pilot's --metric.")
@click.option("--power", type=Finite(*POWER), default=0.8, show_default=True)
@click.option("--alpha", type=Finite(0, ALPHA_MAX, min_open=True), default=0.05, show_default=True)
@click.option("--tests", type=click.IntRange(min=1), default=1, show_default=True,
              help="Comparisons the report will correct together (the level is alpha / tests, a bound on Holm's).")
@click.option("--pilot", type=click.Path(file_okay=False), help="A pilot dataset with two variants on common "
                                                              "seeds: plan a paired variant comparison.")
@click.option("--metric", default="ors", show_default=True, help="The games-table column the pilot's pairs compare.")
@click.option("--interval", type=Finite(0, None, min_open=True),
              help="Instead of --effect, with --pilot: the games for every value by random assignment the pilot "
                   "reads to have an interval of at most +-INTERVAL.")
@one_line_errors
def command(experiment: str, effect: float | None, power: float, alpha: float, tests: int, pilot: str | None,
            metric: str, interval: float | None) -> None:
    """Print the games EXPERIMENT needs per cell to find EFFECT with the given power:
    a seat's win share against its fair share, or (with --pilot) a paired difference
    between two variants, counting the gain of common seeds measured on the pilot; or
    (--interval with --pilot) to read each value by random assignment within +-INTERVAL."""
    from menorca_sim.analysis import planning

    if (effect is None) == (interval is None):
        raise click.UsageError("give either --effect or --interval")
    if interval is not None and not pilot:
        raise click.UsageError("--interval scales a pilot's intervals: give --pilot DIRECTORY")
    exp = load_experiment(experiment, check_policy=check_policy_spec)
    if interval is not None:
        for line in planning.value_plan(pilot, interval):
            click.echo(line)
        return
    level = alpha / tests
    if pilot:
        pairing = planning.pilot_pairing(pilot, metric)
        pairs = planning.games_for_paired(pairing.sd_difference, effect, level, power)
        click.echo(f"{exp.name}: a paired difference of {effect:g} in {metric} (spread of the per-seed "
                   f"differences {pairing.sd_difference:.3g} over {pairing.pairs} pilot pairs) needs {pairs} games "
                   f"per variant; pairing on common seeds saves a factor {pairing.gain:.2g} "
                   f"({math.ceil(pairs * pairing.gain)} games per variant with independent seeds).")
        return
    for line in planning.seat_plan(exp, effect, power, level):
        click.echo(line)


def _non_zero(effect: float | None) -> float | None:
    if effect == 0:
        raise click.BadParameter("expected a non-zero effect (0.03 = 3 points of win share)", param_hint="'--effect'")
    return effect
