"""Two modes, one game: the compiled core and the plain-Python core (MENORCA_SIM_PURE=1)
play the same seeds to identical logs, and the search on the learned value (its features,
trees and both backups compiled or not) to the same games."""
import filecmp
import os
import subprocess
import sys
from pathlib import Path

from helpers import ROOT

SCRIPT = """
import itertools, sys
from menorca_sim.core import engine, is_compiled
from menorca_sim.play import play_game, seat_policies
from menorca_sim.rules import load_ruleset

out = sys.argv[1]
rs = load_ruleset()
draws = [list(d) for d in itertools.combinations(rs.minors, 2)]
for i in range(int(sys.argv[2])):
    seed, players, minors = 500 + i, 2 + i % 2, draws[(i // 2) % len(draws)]
    play_game(rs, seed, seat_policies(["random_legal"] * players, seed), minors=minors, log=f"{out}/{seed}.jsonl")
print("compiled" if is_compiled(engine) else "pure")
"""


SEARCH_SCRIPT = """
from menorca_sim.core import engine, is_compiled
from menorca_sim.play import play_game, seat_policies
from menorca_sim.rules import load_ruleset

rs = load_ruleset()
for specs, seed in [(["mcts(playouts=3)", "heuristic_tuned"], 3),
                    (["mcts(playouts=3, backup=guarded, min_visits=1)", "heuristic", "heuristic"], 4)]:
    print(play_game(rs, seed, seat_policies(specs, seed)).fingerprint())
print("compiled" if is_compiled(engine) else "pure")
"""


def _python(script: str, pure: bool, *args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("MENORCA_SIM_PURE", None)
    if pure:
        env["MENORCA_SIM_PURE"] = "1"
    done = subprocess.run([sys.executable, "-c", script, *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def _run(out: Path, pure: bool, games: int) -> str:
    out.mkdir()
    return _python(SCRIPT, pure, str(out), str(games))


def test_compiled_and_pure_modes_write_identical_logs(tmp_path):
    games = 30
    pure = _run(tmp_path / "pure", True, games)
    compiled = _run(tmp_path / "compiled", False, games)
    assert pure == "pure"
    assert compiled == "compiled", "the core is not compiled (run `make build`)"
    names = sorted(p.name for p in (tmp_path / "pure").iterdir())
    assert len(names) == games
    match, mismatch, errors = filecmp.cmpfiles(tmp_path / "pure", tmp_path / "compiled", names, shallow=False)
    assert not mismatch and not errors


def test_compiled_and_pure_modes_play_the_same_search_games():
    pure, compiled = _python(SEARCH_SCRIPT, True).split(), _python(SEARCH_SCRIPT, False).split()
    assert pure[-1] == "pure" and compiled[-1] == "compiled"
    assert pure[:-1] == compiled[:-1] and len(set(pure[:-1])) == 2
