"""One writer per dataset folder: `DIR/.lock`, held for the whole run.

The kernel's lock on the file (flock) decides who writes: it is released when its
process ends, however it ends (kill -9 included), so a lock left behind by a dead run is
never mistaken for a live one (no pid reuse to fool), and two runs racing for it cannot
both win. The file holds the holder's pid, host and start time: for the line that
refuses a second run, and for the warning when a run takes over a lock left behind."""
from __future__ import annotations

import fcntl
import json
import os
import socket
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

LOCK = ".lock"


class Busy(Exception):
    """Another process holds the folder's lock; the message says who."""


@dataclass
class Lock:
    path: Path
    fd: int
    left_behind: str | None  # who held the lock last without releasing it, if anyone

    def release(self) -> None:
        # unlinked while still held: a process waiting on this file finds it replaced
        self.path.unlink(missing_ok=True)
        os.close(self.fd)


def acquire(folder: Path) -> Lock:
    """Take the folder's lock, or raise Busy naming its holder."""
    path = folder / LOCK
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise Busy(f"another run is writing this dataset ({holder or 'its holder is starting'})") from None
        if _same_file(fd, path):  # not a file that its last holder removed as we opened it
            break
        os.close(fd)
    left_behind = _holder(fd)
    me = {"pid": os.getpid(), "host": socket.gethostname(),
          "since": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(me).encode(), 0)
    except OSError as exc:  # a full disk, a file-size limit: say which file
        os.close(fd)
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    return Lock(path, fd, left_behind)


def writer(folder: Path) -> str | None:
    """Who holds the folder's lock now ("pid P on HOST since T"), or None when no run
    writes it; the lock is only tested, never taken."""
    try:
        fd = os.open(folder / LOCK, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return _holder(fd) or "its holder is starting"
    finally:
        os.close(fd)  # closing releases a lock this test took
    return None


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


def _holder(fd: int) -> str | None:
    """"pid P on HOST since T" from the lock file, or None when it is empty or unreadable."""
    try:
        holder = json.loads(os.pread(fd, 4096, 0))
        return f"pid {holder['pid']} on {holder['host']} since {holder['since']}"
    except (ValueError, TypeError, KeyError):
        return None
