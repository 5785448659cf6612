"""Datasets of real games for the report's control tests (slow: about 2,000 heuristic
games each): the same heuristic player under three names (its defaults written three
ways), and the same table with one name replaced by a deliberately weakened player."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from menorca_sim.cli.run import command as run

# `risk=0.5` and `min_yield=0.02` are the heuristic's defaults: one player, three names.
SAME = ("heuristic", "heuristic(risk=0.5)", "heuristic(min_yield=0.02)")
# Demanding a 50 % yield per OR, it almost never invests.
WEAK = "heuristic(min_yield=0.5)"
GAMES = 2004  # a multiple of the 6 seatings of three names


def _play(root: Path, name: str, pool: tuple[str, ...], seed: int) -> Path:
    exp = root / f"{name}.toml"
    names = ", ".join(f'"{p}"' for p in pool)
    exp.write_text(f'name = "{name}"\nseed = {seed}\ngames = {GAMES}\nplayers = [3]\nminors = "random"\n'
                   f'seating = "rotate"\n[policies]\npool = [{names}]\n')
    data = root / name / "data"
    done = CliRunner().invoke(run, [str(exp), "--out", str(data), "--quiet"])
    assert done.exit_code == 0, done.output
    return data


def heuristic_control(root: Path) -> Path:
    return _play(root, "real_control", SAME, seed=11)


def heuristic_planted(root: Path) -> Path:
    return _play(root, "real_planted", SAME[:2] + (WEAK,), seed=12)
