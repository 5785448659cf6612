"""The shape of a dataset's manifest.json, checked before anything reads it.

A hand-edited manifest (a key missing or of the wrong type, a checksum list cut short, a
chunk count that would keep a reader busy for hours, an experiment name that would make
a path outside the dataset's folder) is refused in one line naming the file and key,
instead of surfacing later as a KeyError, a hang or a wrong number."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

MAX_GAMES = 100_000_000
"""Games one dataset may plan: more would take weeks on any machine this runs on, and a
typo (`--games 2400000000`) is refused at once rather than after minutes of planning."""


class ManifestError(Exception):
    """A manifest that is not the runner's; the message is one line: `file: key: problem`."""

    def __init__(self, file: Path, key: str, problem: str) -> None:
        super().__init__(f"{file}: {key}: {problem}" if key else f"{file}: {problem}")


def name_problem(name: str) -> str | None:
    """What keeps `name` from being a plain file name (the experiment's and preset's names
    become folders and files), or None."""
    if not name or name in (".", "..") or name.startswith("."):
        return f"{name!r} cannot name a file (empty, or a leading '.')"
    if any(c in name for c in "/\\\0"):
        return f"{name!r} cannot name a file (no '/', '\\' or NUL)"
    return None


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", type(None): "null", bool: "a boolean",
            str: "a string"}.get(type(value), f"{value!r}")


class _Checker:
    def __init__(self, file: Path) -> None:
        self.file = file

    def fail(self, key: str, problem: str) -> ManifestError:
        return ManifestError(self.file, key, problem)

    def get(self, table: dict, key: str, where: str, kind: type | tuple[type, ...]) -> Any:
        """`table[key]`, checked to be of `kind` (an int is never a bool)."""
        path = f"{where}.{key}" if where else key
        if key not in table:
            raise self.fail(path, "missing")
        value = table[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _tuple(kind)):
            expected = "/".join(_NAMES[k] for k in _tuple(kind))
            raise self.fail(path, f"expected {expected}, got {_kind(value)}")
        return value

    def count(self, table: dict, key: str, where: str, minimum: int = 0) -> int:
        value = self.get(table, key, where, int)
        if value < minimum:
            raise self.fail(f"{where}.{key}" if where else key, f"expected an integer >= {minimum}, got {value}")
        return value

    def entries(self, plan: dict, kind: str, fields: dict[str, type]) -> list[dict]:
        """The plan's list `kind`, each entry an object with `fields` of their types."""
        items = self.get(plan, kind, "experiment", list)
        for i, item in enumerate(items):
            where = f"experiment.{kind}[{i}]"
            if not isinstance(item, dict):
                raise self.fail(where, f"expected an object, got {_kind(item)}")
            for key, field_kind in fields.items():
                self.get(item, key, where, field_kind)
        return items


_PLURALS = {int: "integers", str: "strings"}
_NAMES = {dict: "an object", list: "a list", str: "a string", int: "an integer", float: "a number"}


def _tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def check_manifest(file: Path, data: Any, tables: tuple[str, ...] | None) -> dict[str, Any]:
    """`data` (the parsed manifest.json at `file`) when its shape is sound, else a
    ManifestError. `tables`: the part tables of this runner's format, whose chunk
    bookkeeping is checked too (None for a manifest of another format: its plan only)."""
    c = _Checker(file)
    if not isinstance(data, dict):
        raise c.fail("", f"expected a JSON object, got {_kind(data)}")
    if tables is not None:
        _check_chunks(c, data, tables, _check_plan(c, c.get(data, "experiment", "", dict)))
    elif isinstance(data.get("experiment"), dict) and "name" in data["experiment"]:
        _check_name(c, data["experiment"])  # another format's plan: only what becomes a path
    return data


def _check_name(c: _Checker, plan: dict) -> None:
    problem = name_problem(c.get(plan, "name", "experiment", str))
    if problem:
        raise c.fail("experiment.name", problem)


def _check_plan(c: _Checker, plan: dict) -> int:
    """The plan's shape, as the report reads it; returns the games it plans."""
    _check_name(c, plan)
    games = c.count(plan, "games", "experiment", minimum=1)
    cells = c.get(plan, "cells", "experiment", list)
    variants = c.entries(plan, "variants", {"name": str, "overrides": dict})
    populations = c.entries(plan, "populations", {"name": str})
    overrides = {v["name"]: v["overrides"] for v in variants}
    for i, sweep in enumerate(c.entries(plan, "sweeps", {"name": str, "keys": list, "points": list})):
        where = f"experiment.sweeps[{i}]"
        keys = sweep["keys"]
        if not 1 <= len(keys) <= 2 or not all(isinstance(k, str) for k in keys):
            raise c.fail(f"{where}.keys", f"expected one or two ruleset keys, got {keys!r}")
        for point in sweep["points"]:
            if not isinstance(point, str) or not set(keys) <= set(overrides.get(point, {})):
                raise c.fail(f"{where}.points", f"{point!r} is not a variant that sets {', '.join(keys)}")
    return games * len(cells) * len(variants) * len(populations)


def _check_chunks(c: _Checker, data: dict, tables: tuple[str, ...], plan_games: int | None) -> None:
    """The chunk bookkeeping a report and a resumed run read: counts that agree with the
    plan and each other, and each finished chunk's record whole."""
    total = c.count(data, "total_games", "")
    if total > MAX_GAMES or (plan_games is not None and total != plan_games):
        raise c.fail("total_games", f"{total} is not the {plan_games} games the plan (experiment) holds")
    size = c.count(data, "chunk_size", "", minimum=1)
    chunks = c.count(data, "chunks", "")
    if chunks != math.ceil(total / size):
        raise c.fail("chunks", f"{chunks} chunks cannot hold {total} games of {size} per chunk")
    c.get(data, "runs", "", list)
    for key, record in c.get(data, "finished", "", dict).items():
        where = f"finished.{key}"
        if not key.isdigit() or int(key) >= chunks:
            raise c.fail(where, f"not a chunk of this dataset (0-{chunks - 1})")
        if not isinstance(record, dict):
            raise c.fail(where, f"expected an object, got {_kind(record)}")
        start = int(key) * size
        if c.get(record, "games", where, list) != [start, min(start + size, total)]:
            raise c.fail(f"{where}.games", f"expected [{start}, {min(start + size, total)}], got {record['games']}")
        for field, kind in (("rows", int), ("sha256", str)):
            values = c.get(record, field, where, list)
            if len(values) != len(tables) or not all(isinstance(v, kind) and not isinstance(v, bool)
                                                     for v in values):
                raise c.fail(f"{where}.{field}", f"expected {len(tables)} {_PLURALS[kind]}, one per table "
                                                 f"({', '.join(tables)}), got {len(values)} values")
