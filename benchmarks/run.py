"""`make bench`: every speed figure of issue 8 in one run, printed next to its target
and written to benchmarks/results.json with the date and the machine.

    .venv/bin/python benchmarks/run.py            # the full run (long: see --long-games)
    .venv/bin/python benchmarks/run.py --quick    # a few minutes, every figure at small scale
    .venv/bin/python benchmarks/run.py --quick --aggregate-games 1000000   # and the 1M aggregation

Each mode-dependent figure is measured in a fresh child process (this script with
`--child NAME`), so the compiled and the pure-Python core (MENORCA_SIM_PURE=1) never
share an interpreter and each RSS figure belongs to one process only."""
from __future__ import annotations

import argparse
import cProfile
import importlib
import json
import math
import os
import platform
import pstats
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the repo's policies/
sys.path.insert(1, str(ROOT / "tests"))  # synthetic_data: datasets with the real outcome schema

RESULTS = ROOT / "benchmarks" / "results.json"
BALANCE = ROOT / "experiments" / "balance.toml"
PLAYERS = 3
# Stands in for experiments/balance.toml when it is absent: the same shape of study.
BALANCE_FALLBACK = """name = "balance"
ruleset = "default"
seed = 1713
games = 150
players = [2, 3]
minors = "all"
seating = "rotate"
[policies]
seats = "{policy}"
"""


@dataclass(frozen=True)
class Scale:
    """Games (or rows) behind each figure."""
    compiled_games: int
    pure_games: int
    profile_games: int
    parallel_games: int
    worker_games: int
    long_games: int
    aggregate_games: int
    study_games: int
    rounds_games: int
    against_games: int  # games per interleaved batch against earlier commits (5 rounds)
    count_games: int  # games whose instructions callgrind counts per commit


FULL = Scale(compiled_games=300, pure_games=10, profile_games=40, parallel_games=3000, worker_games=400,
             long_games=200_000, aggregate_games=1_000_000, study_games=10_000, rounds_games=600,
             against_games=20, count_games=10)
QUICK = Scale(compiled_games=20, pure_games=2, profile_games=6, parallel_games=24, worker_games=24,
              long_games=48, aggregate_games=200_000, study_games=36, rounds_games=24, against_games=4,
              count_games=2)


@dataclass(frozen=True)
class Target:
    label: str
    unit: str
    bound: float
    at_least: bool  # True: the figure must reach the bound; False: stay under it
    full_scale: int | None = None  # the figure counts only when measured at this scale

    def verdict(self, value: float | None, scale: int | None = None) -> str:
        if value is None:
            return "not measured"
        if self.full_scale is not None and scale != self.full_scale:
            return f"n/a (target is for {self.full_scale:,})"
        met = value >= self.bound if self.at_least else value <= self.bound
        return "met" if met else "MISSED"


TARGETS = {
    "compiled_games_per_s": Target(">= 500 games/s/core", "games/s", 500, True),
    "compiled_vs_pure": Target(">= 30x uncompiled", "x", 30, True),
    "parallel_efficiency": Target(">= 90 % on 2 workers", "%", 90, True),
    "worker_peak_rss_mb": Target("<= 300 MB", "MB", 300, False),
    "aggregate_s": Target("<= 15 s for 1M games", "s", 15, False, full_scale=1_000_000),
    "study_s": Target("<= 60 s for 10k games", "s", 60, False, full_scale=10_000),
    # issue 5: the heuristic must not dominate the cost of a game
    "players_share_pct": Target("<= 50 % of a compiled game", "%", 50, False),
    # issue 26: the trajectories cost little
    "rounds_cost_pct": Target("<= 10 % of run time", "%", 10, False),
    # issue 24: against the commit before its work, the same games interleaved in one run
    "speedup_vs_before_issue24": Target(">= 4x the commit before", "x", 4, True),
}
# The commits the `against` section plays the same games with: main just before issue 24's
# work was merged (729d9a5, the reference of its target: the first parent of the merge
# 50b42ee; the work's own branch point 8e773a6 has older players, so other games), then
# the start of its latest step (50b42ee).
AGAINST = ("729d9a5", "50b42ee")


