"""The `states` table's rows (menorca_sim/run/outcomes.py): every seat's feature vector
(menorca_sim/value/features.py) at each snapshot of a game's trajectory, labelled at the
end with the seat's final win share. Recorded only when the experiment asks
(`record_states`): the features read what-if revenues, which a default run need not pay for."""
from __future__ import annotations

from typing import Any, Sequence

from menorca_sim.game import Game
from menorca_sim.value.features import FEATURES, seat_features


class StateRecorder:
    """Called by a `Trajectory` at each of its snapshots (`Trajectory(on_snapshot=...)`)."""

    def __init__(self) -> None:
        self._rows: list[dict[str, Any]] = []

    def __call__(self, game: Game, ors: int) -> None:
        if game.is_over():  # its outcome is known: a search reads the result there, not a value
            return
        for seat, row in enumerate(seat_features(game).tolist()):
            self._rows.append({"or": ors, "seat": seat, **dict(zip(FEATURES, row))})

    def rows(self, win_share: Sequence[float]) -> list[dict[str, Any]]:
        """The rows so far, each with its seat's final `win_share` (the label to learn)."""
        return [{**row, "win_share": win_share[row["seat"]]} for row in self._rows]
