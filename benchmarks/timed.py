"""A policy wrapper that counts a policy's decisions and the time they take (`act_code`,
the play loop's one call), so a timed game is the game untimed."""
from __future__ import annotations

import time
from typing import Callable


class Timed:
    def __init__(self, policy, clock: Callable[[], float] = time.perf_counter) -> None:
        self.policy = policy
        self.name = policy.name
        self.auction_strategy = policy.auction_strategy
        self.clock = clock
        self.seconds = 0.0
        self.decisions = 0

    def act_code(self, game) -> int:
        return self._timed(self.policy.act_code, game)

    def _timed(self, decide: Callable, *args):
        start = self.clock()
        answer = decide(*args)
        self.seconds += self.clock() - start
        self.decisions += 1
        return answer