# --- the games ---------------------------------------------------------------------------

def bench_policy() -> str:
    """The built-in heuristic player, or random_legal while it does not exist yet."""
    from policies import policy_names

    return "heuristic" if "heuristic" in policy_names() else "random_legal"


def game_specs(games: int, policy: str, first_seed: int = 0) -> list:
    """Three-player games over every draw of minors, seeded 0.., as the runner plans them."""
    import itertools

    from menorca_sim.run.experiment import GameSpec
    from menorca_sim.rules import load_ruleset

    rs = load_ruleset()
    draws = list(itertools.combinations(rs.minors, rs.setup.minors_in_play))
    return [GameSpec(game_id=i, variant="", cell="bench", game_index=i, seed=first_seed + i, players=PLAYERS,
                     minors=draws[i % len(draws)], policies=(policy,) * PLAYERS) for i in range(games)]


def core_mode() -> str:
    from menorca_sim.core import is_compiled
    from menorca_sim.core.revenue import routes

    return "compiled" if is_compiled(routes) else "pure"


def max_rss_mb() -> float:
    """This process's peak resident memory so far. Linux: VmHWM, because getrusage's
    ru_maxrss survives fork and exec (a child would report its parent's peak)."""
    status = Path("/proc/self/status")
    if status.is_file():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / (2**20 if sys.platform == "darwin" else 1024)


# --- children: one figure each, in a fresh process, answering one line of JSON -------------

def child_rate(games: int, policy: str) -> dict[str, Any]:
    """Games/s on one core through the runner's own play function."""
    from menorca_sim.run.chunk_worker import play_one
    from menorca_sim.rules import load_ruleset

    rs = load_ruleset()
    specs = game_specs(games, policy)
    play_one(rs, game_specs(1, policy, first_seed=10**6)[0])  # warm: imports, tables
    actions, start, cpu = 0, time.perf_counter(), time.process_time()
    for spec in specs:
        actions += play_one(rs, spec)["actions"]
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    # per CPU-second as well: on a shared machine wall time also counts others' load
    return {"mode": core_mode(), "games": games, "seconds": wall, "games_per_s": games / wall,
            "games_per_cpu_s": games / cpu, "actions_per_s": actions / wall}


class _Split:
    """Wall-clock time of the players' `act` and of the revenue wing's route searches
    (`ROUTE_SEARCHES`), the latter by who asks: a few hundred timer reads per game, where
    a profiler would inflate every small Python call and so the players' share."""
    in_policy = False
    seconds = {"act": 0.0, "routes_policy": 0.0, "routes_engine": 0.0}


