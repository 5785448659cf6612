"""The default map and market against the seeds: the route example is playable, the
scoring example's values exist, and every town and city can be upgraded to grey."""
from __future__ import annotations

import pytest

from menorca_sim.rules.geometry import edge_between, neighbour
from menorca_sim.rules.model import NODE
from menorca_sim.rules.tiles import rotate, upgrade_rotations


def has_lane(mp, a, b):
    return (a, b) in mp.lanes or (b, a) in mp.lanes


def test_geometry_helpers():
    # Doubled coordinates: C8's neighbours by edge S, SW, NW, N, NE, SE.
    assert [neighbour("C8", e) for e in range(6)] == ["C10", "B9", "B7", "C6", "D7", "D9"]
    assert edge_between("C8", "D9") == 5 and edge_between("D9", "C8") == 2
    assert edge_between("C8", "C12") is None


def test_ship_route_example(ruleset):
    """Xebec: Maó - K12 - K14 - València, four hexes with both ends."""
    mp = ruleset.map
    mao, valencia = mp.nodes["Maó"], mp.offboards["València"]
    assert mao.port and {"K12", "K14"} <= set(mp.sea)
    hexes = [mao.hex, "K12", "K14", valencia.hex]
    for a, b in zip(hexes, hexes[1:]):
        assert edge_between(a, b) is not None, f"{a} and {b} are not adjacent"
    for a, b in [("Maó", "K12"), ("K12", "K14"), ("K14", "València")]:
        assert has_lane(mp, a, b)
    assert len(hexes) == ruleset.vehicles["xebec"].range


def test_cart_route_example(ruleset):
    """Cart: Maó (own port) - Sant Lluís - one more revenue hex inland, three hexes."""
    mp = ruleset.map
    mao, lluis = mp.nodes["Maó"], mp.nodes["Sant Lluís"]
    to_lluis = edge_between(mao.hex, lluis.hex)
    assert to_lluis is not None
    assert (to_lluis, NODE) in mao.track  # Maó's printed track already leads towards Sant Lluís
    inland = [n for n in mp.nodes.values()
              if n.name not in ("Maó", "Sant Lluís") and edge_between(lluis.hex, n.hex) is not None]
    assert [n.name for n in inland] == ["Sant Climent"]
    assert all(n.hex in mp.land for n in inland)
    # A yellow town tile on Sant Lluís can join the edge facing Maó to the edge facing Sant Climent.
    wanted = {(edge_between(lluis.hex, mao.hex), NODE), (edge_between(lluis.hex, inland[0].hex), NODE)}
    town_tiles = [t for t in ruleset.tiles.values() if t.colour == "yellow" and t.node == "town"]
    assert any(wanted <= set(rotate(t.paths, r)) for t in town_tiles for r in range(6))
    assert len([mao, lluis, inland[0]]) == ruleset.vehicles["cart"].range


def test_market_example_values_and_zones(ruleset):
    cells = [c for row in ruleset.market for c in row if c is not None]
    values = {c.value for c in cells}
    assert {120, 80} <= values
    assert sorted(c.value for c in cells if c.par) == [60, 70, 80, 90, 100]
    bottom_left = ruleset.market[-1][0]
    assert bottom_left.bankrupt and bottom_left.value == 0
    assert [c.value for c in cells if c.bankrupt] == [0]
    assert all(c.orange == (0 < c.value < 40) for c in cells)
    assert all(c.yellow == (40 <= c.value <= 55) for c in cells)
    assert max(values) == 350


def test_upgrade_relation():
    sharp, gentle, straight = ((0, 1),), ((0, 2),), ((0, 3),)
    assert rotate(sharp, 1) == ((1, 2),) and rotate(((5, NODE),), 1) == ((0, NODE),)
    assert upgrade_rotations(straight, ((0, 3), (2, 4))) == (0, 3)
    assert upgrade_rotations(sharp, ((0, 3), (2, 4))) == ()
    assert upgrade_rotations(gentle, ((0, 3), (0, 2), (3, 5), (2, 5))) != ()


@pytest.mark.parametrize("start, chain", [
    ("T1", ["87", "611", "X3"]),        # town: one exit
    ("3", ["87", "611", "X3"]),         # town: sharp
    ("4", ["87", "611", "X3"]),         # town: straight
    ("58", ["88", "611", "X3"]),        # town: gentle
    ("Maó", ["14", "63", "X4"]),        # city with preprinted gentle track
    ("Ciutadella", ["15", "63", "X4"]),  # city with preprinted sharp track
])
def test_town_and_city_upgrade_chains(ruleset, start, chain):
    old = ruleset.map.nodes[start].track if start in ruleset.map.nodes else ruleset.tiles[start].paths
    kind = ruleset.map.nodes[start].kind if start in ruleset.map.nodes else ruleset.tiles[start].node
    for colour, tid in zip(("green", "brown", "grey"), chain):
        new = ruleset.tiles[tid]
        assert (new.colour, new.node) == (colour, kind)
        assert upgrade_rotations(old, new.paths), f"{tid} cannot replace {old}"
        old = new.paths


def test_every_town_and_city_tile_leads_to_grey(ruleset):
    """No town or city tile is a dead end before grey: each has an upgrade one colour up."""
    colours = ("yellow", "green", "brown", "grey")
    for t in ruleset.tiles.values():
        if t.node == "none" or t.colour == "grey":
            continue
        up = colours[colours.index(t.colour) + 1]
        assert any(u.colour == up and u.node == t.node and upgrade_rotations(t.paths, u.paths)
                   for u in ruleset.tiles.values()), t.id
