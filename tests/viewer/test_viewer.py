"""The game viewer's page data, page and command (`menorca-sim show`), on golden games."""
import json
import re

import pytest
from click.testing import CliRunner

from golden_games import GOLDEN, load_games
from menorca_sim.cli import main
from menorca_sim.game import Game
from menorca_sim.log import read
from menorca_sim.rules import load_ruleset
from menorca_sim.viewer import LogError, page_data, render

GAME = GOLDEN / "p3-heuristic-artesans-destilladors.jsonl"


@pytest.fixture(scope="module")
def data(ruleset):
    return page_data(read(GAME), ruleset, title=GAME.stem)


def line_of(data, i):
    frame = data["frames"][i]
    assert frame["i"] == i
    return f"{frame['label']}: {frame['line']}"


def test_the_map_has_every_hex_of_the_ruleset_once(ruleset, data):
    names = [h["hex"] for h in data["map"]["hexes"]]
    assert len(names) == len(set(names)) == len(ruleset.map.land) + len(ruleset.map.sea) + len(ruleset.map.offboards)
    assert {h["hex"] for h in data["map"]["hexes"] if h["kind"] == "land"} == set(ruleset.map.land)
    every = set(names)
    assert all(a in every and b in every for a, b in data["map"]["lanes"])


def test_one_frame_per_action_with_the_logged_state(data):
    actions = [r for r in read(GAME) if r["type"] == "action"]
    assert len(data["frames"]) == len(actions)
    assert all(f["state"] == r["state"] for f, r in zip(data["frames"], actions))


def test_tiles_after_each_lay_match_the_replayed_board(ruleset, data):
    """Replays the game action by action: after every tile lay, the frame's tiles are the
    board's (preprinted track aside)."""
    header, *records = read(GAME)
    game = Game(ruleset, players=header["players"], seed=header["seed"], minors=header["minors"],
                legacies=header["legacies"], seats=header["seats"])
    board = game.board
    lays = 0
    for k, record in enumerate(r for r in records if r["type"] == "action"):
        game.apply(record["action"])
        if record["action"]["type"] != "lay_tile":
            continue
        lays += 1
        laid = {h: board.tile_at(h) for h in ruleset.map.land}
        want = {h: (t, rot) for h, (t, rot) in ((h, at) for h, at in laid.items() if at)
                if not t.startswith("preprinted:")}
        assert {h: tuple(v) for h, v in data["frames"][k]["tiles"].items()} == want, f"after action {k}"
    assert lays == sum(r["action"]["type"] == "lay_tile" for r in records if r["type"] == "action") > 10


def test_narrative_lines_of_known_actions(data):
    assert line_of(data, 0) == "Auction: P1 reserves L6 (Casa de Comerç) with a bid of 90"
    assert line_of(data, 9) == "Auction: P1 buys L1 (Molí de Sant Lluís) for 20"
    assert line_of(data, 23) == "SR 1: P1 starts RNC at par 100"
    assert line_of(data, 26) == "SR 1: P1 buys a RNC certificate from the treasury for 100"
    assert line_of(data, 27) == "SR 1: P1 places a RNC market marker at València"
    assert line_of(data, 31) == "OR 1.1: RNC lays tile 4 at J13 (rotation 0)"
    assert line_of(data, 33) == "OR 1.1: RNC buys a xebec from the bank for 80"
    assert line_of(data, 37) == "OR 1.1: RNC runs 1 ship and 1 cart for 90, pays out"
    assert line_of(data, 40) == "OR 1.1: RCC places a port at Maó for 40"
    assert line_of(data, 43) == "OR 1.1: RCC runs 1 ship and 1 cart for 90, withholds"
    assert line_of(data, 90) == "OR 2.2: RNC buys L1 (Molí de Sant Lluís) from its director for 30"


