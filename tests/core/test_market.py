"""The 2-D market: every move of the movement table and each edge rule (RULES.md §6)."""
from menorca_sim.core.market import Market
from menorca_sim.rules import load_ruleset
from menorca_sim.rules.model import MarketCell

RS = load_ruleset()
M = Market(RS.market)


def test_moves_inside_the_grid():
    r, c = 4, 7  # 70p
    assert M.value(r, c) == 70
    assert M.value(*M.up(r, c)) == 75
    assert M.value(*M.down(r, c)) == 65
    assert M.value(*M.left(r, c)) == 65
    assert M.value(*M.right(r, c)) == 75


def test_left_from_leftmost_column_goes_straight_down():
    assert M.left(4, 0) == (5, 0)
    assert M.value(*M.left(4, 0)) == 30


def test_right_from_rightmost_column_goes_straight_up():
    last = M.cols - 1
    assert M.right(5, last) == (4, last)


def test_no_effect_at_top_or_bottom_of_a_column():
    assert M.up(0, 3) == (0, 3)
    assert M.down(M.rows - 1, 3) == (M.rows - 1, 3)
    assert M.right(0, M.cols - 1) == (0, M.cols - 1)  # right at the top-right corner: up, no effect
    assert M.left(M.rows - 1, 0) == (M.rows - 1, 0)  # left at the bottom-left corner: down, no effect


def test_ragged_grid_uses_the_row_ends():
    cell = MarketCell
    grid = ((cell(50), cell(60), cell(70)), (cell(40), cell(50)))
    m = Market(grid)
    assert m.right(1, 1) == (0, 1)  # rightmost of the short row: up
    assert m.down(0, 2) == (0, 2)  # nothing below: no effect
    assert m.left(0, 0) == (1, 0)


def test_zones_and_special_cells():
    assert M.orange(4, 0) and not M.yellow(4, 0)
    assert M.yellow(4, 1) and not M.orange(4, 1)
    assert M.bankrupt(9, 0)
    assert sorted(M.value(r, c) for r, c in M.par_cells) == [60, 70, 80, 90, 100]
    assert M.par_cell(60) == (4, 5)
    assert M.bankrupt_cell(0) == (9, 0)


def test_floor_in_row_rounds_down_to_a_cell():
    assert M.value(*M.floor_in_row(4, 72)) == 70
    assert M.value(*M.floor_in_row(4, 70)) == 70
    assert M.floor_in_row(4, 1) == (4, 0)  # below the row: its leftmost cell
