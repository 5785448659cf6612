"""The learned value's model: gradient-boosted trees stored as arrays, evaluated with numpy.

A search scores many leaves per decision, so evaluation must cost microseconds, not the
milliseconds of a library's predict call. Each tree is stored padded to a perfect binary
tree of the model's depth (a leaf above the bottom repeats its value below itself, its
padding nodes always go left): then every walk takes `depth` steps, the same for every
tree, and a compiled loop (trees.py) walks them all in a few microseconds.

On disk, a model folder (policies/models/NAME/) holds `model.npz` (the arrays) and
`meta.json` (its features in order, how it was trained or averaged, its held-out scores).

An average of several models (`average`, `menorca-sim average-models`) is one model
too: their trees side by side, each leaf divided by the number of models, so a search reads
it as fast as any and no format serves ensembles alone."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence, Union

import numpy as np

from menorca_sim.value import blend, perceptron
from menorca_sim.value.features import FEATURES, columns, seat_features
from menorca_sim.value.trees import Forest

if TYPE_CHECKING:
    from menorca_sim.game import Game

MODEL_FILE = "model.npz"
META_FILE = "meta.json"


class ModelError(Exception):
    """A model folder that cannot be used; the message is one line."""


@dataclass(frozen=True)
class ValueModel:
    """Trees of one binary classifier of "this seat wins", read as win shares of a state."""
    features: tuple[str, ...]
    depth: int
    feature: np.ndarray  # (trees, 2**depth - 1) ints: the column each inner node tests
    threshold: np.ndarray  # (trees, 2**depth - 1) floats: a row goes right when its value is above
    leaf: np.ndarray  # (trees, 2**depth) floats: the raw scores at the bottom
    baseline: float  # the raw score before any tree

    def __post_init__(self) -> None:
        object.__setattr__(self, "_forest", Forest(self.feature, self.threshold, self.leaf, self.baseline, self.depth))
        # the columns it reads, by position in FEATURES (None: all of them, in order)
        object.__setattr__(self, "_picked", None if self.features == FEATURES else columns(self.features))

    def scores(self, rows: np.ndarray) -> np.ndarray:
        """The raw score (log-odds that the seat wins) of each row of `rows` (n, features)."""
        return np.array(self._forest.scores(rows))

    def win_shares(self, rows: np.ndarray) -> np.ndarray:
        """The rows of one state's seats (seat_features) as win shares that sum to 1: each
        seat's chance to win, the seats' chances scaled to one winner."""
        return np.array(self._forest.shares(rows))

    def evaluate(self, game: Game) -> list[float]:
        """Each seat's expected final win share from the state of `game` (`win_shares`
        as Python floats: a search reads one state per leaf, and numpy's cost per call
        outweighs its speed on a few seats)."""
        return self._forest.shares(seat_features(game, self._picked))

    def save(self, folder: Path, meta: dict[str, Any]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(folder / MODEL_FILE, feature=self.feature.astype(np.int16), threshold=self.threshold,
                            leaf=self.leaf, baseline=np.array(self.baseline), depth=np.array(self.depth))
        meta = {"features": list(self.features), "trees": int(self.feature.shape[0]), "depth": self.depth, **meta}
        (folder / META_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


Value = Union[ValueModel, perceptron.Perceptron, blend.Blend]
"""What a search reads its leaves with: each has `features`, `scores(rows)`,
`win_shares(rows)` and `evaluate(game)`."""


def check_new_folder(folder: str | Path) -> None:
    """A ModelError unless `folder` is free for a new model (absent or an empty folder):
    checked before the work that makes the model, so a taken name costs nothing."""
    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ModelError(f"{folder}: exists and is not an empty folder (choose another --out)")


def load_model(folder: str | Path) -> Value:
    """The model in `folder`: trees (ValueModel), a perceptron or a blend of models, as
    its meta.json's `kind` says (trees without one); a ModelError when it is missing,
    damaged, or reads a column this version does not compute (by name: a model reads the
    columns it was trained on, whatever columns were added since)."""
    folder = Path(folder)
    try:
        meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
        kind = meta.get("kind", "trees")
        if kind == blend.KIND:
            return blend.read_blend(folder, meta, load_model)
        features = tuple(meta["features"])
        unknown = [name for name in features if name not in FEATURES]
        if unknown:
            raise ModelError(f"{folder}: the model reads features this version does not compute "
                             f"({', '.join(unknown)}); train it again with `menorca-sim learn`")
        if kind == perceptron.KIND:
            return perceptron.read_perceptron(folder, meta)
        if kind != "trees":
            raise ModelError(f"{folder}: a model of kind {kind!r}, not trees, {perceptron.KIND} or {blend.KIND}")
        with np.load(folder / MODEL_FILE) as arrays:
            model = ValueModel(features, int(arrays["depth"]), arrays["feature"].astype(np.intp),
                               arrays["threshold"], arrays["leaf"], float(arrays["baseline"]))
    except FileNotFoundError as exc:
        raise ModelError(f"{folder}: not a model folder (no {Path(exc.filename).name})") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelError(f"{folder}: damaged model ({type(exc).__name__}: {exc})") from None
    if model.feature.size and not 0 <= model.feature.min() <= model.feature.max() < len(features):
        raise ModelError(f"{folder}: damaged model (its trees test columns beyond the {len(features)} it names)")
    return model


def average(models: Sequence[ValueModel]) -> ValueModel:
    """The models' equal-weight average, as one model: its raw score (log-odds) is the
    mean of theirs. Their trees side by side, each leaf divided by the number of models,
    the baselines averaged; trees shallower than the deepest are padded as `from_histgb`
    pads (a bottom leaf repeats its value below itself, padding nodes go left), and the
    features are the union of theirs in order of first appearance, each tree's columns
    renumbered into it."""
    if not models:
        raise ValueError("no models to average")
    features = tuple(dict.fromkeys(name for model in models for name in model.features))
    depth = max(model.depth for model in models)
    parts = [_padded(model, depth, [features.index(name) for name in model.features]) for model in models]
    feature, threshold, leaf = (np.concatenate([part[i] for part in parts]) for i in range(3))
    return ValueModel(features, depth, feature, threshold, leaf / len(models),
                      sum(model.baseline for model in models) / len(models))


def _padded(model: ValueModel, depth: int, columns: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`model`'s feature, threshold and leaf arrays as trees of `depth` levels, its
    columns renumbered by `columns` (its k-th feature is the average's columns[k])."""
    trees, grow = model.feature.shape[0], depth - model.depth
    feature = np.zeros((trees, 2 ** depth - 1), dtype=np.intp)
    threshold = np.full((trees, 2 ** depth - 1), np.inf)  # padding: always left
    feature[:, :model.feature.shape[1]] = np.asarray(columns, dtype=np.intp)[model.feature]
    threshold[:, :model.threshold.shape[1]] = model.threshold  # breadth first: the top levels come first
    leaf = np.repeat(model.leaf, 2 ** grow, axis=1)  # each old leaf's 2**grow descendants at the bottom
    return feature, threshold, leaf


