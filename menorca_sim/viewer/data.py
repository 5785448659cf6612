"""The viewer's page data: the map, the market and the companies from the ruleset, and
one frame per logged action (its narrative line, the state after it, the tiles laid so
far and the routes to draw), read from a game log alone, without replaying the game."""
from __future__ import annotations

import math
from typing import Any

from menorca_sim.rules import Ruleset
from menorca_sim.rules.geometry import split_hex
from menorca_sim.viewer.narrative import Narrator

# One colour per company, in the ruleset's order (the page's legend names them).
COMPANY_COLOURS = ("#c0392b", "#1f5fa8", "#27864a", "#8e44ad", "#d35400", "#7f6000", "#17808a", "#555555")

ROUTE_ACTIONS = ("payout", "withhold")
HEADER_KEYS = ("seed", "players", "minors", "legacies", "events", "seats", "ruleset")
ACTION_KEYS = ("i", "round", "sr", "or", "actor", "action", "state")


class LogError(ValueError):
    """A file that is not a game log of this ruleset."""


def hex_centre(name: str) -> tuple[float, float]:
    """Centre of a flat-topped hex of size 1 (centre to corner): columns 1.5 apart,
    doubled rows half a hex height (sqrt 3 / 2) apart."""
    col, row = split_hex(name)
    return round(1.5 * col, 4), round(row * math.sqrt(3) / 2, 4)


def map_data(rs: Ruleset) -> dict[str, Any]:
    """Every hex (land, sea, offboard) with its centre, the nodes, the lanes between hex
    centres, and the tile manifest's paths (the page draws laid tiles from these)."""
    mp = rs.map
    hexes = [{"hex": h, "kind": "land", "terrain": terrain, "cost": mp.terrain_costs[terrain]}
             for h, terrain in mp.land.items()]
    hexes += [{"hex": h, "kind": "sea"} for h in mp.sea]
    hexes += [{"hex": off.hex, "kind": "offboard", "name": off.name, "revenue": list(off.revenue)}
              for off in mp.offboards.values()]
    for h in hexes:
        h["x"], h["y"] = hex_centre(h["hex"])
    where = {n.name: n.hex for n in mp.nodes.values()} | {o.name: o.hex for o in mp.offboards.values()}
    return {
        "hexes": hexes,
        "nodes": [{"name": n.name, "hex": n.hex, "kind": n.kind, "slots": n.slots, "port": n.port,
                   "track": [list(p) for p in n.track]} for n in mp.nodes.values()],
        "lanes": [[where.get(a, a), where.get(b, b)] for a, b in mp.lanes],
        "tiles": {t.id: {"colour": t.colour, "node": t.node, "paths": [list(p) for p in t.paths]}
                  for t in rs.tiles.values()},
    }


def market_data(rs: Ruleset) -> list[list[dict[str, Any] | None]]:
    return [[None if cell is None else {"value": cell.value, "par": cell.par, "orange": cell.orange,
                                         "yellow": cell.yellow, "bankrupt": cell.bankrupt}
             for cell in row] for row in rs.market]


def page_data(records: list[dict[str, Any]], rs: Ruleset, title: str = "") -> dict[str, Any]:
    """Everything the page shows, as JSON-ready data; `records` is `menorca_sim.log.read`'s."""
    if not records or records[0].get("type") != "header":
        raise LogError("not a game log: its first line is not a header record")
    header = records[0]
    if header.get("ruleset_sha256") != rs.sha256:
        raise LogError(f"the log was played with ruleset {header.get('ruleset')} "
                       f"({str(header.get('ruleset_sha256'))[:12]}), not {rs.name} ({rs.sha256[:12]})")
    missing = [k for k in HEADER_KEYS if k not in header]
    if missing:
        raise LogError(f"its header has no {', '.join(map(repr, missing))}")
    actions = [r for r in records[1:] if r.get("type") == "action"]
    if not actions:
        raise LogError("the log holds no action")
    result = records[-1] if records[-1].get("type") == "result" else None
    return {
        "title": title,
        "header": {k: header[k] for k in ("seed", "players", "minors", "legacies", "events", "seats", "ruleset")},
        "result": result,
        "map": map_data(rs),
        "market": market_data(rs),
        "companies": {c.id: {"name": c.name, "kind": c.kind, "colour": COMPANY_COLOURS[i % len(COMPANY_COLOURS)],
                             "station": "port" if c.kind == "major" else "manufactory"}
                      for i, c in enumerate(rs.companies.values())},
        "legacies": {leg.id: leg.name for leg in rs.legacies.values()},
        "frames": frames(actions, rs),
    }


def frames(actions: list[dict[str, Any]], rs: Ruleset) -> list[dict[str, Any]]:
    """One frame per action record: what the page shows after that action."""
    narrator = Narrator(rs)
    tiles: dict[str, list] = {}  # hex -> [tile id, rotation], the last lay on it
    runs: list[int] = []  # frames of the current OR whose routes are drawn
    out: list[dict[str, Any]] = []
    for k, record in enumerate(actions):
        _check_action(k, record)
        try:
            frame = _frame(k, record, narrator, tiles, runs, out)
        except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:  # an action's own fields
            raise LogError(f"action record {k + 1}: cannot read it ({type(exc).__name__}: {exc})") from None
        tiles, runs = frame["tiles"], frame["runs"]
        out.append(frame)
    return out


def _frame(k: int, record: dict[str, Any], narrator: Narrator, tiles: dict[str, list], runs: list[int],
           done: list[dict[str, Any]]) -> dict[str, Any]:
    """Action record `k`'s frame, after the frames `done`."""
    action = record["action"]
    if action["type"] == "lay_tile":
        tiles = tiles | {action["hex"]: [action["tile"], action["rotation"]]}
    label = narrator.label(record)
    if action["type"] in ROUTE_ACTIONS:
        # a new OR's first run replaces the last OR's routes
        runs = [j for j in runs if done[j]["label"] == label] + [k]
    frame = {"i": record["i"], "type": action["type"], "label": label, "actor": record["actor"],
             "line": narrator.line(record), "state": record["state"], "tiles": tiles, "runs": runs}
    if action["type"] in ROUTE_ACTIONS:
        frame["routes"] = record.get("routes", [])
    return frame


def _check_action(k: int, record: dict[str, Any]) -> None:
    """The keys every action record has (docs/log-format.md), so a hand-edited log is
    named here, not met later as a KeyError."""
    missing = [key for key in ACTION_KEYS if key not in record]
    if missing:
        raise LogError(f"action record {k + 1} has no {', '.join(map(repr, missing))}")
    if not isinstance(record["action"], dict) or not isinstance(record["action"].get("type"), str) \
            or not isinstance(record["state"], dict):
        raise LogError(f"action record {k + 1}: expected an object with a type as its action and an object "
                       f"as its state")
