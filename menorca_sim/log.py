"""JSON-lines game logs (written by gamelog.GameLog as a game is played: a header, one line
per applied action with the state after it, and the result): `read` one, `replay` a logged
game from its header and actions."""
from __future__ import annotations

import json

from menorca_sim.game import Game
from menorca_sim.rules import load_ruleset


def read(path) -> list[dict]:
    """The log's records; a line that is not a JSON object is a ValueError naming it."""
    records = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"line {number}: not JSON ({exc.msg})") from None
            if not isinstance(record, dict):
                raise ValueError(f"line {number}: expected a JSON object, got {type(record).__name__}")
            records.append(record)
    return records


def replay(path, ruleset=None):
    """Play the logged game again (same ruleset, seed and actions); returns the Game.
    Raises ValueError when the ruleset differs from the logged one or the result does."""
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
