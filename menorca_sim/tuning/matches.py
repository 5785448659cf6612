"""The real objective of a search: each candidate plays the opponents on the
generation's seeds, once from every seat (the others' seats filled by the opponents in
turn), with the runner's game player (`chunk_worker.play_one`, so a game here is the game
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
from menorca_sim.tuning.space import TuneSpec


def generation_seeds(spec: TuneSpec, generation: int) -> list[int]:
    """The game seeds of one generation (a pure function of the root seed)."""
    return [int(np.random.SeedSequence(spec.seed, spawn_key=(generation, i)).generate_state(1, np.uint64)[0] >> 1)
            for i in range(spec.seeds)]


def lineups(candidate: str, opponents: tuple[str, ...], players: int) -> list[tuple[str, ...]]:
    """The candidate in each seat in turn, the other seats filled by the opponents in order."""
    others = [opponents[i % len(opponents)] for i in range(players - 1)]
    return [tuple(others[:seat] + [candidate] + others[seat:]) for seat in range(players)]


class Matches:
    """`Evaluate` by games, `jobs` worker processes (joblib's loky; 1 plays in this process)."""

    def __init__(self, spec: TuneSpec, jobs: int = 1) -> None:
        self.spec = spec
        self.jobs = jobs

    def __call__(self, candidates: list[dict[str, Any]], generation: int, advance: Advance) -> list[Score]:
        spec = self.spec
        seeds = generation_seeds(spec, generation)
        tasks = [(c, seed) for c in range(len(candidates)) for seed in seeds]
        wins = np.zeros(len(candidates))
        with Parallel(n_jobs=self.jobs, return_as="generator") as parallel:
            results = parallel(delayed(_seed_wins)(spec.ruleset_path, spec.policy(candidates[c]), spec.opponents,
                                                   spec.players, seed) for c, seed in tasks)
            for (c, _), won in zip(tasks, results):
                wins[c] += won
                advance(spec.players)
        return [Score(float(w), len(seeds) * spec.players) for w in wins]


@functools.lru_cache(maxsize=4)
def _ruleset(path: str | None) -> Ruleset:
    return load_ruleset(path)


def _seed_wins(ruleset_path: str | None, candidate: str, opponents: tuple[str, ...], players: int,
               seed: int) -> float:
    """The candidate's summed win share over one seed played from every seat."""
    from menorca_sim.run.chunk_worker import play_one

    ruleset = _ruleset(ruleset_path)
    won = 0.0
    for seat, lineup in enumerate(lineups(candidate, opponents, players)):
        game = GameSpec(game_id=0, variant="", cell="", game_index=seat, seed=seed, players=players,
                        minors=None, policies=lineup)
        won += play_one(ruleset, game, rounds=False)["seats"][seat]["win_share"]
    return won
