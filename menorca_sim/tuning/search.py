"""The CMA-ES loop over a tuning file's parameters, resumable and recorded.

Each generation CMA-ES proposes `popsize` points; `evaluate` judges the candidates
(their win shares, on games common to the generation, against opponents that may include
the search's current mean: `space.MEAN`) and CMA-ES moves towards the better ranked. After every generation the optimiser's state (pickled, with its random
generator) and the record so far are written to the state file, atomically, so a search
killed at any moment resumes at the generation it was playing and proposes the very
candidates it would have. The objective is pluggable: the real one plays games
(`matches`), a test plants an optimum."""
from __future__ import annotations

import os
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import cma
import numpy as np

from menorca_sim.analysis.stats import wilson_interval
from menorca_sim.tuning.space import TuneSpec

STATE_VERSION = 2  # 2: each generation records the mean its candidates were drawn around


@dataclass(frozen=True)
class Score:
    wins: float  # the candidate's summed win shares (a shared win counts 1/k)
    games: int


Advance = Callable[[int], None]  # told how many games were just played (the progress bar)
Evaluate = Callable[[list[dict[str, Any]], dict[str, Any], int, Advance], list[Score]]
"""(candidates' parameters, the search's current mean, generation, advance) -> one Score
per candidate."""


class TuneError(Exception):
    """A state file that cannot be resumed by this tuning file (one line)."""


def run_search(spec: TuneSpec, evaluate: Evaluate, state_path: str | Path, seed: int = 0,
               advance: Advance = lambda games: None) -> dict[str, Any]:
    """Run (or resume, when `state_path` holds a state of the same plan) the search to
    `spec.generations` generations; returns the record (see `_record_generation`) with
    `best`: the search's mean at the end, CMA-ES's estimate of the optimum, which in a
    noisy search is more trustworthy than the luckiest candidate. `seed`: CMA-ES's own."""
    state_path = Path(state_path)
    es, record = _load(state_path, spec) if state_path.exists() else _fresh(spec, seed)
    while len(record["generations"]) < spec.generations:
        generation = len(record["generations"])
        drawn_around = spec.params(es.mean)
        points = es.ask()
        candidates = [spec.params(x) for x in points]
        scores = evaluate(candidates, drawn_around, generation, advance)
        es.tell(points, [-s.wins / s.games for s in scores])  # CMA-ES minimises
        record["generations"].append(_record_generation(spec, drawn_around, candidates, scores, es))
        record["best"] = spec.params(es.result.xfavorite)
        _save(state_path, es, record)
    return record


def _fresh(spec: TuneSpec, seed: int) -> tuple[cma.CMAEvolutionStrategy, dict[str, Any]]:
    # seed + 1: cma reads seed 0 as "draw one from the clock"
    es = cma.CMAEvolutionStrategy(spec.start(), spec.sigma, {"bounds": [0, 1], "popsize": spec.popsize,
                                                             "seed": seed + 1, "verbose": -9})
    record = {"name": spec.name, "plan": spec.digest(), "base": spec.base, "opponents": list(spec.opponents),
              "players": spec.players, "games_per_candidate": spec.games_per_candidate,
              "optimiser": f"CMA-ES (cma {cma.__version__}), seed {seed}",
              "start": spec.params(spec.start()), "best": spec.params(spec.start()), "generations": []}
    return es, record


def _record_generation(spec: TuneSpec, drawn_around: dict[str, Any], candidates: list[dict[str, Any]],
                       scores: list[Score], es: cma.CMAEvolutionStrategy) -> dict[str, Any]:
    wins = np.array([s.wins for s in scores])
    games = np.array([s.games for s in scores])
    low, high = wilson_interval(wins, games)
    return {"drawn_around": drawn_around,
            "candidates": [{"params": c, "games": int(n), "wins": float(w), "win_share": float(w / n),
                            "low": float(lo), "high": float(hi)}
                           for c, w, n, lo, hi in zip(candidates, wins, games, low, high)],
            "mean": spec.params(es.result.xfavorite), "sigma": float(es.sigma)}


def _load(path: Path, spec: TuneSpec) -> tuple[cma.CMAEvolutionStrategy, dict[str, Any]]:
    try:
        with path.open("rb") as f:
            state = pickle.load(f)
    except Exception as exc:  # unpickling other bytes can raise almost any type
        raise TuneError(f"{path}: not a state file of menorca-sim tune ({type(exc).__name__}); remove it to "
                        f"start afresh") from None
    if (not isinstance(state, dict) or not isinstance(state.get("es"), cma.CMAEvolutionStrategy)
            or not isinstance(state.get("record"), dict) or not isinstance(state["record"].get("generations"), list)):
        raise TuneError(f"{path}: not a state file of menorca-sim tune (no search or record in it); remove it to "
                        f"start afresh")
    if state.get("version") != STATE_VERSION or state["record"].get("plan") != spec.digest():
        raise TuneError(f"{path}: a state of another tuning plan (remove it to start afresh)")
    return state["es"], state["record"]


def _save(path: Path, es: cma.CMAEvolutionStrategy, record: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as f:
        pickle.dump({"version": STATE_VERSION, "es": es, "record": record}, f)
    os.replace(tmp, path)
