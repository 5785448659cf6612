"""A run's dataset on disk: one Parquet part per table and chunk, plus manifest.json.

    DIR/manifest.json
    DIR/<table>/part-000012.parquet     (games, players, companies, auctions, errors, rounds;
                                         states when the run recorded them: the manifest's "tables")
    DIR/damaged/<table>/...             (parts a resumed run found damaged, moved aside)
    DIR/.lock                           (while a run writes: see dataset_lock)

Parts are written to a hidden temporary name and renamed into place, so a reader (or a
resumed run) never sees half a file. Each part carries its chunk's write in its metadata
(chunk, first game id, games, the row counts of all its parts, a write id), and the
manifest records each finished chunk under "finished": its game ids and, per part in
the order of "tables", its rows and sha256. A recorded part is sound when its bytes have
the recorded checksum; a chunk finished after the manifest's last write (a run killed in
that second) is read in full and adopted when its parts are one whole write of
exactly its games."""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from menorca_sim.run import dataset_lock
from menorca_sim.run.manifest_check import ManifestError, check_manifest
from menorca_sim.run.outcomes import ALL_TABLES, TABLES, table_names

MANIFEST = "manifest.json"
# manifest format: 2 records each finished chunk's parts with their checksums; 3 has the
# rounds table (a format-2 dataset is reported, read part by part, but not resumed)
FORMAT = 3
DAMAGED = "damaged"
_CHUNK_KEY = b"menorca_sim.chunk"

Record = dict[str, Any]
"""A finished chunk in the manifest: {"games": [start, stop], "rows": [...], "sha256": [...]},
one entry per table of the dataset, in `dataset_tables` order (lists, not tables by name: a long run holds one
record per chunk in memory)."""


def dataset_tables(manifest: dict[str, Any]) -> tuple[str, ...]:
    """The tables of a dataset: the six, and `states` when its manifest lists it (a run
    that recorded them: `record_states`)."""
    listed = manifest.get("tables")
    return table_names(isinstance(listed, dict) and "states" in listed)


def part_path(out: Path, table: str, chunk_id: int) -> Path:
    return out / table / f"part-{chunk_id:06d}.parquet"


def chunk_games(total: int, size: int, chunk_id: int) -> range:
    """The game ids of a chunk."""
    return range(chunk_id * size, min((chunk_id + 1) * size, total))


