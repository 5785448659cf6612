"""The real objective of a search: each candidate plays the opponents on the
generation's seeds, once from every seat (the others' seats filled by the opponents in
turn, the rotation starting one opponent further at each seed, so with two opponents in
2-player games half the seeds face each), with the runner's game player (`chunk_worker.play_one`, so a game here is the game
`menorca-sim play` replays). All candidates of a generation play the same seeds, and so
the same setups: their differences are paired (common random numbers), and a new
generation draws new seeds, so no candidate is tuned to a few lucky setups."""
from __future__ import annotations

import functools
from typing import Any

import numpy as np
from joblib import Parallel, delayed

from menorca_sim.run.experiment import GameSpec
from menorca_sim.rules import Ruleset, load_ruleset
from menorca_sim.tuning.search import Advance, Score
from menorca_sim.tuning.space import MEAN, TuneSpec


def generation_seeds(spec: TuneSpec, generation: int) -> list[int]:
    """The game seeds of one generation (a pure function of the root seed)."""
    return [int(np.random.SeedSequence(spec.seed, spawn_key=(generation, i)).generate_state(1, np.uint64)[0] >> 1)
            for i in range(spec.seeds)]


def lineups(candidate: str, opponents: tuple[str, ...], players: int, first: int = 0) -> list[tuple[str, ...]]:
    """The candidate in each seat in turn, the other seats filled by the opponents in
    order from opponent `first` on (cyclically)."""
    others = [opponents[(first + i) % len(opponents)] for i in range(players - 1)]
    return [tuple(others[:seat] + [candidate] + others[seat:]) for seat in range(players)]


def resolve_opponents(spec: TuneSpec, mean: dict[str, Any]) -> tuple[str, ...]:
    """The file's opponents as policy specs, `MEAN` replaced by the search's current mean."""
    return tuple(spec.policy(mean) if name == MEAN else name for name in spec.opponents)


class Matches:
    """`Evaluate` by games, `jobs` worker processes (joblib's loky; 1 plays in this process)."""

    def __init__(self, spec: TuneSpec, jobs: int = 1) -> None:
        self.spec = spec
        self.jobs = jobs

    def __call__(self, candidates: list[dict[str, Any]], mean: dict[str, Any], generation: int,
                 advance: Advance) -> list[Score]:
        spec = self.spec
        seeds = generation_seeds(spec, generation)
        opponents = resolve_opponents(spec, mean)
        tasks = [(c, i, seed) for c in range(len(candidates)) for i, seed in enumerate(seeds)]
        wins = np.zeros(len(candidates))
        with Parallel(n_jobs=self.jobs, return_as="generator") as parallel:
            results = parallel(delayed(_seed_wins)(spec.ruleset_path, lineups(spec.policy(candidates[c]), opponents,
                                                                              spec.players, i), seed)
                               for c, i, seed in tasks)
            for (c, _, _), won in zip(tasks, results):
                wins[c] += won
                advance(spec.players)
        return [Score(float(w), len(seeds) * spec.players) for w in wins]


@functools.lru_cache(maxsize=4)
def _ruleset(path: str | None) -> Ruleset:
    return load_ruleset(path)


def _seed_wins(ruleset_path: str | None, seatings: list[tuple[str, ...]], seed: int) -> float:
    """The candidate's summed win share over one seed, `seatings[seat]` putting it in `seat`."""
    from menorca_sim.run.chunk_worker import play_one

    ruleset = _ruleset(ruleset_path)
    won = 0.0
    for seat, lineup in enumerate(seatings):
        game = GameSpec(game_id=0, variant="", cell="", game_index=seat, seed=seed, players=len(lineup),
                        minors=None, policies=lineup)
        won += play_one(ruleset, game, rounds=False)["seats"][seat]["win_share"]
    return won
