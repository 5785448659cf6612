"""The small experiment file the experiment and runner tests start from."""
from __future__ import annotations


def study_toml(name: str, seed: int, tables: str = "") -> str:
    """6 games per cell, 2 and 3 players, every draw of minors, seats named a, b (and c),
    then `tables` (more TOML tables, such as variants)."""
    return f"""
name = "{name}"
seed = {seed}
games = 6
players = [2, 3]
minors = "all"
[policies.seats]
2 = ["a", "b"]
3 = ["a", "b", "c"]
{tables}"""


def one_draw_study(name: str, seed: int, games: int, players: int, body: str,
                   draw: str = '["Destil·ladors", "Ramaders"]') -> str:
    """A study of one player count and one minor draw, then `body` (its policies or
    populations, overrides, sweeps)."""
    return f'name = "{name}"\nseed = {seed}\ngames = {games}\nplayers = [{players}]\nminors = [{draw}]\n{body}'


def run_study(folder, text: str):
    """Write `text` as an experiment file in `folder`, play it with `menorca-sim run`
    (one worker), and return its dataset folder."""
    from click.testing import CliRunner

    from menorca_sim.cli.run import command as run

    (folder / "study.toml").write_text(text, encoding="utf-8")
    data = folder / "data"
    done = CliRunner().invoke(run, [str(folder / "study.toml"), "--out", str(data), "--jobs", "1", "--quiet"])
    assert done.exit_code == 0, done.output
    return data

# A tiny study the real engine plays in seconds.
TINY = """
name = "tiny"
seed = 2026
games = 2
players = [2, 3]
minors = "all"
[policies]
seats = "random_legal"
"""


def run_studies(base, texts: dict[str, str]) -> tuple:
    """Each of `texts` played by `run_study` in its own folder of `base` (named by its
    key), in order: their dataset folders."""
    folders = []
    for name, text in texts.items():
        (base / name).mkdir()
        folders.append(run_study(base / name, text))
    return tuple(folders)
