"""A run's dataset on disk: one Parquet part per table and chunk, plus manifest.json.

    DIR/manifest.json
    DIR/<table>/part-000012.parquet     (games, players, companies, auctions, errors, rounds)
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

import contextlib
import hashlib
import json
import os
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from menorca_sim.run.outcomes import TABLES

MANIFEST = "manifest.json"
# manifest format: 2 records each finished chunk's parts with their checksums; 3 has the
# rounds table (a format-2 dataset is reported, read part by part, but not resumed)
FORMAT = 3
DAMAGED = "damaged"
_CHUNK_KEY = b"menorca_sim.chunk"

Record = dict[str, Any]
"""A finished chunk in the manifest: {"games": [start, stop], "rows": [...], "sha256": [...]},
one entry per table in TABLES order (lists, not tables by name: a long run holds one
record per chunk in memory)."""


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
    """Write a chunk's parts; return the chunk's record for the manifest."""
    first = min(tables["games"]["game_id"].to_pylist() + tables["errors"]["game_id"].to_pylist())
    # `write` tells this write's parts from those of an earlier, interrupted one
    info = {"chunk": chunk_id, "first": first, "games": games, "write": uuid.uuid4().hex,
            "rows": {name: t.num_rows for name, t in tables.items()}}
    written = {}
    for name in TABLES:
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
    return {"games": [games.start, games.stop], "rows": [parts[name][0] for name in TABLES],
            "sha256": [hashlib.sha256(parts[name][1]).hexdigest() for name in TABLES]}


@dataclass(frozen=True)
class Damage:
    path: Path
    problem: str

    def line(self) -> str:
        return f"{self.path}: {self.problem}"


def check_chunk(out: Path, chunk_id: int, games: range, record: Record | None) -> tuple[Record | None, list[Damage]]:
    """The chunk's record when its parts are sound (None: it is to be played), and its
    damaged parts: missing where the manifest records them, empty, truncated, corrupt, or
    foreign (another chunk's, another dataset's, not the recorded bytes). Parts of a write
    cut short are not damage: the chunk is simply played again."""
    if record is not None:
        damaged = [d for name, rows, sha in zip(TABLES, record["rows"], record["sha256"])
                   if (d := _check_recorded(part_path(out, name, chunk_id), name, chunk_id, games, rows, sha))]
        return (None if damaged else record), damaged
    read: dict[str, tuple[bytes, pa.Table, dict]] = {}
    damaged = []
    for name in TABLES:
        path = part_path(out, name, chunk_id)
        if not path.exists():
            continue
        data = path.read_bytes()
        part = _read_part(data, name, chunk_id, games)
        if isinstance(part, str):
            damaged.append(Damage(path, part))
        else:
            read[name] = (data, *part)
    return _whole_write(read, games), damaged


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
    if not table.schema.remove_metadata().equals(TABLES[name]):
        return f"foreign: not the schema of the {name} table"
    if part_chunk != chunk_id:
        return f"foreign: a part of chunk {part_chunk}, not of chunk {chunk_id}"
    low, high = pc.min_max(table["game_id"]).values()
    if table.num_rows and not games.start <= low.as_py() <= high.as_py() < games.stop:
        return f"foreign: holds games {low}-{high}, but chunk {chunk_id} is games {games.start}-{games.stop - 1}"
    if rows != table.num_rows:
        return f"damaged: {table.num_rows} rows where its chunk's write has {rows}"
    return table, info


def _whole_write(read: dict[str, tuple[bytes, pa.Table, dict]], games: range) -> Record | None:
    """The record of parts that are one write of exactly `games` (each game once, in
    `games` or `errors`), or None."""
    infos = [info for _, _, info in read.values()]
    if len(read) < len(TABLES) or any(info != infos[0] for info in infos):
        return None
    played = sorted(read["games"][1]["game_id"].to_pylist() + read["errors"][1]["game_id"].to_pylist())
    if played != list(games):
        return None
    return _record(games, {name: (table.num_rows, data) for name, (data, table, _) in read.items()})


def chunk_complete(out: Path, chunk_id: int, games: int) -> bool:
    """Whether the chunk's parts, read on their own (without the manifest), are one whole
    write of a chunk of `games` games."""
    try:
        first = json.loads(pq.read_schema(part_path(out, "games", chunk_id)).metadata[_CHUNK_KEY])["first"]
    except (OSError, pa.ArrowException, KeyError, TypeError, ValueError):
        return False
    return check_chunk(out, chunk_id, range(first, first + games), None)[0] is not None


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
    left_out: set[str]  # part file names (one per chunk) that a partial report leaves out
    games_left_out: int | None  # None when the folder has no manifest of this runner to tell


def check_dataset(out: Path) -> DatasetCheck:
    """Every part of a dataset, as `report` reads it. With this runner's manifest: each
    chunk as a resumed run checks it, and the parts of a write cut short are damage too
    (they would count games twice or half). Without one: each part must read as Parquet."""
    manifest = read_manifest(out)
    if manifest is None or manifest.get("format") != FORMAT:
        damaged = [Damage(p, "truncated or corrupt (not a readable Parquet file)")
                   for name in TABLES for p in sorted((out / name).glob("*.parquet")) if not _readable(p)]
        return DatasetCheck(damaged, {d.path.name for d in damaged}, None)
    damaged, left_out, games_left_out = [], set(), 0
    records = manifest.get("finished", {})
    for chunk_id in range(manifest["chunks"]):
        games = chunk_games(manifest["total_games"], manifest["chunk_size"], chunk_id)
        record, bad = check_chunk(out, chunk_id, games, records.get(str(chunk_id)))
        if record is None:
            present = [part_path(out, name, chunk_id) for name in TABLES if part_path(out, name, chunk_id).exists()]
            bad = bad or [Damage(p, f"a part of an unfinished write of chunk {chunk_id} (run --resume to finish it)")
                          for p in present]
        if bad:
            damaged += bad
            left_out.add(part_path(out, "games", chunk_id).name)
            games_left_out += len(games)
    return DatasetCheck(damaged, left_out, games_left_out)


def _readable(path: Path) -> bool:
    try:
        pq.read_metadata(path)
    except (OSError, pa.ArrowException):
        return False
    return True


@contextlib.contextmanager
def dataset_view(out: Path, left_out: set[str]) -> Iterator[Path]:
    """A temporary folder that links to the dataset's manifest and parts, except the part
    files named in `left_out`: readers that take whole folders see only the sound chunks,
    and the dataset itself is not touched."""
    with tempfile.TemporaryDirectory(prefix="menorca-partial-") as tmp:
        view = Path(tmp) / out.name
        view.mkdir()
        if (out / MANIFEST).exists():
            (view / MANIFEST).symlink_to((out / MANIFEST).resolve())
        for name in TABLES:
            (view / name).mkdir()
            for part in (out / name).glob("*.parquet"):
                if part.name not in left_out:
                    (view / name / part.name).symlink_to(part.resolve())
        yield view


def count_rows(records: dict[str, Record]) -> dict[str, int]:
    """Rows per table over the recorded chunks."""
    return {name: sum(r["rows"][i] for r in records.values()) for i, name in enumerate(TABLES)}


def remove_temporaries(out: Path) -> None:
    """Leftovers of writes cut short (a killed run)."""
    for name in TABLES:
        for tmp in (out / name).glob(".part-*.tmp-*"):
            tmp.unlink()


def read_table(out: str | Path, name: str) -> pa.Table:
    """One table of a dataset, parts in chunk order, hence sorted by game_id."""
    parts = sorted((Path(out) / name).glob("part-*.parquet"))
    if not parts:
        return TABLES[name].empty_table()
    return pa.concat_tables(pq.read_table(p).replace_schema_metadata(None) for p in parts)


def read_manifest(out: Path) -> dict[str, Any] | None:
    """The manifest, or None when there is none (or not one this runner wrote)."""
    try:
        manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, indent=2, default=str) + "\n"  # ASCII: readable in any locale
    _replace_atomically(out / MANIFEST, lambda tmp: tmp.write_text(text, encoding="utf-8"))
