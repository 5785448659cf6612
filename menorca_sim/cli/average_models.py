"""`menorca-sim average-models MODELS... --out policies/models/NAME`: several learned
values as one (menorca_sim/value/model.py, `average`)."""
from __future__ import annotations

import json
from pathlib import Path

import click

from menorca_sim.cli.errors import fail, one_line_errors


@click.command("average-models")
@click.argument("models", nargs=-1, required=True, type=click.Path(file_okay=False))
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="The model folder to write (a new or empty one), e.g. policies/models/value_v7.")
@one_line_errors
def command(models: tuple[str, ...], out: str) -> None:
    """Write the equal-weight average of the model folders MODELS (at least two) as one
    model folder: its log-odds that a seat wins are the mean of theirs. Two values fitted
    on different states err in different places, and the search compares sibling moves
    by small differences of the value, which their average reads with less error. Models
    of trees average into one model of trees; with a perceptron among them the folder is
    a blend, each member copied into it (menorca_sim/value/blend.py)."""
    from menorca_sim.value.blend import write_blend
    from menorca_sim.value.model import META_FILE, ModelError, ValueModel, average, check_new_folder, load_model

    if len(models) < 2:
        fail("average-models: name at least two model folders")
    try:
        check_new_folder(out)
        members = [load_model(folder) for folder in models]
    except ModelError as exc:
        fail(str(exc))
    own = {folder: json.loads((Path(folder) / META_FILE).read_text(encoding="utf-8"))
           .get("held_out_log_loss", {}).get("model") for folder in models}
    meta = {"average": {"models": list(models), "members_held_out_log_loss": own}}
    if not all(isinstance(member, ValueModel) for member in members):
        write_blend(models, Path(out), meta)
        click.echo(f"{out}: the blend of {len(models)} models, their log-odds averaged")
        return
    model = average(members)
    model.save(Path(out), meta)
    click.echo(f"{out}: the average of {len(models)} models, {model.feature.shape[0]} trees of depth {model.depth}")
