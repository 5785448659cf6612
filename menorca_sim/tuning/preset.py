"""A search's outcome as a preset file `policies/presets/NAME.toml` (read by
`policies.tuned`, which registers it under NAME) and its record `NAME.record.json` beside
it: every candidate of every generation, its games, wins and win-share interval."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def default_out(name: str) -> Path:
    """Where `policies.tuned` looks for presets."""
    import policies

    return Path(policies.__file__).parent / "presets" / f"{name}.toml"


def record_path(out: Path) -> Path:
    return out.with_name(out.stem + ".record.json")


def write_preset(out: Path, record: dict[str, Any], command: str) -> None:
    """The preset (its base and the best parameters) and the record, each written atomically."""
    games = sum(c["games"] for g in record["generations"] for c in g["candidates"])
    lines = [f"# {record['name']}: the {record['base']} preset with the parameters CMA-ES found by self-play",
             f"# ({len(record['generations'])} generations, {games} games; `{command}`).",
             f"# The search's record: {record_path(out).name}. Written by `menorca-sim tune`: do not edit.",
             f"base = {json.dumps(record['base'])}", "", "[params]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in record["best"].items()]
    write_atomically(out, "\n".join(lines) + "\n")
    write_atomically(record_path(out), json.dumps(record, indent=1) + "\n")


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to a file beside `path`, then rename it over `path`: a kill never
    leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
