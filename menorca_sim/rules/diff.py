"""How one rules file differs from another, key by key, in the dotted form overrides
use ("legacies.L1.price", "player_counts.0.seat_cash"), so that a comparison can say
what it compares and a designer can copy a key into an override file."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from menorca_sim.rules.loader import default_ruleset_path, read_rules_file


@dataclass(frozen=True)
class Difference:
    key: str  # dotted key path; list items by index
    before: Any  # None where the first file lacks the key
    after: Any  # None where the second file lacks it

    def line(self) -> str:
        return f"{self.key}: {_text(self.before)} -> {_text(self.after)}"


def rules_differences(first: str | Path | None, second: str | Path | None) -> list[Difference]:
    """Every leaf value that differs between two rules files (None: the default
    rules), in the second file's order; a table or list of tables is followed down to
    its values, a list of plain values is one value."""
    return list(_walk("", _read(first), _read(second)))


def _read(path: str | Path | None) -> dict:
    return read_rules_file(Path(path) if path is not None else default_ruleset_path())[1]


def _walk(prefix: str, a: Any, b: Any):
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*b, *(k for k in a if k not in b)]:
            yield from _walk(f"{prefix}{key}" if not prefix else f"{prefix}.{key}", a.get(key), b.get(key))
    elif _tables(a) and _tables(b):
        for i in range(max(len(a), len(b))):
            yield from _walk(f"{prefix}.{i}", a[i] if i < len(a) else None, b[i] if i < len(b) else None)
    elif a != b:
        yield Difference(prefix, a, b)


def _tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _text(value: Any) -> str:
    return "(none)" if value is None else repr(value) if isinstance(value, str) else str(value)
