"""Run an experiment: chunks of seeded games in parallel, streamed to a Parquet dataset.

The plan (experiment) fixes every game; chunks are ranges of game ids, played by joblib
workers (loky processes on this machine, or a Dask cluster) and written as Parquet parts
by this process the moment each one comes back, in whatever order. Results are streamed,
so memory holds only the chunks in flight. A run that stops for any reason (even
`kill -9`, a lost cluster, a full disk) is finished with `resume=True`: sound chunks are
kept, damaged parts moved aside, the rest played. A lock keeps a second run out."""
from __future__ import annotations

import contextlib
import dataclasses
import errno
import json
import math
import os
import platform
import re
import shutil
import time
import warnings
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from tqdm import tqdm

from menorca_sim.run import dataset_lock
from menorca_sim.run import parquet_store as store
from menorca_sim.run.chunk_worker import ChunkResult, PlayFn, play_chunk, play_one
from menorca_sim.run.experiment import Experiment
from menorca_sim.run.limits import Limits
from menorca_sim.run.outcomes import table_names

with warnings.catch_warnings(record=True) as _caught:
    warnings.simplefilter("always", UserWarning)
    from joblib import Parallel, delayed
# joblib cannot make its semaphores (under a file-size limit, say) and plays serially:
# each run tells it as one warning line, not as this import's two-line warning
_SERIAL = [str(w.message) for w in _caught if "operate in serial mode" in str(w.message)]
for _other in (w for w in _caught if "operate in serial mode" not in str(w.message)):
    warnings.showwarning(_other.message, _other.category, _other.filename, _other.lineno)

BACKENDS = ("loky", "dask")
MAX_DEFAULT_CHUNK = 100  # games; large enough that scheduling costs little next to playing
MANIFEST_EVERY_S = 1.0
WORKER_WAIT_S = 60.0  # a Dask cluster left without workers this long stops the run
_POLL_S = 0.5  # how often a run waiting on Dask checks that workers are left
_GATHER_S = 2.0  # a finished chunk comes back in milliseconds; longer means its worker died with it


class RunError(Exception):
    """A run that cannot start or go on; the message is one line."""


class RunWarning(UserWarning):
    """Something a run fixed on its own and the user should know: a damaged part moved
    aside and played again, a lock left behind by a dead run taken over."""


class _Stopped(Exception):
    """The run cannot go on; the message says why, in one line."""


@dataclass(frozen=True)
class RunSummary:
    name: str
    out: Path
    played: int  # games played by this run (including failed ones)
    errors: int  # of those, games that raised
    wall_s: float
    total_games: int  # in the plan
    finished_games: int  # in the dataset now
    stopped_by: str | None  # the first error, when --fail-fast stopped the run

    def line(self) -> str:
        rate = self.played / self.wall_s if self.wall_s > 0 else 0.0
        state = (f"stopped at the first error: {self.stopped_by}" if self.stopped_by else
                 f"dataset {'complete' if self.finished_games == self.total_games else 'incomplete'}: "
                 f"{self.finished_games}/{self.total_games} games in {self.out}")
        return (f"{self.name}: {self.played} games played, {self.errors} errors, "
                f"{self.wall_s:.1f} s, {rate:.1f} games/s; {state}")


def chunk_bounds(total: int, size: int, chunk_id: int) -> tuple[int, int]:
    games = store.chunk_games(total, size, chunk_id)
    return games.start, games.stop


def run_experiment(experiment: Experiment, out: str | Path, *, jobs: int | None = None, backend: str = "loky",
                   scheduler: str | None = None, chunk: int | None = None, resume: bool = False,
                   fail_fast: bool = False, progress: bool = False, play: PlayFn = play_one,
                   limits: Limits = Limits(), worker_wait: float = WORKER_WAIT_S) -> RunSummary:
    """Play the experiment's games into the dataset folder `out`.

    `jobs`: loky worker processes (default: all cores), or the size of the local Dask
    cluster started when `backend="dask"` has no `scheduler` address. `chunk`: games per
    chunk (default: a few chunks per worker, at most 100 games). `play` plays one game
    (the real engine by default; tests inject a toy). `limits`: bounds on each game and
    chunk (see `menorca_sim.run.limits`). `worker_wait`: seconds a Dask cluster may be left
    without workers before the run stops.

    One run at a time writes a folder (its lock). A run that cannot go on (no worker
    left, a full disk) raises RunError with one line, keeping every finished chunk."""
    if backend not in BACKENDS:
        raise RunError(f"unknown backend {backend!r} (expected one of: {', '.join(BACKENDS)})")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise RunError(f"{out}: not a folder")
    out.mkdir(parents=True, exist_ok=True)
    try:
        lock = dataset_lock.acquire(out)
    except dataset_lock.Busy as exc:
        raise RunError(f"{out}: {exc}") from None
    try:
        for line in _SERIAL:
            warnings.warn(line, RunWarning)
        if lock.left_behind:
            warnings.warn(f"{out}: took over the lock left by {lock.left_behind}, which no longer runs", RunWarning)
        return _run(experiment, out, jobs, backend, scheduler, chunk, resume, fail_fast, progress, play, limits,
                    worker_wait)
    except _Stopped as exc:
        raise RunError(f"{out}: stopped: {exc}; the finished chunks are kept: run again with --resume") from None
    finally:
        lock.release()


