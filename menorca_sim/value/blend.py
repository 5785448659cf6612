"""Learned values of different kinds as one: their log-odds averaged.

Trees of several models average into one model of trees (model.py, `average`); a
perceptron and trees do not. A blend keeps each member and averages their raw scores,
so a perceptron's smooth reading of siblings is bounded by the trees' flat one where it
would extrapolate (docs/strong-players.md, "A smooth value").

On disk, a model folder holds `meta.json` (`"kind": "blend"`, its members' subfolders in
order) and each member's own folder beside it (`member0/`, `member1/`, ...), so the
folder is whole by itself."""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from menorca_sim.value.features import columns, seat_features
from menorca_sim.value.perceptron import shares_of

if TYPE_CHECKING:
    from menorca_sim.game import Game

KIND = "blend"
META_FILE = "meta.json"


@dataclass(frozen=True)
class Blend:
    """Models read on their own columns, their raw scores averaged."""
    members: tuple[Any, ...]

    def __post_init__(self) -> None:
        features = tuple(dict.fromkeys(name for member in self.members for name in member.features))
        object.__setattr__(self, "features", features)
        # each member's columns, by position in `features` and in FEATURES
        object.__setattr__(self, "_own", [list(map(features.index, member.features)) for member in self.members])
        object.__setattr__(self, "_picked", columns(features))

    def scores(self, rows: np.ndarray) -> np.ndarray:
        """The mean of the members' raw scores of each row of `rows` (n, len(features))."""
        rows = np.asarray(rows, dtype=float)
        total = sum(np.asarray(member.scores(rows[:, own])) for member, own in zip(self.members, self._own))
        return total / len(self.members)

    def win_shares(self, rows: np.ndarray) -> np.ndarray:
        """The rows of one state's seats as win shares that sum to 1 (as ValueModel's)."""
        return shares_of(self.scores(rows))

    def evaluate(self, game: Game) -> list[float]:
        """Each seat's expected final win share from the state of `game`."""
        return self.win_shares(seat_features(game, self._picked)).tolist()


def write_blend(sources: Sequence[str | Path], out: Path, meta: dict[str, Any]) -> None:
    """The blend of the model folders `sources` as the folder `out` (each member copied
    into it)."""
    out.mkdir(parents=True, exist_ok=True)
    names = [f"member{i}" for i in range(len(sources))]
    for source, name in zip(sources, names):
        shutil.copytree(source, out / name)
    meta = {"kind": KIND, "members": names, **meta}
    (out / META_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


def read_blend(folder: Path, meta: dict[str, Any], load: Any) -> Blend:
    """The blend in `folder` whose meta.json says `meta`, each member read by `load`
    (model.load_model)."""
    names = meta["members"]
    if not isinstance(names, list) or len(names) < 2 or not all(_subfolder(name) for name in names):
        raise ValueError("members must name two or more of its subfolders")
    return Blend(tuple(load(folder / name) for name in names))


def _subfolder(name: Any) -> bool:
    """Whether `name` names a folder inside the blend's own (never its parent or itself)."""
    return isinstance(name, str) and name not in ("", ".", "..") and Path(name).name == name
