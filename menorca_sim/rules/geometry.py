"""Hex coordinates of the map: flat-topped hexes, letters are columns (west -> east),
numbers are rows in doubled coordinates (north -> south). Edge e of a hex faces
NEIGHBOUR_OFFSETS[e]; edge e of one hex meets edge (e + 3) % 6 of its neighbour."""
from __future__ import annotations

from menorca_sim.rules.reader import Table

# (column step, row step) for edges 0 = S, 1 = SW, 2 = NW, 3 = N, 4 = NE, 5 = SE.
NEIGHBOUR_OFFSETS = ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1))


def split_hex(name: str) -> tuple[int, int] | None:
    """'K12' -> (10, 12); None when the name is not a valid hex of this layout."""
    if len(name) < 2 or not name[0].isalpha() or not name[0].isupper() or not name[1:].isdigit():
        return None
    col, row = ord(name[0]) - ord("A"), int(name[1:])
    return (col, row) if col % 2 == row % 2 else None


def hex_name(col: int, row: int) -> str:
    return f"{chr(ord('A') + col)}{row}"


def parse_hex(table: Table, key: str, name: str) -> tuple[int, int]:
    pos = split_hex(name)
    if pos is None:
        raise table.fail(key, f"{name!r} is not a hex (a column letter and a row number of the same parity)")
    return pos


def neighbour(name: str, edge: int) -> str | None:
    pos = split_hex(name)
    if pos is None:
        return None
    dc, dr = NEIGHBOUR_OFFSETS[edge]
    col, row = pos[0] + dc, pos[1] + dr
    return hex_name(col, row) if col >= 0 and row >= 0 else None


def edge_between(a: str, b: str) -> int | None:
    """The edge of `a` that faces `b`, or None when they are not adjacent."""
    for edge in range(6):
        if neighbour(a, edge) == b:
            return edge
    return None