def _run(experiment: Experiment, out: Path, jobs: int | None, backend: str, scheduler: str | None,
         chunk: int | None, resume: bool, fail_fast: bool, progress: bool, play: PlayFn, limits: Limits,
         worker_wait: float) -> RunSummary:
    manifest = _prepare_folder(out, experiment, chunk, resume)
    started, began = datetime.now(timezone.utc), time.perf_counter()
    with _parallel(backend, jobs, scheduler, worker_wait) as (parallel, workers):
        if manifest is None:
            size = chunk or min(MAX_DEFAULT_CHUNK, max(1, math.ceil(experiment.total_games / (4 * workers))))
            manifest = _new_manifest(experiment, size)
        size, n_chunks, total = manifest["chunk_size"], manifest["chunks"], experiment.total_games
        store.remove_temporaries(out)
        todo = _chunks_to_play(out, manifest)
        recorder = _ManifestRecorder(out, manifest)
        manifest["status"] = "running"
        recorder.save()
        tasks = (delayed(play_chunk)(experiment, c, *chunk_bounds(total, size, c), play, limits) for c in todo)
        played = errors = 0
        stopped_by = None
        failing = True
        try:
            games = sum(len(store.chunk_games(total, size, c)) for c in todo)
            with warnings.catch_warnings(), tqdm(total=games, unit="game", disable=not progress,
                                                 dynamic_ncols=True) as bar, \
                    contextlib.closing(parallel(tasks)) as results:
                # joblib warns about the chunks it cancels when --fail-fast or an interrupt stops the run
                warnings.filterwarnings("ignore", message=".*tasks (have been successfully executed|which were "
                                                          "still being processed)", category=UserWarning)
                for result in results:
                    recorder.add(result)
                    played += result.games
                    errors += result.tables["errors"].num_rows
                    bar.update(result.games)
                    if fail_fast and result.first_error:
                        stopped_by = result.first_error
                        break
            failing = False
        finally:
            wall = time.perf_counter() - began
            manifest["runs"].append({
                "started": started.isoformat(timespec="seconds"), "wall_s": round(wall, 3),
                "backend": backend, "workers": workers, "games_played": played, "errors": errors,
                "games_per_s": round(played / wall, 3) if wall > 0 else None, "stopped_by": stopped_by,
                "limits": dataclasses.asdict(limits), "versions": _versions(backend),
            })
            recorder.finish(quiet=failing)
    counts = manifest["counts"]
    return RunSummary(experiment.name, out, played, errors, wall, total,
                      counts["games"] + counts["errors"], stopped_by)


