"""`menorca-sim balance`: a price list from play (menorca_sim/tuning/balance.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from menorca_sim.cli.errors import fail, interruptible, one_line_errors, one_line_warnings


@click.command("balance")
@click.argument("balance_file", type=click.Path(dir_okay=False))
@click.option("--out", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Folder of the solve: state.json, each iteration's games, suggested.toml, summary.md.")
@click.option("--jobs", type=click.IntRange(min=1), help="Worker processes (default: all cores).")
@click.option("--games", type=click.IntRange(min=1), help="Games per cell and variant (replaces the file's).")
@one_line_errors
def command(balance_file: str, out_dir: str, jobs: int | None, games: int | None) -> None:
    """Move the prices BALANCE_FILE names (legacies' list prices, seats' extra cash)
    until each is its own value measured by play, on common seeds; then confirm them on
    fresh seeds at the file's confirming populations. Resumes a killed solve in --out."""
    import dataclasses

    from tqdm import tqdm

    from menorca_sim.run.experiment import ExperimentError, check_policy_spec, load_experiment
    from menorca_sim.run.runner import RunWarning, run_experiment
    from menorca_sim.tuning import price_list
    from menorca_sim.tuning.balance import solve
    from menorca_sim.tuning.balance_spec import BalanceError, load_balance

    try:
        spec = load_balance(balance_file)
    except BalanceError as exc:
        fail(str(exc))
    if games is not None:
        spec = dataclasses.replace(spec, header={**spec.header, "games": games})
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        fail(f"--out {out}: not a folder")

    def play(text: str, folder: Path) -> None:
        experiment = folder / "measure.toml"
        experiment.write_text(text, encoding="utf-8")
        try:
            exp = load_experiment(experiment, check_policy=check_policy_spec)
        except ExperimentError as exc:  # the measurement is the balance file's: say so
            fail(f"{balance_file} (as {experiment}): {exc.key}: {exc.problem}")
        summary = run_experiment(exp, folder / "data", jobs=jobs, resume=(folder / "data").exists())
        if summary.stopped_by or summary.errors:
            fail(f"{folder / 'data'}: {summary.line()}")

    steps = spec.iterations + 1
    with interruptible(f"{out / 'state.json'} holds every finished iteration; the same command resumes"), \
            one_line_warnings(RunWarning), \
            tqdm(total=steps, unit="step", disable=not sys.stderr.isatty(), dynamic_ncols=True) as bar:
        started: list[str] = []

        def progress(what: str) -> None:  # called as each step begins: the one before is done
            bar.update(1 if started else 0)
            started.append(what)
            bar.set_description(what)

        try:
            state = solve(spec, out, play, progress)
        except BalanceError as exc:
            fail(str(exc))
        bar.update(steps - bar.n)
    price_list.write(spec, state, out, f"menorca-sim balance {balance_file}")
    met, missed = price_list.verdict(state)
    click.echo(f"{len(price_list.changed(spec, state))} of {len(spec.keys)} keys changed in "
               f"{len(state['iterations'])} iterations; confirmation: "
               + ("every target met" if met else f"{len(missed)} not met") + f"; wrote {out / price_list.SUMMARY}")
