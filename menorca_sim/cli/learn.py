"""`menorca-sim learn DATASETS... --out policies/models/NAME`: train the learned value."""
from __future__ import annotations

import click

from menorca_sim.cli.errors import fail, one_line_errors


@click.command("learn")
@click.argument("datasets", nargs=-1, required=True, type=click.Path(file_okay=False))
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="The model folder to write (a new or empty one), e.g. policies/models/value_v2.")
@click.option("--trees", type=click.IntRange(min=1), default=150, show_default=True, help="Boosted trees.")
@click.option("--depth", type=click.IntRange(min=1, max=12), default=5, show_default=True, help="Depth of each tree.")
@click.option("--model", "kind", type=click.Choice(["trees", "perceptron"]), default="trees", show_default=True,
              help="Boosted trees, or a perceptron (a smooth reading; docs/strong-players.md).")
@click.option("--hidden", default="64,64", show_default=True, help="The perceptron's hidden layers' sizes.")
@click.option("--epochs", type=click.IntRange(min=1), default=30, show_default=True,
              help="The perceptron's passes over the rows.")
@click.option("--kind-weight", "kind_weights", multiple=True, metavar="KIND=W",
              help="Rows of that snapshot kind count W times more (repeatable), e.g. auction=10.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the held-out split and of the fit.")
@click.option("--compare", multiple=True, type=click.Path(file_okay=False),
              help="Another model folder to score on the same held-out rows (repeatable), e.g. policies/models/value_v1.")
@one_line_errors
def command(datasets: tuple[str, ...], out: str, kind: str, trees: int, depth: int, hidden: str, epochs: int,
            kind_weights: tuple[str, ...], seed: int, compare: tuple[str, ...]) -> None:
    """Fit each seat's final win share to its features at each snapshot (after the
    auction, after each OR, at a sample of the searched decisions), from the states
    tables of DATASETS (made by `run --record-states`); a fifth of the games is held out
    to score the model against the wealth share read at the same point. A dataset may
    name the rows it gives after its folder: `reports/value_data/data:players=3` gives
    its 3-player rows only (any column of the states table, values comma-separated),
    and how much each of them counts: `reports/value_data_g5/data:kind=leaf:weight=10`
    gives its leaves (`record_leaves`), each counted ten times."""
    from menorca_sim.learn.train import LearnError, Settings, kind_weight, learn

    try:
        settings = Settings(model=kind, trees=trees, depth=depth, hidden=_sizes(hidden), epochs=epochs,
                            kind_weights=tuple(map(kind_weight, kind_weights)), seed=seed)
        meta = learn(datasets, out, settings, compare)
    except LearnError as exc:
        fail(str(exc))
    loss, training = meta["held_out_log_loss"], meta["training"]
    click.echo(f"{out}: {training['games']} games trained on, {training['held_out_games']} held out; "
               f"who-wins log-loss {loss['model']:.4f} (wealth share {loss['wealth_share']:.4f})")
    for kind, by in loss["by_kind"].items():
        click.echo(f"  at {kind} snapshots: {by['model']:.4f} (wealth share {by['wealth_share']:.4f})")
    for name, other in loss.get("compared", {}).items():
        click.echo(f"  {name} on the same rows: " + ", ".join(f"{k} {v:.4f}" for k, v in other.items()))


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1:
        fail(f"--hidden: the hidden layers' sizes, positive whole numbers separated by commas, not {text!r}")
    return sizes