class _ManifestRecorder:
    """The dataset's manifest as chunks come back: each chunk's parts are written, then
    recorded with their checksums. The manifest is rewritten at most once a second (a
    long run's manifest grows with its chunks): a chunk finished after its last write is
    adopted on resume once its parts are read back whole."""

    def __init__(self, out: Path, manifest: dict[str, Any]) -> None:
        self.out, self.manifest, self.saved = out, manifest, -math.inf

    def add(self, result: ChunkResult) -> None:
        chunk = result.chunk_id
        self.manifest["finished"][str(chunk)] = self._written(
            f"chunk {chunk}'s parts", lambda: store.write_chunk(self.out, chunk, result.games, result.tables),
            sum(t.nbytes for t in result.tables.values()))
        if time.monotonic() - self.saved >= MANIFEST_EVERY_S:
            self.save()

    def save(self) -> None:
        self._written(store.MANIFEST, lambda: store.write_manifest(self.out, self.manifest), 0)
        self.saved = time.monotonic()

    def finish(self, quiet: bool) -> None:
        """The final manifest: status and row counts. `quiet` when the run is stopping on
        an error: failing to write the manifest too is not reported over that error."""
        records = self.manifest["finished"]
        self.manifest["status"] = "complete" if len(records) == self.manifest["chunks"] else "stopped"
        self.manifest["counts"] = store.count_rows(records, store.dataset_tables(self.manifest))
        with contextlib.suppress(*((_Stopped,) if quiet else ())):
            self.save()

    def _written(self, what: str, write: Callable[[], Any], pending_bytes: int) -> Any:
        """`write()`, or stop the run with one line when it fails: the file, the error and,
        when out of space, about how much free space finishing the run needs."""
        try:
            return write()
        except OSError as exc:
            if exc.errno == errno.EFBIG:
                raise _Stopped(f"cannot write {what} ({exc.strerror}: the process's file-size limit, `ulimit -f`, "
                               f"is too low for it; not a lack of disk space)") from None
            if exc.errno not in _NO_SPACE:
                raise _Stopped(f"cannot write {what} ({exc.strerror})") from None
            done = len(self.manifest["finished"])
            per_chunk = (sum(p.stat().st_size for p in self.out.glob("*/part-*.parquet")) / done if done
                         else pending_bytes)
            free = f"{_size(shutil.disk_usage(self.out).free)} is free"
            if not per_chunk:  # the manifest at the start: nothing to estimate from yet
                raise _Stopped(f"cannot write {what} ({exc.strerror}): {free}") from None
            manifest = self.out / store.MANIFEST
            # the chunks left, and the manifest twice over (it is rewritten beside the old one, and grows)
            need = per_chunk * (self.manifest["chunks"] - done) + 2 * (manifest.stat().st_size
                                                                             if manifest.exists() else 0)
            raise _Stopped(f"cannot write {what} ({exc.strerror}): about {_size(need)} of free space is needed "
                           f"to finish, {free}") from None


_NO_SPACE = {errno.ENOSPC, errno.EDQUOT}


def _size(n: float) -> str:
    unit = "bytes"
    for bigger in ("kB", "MB", "GB"):
        if n < 1000:
            break
        n, unit = n / 1000, bigger
    return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"


def _chunks_to_play(out: Path, manifest: dict[str, Any]) -> list[int]:
    """The chunks without sound parts. Each damaged part, and each part file the manifest
    does not list, is named in a warning and moved aside, and a damaged part's chunk
    played again; a sound chunk not yet in the manifest is recorded."""
    records = manifest["finished"]
    names = store.dataset_tables(manifest)
    present, unlisted = store.parts_on_disk(out, manifest["chunks"], names)
    for damage in unlisted:
        warnings.warn(f"{damage.line()}: moved to {store.move_aside(out, damage.path)}", RunWarning)
    checked = present | {int(k) for k in records}  # any other chunk has nothing on disk to check
    todo = []
    for chunk_id in range(manifest["chunks"]):
        if chunk_id not in checked:
            todo.append(chunk_id)
            continue
        games = store.chunk_games(manifest["total_games"], manifest["chunk_size"], chunk_id)
        record, damaged = store.check_chunk(out, chunk_id, games, records.get(str(chunk_id)), names)
        for damage in damaged:
            where = f"moved to {store.move_aside(out, damage.path)}; " if damage.path.exists() else ""
            warnings.warn(f"{damage.line()}: {where}its chunk is played again", RunWarning)
        if record is None:
            records.pop(str(chunk_id), None)
            todo.append(chunk_id)
        else:
            records[str(chunk_id)] = record
    return todo


def _prepare_folder(out: Path, experiment: Experiment, chunk: int | None, resume: bool) -> dict[str, Any] | None:
    """The manifest to continue (on resume), or None for a fresh dataset."""
    if all(p.name == dataset_lock.LOCK for p in out.iterdir()):
        return None
    if not resume:
        raise RunError(f"{out}: output folder is not empty (add --resume to finish an interrupted run, "
                       f"or choose another --out)")
    manifest = store.read_manifest(out)
    if manifest is None or manifest.get("format") != store.FORMAT:
        raise RunError(f"{out}: no {store.MANIFEST} of this runner; cannot resume here")
    plan = json.loads(json.dumps(experiment.plan(), default=str))
    if manifest["experiment"] != plan:
        differ = sorted(k for k in plan if plan[k] != manifest["experiment"].get(k))
        raise RunError(f"{out}: the dataset was started from another plan (differs in: {', '.join(differ)}); "
                       f"resume with the same experiment and --games")
    if chunk is not None and chunk != manifest["chunk_size"]:
        raise RunError(f"{out}: the dataset was started with --chunk {manifest['chunk_size']}, not {chunk}")
    return manifest


