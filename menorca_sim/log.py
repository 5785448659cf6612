"""JSON-lines game log: a header, one line per applied action with the state after it,
and the result; `replay` plays a logged game again from its header and actions."""
from __future__ import annotations

import json
from pathlib import Path


class GameLog:
    """Writes the log of one game as it is played (opened by `Game(..., log=path)`)."""

    def __init__(self, path, game) -> None:
        self.path = Path(path)
        self._file = open(self.path, "w", encoding="utf-8")
        self._write(game.header())

    def _write(self, record: dict) -> None:
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")

    def action(self, game, index: int, context: dict, action: dict, routes: list | None) -> None:
        record = {"type": "action", "i": index, "round": context["round"], "sr": context["sr"],
                  "or": context["or"], "phase": context["phase"], "epoch": context["epoch"],
                  "actor": context["actor"], "action": action}
        if routes is not None:
            record["routes"] = routes
        record["state"] = game.state()
        self._write(record)

    def result(self, game) -> None:
        res = game.result()
        self._write({"type": "result", "reason": res["reason"], "wealth": res["wealth"],
                     "cash": res["cash"], "winners": res["winners"]})
        self._file.close()


def read(path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def replay(path, ruleset=None):
    """Play the logged game again (same ruleset, seed and actions); returns the Game.
    Raises ValueError when the ruleset differs from the logged one or the result does."""
    from menorca_sim.game import Game
    from menorca_sim.rules import load_ruleset

    records = read(path)
    header = records[0]
    rs = ruleset if ruleset is not None else load_ruleset()
    if rs.sha256 != header["ruleset_sha256"]:
        raise ValueError(f"{path} was played with ruleset {header['ruleset']} "
                         f"({header['ruleset_sha256'][:12]}), not {rs.name} ({rs.sha256[:12]})")
    game = Game(rs, players=header["players"], seed=header["seed"], minors=header["minors"],
                legacies=header["legacies"], seats=header["seats"])
    for record in records[1:]:
        if record["type"] == "action":
            game.apply(record["action"])
    logged = records[-1]
    if logged["type"] == "result":
        res = game.result()
        keys = ("reason", "wealth", "winners")
        if [res[k] for k in keys] != [logged[k] for k in keys]:
            raise ValueError(f"replay of {path} ended differently: {res} vs {logged}")
    return game
