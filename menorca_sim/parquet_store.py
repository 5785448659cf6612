"""A run's dataset on disk: one Parquet part per table and chunk, plus manifest.json.

    DIR/manifest.json
    DIR/<table>/part-000012.parquet     (games, players, companies, auctions, errors)

Parts are written to a hidden temporary name and renamed into place, so a reader (or a
resumed run) never sees half a file. Each part carries the row counts of all five parts
of its chunk in its metadata: a chunk is complete only when all five parts read back
whole (page checksums verified), from one write, with exactly those counts."""
from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any, Iterable

import pyarrow as pa
import pyarrow.parquet as pq

from menorca_sim.outcomes import TABLES

MANIFEST = "manifest.json"
_CHUNK_KEY = b"menorca_sim.chunk"


def part_path(out: Path, table: str, chunk_id: int) -> Path:
    return out / table / f"part-{chunk_id:06d}.parquet"


def _replace_atomically(path: Path, write: Any) -> None:
    """`write(tmp)` then rename; the hidden name keeps readers from picking it up."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    write(tmp)
    os.replace(tmp, path)


def write_chunk(out: Path, chunk_id: int, games: int, tables: dict[str, pa.Table]) -> None:
    # `write` tells this write's parts from those of an earlier, interrupted one
    info = json.dumps({"chunk": chunk_id, "games": games, "write": uuid.uuid4().hex,
                       "rows": {name: t.num_rows for name, t in tables.items()}}).encode()
    for name, table in tables.items():
        path = part_path(out, name, chunk_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        table = table.sort_by("game_id").replace_schema_metadata({_CHUNK_KEY: info})
        _replace_atomically(path, lambda tmp: pq.write_table(table, tmp, write_page_checksum=True))


def chunk_complete(out: Path, chunk_id: int, games: int) -> bool:
    """Whether all parts of a chunk of `games` games are there: none missing, truncated,
    corrupt, of another schema or from another chunk plan."""
    expected = None
    for name, schema in TABLES.items():
        try:
            table = pq.read_table(part_path(out, name, chunk_id), page_checksum_verification=True)
            info = json.loads(table.schema.metadata[_CHUNK_KEY])
            fits = table.schema.remove_metadata().equals(schema) and info["rows"][name] == table.num_rows
        except (OSError, pa.ArrowException, KeyError, TypeError, ValueError):
            return False
        if not fits or info != (expected or info):
            return False
        expected = info
    rows = expected["rows"]
    return expected["chunk"] == chunk_id and expected["games"] == games == rows["games"] + rows["errors"]


def count_rows(out: Path, chunk_ids: Iterable[int]) -> dict[str, int]:
    """Rows per table over finished parts, from the Parquet footers only."""
    counts = dict.fromkeys(TABLES, 0)
    for chunk_id in chunk_ids:
        for name in TABLES:
            counts[name] += pq.read_metadata(part_path(out, name, chunk_id)).num_rows
    return counts


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
