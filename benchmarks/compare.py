"""This tree against another (say the commit before a change, built in a folder of its
own) on the same fixed 3-player heuristic games, in one run:

    .venv/bin/python benchmarks/compare.py --base DIR [--base DIR2 ...]          # interleaved games
    .venv/bin/python benchmarks/compare.py --base DIR --instructions           # valgrind counts

A tree is a source folder whose extensions are built in place (`setup.py build_ext
--inplace`); `--commit REV` makes one from a commit of this repository (`tree_at`: built
once into build/bench-trees/, kept for the next run). Each tree's games
are played in a child process that imports that tree first (its own compiled core and
policies), with this venv's packages.

- Interleaved: `--rounds` rounds, each playing a batch of `--games` games in every tree
  in turn (so the machine's drift over the run falls on all of them alike); CPU time per
  game, the median over rounds.
- Instructions (`--instructions`): callgrind counts a child that plays the games and one
  that only warms up (imports, tables, one game); the difference per game. Exact and
  independent of the machine's load; one game's start-up is left out. With `--profile
  DIR`, each tree's callgrind file of the games is kept there for callgrind_annotate."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREES = ROOT / "build" / "bench-trees"
PLAYERS = 3
WARM_SEED = 10**6


def tree_at(commit: str) -> Path:
    """A built tree of `commit` (its sources, compiled in place), made once and kept."""
    sha = subprocess.run(["git", "rev-parse", "--short=12", commit], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout.strip()
    tree = TREES / sha
    if not (tree / ".built").is_file():
        shutil.rmtree(tree, ignore_errors=True)
        tree.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree, check=True,
                       capture_output=True)
        (tree / ".built").touch()
    return tree


def play(tree: str, games: int, first_seed: int) -> dict:
    """(In a child whose sys.path starts with `tree`.) Play one warm-up game, then the
    games seeded first_seed.. over every draw of minors; the CPU seconds of those games."""
    import itertools

    # the engine: a core module every commit compared has (the route search moved)
    from menorca_sim.core import engine, is_compiled
    from menorca_sim.rules import load_ruleset

    assert Path(engine.__file__).resolve().is_relative_to(Path(tree).resolve()), engine.__file__
    rs = load_ruleset()
    draws = list(itertools.combinations(rs.minors, rs.setup.minors_in_play))

    play_one = _game_player(rs)

    def one(seed: int, minors) -> int:
        return play_one(seed, list(minors)).summary()["actions"]

    one(WARM_SEED, draws[0])
    start = time.process_time()
    actions = sum(one(first_seed + i, draws[(first_seed + i) % len(draws)]) for i in range(games))
    return {"cpu_s": time.process_time() - start, "games": games, "actions": actions,
            "compiled": bool(is_compiled(engine))}


def _game_player(rs):
    """play(seed, minors) -> the played Game of PLAYERS heuristics, through the tree's own
    API: `seat_policies` and `play_game(ruleset, seed, policies)` since issue 27; before,
    `game.seed_sequences` and `play_game(ruleset, players, seed, policies)`, so that older
    commits still compare."""
    try:
        from menorca_sim.play import play_game, seat_policies
    except ImportError:
        import numpy as np

        from menorca_sim.game import seed_sequences
        from menorca_sim.play import play_game
        from policies import make_policy

        def old(seed: int, minors: list[str]):
            streams = seed_sequences(seed, PLAYERS)[1:]
            policies = [make_policy("heuristic", seat, np.random.default_rng(s)) for seat, s in enumerate(streams)]
            return play_game(rs, PLAYERS, seed, policies, minors=minors)

        return old
    return lambda seed, minors: play_game(rs, seed, seat_policies(["heuristic"] * PLAYERS, seed), minors=minors)


def _child(tree: Path, games: int, first_seed: int, wrap: list[str] | None = None) -> dict:
    # the same dict orders: exact counts; and no idle BLAS threads, whose spinning callgrind
    # counted as up to 1 M instructions per game of noise (a game does no linear algebra)
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    env.pop("MENORCA_SIM_PURE", None)
    cmd = (wrap or []) + [sys.executable, str(Path(__file__).resolve()), "--child", str(tree), str(games),
                          str(first_seed)]
    out = subprocess.run(cmd, env=env, cwd=tree, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def interleaved(trees: list[Path], games: int, rounds: int, first_seed: int = 0) -> dict[str, dict]:
    """Milliseconds of CPU per game in each tree: the median over `rounds` interleaved batches."""
    per_round: dict[str, list[float]] = {str(t): [] for t in trees}
    for _ in range(rounds):
        for tree in trees:
            res = _child(tree, games, first_seed)
            per_round[str(tree)].append(1000 * res["cpu_s"] / games)
    return {tree: {"ms_per_game": statistics.median(ms), "rounds_ms": [round(m, 2) for m in ms]}
            for tree, ms in per_round.items()}


def _callgrind_total(tree: Path, games: int, first_seed: int, out: Path) -> int:
    _child(tree, games, first_seed, wrap=["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"])
    for line in out.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError(f"no totals in {out}")


def instructions(trees: list[Path], games: int, first_seed: int = 0, keep: Path | None = None) -> dict[str, dict]:
    """Instructions per game in each tree (callgrind; the warm-up run's count subtracted)."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, tree in enumerate(trees):
            played = Path(tmp) / f"games-{i}.out"
            total = _callgrind_total(tree, games, first_seed, played)
            warm = _callgrind_total(tree, 0, first_seed, Path(tmp) / f"warm-{i}.out")
            out[str(tree)] = {"instructions_per_game": (total - warm) / games}
            if keep is not None:
                keep.mkdir(parents=True, exist_ok=True)
                shutil.copy(played, keep / f"callgrind.{tree.name}.out")
                shutil.copy(Path(tmp) / f"warm-{i}.out", keep / f"callgrind.{tree.name}.warm.out")
    return out


def report(results: dict[str, dict], key: str, unit: str, scale: float) -> None:
    """Each tree's figure, and how many times the first tree's (this one) it is."""
    trees = list(results)
    first = results[trees[0]][key]
    for tree in trees:
        value = results[tree][key]
        ratio = "" if tree == trees[0] else f"   this tree {value / first:.2f}x better"
        print(f"  {tree:<40} {value / scale:10.2f} {unit}{ratio}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", action="append", type=Path, default=[], help="another tree (repeatable)")
    ap.add_argument("--commit", action="append", default=[], help="a commit to build and compare (repeatable)")
    ap.add_argument("--games", type=int, default=10, help="games per batch (default 10)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--instructions", action="store_true", help="count instructions with callgrind instead")
    ap.add_argument("--profile", type=Path, help="keep each tree's callgrind file here")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--child", nargs=3, metavar=("TREE", "GAMES", "FIRST_SEED"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        tree, games, first_seed = args.child
        print(json.dumps(play(tree, int(games), int(first_seed))))
        return
    trees = [ROOT] + [b.resolve() for b in args.base] + [tree_at(c) for c in args.commit]
    if args.instructions:
        results = instructions(trees, args.games, args.first_seed, args.profile)
        key, unit, scale = "instructions_per_game", "M instructions/game", 1e6
    else:
        results = interleaved(trees, args.games, args.rounds, args.first_seed)
        key, unit, scale = "ms_per_game", "ms CPU/game", 1.0
    if args.json:
        print(json.dumps(results))
    else:
        report(results, key, unit, scale)


if __name__ == "__main__":
    main()
