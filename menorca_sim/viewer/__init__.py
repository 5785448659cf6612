"""The game viewer: one self-contained HTML page per game log (the map after any action,
the share market, holdings, routes and a narrative line per action); see docs/viewer.md."""
from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path

from menorca_sim.log import read
from menorca_sim.rules import Ruleset, load_ruleset
from menorca_sim.viewer.data import LogError, page_data

__all__ = ["LogError", "page_data", "render", "write_page"]


def render(data: dict) -> str:
    """The page: the template with `data` inlined as JSON (no external file or script)."""
    template = resources.files("menorca_sim.viewer").joinpath("template.html").read_text(encoding="utf-8")
    # "</" would end the inline script early; JSON allows the escaped form
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return template.replace("__TITLE__", html.escape(data["title"])).replace("__DATA__", payload)


def write_page(log_path: str | Path, out_dir: str | Path, ruleset: Ruleset | None = None) -> Path:
    """Write OUT_DIR/index.html for the game log at `log_path`; returns its path."""
    log_path = Path(log_path)
    try:
        records = read(log_path)
    except ValueError as exc:  # a line that is not a JSON object, or not UTF-8
        raise LogError(f"not a game log ({exc})") from None
    data = page_data(records, ruleset if ruleset is not None else load_ruleset(), title=log_path.stem)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    page = out / "index.html"
    page.write_text(render(data), encoding="utf-8")
    return page
