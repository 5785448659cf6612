"""Typed access to a parsed TOML table that raises RulesetError with the full key path."""
from __future__ import annotations

from typing import Any, Iterable

from menorca_sim.rules.errors import RulesetError

_MISSING = object()


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, (dict, list)):
        return f"a {'table' if isinstance(value, dict) else 'list'}"
    return repr(value)


class Table:
    """A TOML table at `path` inside `file`; every getter checks type and range."""

    int_max: int | None = None  # the largest integer a getter accepts (None: any)

    def __init__(self, file: str, data: Any, path: str = "") -> None:
        if not isinstance(data, dict):
            raise RulesetError(file, path, f"expected a table, got {_describe(data)}")
        self.file, self.data, self.path = file, data, path

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def fail(self, name: str, problem: str) -> RulesetError:
        return RulesetError(self.file, self.key(name), problem)

    def raw(self, name: str, default: Any = _MISSING) -> Any:
        if name in self.data:
            return self.data[name]
        if default is _MISSING:
            raise self.fail(name, "missing")
        return default

    def table(self, name: str) -> "Table":
        return type(self)(self.file, self.raw(name), self.key(name))

    def tables(self, name: str) -> list["Table"]:
        value = self.raw(name)
        if not isinstance(value, list) or not value:
            raise self.fail(name, f"expected a non-empty list of tables, got {_describe(value)}")
        return [type(self)(self.file, v, f"{self.key(name)}[{i}]") for i, v in enumerate(value)]

    def children(self) -> list[tuple[str, "Table"]]:
        return [(k, type(self)(self.file, v, self.key(k))) for k, v in self.data.items()]

    def too_large(self, value: int) -> bool:
        return self.int_max is not None and abs(value) > self.int_max

    def int(self, name: str, default: Any = _MISSING, minimum: int | None = None) -> int:
        value = self.raw(name, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(name, f"expected an integer, got {_describe(value)}")
        if minimum is not None and value < minimum:
            what = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
            raise self.fail(name, f"expected {what}, got {value}")
        if self.too_large(value):
            raise self.fail(name, f"expected an integer of at most {self.int_max:,} in size, got {value}")
        return value

    def bool(self, name: str, default: Any = _MISSING) -> bool:
        value = self.raw(name, default)
        if not isinstance(value, bool):
            raise self.fail(name, f"expected true or false, got {_describe(value)}")
        return value

    def str(self, name: str, default: Any = _MISSING, choices: Iterable[str] | None = None) -> str:
        value = self.raw(name, default)
        if not isinstance(value, str) or not value:
            raise self.fail(name, f"expected a non-empty string, got {_describe(value)}")
        if choices is not None and value not in choices:
            raise self.fail(name, f"expected one of {', '.join(sorted(choices))}, got {value!r}")
        return value

    def opt_str(self, name: str, choices: Iterable[str] | None = None) -> str | None:
        return None if name not in self.data else self.str(name, choices=choices)

    def int_list(self, name: str, default: Any = _MISSING, minimum: int = 0, length: int | None = None) -> tuple[int, ...]:
        value = self.raw(name, default)
        if not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
            raise self.fail(name, f"expected a list of integers, got {_describe(value)}")
        if any(v < minimum for v in value):
            raise self.fail(name, f"expected integers >= {minimum}, got {value}")
        if any(self.too_large(v) for v in value):
            raise self.fail(name, f"expected integers of at most {self.int_max:,} in size, got {value}")
        if length is not None and len(value) != length:
            raise self.fail(name, f"expected {length} values, got {len(value)}")
        return tuple(value)

    def str_list(self, name: str, default: Any = _MISSING) -> tuple[str, ...]:
        value = self.raw(name, default)
        if not isinstance(value, list) or any(not isinstance(v, str) or not v for v in value):
            raise self.fail(name, f"expected a list of strings, got {_describe(value)}")
        return tuple(value)

    def only(self, allowed: Iterable[str]) -> None:
        """Reject unknown keys: a typo must never silently fall back to a default."""
        allowed = set(allowed)
        for name in self.data:
            if name not in allowed:
                raise self.fail(name, f"unknown key (expected one of: {', '.join(sorted(allowed))})")


class EngineTable(Table):
    """A ruleset's table: its integers go into the engine's C ints (2^31 - 1 at most),
    which also add them up (cash, revenues), so they are held well below that."""

    int_max = 10 ** 9
