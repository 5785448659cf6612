"""Property tests of the 2-D market (RULES.md §6) on generated grids and the default one:
any sequence of moves stays on the grid, and each move obeys the edge rules."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from menorca_sim.core.market import Market
from menorca_sim.rules import load_ruleset
from menorca_sim.rules.model import MarketCell

FAST = settings(max_examples=60, deadline=None)
SLOW = settings(max_examples=2000, deadline=None)
MOVES = ("up", "down", "left", "right")
DEFAULT = Market(load_ruleset().market)

# Ragged rows, some with holes (None): the grid shapes a ruleset may give.
rows = st.lists(st.one_of(st.none(), st.builds(MarketCell, st.integers(0, 400))), min_size=1, max_size=9)
grids = st.lists(rows, min_size=1, max_size=7).filter(lambda g: any(c is not None for r in g for c in r))


def cells(m: Market) -> list[tuple[int, int]]:
    return [(r, c) for r in range(m.rows) for c in range(m.cols) if m.exists(r, c)]


def check_walk(grid, data) -> None:
    m = Market(grid)
    cell = data.draw(st.sampled_from(cells(m)))
    for move in data.draw(st.lists(st.sampled_from(MOVES), max_size=40)):
        cell = getattr(m, move)(*cell)
        assert m.exists(*cell), (move, cell)


@FAST
@given(grids, st.data())
def test_any_sequence_of_moves_stays_on_the_grid(grid, data):
    check_walk(grid, data)


@pytest.mark.slow
@SLOW
@given(grids, st.data())
def test_any_sequence_of_moves_stays_on_the_grid_many(grid, data):
    check_walk(grid, data)


def expected(m: Market, r: int, c: int, move: str) -> tuple[int, int]:
    """The movement table with its edge rules, cell by cell."""
    step = {"up": (r - 1, c), "down": (r + 1, c), "left": (r, c - 1), "right": (r, c + 1)}[move]
    if m.exists(*step):
        return step
    if move == "left":  # from the leftmost cell: one cell straight down (or nothing at the bottom)
        return (r + 1, c) if m.exists(r + 1, c) else (r, c)
    if move == "right":  # from the rightmost cell: one cell straight up (or nothing at the top)
        return (r - 1, c) if m.exists(r - 1, c) else (r, c)
    return (r, c)  # top or bottom of a column: no effect


def check_edges(grid, data) -> None:
    m = Market(grid)
    r, c = data.draw(st.sampled_from(cells(m)))
    for move in MOVES:
        assert getattr(m, move)(r, c) == expected(m, r, c, move), (move, r, c)


@FAST
@given(grids, st.data())
def test_every_move_follows_the_edge_rules(grid, data):
    check_edges(grid, data)


@pytest.mark.slow
@SLOW
@given(grids, st.data())
def test_every_move_follows_the_edge_rules_many(grid, data):
    check_edges(grid, data)


@FAST
@given(st.sampled_from(cells(DEFAULT)), st.lists(st.sampled_from(MOVES), min_size=1, max_size=30))
def test_default_market_good_moves_never_lower_the_value_and_bad_never_raise_it(start, moves):
    """Right and up are good for the company, left and down bad, whatever the edges do."""
    cell = start
    for move in moves:
        new = getattr(DEFAULT, move)(*cell)
        before, after = DEFAULT.value(*cell), DEFAULT.value(*new)
        assert after >= before if move in ("up", "right") else after <= before, (move, cell, new)
        cell = new


@FAST
@given(st.sampled_from(cells(DEFAULT)))
def test_default_market_up_then_down_comes_back(cell):
    up = DEFAULT.up(*cell)
    assert up == cell or DEFAULT.down(*up) == cell