def from_histgb(classifier: Any, depth: int, features: tuple[str, ...]) -> ValueModel:
    """A fitted scikit-learn HistGradientBoostingClassifier (binary, trees at most
    `depth` deep, no missing values in training, fitted on the columns `features`) as a
    ValueModel. It reads the fitted
    trees' node records (`_predictors`, `_baseline_prediction`: scikit-learn keeps them
    private), so the tests check the two predict the same."""
    trees = [predictors[0].nodes for predictors in classifier._predictors]
    inner, leaves = 2 ** depth - 1, 2 ** depth
    feature = np.zeros((len(trees), inner), dtype=np.intp)
    threshold = np.full((len(trees), inner), np.inf)
    leaf = np.zeros((len(trees), leaves))

    def fill(t: int, nodes: np.ndarray, node: int, pos: int, level: int) -> None:
        record = nodes[node]
        if level == depth:
            if not record["is_leaf"]:
                raise ValueError(f"tree {t} is deeper than {depth}")
            leaf[t, pos - inner] = record["value"]
            return
        if record["is_leaf"]:  # padding: always left, the leaf's value all the way down
            fill(t, nodes, node, 2 * pos + 1, level + 1)
            fill(t, nodes, node, 2 * pos + 2, level + 1)
            return
        feature[t, pos], threshold[t, pos] = record["feature_idx"], record["num_threshold"]
        fill(t, nodes, int(record["left"]), 2 * pos + 1, level + 1)
        fill(t, nodes, int(record["right"]), 2 * pos + 2, level + 1)

    for t, nodes in enumerate(trees):
        fill(t, nodes, 0, 0, 0)
    return ValueModel(features, depth, feature, threshold, leaf,
                      float(np.ravel(classifier._baseline_prediction)[0]))
