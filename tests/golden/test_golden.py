"""Golden games (tests/golden/): whole games pinned byte for byte, played again from
their seeds by the compiled core and by the plain-Python reference."""
import os
import subprocess
import sys

import pytest
from golden_games import GOLDEN, compare_all, features, first_difference, load_games, play

from helpers import ROOT
from menorca_sim.core import engine, is_compiled

GAMES = load_games()


def _explain(changed: dict[str, str]) -> str:
    lines = [f"{name}: changed at {where}" for name, where in changed.items()]
    return "\n".join(lines + ["a commit that changes games rewrites them (`make golden`) and says why"])


def test_golden_games_replay_identically_compiled(tmp_path):
    assert is_compiled(engine), "the core is not compiled (run `make build`)"
    for game in GAMES:
        play(game, tmp_path / game.log.name)
    changed = compare_all(GAMES, tmp_path)
    assert not changed, _explain(changed)


def test_golden_games_replay_identically_pure(tmp_path):
    env = dict(os.environ, MENORCA_SIM_PURE="1", PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, str(ROOT / "tests" / "golden_games.py"), "--out", str(tmp_path)],
                   env=env, cwd=ROOT, check=True, capture_output=True, text=True)
    changed = compare_all(GAMES, tmp_path)
    assert not changed, _explain(changed)


def test_golden_games_cover_the_rules():
    """The fixtures keep exercising what they were chosen for (games.toml)."""
    seen = [features(g.log) for g in GAMES]
    assert {f["players"] for f in seen} == {2, 3}
    for players in (2, 3):
        assert len({f["minors"] for f in seen if f["players"] == players}) == 3  # every draw
    kinds = {"heuristic" if all(s.startswith("heuristic") for s in f["seats"]) else
             "random" if set(f["seats"]) == {"random_legal"} else "mixed" for f in seen}
    assert kinds == {"heuristic", "random", "mixed"}
    assert {f["end_reason"] for f in seen} == {"bank", "bankruptcy", "conquest", "cap"}
    assert any(f["radm_without_minors"] for f in seen)
    assert max(f["largest_company_sale"] for f in seen) >= 2
    assert sorted(p.name for p in GOLDEN.glob("*.jsonl")) == sorted(g.log.name for g in GAMES)


def test_a_changed_game_is_named_with_its_first_changed_action(tmp_path):
    game = GAMES[0]
    lines = game.log.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[10] = lines[10].replace('"bank": ', '"bank": 1', 1)
    changed = tmp_path / game.log.name
    changed.write_text("".join(lines), encoding="utf-8")
    assert first_difference(game.log, changed).startswith("action 9 (")
    assert first_difference(game.log, game.log) is None
    with pytest.raises(FileNotFoundError):
        first_difference(game.log, tmp_path / "missing.jsonl")
