"""Bounds on what a user policy can do to a long run: a decision limit per game, a time
limit and a memory cap per chunk (`menorca-sim run --max-decisions/--chunk-timeout/
--max-memory`). A game past a bound becomes an `errors` row with its seed, and the
chunk goes on.

Decisions are counted before each one (a policy proxy), so the decision limit needs no
process of its own and gives the same rows on every machine. Time and memory cannot be
bounded that way: a policy stuck in a loop inside `act()` never comes back to be
checked, and a thread cannot be stopped from outside. So with a time or memory limit the
chunk's games are played in a child process forked from the worker, which the worker
kills when the chunk's time runs out; the memory cap is that child's address-space limit
(RLIMIT_AS), so an allocation past it fails with MemoryError in the game that makes it.
Forking keeps the worker's imports and rulesets (no start-up cost), and a worker's
memory never holds what a policy leaked: after a game that raised (or was stopped), the
chunk's next games go on in a fresh child, with the time limit counted afresh. POSIX
only (fork, resource)."""
from __future__ import annotations

import contextlib
import contextvars
import multiprocessing
import os
import resource
import signal
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Callable, Iterator, NoReturn, Sequence

from menorca_sim.run.experiment import GameSpec
from menorca_sim.run.records import Rows, add_error, empty_rows


@dataclass(frozen=True)
class Limits:
    max_decisions: int | None = None  # per game
    chunk_seconds: float | None = None  # per chunk (and per child after a game that failed)
    max_memory_mb: int | None = None  # what a chunk's child may add to its worker's address space

    @property
    def isolated(self) -> bool:
        """Whether games need a child process of their own."""
        return self.chunk_seconds is not None or self.max_memory_mb is not None


class DecisionLimitExceeded(RuntimeError):
    pass


_MAX_DECISIONS: contextvars.ContextVar[int | None] = contextvars.ContextVar("max_decisions", default=None)


@contextlib.contextmanager
def decision_limit(limit: int | None) -> Iterator[None]:
    """Games played inside count their decisions against `limit` (see `counted`)."""
    token = _MAX_DECISIONS.set(limit)
    try:
        yield
    finally:
        _MAX_DECISIONS.reset(token)


def counted(policies: list[Any]) -> list[Any]:
    """The game's policies, counting their decisions together against the limit in force
    (unchanged when there is none)."""
    limit = _MAX_DECISIONS.get()
    if limit is None:
        return policies
    count = [0]
    return [_Counted(p, seat, count, limit) for seat, p in enumerate(policies)]


class _Counted:
    """A policy whose `act_code` is counted first; everything else is the policy's own."""

    def __init__(self, policy: Any, seat: int, count: list[int], limit: int) -> None:
        self._policy, self._seat, self._count, self._limit = policy, seat, count, limit

    def __getattr__(self, name: str) -> Any:
        return getattr(self._policy, name)

    def act_code(self, game: Any) -> int:
        self._tick()
        return self._policy.act_code(game)

    def _tick(self) -> None:
        self._count[0] += 1
        if self._count[0] > self._limit:
            raise DecisionLimitExceeded(f"the game went past {self._limit} decisions (--max-decisions) "
                                        f"with seat {self._seat} ({self._policy.name}) to decide")


def play_isolated(games: Sequence[GameSpec], play: Callable[[GameSpec], Rows], limits: Limits) -> Iterator[Rows]:
    """Each game's rows, in order, played by `play` in child processes under `limits`."""
    done = 0
    while done < len(games):
        results, stopped = _play_in_child(games[done:], play, limits)
        done += len(results)
        yield from results
        if stopped:
            rows = empty_rows()
            add_error(rows, games[done], stopped, "")
            done += 1
            yield rows


def _play_in_child(games: Sequence[GameSpec], play: Callable[[GameSpec], Rows],
                   limits: Limits) -> tuple[list[Rows], str | None]:
    """Play `games` in one child process until they are all done or the child stops:
    the rows of the games it finished, and None, or the error of the game it was stopped
    in (the next in line)."""
    results: list[Rows] = []
    reader, writer = multiprocessing.Pipe(duplex=False)
    pid = os.fork()
    if pid == 0:
        reader.close()
        _child(games, play, writer, limits.max_memory_mb)
    writer.close()
    deadline = None if limits.chunk_seconds is None else time.monotonic() + limits.chunk_seconds
    try:
        with reader:
            while len(results) < len(games):
                if not reader.poll(None if deadline is None else max(0.0, deadline - time.monotonic())):
                    return results, (f"ChunkTimeout: the chunk's time limit of {limits.chunk_seconds:g} s "
                                     f"(--chunk-timeout) ran out in this game; its process was stopped")
                try:
                    results.append(reader.recv())
                except EOFError:  # the child is gone: done with its games, or died in one
                    break
        status = os.waitpid(pid, 0)[1]
        pid = 0
        if status != 0 and len(results) < len(games):
            return results, f"ProcessDied: the process playing this game ended ({_status(status)})"
        return results, None
    finally:
        if pid:  # out of time, or the worker gave up on the chunk: nothing of the child may run on
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


def _child(games: Sequence[GameSpec], play: Callable[[GameSpec], Rows], writer: Connection,
           max_memory_mb: int | None) -> NoReturn:
    code = 1
    try:
        if max_memory_mb is not None:
            _cap_address_space(max_memory_mb)
        for game in games:
            rows = play(game)
            writer.send(rows)
            if rows["errors"]:  # a game that raised may have left this process in any state
                break
        code = 0
    finally:
        os._exit(code)  # never back into the worker's code (loky's or Dask's) from a fork


def _cap_address_space(mb: int) -> None:
    """Let this process's address space grow by at most `mb` MB from now."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = size + mb * 10**6
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))


def _status(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by signal {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"
