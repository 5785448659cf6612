"""JSON-lines game logs and replay."""
import json

import pytest
from helpers.engine import RS

from menorca_sim.log import read, replay
from menorca_sim.play import play_game, seat_policies
from menorca_sim.run.records import game_summary


def _logged_game(tmp_path, seed=21, players=3):
    path = tmp_path / "game.jsonl"
    game = play_game(RS, seed, seat_policies(["random_legal"] * players, seed), log=path)
    return game, path


def test_log_has_header_actions_and_result(tmp_path):
    game, path = _logged_game(tmp_path)
    records = read(path)
    header, actions, result = records[0], records[1:-1], records[-1]
    assert header["type"] == "header" and header["seed"] == 21 and header["players"] == 3
    assert header["seats"] == ["random_legal"] * 3 and header["ruleset"] == RS.name
    assert header["ruleset_sha256"] == RS.sha256 and len(header["events"]) == 4
    assert [r["i"] for r in actions] == list(range(len(actions))) == list(range(game_summary(game)["actions"]))
    first = actions[0]
    assert first["round"] == "auction" and first["actor"].startswith("P")
    state = first["state"]
    assert {"bank", "players", "companies", "phase", "epoch", "start_player"} <= set(state)
    assert {"cash", "shares", "certs", "legacies"} <= set(state["players"][0])
    operating = [r for r in actions if r["round"] == "operating"]
    assert operating and all(r["actor"] in RS.companies for r in operating)
    company = next(iter(operating[-1]["state"]["companies"].values()))
    assert {"cash", "price", "cell", "treasury", "pool", "floated", "vehicles", "stations",
            "market_markers", "goods_markers"} <= set(company)
    runs = [r for r in actions if r["action"]["type"] in ("payout", "withhold")]
    assert runs and all(r["routes"] and {"vehicle", "hexes", "nodes", "revenue"} <= set(r["routes"][0])
                        for r in runs)
    res = game.result()
    assert result == {"type": "result", "reason": res["reason"], "wealth": res["wealth"],
                      "cash": res["cash"], "winners": res["winners"]}


def test_replay_reproduces_the_result(tmp_path):
    game, path = _logged_game(tmp_path, seed=33, players=2)
    again = replay(path)
    assert again.result() == game.result() and game_summary(again) == game_summary(game)


def test_replay_detects_a_different_ending(tmp_path):
    game, path = _logged_game(tmp_path, seed=34, players=2)
    lines = path.read_text(encoding="utf-8").splitlines()
    result = json.loads(lines[-1])
    result["wealth"] = [w + 1 for w in result["wealth"]]
    lines[-1] = json.dumps(result)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="ended differently"):
        replay(path)
