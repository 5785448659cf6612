"""Fuzzing the engine: many seeded games between random-legal (and heuristic) players,
every invariant checked after every action (`Game(..., check=True)`), played in
parallel by the runner. Each failure comes back with its seed and the `menorca-sim
play` command that replays it."""
from __future__ import annotations

import functools
import itertools
import math
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path

from menorca_sim.rules import load_ruleset
from menorca_sim.run import parquet_store as store
from menorca_sim.run.chunk_worker import PlayFn, play_one
from menorca_sim.run.experiment import Cell, Experiment, Population, Variant
from menorca_sim.run.runner import run_experiment

RANDOM = "random_legal"
HEURISTIC = "heuristic"
VIOLATION_PREFIX = "InvariantError:"  # how chunk_worker's error rows name a broken invariant


@dataclass(frozen=True)
class Failure:
    """One game that broke an invariant (a violation) or raised anything else (a crash)."""
    game_id: int
    seed: int
    players: int
    minors: tuple[str, ...]
    policies: tuple[str, ...]
    error: str

    @property
    def kind(self) -> str:
        return "violation" if self.error.startswith(VIOLATION_PREFIX) else "crash"

    def replay_command(self, rules: str | None = None) -> str:
        args = ["menorca-sim", "play", "--players", str(self.players), "--seed", str(self.seed),
                "--minors", ",".join(self.minors), "--policies", ",".join(self.policies), "--check"]
        if rules:
            args += ["--rules", rules]
        return shlex.join(args)


@dataclass(frozen=True)
class FuzzReport:
    games: int  # finished or failed, in the dataset
    actions: int  # actions applied (and checked) in the games that finished
    failures: tuple[Failure, ...]
    wall_s: float  # of this run
    tables: str  # what kind of tables were played
    rules: str | None  # the ruleset file, None for the built-in one

    @property
    def violations(self) -> int:
        return sum(f.kind == "violation" for f in self.failures)

    @property
    def crashes(self) -> int:
        return sum(f.kind == "crash" for f in self.failures)

    def lines(self) -> list[str]:
        """The failures, each with the command that replays it, then the summary line."""
        out = []
        for f in self.failures:
            out.append(f"{f.kind}: game {f.game_id}, seed {f.seed}: {f.error}")
            out.append(f"  replay: {f.replay_command(self.rules)}")
        out.append(f"fuzz: {self.games} games played ({self.tables}), {self.actions} actions checked, "
                   f"{self.violations} invariant violations, {self.crashes} crashes; {self.wall_s:.1f} s")
        return out


def fuzz_experiment(games: int, seed: int, rules: str | None = None,
                    heuristic: bool = True) -> tuple[Experiment, str]:
    """The plan: every player count of the ruleset x every minor draw, `games` games in
    all (rounded up to a multiple of the cells), each table seating random-legal players
    only or one heuristic player among them (when `heuristic`); and its description."""
    ruleset = load_ruleset(rules)
    players = sorted(ruleset.player_counts)
    draws = list(itertools.combinations(ruleset.minors, ruleset.setup.minors_in_play))
    cells = tuple(Cell(p, draw, (p, 1 + i)) for p in players for i, draw in enumerate(draws))
    arrangements = {p: _tables(p, heuristic) for p in players}
    path = str(Path(rules).resolve()) if rules else None
    experiment = Experiment(
        name="fuzz", file="menorca-sim fuzz", ruleset_path=path,
        seed=seed, games=math.ceil(games / len(cells)), seating="rotate", cells=cells,
        variants=(Variant(0, "", {}, ruleset.sha256, path),), populations=(Population(0, "", arrangements),))
    kinds = f"{RANDOM} and one {HEURISTIC} among {RANDOM}" if heuristic else \
        f"{RANDOM} only: no {HEURISTIC} policy is registered"
    description = (f"{'/'.join(map(str, players))} players x {len(draws)} minor draws; "
                   f"tables: {kinds}")
    return experiment, description


def _tables(players: int, heuristic: bool) -> tuple[tuple[str, ...], ...]:
    """All random-legal, then (with `heuristic`) one heuristic player in each seat in turn."""
    tables = [(RANDOM,) * players]
    if heuristic:
        tables += [tuple(HEURISTIC if s == h else RANDOM for s in range(players)) for h in range(players)]
    return tuple(tables)


def heuristic_available() -> bool:
    from policies import policy_names

    return HEURISTIC in policy_names()


def run_fuzz(games: int, *, seed: int = 0, jobs: int | None = None, rules: str | None = None,
             out: str | Path | None = None, resume: bool = False, progress: bool = False,
             play: PlayFn | None = None) -> FuzzReport:
    """Play the fuzz plan through the runner (into `out`, or a temporary folder) and
    read back what failed. `play` replaces the checked engine (tests inject failures)."""
    experiment, tables = fuzz_experiment(games, seed, rules, heuristic_available())
    play = play or functools.partial(play_one, check=True)
    with tempfile.TemporaryDirectory(prefix="menorca-fuzz-") as scratch:
        folder = Path(out) if out is not None else Path(scratch) / "data"
        summary = run_experiment(experiment, folder, jobs=jobs, resume=resume, progress=progress, play=play)
        finished = store.read_table(folder, "games").column("actions").to_pylist()
        errors = store.read_table(folder, "errors").select(["game_id", "error"]).to_pylist()
    failures = []
    for row in errors:
        spec = experiment.game(row["game_id"])
        failures.append(Failure(spec.game_id, spec.seed, spec.players, spec.minors, spec.policies,
                                row["error"]))
    return FuzzReport(len(finished) + len(errors), sum(finished), tuple(failures), summary.wall_s, tables, rules)
