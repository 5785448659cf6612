"""The worker side of a run: play one chunk of games and return its table parts.

Runs in loky or Dask worker processes. A game that raises becomes an `errors` row and
the chunk goes on; so does a game past one of the run's limits (see `limits`). The
ruleset is loaded once per worker process and reused."""
from __future__ import annotations

import functools
import json
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import pyarrow as pa

from menorca_sim.rules import Ruleset, load_ruleset
from menorca_sim.run.experiment import Experiment, GameSpec, Variant, one_line
from menorca_sim.run.limits import Limits, counted, decision_limit, play_isolated
from menorca_sim.run.outcomes import table_names
from menorca_sim.run.records import Rows, add_error, add_game, empty_rows, game_summary, to_tables

PlayFn = Callable[[Ruleset, GameSpec], dict[str, Any]]
"""Plays one game and returns its summary (the shape of `records.game_summary`), each seat
entry completed with `policy` and `auction_strategy`, and its `rounds` rows (those of
a `Trajectory`, without the game's ids; may be empty), and its `states` rows when the
game's plan records them (`GameSpec.states`)."""


@dataclass(frozen=True)
class ChunkResult:
    chunk_id: int
    tables: dict[str, pa.Table]
    games: int  # played (ok + errors)
    first_error: str | None  # "game ID (seed S): Type: message"


_RULESETS: dict[tuple[str | None, str, str], Ruleset] = {}


def ruleset_for(variant: Variant) -> Ruleset:
    """The variant's ruleset, loaded once per process; the hash check catches a worker
    that sees a different file than the machine that planned the run."""
    key = (variant.ruleset_path, json.dumps(variant.overrides, sort_keys=True, default=str),
           variant.ruleset_sha256)
    if key not in _RULESETS:
        ruleset = load_ruleset(variant.ruleset_path, variant.overrides)
        if ruleset.sha256 != variant.ruleset_sha256:
            raise RuntimeError(f"ruleset {ruleset.source} on this worker differs from the planned one "
                               f"(sha256 {ruleset.sha256[:12]} vs {variant.ruleset_sha256[:12]})")
        _RULESETS[key] = ruleset
    return _RULESETS[key]


def play_one(ruleset: Ruleset, game: GameSpec, check: bool = False, rounds: bool = True) -> dict[str, Any]:
    """The real engine: seat the policies, each with its seat's stream of the game's seed
    (as `menorca-sim play` does, so any game of a dataset replays there), play to the
    end, return the summary. `check`: the invariant checks after every action (fuzzing);
    `rounds`: record the game's trajectory (without it, no `rounds` rows: the benchmark
    measures its cost); the `states` rows are recorded at the trajectory's snapshots and at
    a sample of the searched decisions when `game.states`, and leaves of the search seats'
    trees when `game.leaves`. The policies' decisions count
    against the run's decision limit, if any."""
    from menorca_sim.play import play_game, seat_policies
    from menorca_sim.run.states import StateRecorder, watch_searches
    from menorca_sim.run.trajectory import Trajectory

    policies = seat_policies(game.policies, game.seed)
    states = StateRecorder(game.leaves) if game.states else None
    if game.leaves:
        watch_searches(policies, states)
    policies = counted(policies)
    trajectory = Trajectory(states) if rounds or states is not None else None
    watch = trajectory if states is None else _in_turn(trajectory, states.at_decision)
    summary = game_summary(play_game(ruleset, game.seed, policies, minors=list(game.minors) if game.minors else None,
                                     check=check, watch=watch))
    for seat, policy in zip(summary["seats"], policies):
        seat["policy"], seat["auction_strategy"] = policy.name, policy.auction_strategy
    summary["rounds"] = trajectory.rows if rounds and trajectory is not None else []
    if states is not None:
        summary["states"] = states.rows([seat["win_share"] for seat in summary["seats"]])
    return summary


def _in_turn(first: Callable[[Any], None], second: Callable[[Any], None]) -> Callable[[Any], None]:
    """One watcher of the play loop that calls two, in order."""
    def watch(game: Any) -> None:
        first(game)
        second(game)
    return watch


def play_chunk(experiment: Experiment, chunk_id: int, start: int, stop: int, play: PlayFn,
               limits: Limits = Limits()) -> ChunkResult:
    """Play games [start, stop) of the plan, in game id order, under `limits`."""
    rulesets = {v.name: ruleset_for(v) for v in experiment.variants}  # before any fork: children share them
    games = list(experiment.games_in(start, stop))
    names = table_names(experiment.record_states)
    one = functools.partial(_game_rows, rulesets, play, names)
    with decision_limit(limits.max_decisions):
        rows = _merged(names, play_isolated(games, one, limits) if limits.isolated else map(one, games))
    error = rows["errors"][0] if rows["errors"] else None
    first_error = error and f"game {error['game_id']} (seed {error['seed']}): {error['error']}"
    return ChunkResult(chunk_id, to_tables(rows), stop - start, first_error)


def _game_rows(rulesets: dict[str, Ruleset], play: PlayFn, names: tuple[str, ...], game: GameSpec) -> Rows:
    """One game's rows (of the tables `names`): its outcome, or its error."""
    rows = empty_rows(names)
    began = time.perf_counter()
    try:
        add_game(rows, game, play(rulesets[game.variant], game), time.perf_counter() - began)
    except Exception as exc:  # any failure of one game is data, not the end of the run
        add_error(rows, game, one_line(exc), traceback.format_exc())
    return rows


def _merged(names: tuple[str, ...], per_game: Iterable[Rows]) -> Rows:
    rows = empty_rows(names)
    for one in per_game:
        for name, table_rows in one.items():
            rows[name].extend(table_rows)
    return rows
