"""Writes a JSON-lines game log (see log.py, which reads and replays them): a header, one
line per applied action with the state after it, and the result, each read through the
Game's public API (docs/log-format.md)."""
from __future__ import annotations

import json
from pathlib import Path


class GameLog:
    """The log of one game, written as it is played (opened by `Game(..., log=path)`,
    which tells it of each action before and after applying it)."""

    def __init__(self, path, game) -> None:
        self.path = Path(path)
        self._file = open(self.path, "w", encoding="utf-8")
        self._write(game.header())

    def _write(self, record: dict) -> None:
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")

    def before(self, game, action: dict) -> tuple:
        """What the line of `action` needs from the state before it: where the game
        stands, and the routes a dividend decision pays for."""
        plan = game.pending_plan() if action["type"] in ("payout", "withhold") else None
        return game.context(), [r.as_dict() for r in plan.routes] if plan is not None else None

    def after(self, game, action: dict, before: tuple) -> None:
        """The line of `action` (`before`: what `before` noted), with the state after it;
        the result and the end of the log once the game is over."""
        context, routes = before
        record = {"type": "action", "i": game.action_count() - 1, "round": context["round"], "sr": context["sr"],
                  "or": context["or"], "phase": context["phase"], "epoch": context["epoch"],
                  "actor": context["actor"], "action": action}
        if routes is not None:
            record["routes"] = routes
        record["state"] = game.state()
        self._write(record)
        if game.is_over():
            res = game.result()
            self._write({"type": "result", "reason": res["reason"], "wealth": res["wealth"],
                         "cash": res["cash"], "winners": res["winners"]})
            self._file.close()
