"""`menorca-sim learn`: fit the learned value to the `states` tables of self-play datasets.

The model is scikit-learn's HistGradientBoostingClassifier: a well-kept library already
in the scientific stack the project uses (numpy, scipy), deterministic for a given
`random_state`, fast on tens of thousands of rows, and its fitted trees (depth-limited)
export to the arrays of `model.ValueModel`, so play never imports it. LightGBM would fit
as well but brings a native library and OpenMP for no gain at this size. With
`model="perceptron"` it is scikit-learn's MLPClassifier instead, exported to the arrays
of `perceptron.Perceptron`: a smooth reading, which the search's deeper trees need
(docs/strong-players.md, "A smooth value"); it is fitted on one thread (threadpoolctl,
scikit-learn's own dependency) so that the same data give the same model anywhere.

Each row is a seat at a snapshot; the target is the seat's final win share w, fitted as
a classifier of "wins" with the row counted w times as a win and 1 - w times as a loss
(a shared win counts half). The seats' chances are then scaled to sum to one per
snapshot (`ValueModel.win_shares`). Held-out rows are whole games (split by game, never
rows of one game on both sides), scored by the log-loss of "who wins" at each
snapshot, against the wealth share read at the same point, over all snapshots and by
their kind (after the auction, after an OR, at a searched decision); other models
(`compare`) are scored on the same held-out rows, each reading its own columns."""
from __future__ import annotations

import dataclasses
import hashlib
import math
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import polars as pl

from menorca_sim.run import parquet_store as store
from menorca_sim.value.features import FEATURES
from menorca_sim.value.model import ModelError, Value, check_new_folder, from_histgb, load_model
from menorca_sim.value.perceptron import Perceptron, from_mlp

HELD_OUT = 0.2  # share of the games held out
MIN_GAMES = 10  # fewer: no held-out games worth a log-loss
SNAPSHOT = ("dataset", "game_id", "variant", "kind", "action")  # the columns that name a snapshot


class LearnError(Exception):
    """Input `learn` cannot train on; the message is one line."""


@dataclass(frozen=True)
class Settings:
    """The fit's knobs (defaults: the committed trees')."""
    model: str = "trees"  # boosted trees, or a perceptron (menorca_sim/value/perceptron.py)
    trees: int = 150
    depth: int = 5
    learning_rate: float = 0.1
    hidden: tuple[int, ...] = (64, 64)  # the perceptron's hidden layers
    epochs: int = 30  # the perceptron's passes over the rows
    kind_weights: tuple[tuple[str, float], ...] = ()  # (kind, w): rows of that snapshot kind count w times more
    seed: int = 0  # the held-out split's and the fit's


def load_states(datasets: Sequence[str | Path]) -> pl.DataFrame:
    """The `states` rows of each dataset (checked part by part, as `report` does), with a
    `dataset` column (its position in `datasets`) so that game ids of two datasets stay
    apart. A dataset may name the rows to keep after its folder (`select_rows`):
    `reports/value_data/data:players=3` keeps its 3-player rows only; and how much each
    of its rows counts in the fit (a `weight` column): `...:kind=leaf:weight=10` counts
    its leaves ten times, so that a few thousand of them weigh against the hundreds of
    thousands of the trajectories' rows."""
    frames = []
    for i, spec in enumerate(map(str, datasets)):
        folder, selection, weight = _dataset_spec(spec)
        if not (folder / store.MANIFEST).is_file():
            raise LearnError(f"{folder}: not a dataset folder (no {store.MANIFEST})")
        with store.CheckedDataset(folder) as checked:
            manifest = store.read_manifest(checked.path) or {}
            if "states" not in store.dataset_tables(manifest):
                raise LearnError(f"{folder}: the dataset has no states table (run its experiment with "
                                 f"--record-states, or record_states = true in the file)")
            frame = pl.from_arrow(store.read_table(checked.path, "states"))
        missing = [name for name in (*SNAPSHOT[2:], *FEATURES) if name not in frame.columns]
        if missing:
            raise LearnError(f"{folder}: its states table lacks the columns {', '.join(missing)} (recorded by an "
                             f"older version: run its experiment again)")
        frames.append(select_rows(frame, selection, spec).with_columns(dataset=pl.lit(i), weight=pl.lit(weight)))
    states = pl.concat(frames)
    games = states.select("dataset", "game_id").n_unique()
    if games < MIN_GAMES:
        raise LearnError(f"{', '.join(map(str, datasets))}: {games} games with states; at least {MIN_GAMES} are "
                         f"needed to hold some out")
    return states


