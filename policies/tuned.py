"""Tuned presets: each `presets/NAME.toml` (written by `menorca-sim tune`: a base preset
and the parameters its search found, its record in `NAME.record.json` beside it) becomes
the heuristic preset NAME, e.g. `heuristic_tuned`, taking overrides like any preset."""
from __future__ import annotations

import tomllib
from pathlib import Path

from policies.heuristic import PRESETS, HeuristicParams, add_preset
from policies.spec import bind

PRESET_DIR = Path(__file__).parent / "presets"


def load_presets(folder: Path = PRESET_DIR) -> list[str]:
    """Add every preset file of `folder` to the heuristic's presets and register it."""
    names = []
    for path in sorted(folder.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        where = f"preset file {path.name}"
        add_preset(path.stem, bind(HeuristicParams, data.get("params", {}), where,
                                   base=PRESETS[data.get("base", "heuristic")]))
        names.append(path.stem)
    return names


load_presets()
