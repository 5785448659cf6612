"""The `states` table's rows (menorca_sim/run/outcomes.py): every seat's feature vector
(menorca_sim/value/features.py) at snapshots of a game, labelled at the end with the
seat's final win share. Recorded only when the experiment asks (`record_states`): the
features read what-if revenues, which a default run need not pay for.

Two kinds of snapshot: those of the game's trajectory (right after the auction and after
each OR: `kind` "auction" and "or"), and a sample of the decisions a search reads the
learned value at (`kind` "decision": the decisions `mcts` searches with the model, with
more than one legal action), where a model trained on the trajectory's states alone
reads states it has not seen. The sample is drawn by a hash of (game seed, actions
applied), never from a generator of the game or its players, so recording changes no game."""
from __future__ import annotations

import hashlib
from typing import Any, Sequence

from menorca_sim.game import Game
from menorca_sim.value.features import FEATURES, seat_features
from policies.mcts import SEARCHED_BY_MODEL

DECISION_RATE = 0.2
"""The share of the searched decisions recorded: a heuristic game has 150 to 180 of them
with a choice, and states a few actions apart say nearly the same: a fifth keeps a few
dozen per game."""


class StateRecorder:
    """Called by a `Trajectory` at each of its snapshots (`Trajectory(on_snapshot=...)`),
    and by the play loop after each action (`at_decision`)."""

    def __init__(self) -> None:
        self._rows: list[dict[str, Any]] = []

    def __call__(self, game: Game, ors: int) -> None:
        self._record(game, "auction" if ors == 0 else "or")

    def at_decision(self, game: Game) -> None:
        """Record the state when its decision is a searched one, with a choice, and sampled."""
        if not game.is_over() and game.decision() in SEARCHED_BY_MODEL and game.legal_count() > 1 \
                and sampled(game.seed, game.action_count()):
            self._record(game, "decision")

    def _record(self, game: Game, kind: str) -> None:
        if game.is_over():  # its outcome is known: a search reads the result there, not a value
            return
        head = {"kind": kind, "action": game.action_count(), "or": game.ors_played()}
        for seat, row in enumerate(seat_features(game).tolist()):
            self._rows.append({**head, "seat": seat, **dict(zip(FEATURES, row))})

    def rows(self, win_share: Sequence[float]) -> list[dict[str, Any]]:
        """The rows so far, each with its seat's final `win_share` (the label to learn)."""
        return [{**row, "win_share": win_share[row["seat"]]} for row in self._rows]


def sampled(seed: int, action: int, rate: float = DECISION_RATE) -> bool:
    """Whether the decision after `action` actions of the game of `seed` is recorded."""
    digest = hashlib.blake2b(f"{seed}:{action}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") < rate * 2 ** 64