def _new_manifest(experiment: Experiment, size: int) -> dict[str, Any]:
    return {
        "format": store.FORMAT, "experiment": json.loads(json.dumps(experiment.plan(), default=str)),
        "experiment_file": experiment.file, "description": experiment.description,
        "market_top": experiment.market_top,
        "total_games": experiment.total_games,
        "chunk_size": size, "chunks": math.ceil(experiment.total_games / size),
        "tables": {name: f"{name}/part-*.parquet" for name in table_names(experiment.record_states)},
        "status": "running", "counts": {}, "runs": [], "finished": {},
    }


def _versions(backend: str) -> dict[str, str]:
    names = ["menorca-sim", "numpy", "pyarrow", "joblib", "Cython"] + (["dask", "distributed"] if backend == "dask" else [])
    versions = {"python": platform.python_version()}
    for name in names:
        with contextlib.suppress(metadata.PackageNotFoundError):
            versions[name] = metadata.version(name)
    return versions


Runner = Callable[[Iterable[Any]], Iterator[ChunkResult]]


@contextlib.contextmanager
def _parallel(backend: str, jobs: int | None, scheduler: str | None,
              worker_wait: float) -> Iterator[tuple[Runner, int]]:
    """A function from delayed tasks to their results as they finish, and the number of
    workers behind it."""
    if backend == "loky":
        n = jobs or os.cpu_count() or 1
        parallel = Parallel(n_jobs=n, backend="loky", return_as="generator_unordered", batch_size=1)
        yield lambda tasks: _loky_results(parallel, tasks), n
        return
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise RunError("--backend dask needs dask[distributed] (pip install 'menorca-sim[dask]')") from None
    with contextlib.ExitStack() as stack:
        if scheduler:
            try:
                client = stack.enter_context(Client(scheduler, timeout=30))
            except OSError as exc:
                raise RunError(f"cannot reach the Dask scheduler at {scheduler} ({exc})") from None
        else:
            cluster = stack.enter_context(LocalCluster(n_workers=jobs or os.cpu_count() or 1,
                                                       threads_per_worker=1, processes=True))
            client = stack.enter_context(Client(cluster))
        workers = max(1, sum(client.nthreads().values()))
        yield lambda tasks: _dask_results(client, tasks, worker_wait), workers


def _loky_results(parallel: Parallel, tasks: Iterable[Any]) -> Iterator[ChunkResult]:
    """A worker that dies (killed, out of memory) breaks loky's pool: stop in one line."""
    try:
        yield from parallel(tasks)
    except BrokenProcessPool as exc:
        codes = re.search(r"exit codes of the workers are (\S+)", str(exc))
        raise _Stopped(f"a worker process died{f' (exit codes {codes[1]})' if codes else ''}") from None


def _dask_results(client: Any, tasks: Iterable[Any], worker_wait: float) -> Iterator[ChunkResult]:
    """Results as chunks finish. Dask plays a lost worker's chunks again on the others
    (up to its `allowed-failures`); a cluster left with no worker at all would wait for
    ever, so after `worker_wait` seconds without one the run stops instead."""
    from distributed import KilledWorker, wait

    pending = {client.submit(fn, *args, pure=False, **kwargs) for fn, args, kwargs in tasks}
    alone_since = None
    try:
        while pending:
            try:
                done, pending = wait(pending, timeout=_POLL_S, return_when="FIRST_COMPLETED")
            except TimeoutError:
                done = set()
            got = False
            for future in done:
                try:
                    result = future.result(timeout=_GATHER_S)
                except TimeoutError:  # the worker holding it died: Dask plays it again once it can
                    pending.add(future)
                    continue
                except KilledWorker:
                    raise _Stopped("the workers playing a chunk died more often than Dask allows "
                                   "(distributed.scheduler.allowed-failures)") from None
                got = True
                yield result
            if got or client.nthreads():
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since > worker_wait:
                raise _Stopped(f"the Dask cluster has had no worker for {worker_wait:g} s "
                               f"({len(pending)} chunks waiting)")
    finally:
        client.cancel(list(pending))
