"""A learned value that reads smoothly: a small multilayer perceptron, evaluated with numpy.

Boosted trees (model.py) are step functions: two states one move apart read alike unless
a threshold falls between them, and then they differ by a whole step. A perceptron's
reading moves continuously with every column. It extrapolates linearly beyond the
states it was trained on, where trees stay flat: averaged with trees (blend.py) it made
the strongest large search of the pilots (docs/strong-players.md, "A smooth value").

On disk, a model folder holds `model.npz` (each layer's weights `w0, w1, ...` and biases
`b0, b1, ...`; the first layer absorbs the columns' standardisation) and `meta.json`
(`"kind": "perceptron"`, its columns in order, its layer sizes, how it was trained)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from menorca_sim.value.features import FEATURES, columns, seat_features

if TYPE_CHECKING:
    from menorca_sim.game import Game

KIND = "perceptron"
MODEL_FILE = "model.npz"
META_FILE = "meta.json"


@dataclass(frozen=True)
class Perceptron:
    """A binary classifier of "this seat wins": ReLU hidden layers, one logit out."""
    features: tuple[str, ...]
    weights: tuple[np.ndarray, ...]  # per layer, (inputs, outputs)
    biases: tuple[np.ndarray, ...]  # per layer, (outputs,)

    def __post_init__(self) -> None:
        # the columns it reads, by position in FEATURES (None: all of them, in order)
        object.__setattr__(self, "_picked", None if self.features == FEATURES else columns(self.features))

    def scores(self, rows: np.ndarray) -> np.ndarray:
        """The raw score (log-odds that the seat wins) of each row of `rows` (n, features)."""
        h = np.asarray(rows, dtype=float)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return h[:, 0]

    def win_shares(self, rows: np.ndarray) -> np.ndarray:
        """The rows of one state's seats as win shares that sum to 1 (as ValueModel's)."""
        return shares_of(self.scores(rows))

    def evaluate(self, game: Game) -> list[float]:
        """Each seat's expected final win share from the state of `game`."""
        return self.win_shares(seat_features(game, self._picked)).tolist()

    def save(self, folder: Path, meta: dict[str, Any]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        arrays = {f"w{i}": w for i, w in enumerate(self.weights)} | {f"b{i}": b for i, b in enumerate(self.biases)}
        np.savez_compressed(folder / MODEL_FILE, **arrays)
        meta = {"kind": KIND, "features": list(self.features), "layers": [w.shape[1] for w in self.weights], **meta}
        (folder / META_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


def shares_of(scores: np.ndarray) -> np.ndarray:
    """One state's seats' raw scores as win shares: each seat's chance to win (the
    logistic of its score), the chances scaled to one winner."""
    p = 1.0 / (1.0 + np.exp(-scores))
    return p / p.sum()


def read_perceptron(folder: Path, meta: dict[str, Any]) -> Perceptron:
    """The perceptron in `folder` whose meta.json says `meta` (model.load_model checks
    the folder and turns what goes wrong here into a ModelError)."""
    features = tuple(meta["features"])
    with np.load(folder / MODEL_FILE) as arrays:
        layers = len(meta["layers"])
        weights = tuple(np.array(arrays[f"w{i}"], dtype=float) for i in range(layers))
        biases = tuple(np.array(arrays[f"b{i}"], dtype=float) for i in range(layers))
    inputs = len(features)
    for w, b in zip(weights, biases):
        if w.ndim != 2 or w.shape[0] != inputs or b.shape != (w.shape[1],):
            raise ValueError(f"layer shapes {w.shape} and {b.shape} do not follow {inputs} inputs")
        inputs = w.shape[1]
    if inputs != 1:
        raise ValueError(f"the last layer has {inputs} outputs, not 1")
    return Perceptron(features, weights, biases)


def from_mlp(classifier: Any, mean: np.ndarray, scale: np.ndarray, features: tuple[str, ...]) -> Perceptron:
    """A fitted scikit-learn MLPClassifier (ReLU, binary) on the columns `features`
    standardised by `mean` and `scale`, the standardisation folded into its first layer
    (so a search reads raw columns)."""
    weights = [np.array(w, dtype=float) for w in classifier.coefs_]
    biases = [np.array(b, dtype=float) for b in classifier.intercepts_]
    biases[0] = biases[0] - (mean / scale) @ weights[0]
    weights[0] = weights[0] / scale[:, None]
    return Perceptron(features, tuple(weights), tuple(biases))