def test_or_labels_number_the_ors_of_each_set_from_one(data):
    by_set: dict[int, list[int]] = {}
    for f in data["frames"]:
        m = re.fullmatch(r"OR (\d+)\.(\d+)", f["label"])
        if m:
            ors = by_set.setdefault(int(m[1]), [])
            if not ors or ors[-1] != int(m[2]):
                ors.append(int(m[2]))
    assert by_set and all(ors == list(range(1, len(ors) + 1)) for ors in by_set.values())
    assert any(len(ors) > 1 for ors in by_set.values())


def test_routes_drawn_are_the_runs_of_the_current_or(data):
    frames = data["frames"]
    assert frames[36]["runs"] == [] and frames[37]["runs"] == [37] == frames[40]["runs"]
    assert frames[43]["runs"] == [37, 43]
    assert frames[37]["routes"][0]["hexes"] == ["J11", "K12", "K14", "K16"]
    for f in frames:  # every run drawn has happened, in this OR
        assert all(j <= f["i"] and frames[j]["label"] == frames[f["runs"][0]]["label"] for j in f["runs"])


def test_narrative_covers_every_action_of_every_golden_game():
    for game in load_games():
        for f in page_data(read(game.log), load_ruleset(overrides=game.overrides or None))["frames"]:
            assert f["line"] and "{" not in f["line"], (game.name, f)


def test_the_page_is_self_contained_and_holds_the_data(data):
    page = render(data)
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", page)
    inlined = re.search(r'<script id="page-data" type="application/json">(.*?)</script>', page, re.S)[1]
    assert json.loads(inlined) == data


def test_show_writes_the_page(tmp_path):
    out = CliRunner().invoke(main, ["show", str(GAME), "--out", str(tmp_path / "v")])
    assert out.exit_code == 0, out.output
    page = tmp_path / "v" / "index.html"
    assert out.output.strip() == str(page) and page.stat().st_size > 10_000


def test_show_defaults_to_a_folder_beside_the_log(tmp_path):
    log = tmp_path / "g.jsonl"
    log.write_bytes(GAME.read_bytes())
    assert CliRunner().invoke(main, ["show", str(log)]).exit_code == 0
    assert (tmp_path / "g" / "index.html").is_file()


@pytest.mark.parametrize("content, says", [
    ("not json\n", "not a game log"),
    ('{"type": "action"}\n', "not a game log: its first line is not a header record"),
    ('{"type": "header", "ruleset": "other", "ruleset_sha256": "00"}\n', "was played with ruleset other"),
])
def test_show_answers_a_bad_log_with_one_line(tmp_path, content, says):
    log = tmp_path / "bad.jsonl"
    log.write_text(content)
    out = CliRunner().invoke(main, ["show", str(log), "--out", str(tmp_path / "v")])
    assert out.exit_code == 2 and out.output.startswith(f"error: {log}: ") and says in out.output
    assert len(out.output.strip().splitlines()) == 1


def test_show_names_a_missing_log(tmp_path):
    out = CliRunner().invoke(main, ["show", str(tmp_path / "none.jsonl")])
    assert out.exit_code == 2 and "none.jsonl" in out.output and "No such file" in out.output


def test_page_data_refuses_a_log_without_actions(ruleset):
    with pytest.raises(LogError, match="no action"):
        page_data(read(GAME)[:1], ruleset)


def test_play_show_writes_the_log_and_the_page(tmp_path):
    out = CliRunner().invoke(main, ["play", "--players", "2", "--seed", "3", "--policies", "random_legal",
                                    "--show", str(tmp_path / "v")])
    assert out.exit_code == 0, out.output
    assert out.output.strip().endswith(f"viewer: {tmp_path / 'v' / 'index.html'}")
    assert read(tmp_path / "v" / "game.jsonl")[-1]["type"] == "result"


def test_narrative_names_vehicles_and_what_an_action_brought_about(ruleset):
    game = GOLDEN / "p2-heuristic-artesans-destilladors.jsonl"
    assert line_of(page_data(read(game), ruleset), 130) == (
        "OR 4.1: RCC buys a ship of the line from the bank for 420, trading in a polacca; phase 7H begins; "
        "epoch 3 begins; RADM formed; Artesans closes; Destil·ladors closes")
