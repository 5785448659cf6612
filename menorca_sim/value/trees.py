"""The walk down a model's trees (menorca_sim/value/model.py), compiled: a search scores
a leaf per playout, and numpy's cost per call on a few hundred nodes outweighed the walk
itself. Each tree is a perfect binary tree of `depth` levels stored breadth first: inner
node k's children are 2k + 1 and 2k + 2, a row goes right when its value is above the
node's threshold. trees.pxd types it (the arrays held as typed views, taken once per
model, not per call); the plain Python reference adds the same doubles in the same
order, so both give the same scores."""
from __future__ import annotations

from array import array

import cython
import numpy as np

if not cython.compiled:  # compiled, trees.pxd cimports C's exp: the libm function math.exp calls
    from math import exp


class Forest:
    """A model's trees: `feature` and `threshold` are (trees, 2**depth - 1), `leaf` is
    (trees, 2**depth), `baseline` the raw score before any tree."""

    def __init__(self, feature: np.ndarray, threshold: np.ndarray, leaf: np.ndarray, baseline: float,
                 depth: int) -> None:
        # C order (compiled: contiguous views, each tree's nodes side by side)
        self.feature, self.threshold, self.leaf = (np.ascontiguousarray(a) for a in (feature, threshold, leaf))
        self.baseline, self.depth, self.inner = baseline, depth, feature.shape[1]

    @cython.boundscheck(False)  # the model's arrays are checked on load, a row has every feature column
    @cython.wraparound(False)
    def scores(self, rows: np.ndarray) -> list[float]:
        """Each row's raw score: the baseline plus its leaf's value in every tree, added
        tree by tree. The rows walk each tree together: their walks are independent, so
        the processor overlaps them, and each row's sum is added in the trees' order."""
        out = array("d", [self.baseline]) * rows.shape[0]  # not numpy: its cost per call outweighs a few seats
        totals = out  # compiled: a typed view of it
        feature, threshold, leaf = self.feature, self.threshold, self.leaf  # compiled: views held in registers
        depth, inner = self.depth, self.inner
        for t in range(feature.shape[0]):
            for r in range(rows.shape[0]):
                k = 0
                for _ in range(depth):
                    k = 2 * k + 1 + (rows[r, feature[t, k]] > threshold[t, k])
                totals[r] += leaf[t, k - inner]
        return out.tolist()

    def shares(self, rows: np.ndarray) -> list[float]:
        """The rows of one state's seats as win shares that sum to 1: each row's chance
        that its seat wins (the logistic of its score), the chances scaled to one winner."""
        p = [1.0 / (1.0 + exp(-s)) for s in self.scores(rows)]
        total = sum(p)
        return [x / total for x in p]
