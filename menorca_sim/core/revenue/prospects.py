"""A company's prospects of a route before it has any: a lower bound on the tile lays
before its carts could run a route (`fewest_lays`), read from the board's tiles and
stations alone, without a route search. A player asks it of every company it might
start (most answers are "not within a lookahead": a minor's home far from track).

Why it bounds (the route rules as routes.py and track.py apply them): a cart crosses a
hex side only along paths of both hexes' tiles that touch it, never the same side twice,
and starts and ends at nodes; its route holds a node of the company's own station and
ends at no node holding a port station. A lay changes only the hex laid, so each hex of
a route run after some lays is laid, or has now a tile touching the sides the route
enters and leaves it by. Either an end of the route lies outside the station's hex: its
walk from there to that end, cut to enter each hex once (each hex's sides stay touched,
the walk no longer), is one of those `_walk_lays` counts; or both ends lie in it: the
route leaves it by one side and comes back by another (three sides at least), as
`_loop_lays` counts."""
from __future__ import annotations

from array import array

import cython

from menorca_sim.core.track import PORT

NO_ROUTE = 1 << 20  # more lays than any lookahead makes


def fewest_lays(board, c: cython.int, home: cython.int, steps: cython.int, enough: cython.int) -> cython.int:
    """A lower bound on the tile lays before company c's carts could run a route crossing
    at most `steps` hex sides on `board`, with a station at its `home` node (its start
    places one), as soon as one at most `enough` is found (NO_ROUTE: none)."""
    mt = board.tables
    slots = board.slots
    n_land = mt.n_land
    tile, rot, edge_mask, node_land = board.tile, board.rot, mt.edge_mask, mt.node_land
    held_by, kind = board.station_company, board.station_kind
    # the edges the track of each land hex touches (bit e: edge e)
    touched = array("i", [0]) * n_land
    for h in range(n_land):
        if tile[h] >= 0:
            touched[h] = edge_mask[tile[h] * 6 + rot[h]]
    # 1 on the hexes of the nodes a route may end at (none holding a port station), and
    # the hexes of its stations: its home's and any it has
    ends = array("i", [0]) * n_land
    stations = [node_land[home]]
    for n in range(mt.n_nodes):
        h = node_land[n]
        ends[h] = 1
        for i in range(n * slots, (n + 1) * slots):
            if held_by[i] >= 0 and kind[i] == PORT:
                ends[h] = 0
            if held_by[i] == c and h not in stations:
                stations.append(h)
    fewest = NO_ROUTE
    for s in stations:
        fewest = min(fewest, _walk_lays(s, steps, enough, touched, ends, mt.neighbour))
        if steps >= 3:
            fewest = min(fewest, _loop_lays(s, touched, mt.neighbour))
        if fewest <= enough:
            break
    return fewest


def _walk_lays(s: cython.int, steps: cython.int, enough: cython.int, touched, ends, neighbour) -> cython.int:
    """The fewest lays on a walk from land hex s to an end hex other than s, crossing at
    most `steps` sides, never back by the side it came: a hex whose track misses a side
    the walk enters or leaves it by counts a lay at each visit (once on a walk entering
    each hex once); as soon as a walk of at most `enough` is found."""
    n = len(touched) * 6
    # [hex * 6 + the edge it was entered by]: the fewest lays to get there (that hex's
    # own not counted yet: it depends on the side the walk leaves by), after this step
    # and the next
    here = array("i", [NO_ROUTE]) * n
    there = array("i", [NO_ROUTE]) * n
    _leave(here, s, -1, 0, touched, neighbour)
    fewest = NO_ROUTE
    for step in range(steps):
        if step:
            for at in range(n):
                there[at] = NO_ROUTE
            for at in range(n):
                if here[at] < NO_ROUTE:
                    _leave(there, at // 6, at % 6, here[at], touched, neighbour)
            here, there = there, here
        for at in range(n):
            h = at // 6
            if here[at] < NO_ROUTE and ends[h] and h != s:
                fewest = min(fewest, here[at] + _lay(touched[h], 1 << at % 6))
        if fewest <= enough:
            break
    return fewest


def _leave(arrivals, h: cython.int, entered: cython.int, lays: cython.int, touched, neighbour) -> cython.void:
    """Into `arrivals` (as `_walk_lays`' `here`): the walk at land hex h (entered by edge
    `entered`, -1 where it starts) with `lays` so far, leaving by each other edge into a
    land hex."""
    came = 0 if entered < 0 else 1 << entered
    for e in range(6):
        g = neighbour[h * 6 + e]
        if g < 0 or e == entered:
            continue
        at = g * 6 + (e + 3) % 6
        total = lays + _lay(touched[h], came | 1 << e)
        if total < arrivals[at]:
            arrivals[at] = total


def _loop_lays(s: cython.int, touched, neighbour) -> cython.int:
    """The fewest lays on a route that leaves land hex s by one edge and comes back by
    another: s and the two neighbours it crosses to."""
    fewest = NO_ROUTE
    for e1 in range(6):
        n1 = neighbour[s * 6 + e1]
        if n1 < 0:
            continue
        for e2 in range(e1 + 1, 6):
            n2 = neighbour[s * 6 + e2]
            if n2 >= 0:
                fewest = min(fewest, _lay(touched[s], 1 << e1 | 1 << e2) + _lay(touched[n1], 1 << (e1 + 3) % 6)
                             + _lay(touched[n2], 1 << (e2 + 3) % 6))
    return fewest


def _lay(touched: cython.int, sides: cython.int) -> cython.int:
    """1 where a hex's track (its `touched` edges) misses one of `sides`: it must be laid."""
    return 0 if touched & sides == sides else 1
