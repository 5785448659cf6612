"""End to end with the real engine and `random_legal` players on a tiny experiment."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from helpers.experiment_files import TINY
from helpers.toy_games import dataset
from menorca_sim.cli import run as cli_run
from menorca_sim.play import play_game, seat_policies
from menorca_sim.rules import load_ruleset
from menorca_sim.run.experiment import ExperimentError, check_policy_spec, load_experiment
from menorca_sim.run.records import game_summary
from menorca_sim.run.runner import run_experiment


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return path


def test_engine_games_are_the_same_for_any_schedule_and_replay_alone(tiny, tmp_path):
    exp = load_experiment(tiny, check_policy=check_policy_spec)
    one = run_experiment(exp, tmp_path / "j1", jobs=1, chunk=5)
    two = run_experiment(exp, tmp_path / "j2", jobs=2, chunk=2)
    assert (one.errors, two.errors, one.finished_games, two.finished_games) == (0, 0, 12, 12)
    a, b = dataset(tmp_path / "j1"), dataset(tmp_path / "j2")
    for name in a:
        assert a[name].equals(b[name]), name
    assert a["players"].num_rows == 6 * 2 + 6 * 3
    assert a["companies"].num_rows == 12 * len(load_ruleset().companies)
    # a game of the dataset is the game `menorca-sim play --seed` plays
    row = a["games"].to_pylist()[7]
    spec = exp.game(row["game_id"])
    policies = seat_policies(["random_legal"] * spec.players, spec.seed)
    alone = game_summary(play_game(load_ruleset(), spec.seed, policies, minors=list(spec.minors)))
    assert (row["minors"], row["winners"], row["actions"], row["bank"], row["end_reason"]) == \
        (alone["minors"], alone["winners"], alone["actions"], alone["bank"], alone["end_reason"])
    assert row["minors"] == list(spec.minors)


def test_unknown_policy_is_a_one_line_experiment_error(tiny):
    tiny.write_text(TINY.replace('"random_legal"', '"randim_legal"'), encoding="utf-8")
    with pytest.raises(ExperimentError) as err:
        load_experiment(tiny, check_policy=check_policy_spec)
    assert str(err.value).startswith("tiny.toml: policies.seats[0]: unknown policy 'randim_legal'; "
                                     "did you mean 'random_legal'? (known: ")
    assert "\n" not in str(err.value)


def test_cli_run_with_the_engine(tiny, tmp_path):
    out = tmp_path / "data"
    result = CliRunner().invoke(cli_run.command, [str(tiny), "--jobs", "1", "--games", "1", "--quiet",
                                                  "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("tiny: 6 games played, 0 errors, ")
    assert dataset(out)["games"]["players"].to_pylist() == [2, 2, 2, 3, 3, 3]


def test_rounds_follow_each_game_to_its_end(tiny, tmp_path):
    """The `rounds` table of a real run: a snapshot after the auction and after each OR
    (or 0..ors), the last one the game's end (its players' wealth and cash, its bank),
    a company's revenues over the ORs adding up to its revenue over the game."""
    run_experiment(load_experiment(tiny, check_policy=check_policy_spec), tmp_path / "out", jobs=1)
    data = {name: t.to_pylist() for name, t in dataset(tmp_path / "out").items()}
    for game in data["games"]:
        rounds = [r for r in data["rounds"] if r["game_id"] == game["game_id"]]
        assert sorted({r["or"] for r in rounds}) == list(range(game["ors"] + 1))
        players = [r for r in rounds if r["kind"] == "player"]
        assert len(players) == (game["ors"] + 1) * game["players"]
        assert all(r["wealth"] == r["cash"] for r in players if r["or"] == 0)  # no shares yet
        last = [r for r in rounds if r["or"] == game["ors"]]
        assert {r["bank"] for r in last} == {game["bank"]} and {r["phase"] for r in last} == {game["phase"]}
        final = [(p["wealth"], p["cash"]) for p in data["players"] if p["game_id"] == game["game_id"]]
        assert [(r["wealth"], r["cash"]) for r in last if r["kind"] == "player"] == final
        for company in (c for c in data["companies"] if c["game_id"] == game["game_id"]):
            rows = [r for r in rounds if r["company"] == company["company"]]
            assert sum(r["revenue"] for r in rows) == company["revenue_total"]
            assert not rows or company["started"]


def test_watching_a_game_leaves_it_the_same_game():
    from menorca_sim.run.chunk_worker import play_one
    from menorca_sim.run.experiment import GameSpec

    rs = load_ruleset()
    for seed in (1, 2):
        spec = GameSpec(game_id=seed, variant="", cell="c", game_index=0, seed=seed, players=3,
                        minors=tuple(rs.minors[:2]), policies=("heuristic",) * 3)
        watched, alone = play_one(rs, spec), play_one(rs, spec, rounds=False)
        assert watched["fingerprint"] == alone["fingerprint"] and alone["rounds"] == []
        assert len(watched["rounds"]) > (watched["ors"] + 1) * 3
