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