def _replace_atomically(path: Path, write: Callable[[Path], Any]) -> None:
    """`write(tmp)` then rename; the hidden name keeps readers from picking it up. A
    failed write (a full disk) leaves nothing behind."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_chunk(out: Path, chunk_id: int, games: int, tables: dict[str, pa.Table]) -> Record:
    """Write a chunk's parts (one per table of `tables`, in its order: the dataset's);
    return the chunk's record for the manifest."""
    first = min(tables["games"]["game_id"].to_pylist() + tables["errors"]["game_id"].to_pylist())
    # `write` tells this write's parts from those of an earlier, interrupted one
    info = {"chunk": chunk_id, "first": first, "games": games, "write": uuid.uuid4().hex,
            "rows": {name: t.num_rows for name, t in tables.items()}}
    written = {}
    for name in tables:
        path = part_path(out, name, chunk_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        sink = pa.BufferOutputStream()  # in memory first: the checksum is of exactly the bytes written
        pq.write_table(tables[name].sort_by("game_id").replace_schema_metadata({_CHUNK_KEY: json.dumps(info).encode()}),
                       sink, write_page_checksum=True)
        data = sink.getvalue().to_pybytes()
        _replace_atomically(path, lambda tmp: tmp.write_bytes(data))
        written[name] = (tables[name].num_rows, data)
    return _record(range(first, first + games), written)


def _record(games: range, parts: dict[str, tuple[int, bytes]]) -> Record:
    """The manifest's record of a chunk from its parts' (rows, bytes)."""
    return {"games": [games.start, games.stop], "rows": [rows for rows, _ in parts.values()],
            "sha256": [hashlib.sha256(data).hexdigest() for _, data in parts.values()]}


@dataclass(frozen=True)
class Damage:
    path: Path
    problem: str

    def line(self) -> str:
        return f"{self.path}: {self.problem}"


def check_chunk(out: Path, chunk_id: int, games: range, record: Record | None,
                names: tuple[str, ...]) -> tuple[Record | None, list[Damage]]:
    """The chunk's record when its parts are sound (None: it is to be played), and its
    damaged parts: missing where the manifest records them, empty, truncated, corrupt, or
    foreign (another chunk's, another dataset's, not the recorded bytes). Parts of a write
    cut short are not damage: the chunk is simply played again. `names`: the dataset's tables."""
    if record is not None:
        damaged = [d for name, rows, sha in zip(names, record["rows"], record["sha256"])
                   if (d := _check_recorded(part_path(out, name, chunk_id), name, chunk_id, games, rows, sha))]
        return (None if damaged else record), damaged
    read: dict[str, tuple[bytes, pa.Table, dict]] = {}
    damaged = []
    for name in names:
        path = part_path(out, name, chunk_id)
        if not path.exists():
            continue
        data = path.read_bytes()
        part = _read_part(data, name, chunk_id, games)
        if isinstance(part, str):
            damaged.append(Damage(path, part))
        else:
            read[name] = (data, *part)
    return _whole_write(read, games, names), damaged


def _check_recorded(path: Path, name: str, chunk_id: int, games: range, rows: int, sha256: str) -> Damage | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Damage(path, "missing (the manifest records it)")
    if hashlib.sha256(data).hexdigest() == sha256:
        return None
    part = _read_part(data, name, chunk_id, games)
    if isinstance(part, str):
        return Damage(path, part)
    found = part[0].num_rows
    return Damage(path, f"foreign: {found} rows where the manifest records {rows}" if found != rows
                  else "foreign: not the bytes the manifest records (sha256 differs)")


def _read_part(data: bytes, name: str, chunk_id: int, games: range) -> tuple[pa.Table, dict] | str:
    """The part's table and its write's info, or what is wrong with it."""
    if not data:
        return "empty file"
    try:
        table = pq.read_table(pa.BufferReader(data), page_checksum_verification=True)
    except (OSError, pa.ArrowException):
        return "truncated or corrupt (not a readable Parquet file)"
    try:
        info = json.loads(table.schema.metadata[_CHUNK_KEY])
        rows, part_chunk = info["rows"][name], info["chunk"]
    except (KeyError, TypeError, ValueError):
        return "foreign: not a part written by menorca-sim run"
    if not table.schema.remove_metadata().equals(ALL_TABLES[name]):
        return f"foreign: not the schema of the {name} table"
    if part_chunk != chunk_id:
        return f"foreign: a part of chunk {part_chunk}, not of chunk {chunk_id}"
    low, high = pc.min_max(table["game_id"]).values()
    if table.num_rows and not games.start <= low.as_py() <= high.as_py() < games.stop:
        return f"foreign: holds games {low}-{high}, but chunk {chunk_id} is games {games.start}-{games.stop - 1}"
    if rows != table.num_rows:
        return f"damaged: {table.num_rows} rows where its chunk's write has {rows}"
    return table, info


def _whole_write(read: dict[str, tuple[bytes, pa.Table, dict]], games: range, names: tuple[str, ...]) -> Record | None:
    """The record of parts that are one write of exactly `games` (each game once, in
    `games` or `errors`) with a part for each table of `names`, or None."""
    infos = [info for _, _, info in read.values()]
    if len(read) < len(names) or any(info != infos[0] for info in infos):
        return None
    played = sorted(read["games"][1]["game_id"].to_pylist() + read["errors"][1]["game_id"].to_pylist())
    if played != list(games):
        return None
    return _record(games, {name: (read[name][1].num_rows, read[name][0]) for name in names})


def chunk_complete(out: Path, chunk_id: int, games: int, names: tuple[str, ...] = tuple(TABLES)) -> bool:
    """Whether the chunk's parts, read on their own (without the manifest), are one whole
    write of a chunk of `games` games (of the tables `names`)."""
    try:
        first = json.loads(pq.read_schema(part_path(out, "games", chunk_id)).metadata[_CHUNK_KEY])["first"]
    except (OSError, pa.ArrowException, KeyError, TypeError, ValueError):
        return False
    return check_chunk(out, chunk_id, range(first, first + games), None, names)[0] is not None


def move_aside(out: Path, path: Path) -> Path:
    """Move a damaged part to DIR/damaged/<table>/ (never over an earlier one); return where."""
    folder = out / DAMAGED / path.parent.name
    folder.mkdir(parents=True, exist_ok=True)
    target, n = folder / path.name, 1
    while target.exists():
        target, n = folder / f"{path.stem}.{n}{path.suffix}", n + 1
    os.replace(path, target)
    return target


@dataclass(frozen=True)
class DatasetCheck:
    damaged: list[Damage]
    left_out: set[str]  # part file names (one per chunk, or a stray file's) that a partial read leaves out
    games_left_out: int | None  # None when the folder has no manifest of this runner to tell

    def refusal(self, allow: str) -> str:
        """The line that refuses the dataset; `allow` names the way to read it anyway."""
        more = f" (and {len(self.damaged) - 1} more damaged parts)" if len(self.damaged) > 1 else ""
        return (f"{self.damaged[0].line()}{more}; `menorca-sim run ... --resume` moves damaged parts aside "
                f"and plays their chunks again, or add {allow} to read the rest")


UNLISTED = "not a part the manifest lists (a stray or copied file; `run --resume` moves it aside)"


def check_dataset(out: Path) -> DatasetCheck:
    """Every part of a dataset, as a reader takes it. With this runner's manifest: each
    chunk as a resumed run checks it, the parts of a write cut short are damage too (they
    would count games twice or half), and so is any part file the manifest does not list
    (a reader globbing the folder would count it). Without one: each part must read as
    Parquet."""
    manifest = read_manifest(out)
    if manifest is None or manifest.get("format") != FORMAT:
        damaged = [Damage(p, "truncated or corrupt (not a readable Parquet file)")
                   for name in ALL_TABLES for p in sorted((out / name).glob("*.parquet")) if not _readable(p)]
        return DatasetCheck(damaged, {d.path.name for d in damaged}, None)
    names = dataset_tables(manifest)
    present, damaged = parts_on_disk(out, manifest["chunks"], names)
    left_out, games_left_out = {d.path.name for d in damaged}, 0
    records = manifest["finished"]
    for chunk_id in sorted(present | {int(k) for k in records}):  # a chunk with neither is simply not played
        games = chunk_games(manifest["total_games"], manifest["chunk_size"], chunk_id)
        record, bad = check_chunk(out, chunk_id, games, records.get(str(chunk_id)), names)
        if record is None:
            bad = bad or [Damage(p, f"a part of an unfinished write of chunk {chunk_id} (run --resume to finish it)")
                          for p in _present(out, chunk_id, names)]
        if bad:
            damaged += bad
            left_out.add(part_path(out, "games", chunk_id).name)
            games_left_out += len(games)
    return DatasetCheck(damaged, left_out, games_left_out)


def parts_on_disk(out: Path, chunks: int, names: tuple[str, ...]) -> tuple[set[int], list[Damage]]:
    """The chunks of `chunks` that have a part file in the folder of some table of `names`
    (the dataset's), and every part file there that is no chunk's (another name, or a
    chunk past the last)."""
    present, unlisted = set(), []
    for name in names:
        for path in sorted((out / name).glob("*.parquet")):
            match = _PART_NAME.fullmatch(path.name)
            chunk_id = int(match[1]) if match else -1
            if 0 <= chunk_id < chunks and path == part_path(out, name, chunk_id):
                present.add(chunk_id)
            else:
                unlisted.append(Damage(path, UNLISTED))
    return present, unlisted


_PART_NAME = re.compile(r"part-(\d+)\.parquet")


def _present(out: Path, chunk_id: int, names: tuple[str, ...]) -> list[Path]:
    return [p for name in names if (p := part_path(out, name, chunk_id)).exists()]


class DatasetRefused(Exception):
    """A dataset that cannot be read as it stands (one line): damaged parts without a
    partial read allowed, nothing sound to read, or a run still writing it."""


class CheckedDataset:
    """A dataset folder checked part by part before it is read: `path` is the dataset
    itself when every part is sound, else (with `allow_partial`) a temporary view of its
    sound chunks, removed by `close()` (or when this object goes). Damage without
    `allow_partial` is refused with a DatasetRefused line; `allow` names the way to allow it
    (a command's option, a function's keyword)."""

    def __init__(self, out: str | Path, allow_partial: bool = False, allow: str = "--allow-partial") -> None:
        self.source = Path(out)
        writing = dataset_lock.writer(self.source)
        if writing:  # its parts and manifest change as it goes: no reading them as they stand
            raise DatasetRefused(f"{self.source}: a run is writing this dataset ({writing}); read it when "
                                 f"the run has ended")
        self.check = check_dataset(self.source)
        self._tmp: tempfile.TemporaryDirectory | None = None
        self.path = self.source
        if not self.check.damaged:
            return
        if not allow_partial:
            raise DatasetRefused(self.check.refusal(allow))
        if not _has_sound_chunk(self.source, self.check):
            raise DatasetRefused(f"{self.source}: every chunk has a damaged part, nothing is left to read "
                                 f"(first: {self.check.damaged[0].line()}); `menorca-sim run ... --resume` "
                                 f"plays them again")
        self._tmp = tempfile.TemporaryDirectory(prefix="menorca-partial-")
        self.path = _link_view(self.source, Path(self._tmp.name), self.check.left_out)

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> "CheckedDataset":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _has_sound_chunk(out: Path, check: DatasetCheck) -> bool:
    return any(p.name not in check.left_out for p in (out / "games").glob("*.parquet"))


def _readable(path: Path) -> bool:
    try:
        pq.read_metadata(path)
    except (OSError, pa.ArrowException):
        return False
    return True


def _link_view(out: Path, tmp: Path, left_out: set[str]) -> Path:
    """A folder in `tmp` that links to the dataset's manifest and parts, except the part
    files named in `left_out`: readers that take whole folders see only the sound chunks,
    and the dataset itself is not touched."""
    view = tmp / out.name
    view.mkdir()
    if (out / MANIFEST).exists():
        (view / MANIFEST).symlink_to((out / MANIFEST).resolve())
    for name in table_names((out / "states").is_dir()):
        (view / name).mkdir()
        for part in (out / name).glob("*.parquet"):
            if part.name not in left_out:
                (view / name / part.name).symlink_to(part.resolve())
    return view


def count_rows(records: dict[str, Record], names: tuple[str, ...]) -> dict[str, int]:
    """Rows per table (of the dataset's `names`) over the recorded chunks."""
    return {name: sum(r["rows"][i] for r in records.values()) for i, name in enumerate(names)}


def remove_temporaries(out: Path) -> None:
    """Leftovers of writes cut short (a killed run)."""
    for name in ALL_TABLES:
        for tmp in (out / name).glob(".part-*.tmp-*"):
            tmp.unlink()


def read_table(out: str | Path, name: str) -> pa.Table:
    """One table of a dataset, parts in chunk order, hence sorted by game_id."""
    parts = sorted((Path(out) / name).glob("part-*.parquet"))
    if not parts:
        return ALL_TABLES[name].empty_table()
    return pa.concat_tables(pq.read_table(p).replace_schema_metadata(None) for p in parts)


def read_manifest(out: Path) -> dict[str, Any] | None:
    """The manifest, None when the folder has none; one that is not valid JSON, or not of
    the runner's shape (a hand edit), is a ManifestError naming the file and key."""
    path = out / MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ManifestError(path, "", f"not valid JSON ({exc})") from None
    ours = isinstance(data, dict) and data.get("format") == FORMAT
    return check_manifest(path, data, dataset_tables(data) if ours else None)


def write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, indent=2, default=str) + "\n"  # ASCII: readable in any locale
    _replace_atomically(out / MANIFEST, lambda tmp: tmp.write_text(text, encoding="utf-8"))
