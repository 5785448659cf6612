"""Writes a JSON-lines game log (see log.py, which reads and replays them): a header, one
line per applied action with the state after it, and the result. It writes the records
it is given: the Game hands it its header, states and result, and this module knows
nothing of the Game."""
from __future__ import annotations

import json
from pathlib import Path


class GameLog:
    """The log of one game, written as it is played (opened by `Game(..., log=path)`)."""

    def __init__(self, path, header: dict) -> None:
        self.path = Path(path)
        self._file = open(self.path, "w", encoding="utf-8")
        self._write(header)

    def _write(self, record: dict) -> None:
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")

    def action(self, index: int, context: dict, action: dict, routes: list | None, state: dict) -> None:
        """Action `index` (its dict `action`, applied in `context`), the routes it ran, if
        any, and the state after it."""
        record = {"type": "action", "i": index, "round": context["round"], "sr": context["sr"],
                  "or": context["or"], "phase": context["phase"], "epoch": context["epoch"],
                  "actor": context["actor"], "action": action}
        if routes is not None:
            record["routes"] = routes
        record["state"] = state
        self._write(record)

    def result(self, res: dict) -> None:
        """The game's result (`Game.result()`); closes the log."""
        self._write({"type": "result", "reason": res["reason"], "wealth": res["wealth"],
                     "cash": res["cash"], "winners": res["winners"]})
        self._file.close()
