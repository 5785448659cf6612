# Compiled declarations of market.py (augmenting .pxd: market.py stays the reference).
# The engine reads the grid per action from Tables' int copies (mk_*); a Market answers
# the setup, the merger and the checks.
cdef class Market:
    cdef readonly int rows  # rows of the grid, row 0 on top
    cdef readonly int cols  # the longest row's cells
    cdef readonly list cells  # [r][col] model.MarketCell, None where the grid has no cell
    cdef readonly list par_cells  # (r, col) of every par cell, row by row
    cdef readonly list bankrupt_cells  # (r, col) of every bankruptcy cell, row by row
