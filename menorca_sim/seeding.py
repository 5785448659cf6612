"""Every seed and random stream: a game's streams from its seed, and the seeds of an
experiment's games, derived from (root seed, cell, game index) alone.

A game's seed has independent streams, the children of its SeedSequence: the first for
its setup draws (the Game's), then one per seat (that seat's policy's generator), so no
player's draws move another's. Each is built where it is used, from the seed and its
child's number alone (what `SeedSequence(seed).spawn(...)` would give it), so no stream
is built twice and a seat's does not depend on the player count.

A cell is keyed by what it is, (player count, minor draw number), not by its position
in the experiment, so the same root seed gives a cell the same games in every experiment
that has it. Nothing here depends on how games are scheduled (jobs, chunk size, backend,
order), and the variant is not part of the key: the same game in two variants gets the
same seed, so variant differences are paired (common random numbers)."""
from __future__ import annotations

import numpy as np

CellKey = tuple[int, int]  # (players, minor draw number; 0 = drawn by the engine)

# Extra spawn-key entry of the stream that seats policies (seating = "random"); the
# game seed uses the shorter key, so the two streams are independent.
_SEATING_STREAM = 1
_SETUP_CHILD = 0  # the setup's child of a game's seed; seat i's is child i + 1


def setup_stream(seed: int) -> np.random.SeedSequence:
    """The stream of the setup draws (minors, legacies, events) of the game seeded `seed`."""
    return np.random.SeedSequence(seed, spawn_key=(_SETUP_CHILD,))


def seat_stream(seed: int, seat: int) -> np.random.SeedSequence:
    """The stream of seat `seat`'s policy in the game seeded `seed`."""
    return np.random.SeedSequence(seed, spawn_key=(_SETUP_CHILD + 1 + seat,))


def seat_rngs(seed: int, players: int) -> list[np.random.Generator]:
    """One generator per seat of the game seeded `seed`, for its policies."""
    return [np.random.default_rng(seat_stream(seed, seat)) for seat in range(players)]


def game_seed(root: int, cell: CellKey, game_index: int) -> int:
    """The seed of game `game_index` of `cell`: a non-negative int64."""
    state = np.random.SeedSequence(root, spawn_key=(*cell, game_index)).generate_state(1, np.uint64)
    return int(state[0] >> np.uint64(1))


def seating_rng(root: int, cell: CellKey, game_index: int) -> np.random.Generator:
    """The generator that draws the seating of one game when seats are random."""
    return np.random.default_rng(np.random.SeedSequence(root, spawn_key=(*cell, game_index, _SEATING_STREAM)))
