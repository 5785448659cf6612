"""The one scratch object per map: the work buffers and caches the revenue wing's
searches and the map questions (mapviews, track's reach) reuse from question to question (allocating them per question would cost more
than most searches). The map's `MapTables` owns it (`scratch_of`), so there is no
module-global buffer: each piece is made by the module that uses it, on first use."""
from __future__ import annotations

import cython

if not cython.compiled:  # compiled, scratch.pxd cimports it
    from menorca_sim.core.maptables import MapTables


@cython.cclass
class Scratch:
    """The buffers of one map's searches (fields: scratch.pxd). Read and written by one
    question at a time: a question leaves nothing in them that the next one needs but
    what their owners' checks confirm (the board viewed, the tables bound)."""

    # its fields: scratch.pxd

    def __init__(self) -> None:
        self.search = None
        self.fleet = None
        self.fleets = {}
        self.table_views = None
        self.board_views = None
        self.lays = None
        self.reached = None
        self.graphs = [None, None]


@cython.ccall
def scratch_of(tables: MapTables) -> Scratch:
    """The scratch of `tables`, made on first use."""
    scratch: Scratch = tables.scratch
    if scratch is None:
        scratch = tables.scratch = Scratch()
    return scratch