def select_rows(frame: pl.DataFrame, selection: dict[str, list[str]], spec: str) -> pl.DataFrame:
    """The rows of `frame` whose every selected column holds one of its listed values
    (`players=2,3`: 2- and 3-player rows), read as the column's type; `spec` names the
    dataset in errors."""
    for column, values in selection.items():
        if column not in frame.columns:
            raise LearnError(f"{spec}: {column!r} is not a column of the states table (one of "
                             f"{', '.join(frame.columns)})")
        kind = frame.schema[column]
        try:
            wanted = [float(v) if kind.is_float() else int(v) if kind.is_integer() else v for v in values]
        except ValueError:
            numbers = "numbers" if kind.is_float() else "whole numbers"
            raise LearnError(f"{spec}: {column} holds {numbers}, not {','.join(values)!r}") from None
        frame = frame.filter(pl.col(column).is_in(wanted))
        if frame.is_empty():
            raise LearnError(f"{spec}: no rows have {column} in {','.join(values)}")
    return frame


def _dataset_spec(spec: str) -> tuple[Path, dict[str, list[str]], float]:
    """`FOLDER` or `FOLDER:COLUMN=V1,V2[:COLUMN=...][:weight=W]`: the folder, the values
    kept per column and the weight of its rows (1 unless given)."""
    if Path(spec).is_dir() or "=" not in spec:
        return Path(spec), {}, 1.0
    folder, *terms = spec.split(":")
    selection, weight = {}, None
    for term in terms:
        column, sep, values = term.partition("=")
        if column == "weight" and sep and weight is None:
            weight = _weight(spec, values)
            continue
        if not sep or not column or not values or column in selection or column == "weight":
            raise LearnError(f"{spec}: the rows to keep are named COLUMN=VALUE[,VALUE...] after the folder "
                             f"(e.g. {folder}:players=3), and their weight weight=W, not {term!r}")
        selection[column] = values.split(",")
    return Path(folder), selection, 1.0 if weight is None else weight


def kind_weight(text: str) -> tuple[str, float]:
    """`KIND=W` (learn's --kind-weight) as (kind, W), W checked as a dataset's weight is."""
    kind, sep, value = text.partition("=")
    if not kind or not sep:
        raise LearnError(f"--kind-weight: KIND=W with W a positive number (e.g. auction=10), not {text!r}")
    return kind, _weight(f"--kind-weight {text}", value)


def _weight(spec: str, text: str) -> float:
    try:
        weight = float(text)
    except ValueError:
        weight = math.nan
    if not (math.isfinite(weight) and weight > 0):
        raise LearnError(f"{spec}: weight is how much each of its rows counts, a positive number, not {text!r}")
    return weight


