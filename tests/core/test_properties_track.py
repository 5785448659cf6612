"""Property tests of track (RULES.md §5): rotations compose, the upgrade relation is
what it says, and on generated board positions every upgrade the Board offers keeps
every path (and station) of the tile it replaces."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import routes_reference as ref
from menorca_sim.core.board import Board
from menorca_sim.core.maptables import map_tables
from menorca_sim.rules import load_ruleset
from menorca_sim.rules.model import COLOURS, NODE
from menorca_sim.rules.tiles import rotate, upgrade_rotations

FAST = settings(max_examples=60, deadline=None)
FAST_BOARDS = settings(max_examples=8, deadline=None)
SLOW = settings(max_examples=300, deadline=None)
RS = load_ruleset()
TABLES = map_tables(RS)

ends = st.integers(0, NODE)
paths = st.lists(st.tuples(ends, ends).filter(lambda p: p[0] != p[1]).map(lambda p: (min(p), max(p))),
                 min_size=1, max_size=6, unique=True).map(lambda ps: tuple(sorted(ps)))
rotations = st.integers(0, 5)


@FAST
@given(paths, rotations, rotations)
def test_rotations_compose_and_six_is_a_full_turn(p, a, b):
    assert rotate(rotate(p, a), b) == rotate(p, (a + b) % 6)
    assert rotate(p, 0) == rotate(p, 6) == p
    assert rotate(rotate(p, a), (6 - a) % 6) == p


@FAST
@given(paths, rotations)
def test_rotation_keeps_the_node_and_the_number_of_paths(p, a):
    turned = rotate(p, a)
    assert len(set(turned)) == len(p)
    assert sum(NODE in q for q in turned) == sum(NODE in q for q in p)


@FAST
@given(paths, paths, rotations)
def test_upgrade_rotations_are_exactly_those_keeping_every_old_path(old, new, s):
    found = upgrade_rotations(old, new)
    for r in range(6):
        assert (r in found) == set(rotate(old, r)).issubset(new)
    # turning the old tile first shifts the rotations that fit by the same amount
    assert sorted((r - s) % 6 for r in found) == sorted(upgrade_rotations(rotate(old, s), new))


def check_board_upgrades(seed: int, lays: int) -> int:
    """Check every upgrade offered on a random position; returns how many there were."""
    rng = np.random.default_rng(seed)
    board = Board(TABLES)
    in_play = ref.random_position(RS, board, rng, lays, COLOURS, 2)
    upgrades = 0
    for company in in_play:
        for hex_, tile, rotation, _cost in board.tile_lays(company, COLOURS, 10_000):
            old = _undirected(ref.tile_paths(RS, board, hex_))
            if not old:
                continue
            trial = board.clone()
            stations = {c: trial.stations(c) for c in RS.companies}
            trial.lay_tile(hex_, tile, rotation)
            new = _undirected(ref.tile_paths(RS, trial, hex_))
            assert old <= new, (hex_, board.tile_at(hex_), tile, rotation)
            assert COLOURS.index(RS.tiles[tile].colour) == _colour(board, hex_) + 1
            assert {c: trial.stations(c) for c in RS.companies} == stations
            upgrades += 1
    return upgrades


def _undirected(tile_paths) -> set[frozenset[int]]:
    return {frozenset(p) for p in tile_paths}


def _colour(board: Board, hex_: str) -> int:
    tile_id, _ = board.tile_at(hex_)
    return COLOURS.index(RS.tiles[tile_id].colour) if tile_id in RS.tiles else 0  # printed track is yellow


@FAST_BOARDS
@given(st.integers(0, 2**32 - 1), st.integers(5, 60))
def test_every_offered_upgrade_keeps_every_old_path(seed, lays):
    check_board_upgrades(seed, lays)


def test_late_positions_offer_upgrades_to_check():
    # not every late position offers one (seed 19978809 after 78 lays: the one hex that
    # takes an upgrade is out of every company's reach), but late positions as a rule do:
    # the properties above are not checked on an empty set
    assert all(check_board_upgrades(seed, 40) > 0 for seed in range(8))


@pytest.mark.slow
@SLOW
@given(st.integers(0, 2**32 - 1), st.integers(5, 80))
def test_every_offered_upgrade_keeps_every_old_path_many(seed, lays):
    check_board_upgrades(seed, lays)
