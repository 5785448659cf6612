"""The two-dimensional share market (RULES.md §6): cells, zones and the four moves
with their edge rules. Positions are (row, col); row 0 is the top; "right" and "up"
are good for the company."""
from __future__ import annotations


class Market:
    """Read-only view of `ruleset.market`; moves return the new (row, col)."""

    def __init__(self, grid) -> None:
        self.rows = len(grid)
        self.cols = max(len(r) for r in grid)
        # cells[r][c] is None where the grid has no cell
        self.cells = [[row[c] if c < len(row) else None for c in range(self.cols)] for row in grid]
        self.par_cells = [(r, c) for r in range(self.rows) for c in range(self.cols)
                          if self.cells[r][c] is not None and self.cells[r][c].par]
        self.bankrupt_cells = [(r, c) for r in range(self.rows) for c in range(self.cols)
                               if self.cells[r][c] is not None and self.cells[r][c].bankrupt]

    def exists(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols and self.cells[row][col] is not None

    def value(self, row: int, col: int) -> int:
        return self.cells[row][col].value

    def orange(self, row: int, col: int) -> bool:
        return self.cells[row][col].orange

    def yellow(self, row: int, col: int) -> bool:
        return self.cells[row][col].yellow

    def bankrupt(self, row: int, col: int) -> bool:
        return self.cells[row][col].bankrupt

    def up(self, row: int, col: int) -> tuple[int, int]:
        """One cell up; no effect at the top of a column."""
        return (row - 1, col) if self.exists(row - 1, col) else (row, col)

    def down(self, row: int, col: int) -> tuple[int, int]:
        """One cell down; no effect at the bottom of a column."""
        return (row + 1, col) if self.exists(row + 1, col) else (row, col)

    def left(self, row: int, col: int) -> tuple[int, int]:
        """One cell left; from the leftmost cell of a row, one cell straight down."""
        if self.exists(row, col - 1):
            return (row, col - 1)
        return self.down(row, col)

    def right(self, row: int, col: int) -> tuple[int, int]:
        """One cell right; from the rightmost cell of a row, one cell straight up."""
        if self.exists(row, col + 1):
            return (row, col + 1)
        return self.up(row, col)

    def par_cell(self, value: int) -> tuple[int, int]:
        """The par cell holding `value` (a minor's fixed par)."""
        for r, c in self.par_cells:
            if self.value(r, c) == value:
                return (r, c)
        raise ValueError(f"no par cell with value {value}")

    def floor_in_row(self, row: int, value: int) -> tuple[int, int]:
        """The cell of `row` with the highest value not above `value` (leftmost if none)."""
        best_col = -1
        first_col = -1
        for c in range(self.cols):
            if self.cells[row][c] is None:
                continue
            if first_col < 0:
                first_col = c
            v = self.value(row, c)
            if v <= value and (best_col < 0 or v >= self.value(row, best_col)):
                best_col = c
        return (row, best_col if best_col >= 0 else first_col)

    def nearest_cell(self, value: int, row: int) -> tuple[int, int]:
        """The cell whose value is nearest to `value` (so the grid's top value where `value`
        lies beyond it), on or nearest to `row`; between equals, the higher value. A
        bankruptcy cell is never chosen."""
        best = (-1, -1)
        best_key = None
        for r in range(self.rows):
            for c in range(self.cols):
                cell = self.cells[r][c]
                if cell is None or cell.bankrupt:
                    continue
                key = (abs(cell.value - value), abs(r - row), -cell.value)
                if best_key is None or key < best_key:
                    best, best_key = (r, c), key
        return best

    def bankrupt_cell(self, col: int) -> tuple[int, int]:
        """Where a bankrupt company's token goes: the bankruptcy cell of its column, else the first one."""
        for r, c in self.bankrupt_cells:
            if c == col:
                return (r, c)
        return self.bankrupt_cells[0]