def split_by_game(states: pl.DataFrame, held_out: float = HELD_OUT, seed: int = 0) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(training rows, held-out rows): each game wholly on one side, about `held_out` of
    the games held out, chosen by a hash of (seed, dataset, game id)."""
    def side(dataset: int, game_id: int) -> bool:
        digest = hashlib.blake2b(f"{seed}:{dataset}:{game_id}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big") / 2 ** 64 < held_out

    keys = states.select("dataset", "game_id").unique()
    keys = keys.with_columns(held=pl.Series([side(d, g) for d, g in keys.iter_rows()], dtype=pl.Boolean))
    tagged = states.join(keys, on=["dataset", "game_id"])
    return tagged.filter(~pl.col("held")).drop("held"), tagged.filter(pl.col("held")).drop("held")


def who_wins_log_loss(states: pl.DataFrame, shares: np.ndarray) -> float:
    """The mean over snapshots of -sum(w_i log q_i): w the seats' final win shares, q the
    predicted `shares` of the rows (one per row, normalised per snapshot here)."""
    frame = states.select(*SNAPSHOT, "win_share").with_columns(q=pl.Series(np.asarray(shares, dtype=float)))
    frame = frame.with_columns(q=(pl.col("q") / pl.col("q").sum().over(SNAPSHOT)).clip(1e-6, 1.0))
    per = frame.group_by(SNAPSHOT).agg(loss=-(pl.col("win_share") * pl.col("q").log()).sum())
    return float(per["loss"].mean())


def log_losses(states: pl.DataFrame, shares: np.ndarray) -> dict[str, float]:
    """`who_wins_log_loss` over all the rows ("all") and over each kind of snapshot."""
    shares = np.asarray(shares, dtype=float)
    losses = {"all": who_wins_log_loss(states, shares)}
    for kind in sorted(states["kind"].unique()):
        mask = (states["kind"] == kind).to_numpy()
        losses[kind] = who_wins_log_loss(states.filter(mask), shares[mask])
    return {key: round(loss, 4) for key, loss in losses.items()}


def model_shares(model: Value, states: pl.DataFrame) -> np.ndarray:
    """The model's chance that each row's seat wins (before the scaling per snapshot),
    read from the columns the model names."""
    return 1.0 / (1.0 + np.exp(-model.scores(states.select(model.features).to_numpy())))


def fit(train: pl.DataFrame, settings: Settings) -> Value:
    """The classifier of "wins" fitted to the rows, weighted by win share (see above),
    by their dataset's `weight`, if any, and by their kind's (`kind_weights`)."""
    x = train.select(FEATURES).to_numpy()
    w = train["win_share"].to_numpy()
    counts = train["weight"].to_numpy() if "weight" in train.columns else np.ones(len(w))
    kinds = train["kind"].to_numpy()
    for kind, weight in settings.kind_weights:
        counts = np.where(kinds == kind, counts * weight, counts)
    x2, y2 = np.vstack([x, x]), np.r_[np.ones(len(w)), np.zeros(len(w))]
    weights = np.r_[w * counts, (1.0 - w) * counts]
    if settings.model == "perceptron":
        return _fit_perceptron(x2, y2, weights, settings)
    from sklearn.ensemble import HistGradientBoostingClassifier

    classifier = HistGradientBoostingClassifier(
        max_iter=settings.trees, max_depth=settings.depth, learning_rate=settings.learning_rate,
        early_stopping=False, random_state=settings.seed)
    classifier.fit(x2, y2, sample_weight=weights)
    return from_histgb(classifier, settings.depth, FEATURES)


def _fit_perceptron(x: np.ndarray, y: np.ndarray, weights: np.ndarray, settings: Settings) -> Perceptron:
    """scikit-learn's MLPClassifier (the library that fits the trees; it takes the same
    weights), on standardised columns, a fixed number of epochs without early stopping
    (whose validation rows would mix games), on one thread: the same fit on any machine."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier
    from threadpoolctl import threadpool_limits

    half = x[: len(x) // 2]
    mean, scale = half.mean(axis=0), half.std(axis=0)
    scale[scale == 0] = 1.0
    classifier = MLPClassifier(hidden_layer_sizes=settings.hidden, activation="relu", alpha=1e-4, batch_size=1024,
                               learning_rate_init=1e-3, max_iter=settings.epochs, early_stopping=False,
                               random_state=settings.seed, tol=0.0, n_iter_no_change=settings.epochs + 1)
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # a fixed number of epochs is the point
        classifier.fit((x - mean) / scale, y, sample_weight=weights)
    return from_mlp(classifier, mean, scale, FEATURES)


def learn(datasets: Sequence[str | Path], out: str | Path, settings: Settings = Settings(),
          compare: Sequence[str | Path] = ()) -> dict[str, Any]:
    """Train on the datasets' states, score on held-out games (and the models `compare`
    on the same rows), write the model folder `out`; returns its metadata (what
    meta.json holds besides the features)."""
    out = Path(out)
    try:
        check_new_folder(out)
        others = {str(folder): load_model(folder) for folder in compare}
    except ModelError as exc:
        raise LearnError(str(exc)) from None
    states = load_states(datasets)
    train, test = split_by_game(states, seed=settings.seed)
    if train.is_empty() or test.is_empty():
        raise LearnError(f"{', '.join(map(str, datasets))}: too few games to hold some out")
    began = time.perf_counter()
    model = fit(train, settings)
    fit_s = time.perf_counter() - began
    model_loss, wealth_loss = log_losses(test, model_shares(model, test)), log_losses(test, test["wealth_share"])
    meta = {
        "training": {"datasets": [str(d) for d in datasets], "rows": train.height, "held_out_rows": test.height,
                     "games": _games(train), "held_out_games": _games(test), "held_out": HELD_OUT,
                     "settings": _settings_meta(settings), "fit_s": round(fit_s, 1)},
        "held_out_log_loss": {"model": model_loss["all"], "wealth_share": wealth_loss["all"],
                              "snapshots": _snapshots(test),
                              "by_kind": {kind: {"model": model_loss[kind], "wealth_share": wealth_loss[kind]}
                                          for kind in model_loss if kind != "all"},
                              **({"compared": {name: log_losses(test, model_shares(other, test))
                                               for name, other in others.items()}} if others else {})},
    }
    model.save(out, meta)
    return meta


def _settings_meta(settings: Settings) -> dict[str, Any]:
    """The settings the fit used (a model of trees records what it always has)."""
    used = dataclasses.asdict(settings)
    if settings.model == "trees":
        return {key: used[key] for key in ("trees", "depth", "learning_rate", "seed")}
    return {key: used[key] for key in ("model", "hidden", "epochs", "kind_weights", "seed")}


def _games(rows: pl.DataFrame) -> int:
    return rows.select("dataset", "game_id").n_unique()


def _snapshots(rows: pl.DataFrame) -> dict[str, int]:
    """Snapshots by kind."""
    counts = rows.select(SNAPSHOT).unique().group_by("kind").len()
    return dict(sorted(zip(counts["kind"].to_list(), counts["len"].to_list())))
