"""Policy spec text, the one grammar every reader uses (the policies, the command line,
the analysis): `name`, `name(key=value, ...)`, `STYLE+AUCTION`, `package.module:Factory(...)`,
and a comma-separated spec per seat. Values are parsed strictly: integers, decimals,
`true`/`false`, quoted strings or bare words; anything else is an error."""
from __future__ import annotations

import dataclasses
import math
import re
from typing import Any

from policies.errors import PolicyError

_CALL = re.compile(r"^\s*([A-Za-z_][\w.:]*)\s*(?:\((.*)\))?\s*$", re.S)
_KEY = re.compile(r"^[A-Za-z_]\w*$")
_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][+-]?\d+)$")
_WORD = re.compile(r"^[A-Za-z_][\w.-]*$")
_QUOTED = re.compile(r"""^(['"])(.*)\1$""")
C_INT_MAX = 2 ** 31 - 1


@dataclasses.dataclass(frozen=True)
class Call:
    """One part of a spec: a name and its argument text (still unparsed)."""
    name: str
    args: str


def split_seat_specs(text: str) -> list[str]:
    """One spec per seat from `a, b(x=1, y=2)+c`: split at the commas outside parentheses
    (the command line's --policies)."""
    specs, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            specs.append(text[start:i])
            start = i + 1
    specs.append(text[start:])
    return [s.strip() for s in specs if s.strip()]


def split_spec(spec: str) -> tuple[Call, Call | None]:
    """`STYLE` or `STYLE+AUCTION` into its calls (a `+` inside parentheses does not split)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(spec):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise PolicyError(f"policy spec {spec!r}: unbalanced ')'")
        elif ch == "+" and depth == 0:
            parts.append(spec[start:i])
            start = i + 1
    if depth:
        raise PolicyError(f"policy spec {spec!r}: unbalanced '('")
    parts.append(spec[start:])
    if len(parts) > 2:
        raise PolicyError(f"policy spec {spec!r}: at most one '+' (STYLE+AUCTION)")
    calls = [_call(p, spec) for p in parts]
    return calls[0], calls[1] if len(calls) == 2 else None


def _call(text: str, spec: str) -> Call:
    m = _CALL.match(text)
    if not m:
        raise PolicyError(f"policy spec {spec!r}: cannot read {text.strip()!r} as name or name(key=value, ...)")
    return Call(m.group(1), (m.group(2) or "").strip())


def parse_args(text: str, where: str) -> dict[str, Any]:
    """`key=value, ...` into a dict of typed values; `where` names the spec in errors."""
    out: dict[str, Any] = {}
    if not text.strip():
        return out
    for item in _split_commas(text):
        key, eq, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not eq or not _KEY.match(key) or not raw:
            raise PolicyError(f"{where}: bad argument {item.strip()!r} (expected key=value)")
        if key in out:
            raise PolicyError(f"{where}: argument {key!r} given twice")
        out[key] = _value(raw, where)
    return out


def _split_commas(text: str) -> list[str]:
    items, quote, start = [], "", 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return items


def _value(raw: str, where: str) -> Any:
    if raw in ("true", "false"):
        return raw == "true"
    if _INT.match(raw):
        return int(raw)
    if _FLOAT.match(raw):
        return float(raw)
    quoted = _QUOTED.match(raw)
    if quoted:
        return quoted.group(2)
    if _WORD.match(raw):
        return raw
    raise PolicyError(f"{where}: cannot read value {raw!r} (a number, true/false or a string)")


def bind(cls: type, values: dict[str, Any], where: str, base: Any = None) -> Any:
    """A frozen dataclass instance of `cls` from `base` (or the defaults) with `values`
    replaced, each checked against the field's type (an int is accepted for a float)."""
    values = dict(values)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key, value in values.items():
        if key not in fields:
            raise PolicyError(f"{where}: unknown parameter {key!r} (known: {', '.join(sorted(fields))})")
        kind = _field_type(fields[key])
        ok = (isinstance(value, bool) if kind is bool
              else isinstance(value, (int, float)) and not isinstance(value, bool) if kind is float
              else isinstance(value, kind) and not isinstance(value, bool) if kind is int
              else isinstance(value, kind))
        if not ok:
            raise PolicyError(f"{where}: parameter {key!r} must be {kind.__name__}, got {value!r}")
        if kind is int and abs(value) > C_INT_MAX:  # the compiled players keep int parameters in C ints
            raise PolicyError(f"{where}: parameter {key!r} must be at most {C_INT_MAX} in size, got {value!r}")
        if kind is float and not math.isfinite(value):  # 1e400 reads as inf
            raise PolicyError(f"{where}: parameter {key!r} must be a finite number, got {value!r}")
        if kind is float:
            values[key] = float(value)
    try:
        return dataclasses.replace(base, **values) if base is not None else cls(**values)
    except (ValueError, TypeError) as exc:
        raise PolicyError(f"{where}: {exc}") from None


def check_ranges(params: Any, ranges: dict[str, tuple[float, float | None]]) -> None:
    """Raise ValueError naming the first parameter of `params` outside its (low, high)
    range (high None: no upper end), so a bad spec says which value is wrong."""
    for name, (low, high) in ranges.items():
        value = getattr(params, name)
        if value < low or (high is not None and value > high):
            span = f"at least {low}" if high is None else f"within [{low}, {high}]"
            raise ValueError(f"{name} must be {span}, got {value!r}")


def _field_type(field: dataclasses.Field) -> type:
    names = {"int": int, "float": float, "bool": bool, "str": str,
             "float | None": float, "str | None": str}  # None: unset
    return names[field.type] if isinstance(field.type, str) else field.type
