"""Tile shapes: rotation and the upgrade relation, derived from paths alone.

A path is a pair (a, b) with a < b, 0-5 hex edges and NODE (6) the tile's node. An
upgrade keeps every old path under some rotation of the new tile (RULES.md section 5)."""
from __future__ import annotations

from menorca_sim.rules.model import NODE

Paths = tuple[tuple[int, int], ...]


def rotate(paths: Paths, rotation: int) -> Paths:
    """The paths of a tile turned clockwise by `rotation` edges (the node stays put)."""
    def turn(end: int) -> int:
        return end if end == NODE else (end + rotation) % 6

    return tuple(sorted((min(turn(a), turn(b)), max(turn(a), turn(b))) for a, b in paths))


def upgrade_rotations(old: Paths, new: Paths) -> tuple[int, ...]:
    """Rotations r for which every path of `old` turned by r is a path of `new`;
    empty when `new` can never replace `old`."""
    target = set(new)
    return tuple(r for r in range(6) if target.issuperset(rotate(old, r)))
