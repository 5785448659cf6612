"""`menorca-sim tune`: search a heuristic preset's parameters by self-play (CMA-ES)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from menorca_sim.cli.errors import fail, interruptible, one_line_errors


@click.command("tune")
@click.argument("tuning_file", type=click.Path(dir_okay=False))
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="The preset file to write (default: policies/presets/NAME.toml, registered as NAME).")
@click.option("--state", type=click.Path(dir_okay=False), default=None,
              help="The search's state, rewritten after every generation (default: OUT.state).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@click.option("--generations", type=click.IntRange(min=1), default=None,
              help="Generations in all (default: the file's); more than a finished state had goes on from it.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="CMA-ES's own seed.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@one_line_errors
def command(tuning_file: str, out: str | None, state: str | None, jobs: int, generations: int | None,
            seed: int, quiet: bool) -> None:
    """Tune the parameters TUNING_FILE names (see menorca_sim/tuning/space.py): each
    generation's candidates play paired games on common seeds, seats rotated, against the
    file's opponents. Resumes from the state file when it holds this plan. Writes the
    best parameters (the search's mean) and the record of every candidate."""
    import dataclasses

    from tqdm import tqdm

    from menorca_sim.tuning.matches import Matches
    from menorca_sim.tuning.preset import default_out, write_preset
    from menorca_sim.tuning.search import TuneError, run_search
    from menorca_sim.tuning.space import load_tune_spec

    spec = load_tune_spec(tuning_file)
    if generations is not None:
        spec = dataclasses.replace(spec, generations=generations)
    out_path = Path(out) if out else default_out(spec.name)
    state_path = Path(state) if state else out_path.with_name(out_path.name + ".state")
    total = spec.generations * spec.popsize * spec.games_per_candidate
    with interruptible(f"{state_path} holds every finished generation; the same command resumes from it"), \
            tqdm(total=total, unit="game", disable=quiet or not sys.stderr.isatty(), dynamic_ncols=True) as bar:
        try:
            record = run_search(spec, Matches(spec, jobs), state_path, seed=seed, advance=bar.update)
        except TuneError as exc:
            fail(str(exc))
    write_preset(out_path, record, f"menorca-sim tune {tuning_file}")
    last = record["generations"][-1]
    click.echo(f"{spec.name}: {len(record['generations'])} generations; best {spec.policy(record['best'])}; "
               f"last generation's win shares {min(c['win_share'] for c in last['candidates']):.3f}.."
               f"{max(c['win_share'] for c in last['candidates']):.3f}; wrote {out_path}")
