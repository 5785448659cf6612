"""The revenue memo: route revenues remembered by revenue key and fleet for one game and
its copies (`whatif.WhatIf` asks it before searching), in a table of C arrays."""
from __future__ import annotations

from array import array

import cython

if not cython.compiled:  # compiled, memo.pxd cimports it
    from menorca_sim.core.revenue.context import RevenueContext


@cython.cclass
class RevenueMemo:
    """Route revenues by (the number of a company's revenue key, the code of a fleet) in a
    table of C arrays (open addressing by a 64-bit hash of the two), and the revenue
    context of each revenue key but its map part. The two ints are the full key and
    every hit compares both, so no collision can return another key's revenue. Keys are
    numbered (a small int hashes faster than the map's bytes), never twice with one
    number; the table doubles when it is half full, and all is dropped at `MEMO_MAX`
    revenues, so that a game's memo stays small."""

    def __init__(self) -> None:
        self._numbers = {}
        self._next = 0
        self._contexts = {}
        self._allocate(FIRST_BITS)

    def _allocate(self, bits: cython.int) -> None:
        """An empty table of 2 ** bits slots."""
        self._bits = bits
        self._number_at = array("q", [-1]) * (1 << bits)
        self._fleet_at = array("q", [0]) * (1 << bits)
        self._revenue_at = array("q", [0]) * (1 << bits)
        self._count = 0

    def number(self, key: tuple) -> int:
        number = self._numbers.get(key)
        if number is None:
            number = self._numbers[key] = self._next
            self._next += 1
        return number

    def _slot(self, number: cython.longlong, fleet: cython.longlong) -> cython.Py_ssize_t:
        """The slot where (number, fleet) is, or the empty slot where it would go."""
        h = ((cython.cast(cython.ulonglong, number) * HASH_A) ^ cython.cast(cython.ulonglong, fleet)) & MASK64
        slot = ((h * HASH_B) & MASK64) >> (64 - self._bits)
        mask = (1 << self._bits) - 1
        while self._number_at[slot] >= 0 and (self._number_at[slot] != number or self._fleet_at[slot] != fleet):
            slot = (slot + 1) & mask
        return slot

    def get(self, number: cython.longlong, fleet: cython.longlong) -> cython.longlong:
        """The revenue of fleet code `fleet` under key `number`, -1 if not remembered
        (a revenue is never negative; nor is a fleet's code: see `WhatIf._fleet_code`)."""
        if fleet < 0:
            return -1
        slot = self._slot(number, fleet)
        return self._revenue_at[slot] if self._number_at[slot] >= 0 else -1

    def put(self, number: cython.longlong, fleet: cython.longlong, revenue: cython.longlong) -> None:
        if fleet < 0:  # a fleet without a code: not remembered
            return
        if self._count >= MEMO_MAX:
            self._allocate(FIRST_BITS)
            self._numbers.clear()
            self._contexts.clear()
        elif 2 * (self._count + 1) > 1 << self._bits:
            self._grow()
        slot = self._slot(number, fleet)
        if self._number_at[slot] < 0:
            self._count += 1
        self._number_at[slot] = number
        self._fleet_at[slot] = fleet
        self._revenue_at[slot] = revenue

    def _grow(self) -> None:
        """Twice the slots, with every revenue put again."""
        numbers, fleets, revenues = self._number_at, self._fleet_at, self._revenue_at
        self._allocate(self._bits + 1)
        for slot in range(len(numbers)):
            if numbers[slot] >= 0:
                self.put(numbers[slot], fleets[slot], revenues[slot])

    def context(self, key: tuple) -> RevenueContext | None:
        return self._contexts.get(key)

    def put_context(self, key: tuple, ctx: RevenueContext) -> None:
        self._contexts[key] = ctx


MEMO_MAX = 20000  # revenues a RevenueMemo holds at most
FIRST_BITS = 10  # a new RevenueMemo's table has 2 ** FIRST_BITS slots
MASK64 = (1 << 64) - 1  # the hash's arithmetic is modulo 2 ** 64 (in C as in Python)
HASH_A = 0x9E3779B97F4A7C15  # odd multipliers that spread the key's bits (splitmix64's)
HASH_B = 0xBF58476D1CE4E5B9
