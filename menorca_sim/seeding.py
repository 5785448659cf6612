"""Every seed and random stream: a game's streams from its seed, and the seeds of an
experiment's games, derived from (root seed, cell, game index) alone.

A game's seed spawns independent streams: one for its setup draws (the Game's), one per
seat (that seat's policy's generator), so no player's draws move another's.

A cell is keyed by what it is, (player count, minor draw number), not by its position
in the experiment, so the same root seed gives a cell the same games in every experiment
that has it. Nothing here depends on how games are scheduled (jobs, chunk size, backend,
order), and the variant is not part of the key: the same game in two variants gets the
same seed, so variant differences are paired (common random numbers)."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

CellKey = tuple[int, int]  # (players, minor draw number; 0 = drawn by the engine)

# Extra spawn-key entry of the stream that seats policies (seating = "random"); the
# game seed uses the shorter key, so the two streams are independent.
_SEATING_STREAM = 1


class GameStreams(NamedTuple):
    """A game's independent random streams."""
    setup: np.random.SeedSequence  # the Game's setup draws (minors, legacies, events)
    seats: list[np.random.SeedSequence]  # seat i's policy's generator


def game_streams(seed: int, players: int) -> GameStreams:
    """The streams of the game seeded `seed` with `players` seats."""
    setup, *seats = np.random.SeedSequence(seed).spawn(players + 1)
    return GameStreams(setup, seats)


def seat_rngs(seed: int, players: int) -> list[np.random.Generator]:
    """One generator per seat of the game seeded `seed`, for its policies."""
    return [np.random.default_rng(stream) for stream in game_streams(seed, players).seats]


def game_seed(root: int, cell: CellKey, game_index: int) -> int:
    """The seed of game `game_index` of `cell`: a non-negative int64."""
    state = np.random.SeedSequence(root, spawn_key=(*cell, game_index)).generate_state(1, np.uint64)
    return int(state[0] >> np.uint64(1))


def seating_rng(root: int, cell: CellKey, game_index: int) -> np.random.Generator:
    """The generator that draws the seating of one game when seats are random."""
    return np.random.default_rng(np.random.SeedSequence(root, spawn_key=(*cell, game_index, _SEATING_STREAM)))