class _ProfiledPolicy:
    """Times the decisions (`act_code`, the play loop's one call)."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name, self.auction_strategy = inner.name, inner.auction_strategy

    def act_code(self, game) -> int:
        return self._timed(self.inner.act_code, game)

    @staticmethod
    def _timed(decide: Callable, *args):
        _Split.in_policy = True
        start = time.perf_counter()
        try:
            return decide(*args)
        finally:
            _Split.seconds["act"] += time.perf_counter() - start
            _Split.in_policy = False


def _route_search(original: Callable) -> Callable:
    def search(*args):
        policy = _Split.in_policy
        start = time.perf_counter()
        try:
            return original(*args)
        finally:
            _Split.seconds["routes_policy" if policy else "routes_engine"] += time.perf_counter() - start
    return search


# the revenue wing's route optimisations, by module (the engine and the WhatIf call them
# through their modules, so a function replaced there is the one they call)
ROUTE_SEARCHES = {"routes": ("best_routes", "best_revenue"), "lays": ("lay_revenues", "next_lay_revenues"),
                  "placements": ("station_revenues", "marker_revenues")}


def _play_profiled(rs, specs) -> None:
    from menorca_sim.play import play_game, seat_policies

    for spec in specs:
        policies = [_ProfiledPolicy(p) for p in seat_policies(spec.policies, spec.seed)]
        play_game(rs, spec.seed, policies, minors=list(spec.minors))


def child_split(games: int, policy: str) -> dict[str, Any]:
    """Where a game's time goes, by the wall clock over a batch: the engine (rules, legal
    actions), the route searches of the engine's own operating rounds, the route
    searches the players ask for, and the rest of the players' decisions (their logic
    and their other questions to the Game API: state records, candidate lays, board
    copies). The players' share itself comes from a first run that times the decisions
    only. Then, from a cProfiled run of the same games, the functions with the most own
    time, as evidence for what to optimise."""
    from menorca_sim.core import revenue
    from menorca_sim.rules import load_ruleset

    rs = load_ruleset()
    specs = game_specs(games, policy)
    _play_profiled(rs, game_specs(1, policy, first_seed=10**6))  # warm

    def timed_run() -> tuple[float, dict[str, float]]:
        _Split.seconds = dict.fromkeys(_Split.seconds, 0.0)
        start = time.perf_counter()
        _play_profiled(rs, specs)
        return time.perf_counter() - start, dict(_Split.seconds)

    # the players' share from a run that times the decisions only: the route searches'
    # timers add about a microsecond to each search, nearly all of them the players'
    plain_total, plain = timed_run()
    for module_name, names in ROUTE_SEARCHES.items():
        module = importlib.import_module(f"{revenue.__name__}.{module_name}")
        for name in names:
            setattr(module, name, _route_search(getattr(module, name)))
    total, t = timed_run()  # the profiled run below adds to _Split.seconds
    shares = {"engine": total - t["act"] - t["routes_engine"], "engine's route searches": t["routes_engine"],
              "players' route searches": t["routes_policy"],
              "players' logic and other queries": t["act"] - t["routes_policy"]}
    profile = cProfile.Profile()
    profile.runcall(_play_profiled, rs, specs)
    own = sorted(pstats.Stats(profile).stats.items(), key=lambda kv: kv[1][2], reverse=True)[:10]
    return {"mode": core_mode(), "games": games, "seconds": total,
            "share": {k: v / total for k, v in shares.items()}, "players_share": plain["act"] / plain_total,
            "top_own_time": [{"function": f"{Path(f).name}:{line}({name})", "own_s": round(st[2], 3),
                              "calls": st[1]} for (f, line, name), st in own]}


def child_worker_rss(games: int, policy: str) -> dict[str, Any]:
    """A worker's job (play_chunk over consecutive chunks) with the peak RSS after each
    quarter of the games: flat means no growth with game count."""
    from menorca_sim.run.chunk_worker import play_chunk, play_one

    with tempfile.TemporaryDirectory() as tmp:
        experiment = _load_study(_bench_study_file(Path(tmp), policy, players=[PLAYERS]), games)
    quarter = max(1, experiment.total_games // 4)
    checkpoints = []
    for start in range(0, experiment.total_games, quarter):
        stop = min(start + quarter, experiment.total_games)
        play_chunk(experiment, start // quarter, start, stop, play_one)
        checkpoints.append({"games": stop, "peak_rss_mb": max_rss_mb()})
    return {"mode": core_mode(), "checkpoints": checkpoints}


def child_long_run(games: int, policy: str, jobs: int) -> dict[str, Any]:
    """A long run through the runner: the parent's peak RSS, and the workers' (sampled)."""
    import psutil

    from menorca_sim.run.runner import run_experiment

    me, worker_peak, done = psutil.Process(), [0.0], threading.Event()

    def sample() -> None:
        while not done.wait(0.5):
            for child in me.children(recursive=True):
                try:
                    worker_peak[0] = max(worker_peak[0], child.memory_info().rss / 2**20)
                except psutil.Error:
                    pass

    with tempfile.TemporaryDirectory() as tmp:
        experiment = _load_study(_bench_study_file(Path(tmp), policy, players=[PLAYERS]), games)
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        summary = run_experiment(experiment, Path(tmp) / "data", jobs=jobs)
        done.set()
    return {"mode": core_mode(), "games": summary.played, "errors": summary.errors, "wall_s": summary.wall_s,
            "parent_peak_rss_mb": max_rss_mb(), "worker_peak_rss_mb": worker_peak[0]}


ROUNDS_BLOCKS = 10  # blocks of games played with and without the trajectory in turn


def child_rounds_cost(games: int, policy: str) -> dict[str, Any]:
    """What the `rounds` table costs a run: the same games played, turned into rows and
    written as a chunk's parts, with and without the trajectory, in alternate blocks (the
    order swapped each block: a shared machine's speed drifts)."""
    from menorca_sim.run.chunk_worker import play_one
    from menorca_sim.run.parquet_store import write_chunk
    from menorca_sim.run.records import add_game, empty_rows, to_tables
    from menorca_sim.rules import load_ruleset

    rs = load_ruleset()
    specs = game_specs(games, policy)
    play_one(rs, game_specs(1, policy, first_seed=10**6)[0])  # warm: imports, tables
    wall, cpu, rows = {True: 0.0, False: 0.0}, {True: 0.0, False: 0.0}, 0
    size = -(-games // ROUNDS_BLOCKS)
    with tempfile.TemporaryDirectory() as tmp:
        for b, start in enumerate(range(0, games, size)):
            block = specs[start:start + size]
            for rounds in ((True, False) if b % 2 else (False, True)):
                began, began_cpu = time.perf_counter(), time.process_time()
                table_rows = empty_rows()
                for spec in block:
                    add_game(table_rows, spec, play_one(rs, spec, rounds=rounds), 0.0)
                write_chunk(Path(tmp), b, len(block), to_tables(table_rows))
                wall[rounds] += time.perf_counter() - began
                cpu[rounds] += time.process_time() - began_cpu
                rows += len(table_rows["rounds"])
    # the share from CPU time: on a shared machine wall time also counts others' load
    return {"mode": core_mode(), "games": games, "with_games_per_s": games / wall[True],
            "without_games_per_s": games / wall[False], "rounds_rows_per_game": rows / games,
            "cost_pct": 100 * (cpu[True] - cpu[False]) / cpu[True],
            "wall_cost_pct": 100 * (wall[True] - wall[False]) / wall[True]}


CHILDREN: dict[str, Callable[..., dict[str, Any]]] = {
    "rate": child_rate, "split": child_split, "worker-rss": child_worker_rss, "long-run": child_long_run,
    "rounds-cost": child_rounds_cost,
}


def run_child(name: str, *args: Any, pure: bool = False) -> dict[str, Any]:
    env = dict(os.environ, MENORCA_SIM_PURE="1" if pure else "0")
    cmd = [sys.executable, __file__, "--child", name, *map(str, args)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- studies through the runner ------------------------------------------------------------

def _bench_study_file(folder: Path, policy: str, players: list[int] | None = None) -> Path:
    """The balance study (or its stand-in) with `policy` in every seat, optionally
    narrowed to some player counts."""
    text = BALANCE.read_text() if BALANCE.is_file() else BALANCE_FALLBACK.format(policy=policy)

    def setting(line: str) -> str:
        if players is not None and line.startswith("players"):
            return f"players = {players}"
        return f'seats = "{policy}"' if line.startswith("seats") else line
    text = "\n".join(map(setting, text.splitlines())) + "\n"
    path = folder / "study.toml"
    path.write_text(text)
    return path


def _load_study(path: Path, total: int):
    """The study scaled to about `total` games (rounded up to whole seating rotations
    in every cell and variant)."""
    from menorca_sim.run.experiment import check_policy_spec, load_experiment

    plan = load_experiment(path, check_policy=check_policy_spec)
    blocks = len(plan.cells) * len(plan.variants) * len(plan.populations)
    rotation = math.lcm(*(len(a) for pop in plan.populations for a in pop.arrangements.values()))
    per_block = rotation * math.ceil(total / blocks / rotation)
    return load_experiment(path, games=per_block, check_policy=check_policy_spec)


def parallel_rates(games: int, policy: str) -> dict[str, Any]:
    """Games/s through the runner with 1 and 2 workers (pool start-up included)."""
    from menorca_sim.run.runner import run_experiment

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        experiment = _load_study(_bench_study_file(Path(tmp), policy, players=[PLAYERS]), games)
        for jobs in (1, 2):
            summary = run_experiment(experiment, Path(tmp) / f"jobs{jobs}", jobs=jobs)
            out[f"jobs{jobs}_games_per_s"] = summary.played / summary.wall_s
        out["games"] = experiment.total_games
    out["efficiency_pct"] = 100 * out["jobs2_games_per_s"] / (2 * out["jobs1_games_per_s"])
    return out


def study_end_to_end(total: int, policy: str) -> dict[str, Any]:
    """The balance study scaled to about `total` games: `menorca-sim run`, then
    `menorca-sim report`, each a fresh process, wall seconds from the first start."""
    cli = str(Path(sys.executable).parent / "menorca-sim")
    with tempfile.TemporaryDirectory() as tmp:
        path = _bench_study_file(Path(tmp), policy)
        experiment = _load_study(path, total)
        data = Path(tmp) / "data"
        start = time.perf_counter()
        _run_cli([cli, "run", str(path), "--games", str(experiment.games), "--out", str(data), "--quiet"])
        played = time.perf_counter() - start
        _run_cli([cli, "report", str(data), "--out", str(Path(tmp) / "report")])
        wall = time.perf_counter() - start
    return {"games": experiment.total_games, "source": BALANCE.name if BALANCE.is_file() else "stand-in",
            "run_s": played, "report_s": wall - played, "wall_s": wall}


def _run_cli(cmd: list[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd[1:3])} failed: {(done.stderr or done.stdout).strip()[-2000:]}")


# --- aggregation ---------------------------------------------------------------------------

def synthetic_dataset(folder: Path, games: int) -> Path:
    """`games` synthetic games with the real schema: a base dataset from the tests'
    generator, tiled with shifted game ids (generating every row in Python would take
    longer than the aggregation being measured)."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from synthetic_data import Spec, write_dataset

    base_games = min(games, 10_000)
    copies = math.ceil(games / base_games)
    base = write_dataset(folder / "base", Spec(experiment="bench", games=base_games, player_counts=(2, 3),
                                               parts=1, cap_rate=0.02, seed=1))
    data = folder / "data"
    for table_dir in sorted(p for p in base.iterdir() if p.is_dir()):
        table = pq.read_table(table_dir / "part-00000.parquet")
        (data / table_dir.name).mkdir(parents=True)
        ids = table.schema.get_field_index("game_id")
        for k in range(copies):
            shifted = table.set_column(ids, "game_id", pc.add(table.column("game_id"), k * 10**7))
            pq.write_table(shifted, data / table_dir.name / f"part-{k:05d}.parquet")
    (data / "manifest.json").write_text((base / "manifest.json").read_text())
    return data


def aggregate_time(games: int) -> dict[str, Any]:
    from menorca_sim.analysis.dataset import Dataset
    from menorca_sim.analysis.pipeline import analyse

    with tempfile.TemporaryDirectory() as tmp:
        data = synthetic_dataset(Path(tmp), games)
        start = time.perf_counter()
        analysis = analyse(Dataset(data))
        wall = time.perf_counter() - start
        rows = sum(len(df) for df in analysis.tables.values())
    return {"games": games, "seconds": wall, "tables": len(analysis.tables), "table_rows": rows}


# --- the run -------------------------------------------------------------------------------

def machine() -> dict[str, Any]:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor() or "unknown")
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version()}


def show(label: str, value: float | None, target_key: str | None = None, fmt: str = "{:,.1f}",
         scale: int | None = None, note: str = "") -> None:
    text = "-" if value is None else fmt.format(value)
    line = f"  {label:<44} {text:>12}"
    if target_key:
        target = TARGETS[target_key]
        line += f"   target {target.label:<22} {target.verdict(value, scale)}"
    print(line + (f"   {note}" if note else ""), flush=True)


# --- the report: one section per group of figures, each returning its target verdicts ------

Figures = dict[str, Any]
Verdicts = dict[str, str]


def one_core(scale: Scale, policy: str, figures: Figures) -> Verdicts:
    compiled = figures["compiled"] = run_child("rate", scale.compiled_games, policy)
    if compiled["mode"] != "compiled":
        print("  WARNING: the core is not compiled (run `make build`); 'compiled' figures are pure Python")
    show(f"compiled games/s ({compiled['games']} games)", compiled["games_per_s"], "compiled_games_per_s")
    show("compiled games per CPU-second", compiled["games_per_cpu_s"], note="(wall-clock figures include others' load)")
    show("compiled actions/s", compiled["actions_per_s"], fmt="{:,.0f}")
    pure = figures["pure"] = run_child("rate", scale.pure_games, policy, pure=True)
    show(f"uncompiled games/s ({pure['games']} games)", pure["games_per_s"], fmt="{:,.2f}")
    ratio = figures["compiled_vs_pure"] = compiled["games_per_cpu_s"] / pure["games_per_cpu_s"]
    show("compiled / uncompiled (per CPU-second)", ratio, "compiled_vs_pure", fmt="{:,.1f}x")
    return {"compiled_games_per_s": TARGETS["compiled_games_per_s"].verdict(compiled["games_per_s"]),
            "compiled_vs_pure": TARGETS["compiled_vs_pure"].verdict(ratio)}


def time_split(scale: Scale, policy: str, figures: Figures) -> Verdicts:
    for pure_mode in (False, True):
        games = scale.profile_games if not pure_mode else max(1, scale.pure_games // 2)
        split = figures["split_pure" if pure_mode else "split_compiled"] = \
            run_child("split", games, policy, pure=pure_mode)
        shares = ", ".join(f"{k} {v:.0%}" for k, v in split["share"].items())
        print(f"  {split['mode']:<9} ({games} games, wall clock): {shares}")
    compiled = figures["split_compiled"]
    show("players' share of a compiled game %", 100 * compiled["players_share"], "players_share_pct", fmt="{:,.0f}")
    print("  most own time, compiled run under cProfile (Python-level functions; compiled code shows as its callers):")
    for row in compiled["top_own_time"][:6]:
        print(f"    {row['own_s']:>8.2f} s {row['calls']:>9} calls  {row['function']}")
    return {"players_share_pct": TARGETS["players_share_pct"].verdict(100 * compiled["players_share"])}


def through_runner(scale: Scale, policy: str, figures: Figures) -> Verdicts:
    par = figures["parallel"] = parallel_rates(scale.parallel_games, policy)
    show(f"--jobs 1 games/s ({par['games']} games)", par["jobs1_games_per_s"])
    show(f"--jobs 2 games/s ({par['games']} games)", par["jobs2_games_per_s"])
    show("parallel efficiency %", par["efficiency_pct"], "parallel_efficiency",
         note="(joblib plays --jobs 1 in this process; --jobs 2 starts its workers within the timing)")
    return {"parallel_efficiency": TARGETS["parallel_efficiency"].verdict(par["efficiency_pct"])}


def worker_memory(scale: Scale, policy: str, figures: Figures) -> Verdicts:
    points = figures["worker"] = run_child("worker-rss", scale.worker_games, policy)["checkpoints"]
    peak = points[-1]["peak_rss_mb"]
    growth = figures["worker_rss_growth_mb"] = \
        peak - points[len(points) // 2 - 1]["peak_rss_mb"] if len(points) > 1 else 0.0
    show(f"worker peak RSS MB ({points[-1]['games']} games)", peak, "worker_peak_rss_mb",
         note=f"growth over the second half {growth:+.1f} MB ({'flat' if growth <= 0.1 * peak else 'GROWING'})")
    return {"worker_peak_rss_mb": TARGETS["worker_peak_rss_mb"].verdict(peak)}


def long_run(figures: Figures, long_games: int, long_policy: str) -> Verdicts:
    long = figures["long_run"] = run_child("long-run", long_games, long_policy, os.cpu_count() or 1)
    long["policy"] = long_policy
    show(f"run parent peak RSS MB ({long['games']:,} games)", long["parent_peak_rss_mb"],
         note=f"({long_policy} players, {long['wall_s'] / 60:,.0f} min, {long['errors']} errors)")
    show("its workers' peak RSS MB (sampled)", long["worker_peak_rss_mb"])
    return {}


def rounds_table(scale: Scale, policy: str, figures: Figures) -> Verdicts:
    cost = figures["rounds"] = run_child("rounds-cost", scale.rounds_games, policy)
    show(f"games/s with the rounds table ({cost['games']} games)", cost["with_games_per_s"],
         note=f"({cost['rounds_rows_per_game']:.0f} rows per game)")
    show("games/s without it (the same games, in turn)", cost["without_games_per_s"])
    show("the rounds table's share of run time %", cost["cost_pct"], "rounds_cost_pct",
         note=f"(of CPU time; of wall time {cost['wall_cost_pct']:.1f} %)")
    return {"rounds_cost_pct": TARGETS["rounds_cost_pct"].verdict(cost["cost_pct"])}


def aggregation(figures: Figures, aggregate_games: int) -> Verdicts:
    agg = figures["aggregate"] = aggregate_time(aggregate_games)
    show(f"aggregate {agg['games']:,} games s ({agg['tables']} tables)", agg["seconds"], "aggregate_s",
         fmt="{:,.2f}", scale=agg["games"])
    return {"aggregate_s": TARGETS["aggregate_s"].verdict(agg["seconds"], agg["games"])}


def whole_study(scale: Scale, policy: str, figures: Figures) -> Verdicts:
    study = figures["study"] = study_end_to_end(scale.study_games, policy)
    show(f"study cold to report s ({study['games']:,} games, {study['source']})", study["wall_s"], "study_s",
         scale=scale.study_games, note=f"run {study['run_s']:.1f} s + report {study['report_s']:.1f} s")
    return {"study_s": TARGETS["study_s"].verdict(study["wall_s"], scale.study_games)}


def against_commits(scale: Scale, figures: Figures, commits: tuple[str, ...]) -> Verdicts:
    """This tree against earlier commits (each built once into build/bench-trees/): CPU
    time per game, interleaved, and callgrind's instructions per game where valgrind is."""
    import compare

    trees = [ROOT] + [compare.tree_at(c) for c in commits]
    names = ["this tree"] + list(commits)
    timed = compare.interleaved(trees, scale.against_games, rounds=5)
    counted = compare.instructions(trees, scale.count_games) if shutil.which("valgrind") else {}
    rows = figures["against"] = {}
    for name, tree in zip(names, trees):
        row = rows[name] = dict(timed[str(tree)], **counted.get(str(tree), {}))
        ms, mi = row["ms_per_game"], row.get("instructions_per_game")
        speed = rows[names[0]]["ms_per_game"] / ms
        show(f"{name}: ms CPU per game ({scale.against_games} games x 5)", ms, fmt="{:,.2f}",
             note=("" if name == names[0] else f"this tree {1 / speed:.2f}x as fast")
             + (f"; {mi / 1e6:,.1f} M instructions per game" if mi else ""))
    speedup = figures["speedup_vs_before_issue24"] = rows[commits[0]]["ms_per_game"] / rows[names[0]]["ms_per_game"]
    show(f"speed-up against {commits[0]} (interleaved)", speedup, "speedup_vs_before_issue24", fmt="{:,.2f}x")
    return {"speedup_vs_before_issue24": TARGETS["speedup_vs_before_issue24"].verdict(speedup)}


SECTIONS = ("one-core", "against", "split", "runner", "rounds", "worker-memory", "long-run", "aggregate",
            "study")  # --only names, in order
LONG_POLICY = "random_legal"
"""Plays the long run: the parent's memory depends on games, chunks and rows, not on who
plays, and random players keep 200,000 games to about an hour and a quarter on 2 cores
(the heuristic would take about 4 h)."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every figure at small scale (a few minutes)")
    parser.add_argument("--long-games", type=int, help="games of the long run for the parent's RSS "
                                                        f"(default {FULL.long_games:,}; --quick {QUICK.long_games})")
    parser.add_argument("--long-policy", default=LONG_POLICY,
                        help=f"players of the long run (default {LONG_POLICY}: the parent's memory does not depend on them)")
    parser.add_argument("--aggregate-games", type=int, help="games of the synthetic dataset aggregated "
                                                             f"(default {FULL.aggregate_games:,}; --quick {QUICK.aggregate_games:,})")
    parser.add_argument("--only", type=lambda text: text.split(","), metavar="SECTION[,SECTION]",
                        help=f"run only these sections ({', '.join(SECTIONS)}) and keep the other figures of "
                             f"{RESULTS.name}, each section with its own date")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("child_args", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        fn = CHILDREN[args.child]
        print(json.dumps(fn(int(args.child_args[0]), args.child_args[1], *map(int, args.child_args[2:]))))
        return
    only = args.only or list(SECTIONS)
    unknown = sorted(set(only) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")

    scale = QUICK if args.quick else FULL
    run = "quick" if args.quick else "full"
    policy = bench_policy()
    print(f"menorca-sim benchmark ({run}), {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, "
          f"{machine()['cpu']}, {os.cpu_count()} cores")
    print(f"players: {policy}{'' if policy == 'heuristic' else ' (heuristic is not built in yet)'}, "
          f"{PLAYERS} per game")
    results = json.loads(RESULTS.read_text()) if args.only and RESULTS.is_file() else {}
    figures: Figures = results.get("figures", {})
    verdicts: Verdicts = {key: v["verdict"] for key, v in results.get("targets", {}).items()}
    for key in TARGETS:
        verdicts.setdefault(key, "not measured")
    sections: dict[str, tuple[str, Callable[[], Verdicts]]] = {
        "one-core": ("One core", lambda: one_core(scale, policy, figures)),
        "against": ("Against earlier commits (the same games)", lambda: against_commits(scale, figures, AGAINST)),
        "split": ("Where a game's time goes (shares of the wall clock)", lambda: time_split(scale, policy, figures)),
        "runner": ("Through the runner", lambda: through_runner(scale, policy, figures)),
        "rounds": ("The rounds table (trajectories)", lambda: rounds_table(scale, policy, figures)),
        "worker-memory": ("A worker's memory", lambda: worker_memory(scale, policy, figures)),
        "long-run": ("A long run's memory", lambda: long_run(figures, args.long_games or scale.long_games,
                                                            args.long_policy)),
        "aggregate": ("Analysis", lambda: aggregation(figures, args.aggregate_games or scale.aggregate_games)),
        "study": ("The whole study", lambda: whole_study(scale, policy, figures)),
    }
    dates = results.get("sections", {})
    for name in SECTIONS:
        if name not in only:
            continue
        title, section = sections[name]
        print(title, flush=True)
        figures.get("failed", {}).pop(title, None)  # measured again: an old failure is gone
        try:  # one broken part of the tree must not cost the other figures
            verdicts.update(section())
        except Exception as exc:
            figures.setdefault("failed", {})[title] = f"{type(exc).__name__}: {exc}"
            print(f"  FAILED: {type(exc).__name__}: {str(exc)[-1500:]}", flush=True)
        dates[name] = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "run": run}
    if not figures.get("failed", True):
        del figures["failed"]
    RESULTS.write_text(json.dumps({
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "machine": machine(),
        "run": run if not args.only else "sections", "policy": policy, "players": PLAYERS, "sections": dates,
        "figures": figures, "targets": {k: {"target": TARGETS[k].label, "verdict": v} for k, v in verdicts.items()},
    }, indent=2) + "\n")
    print(f"written {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
