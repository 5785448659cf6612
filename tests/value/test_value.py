"""The learned value (issue 42, item 1): `run --record-states` records each seat's
features after each OR without changing any game; `menorca-sim learn` trains on them, and
on held-out games its log-loss for "who wins" beats the wealth share read at the same
point; the array model predicts what scikit-learn's model predicts; learn's bad input
is one `error:` line; the committed model loads and evaluates a real state."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from helpers.experiment_files import one_draw_study, run_study

from menorca_sim.cli import main
from menorca_sim.cli.errors import OneLineGroup
from menorca_sim.play import play_game, seat_policies
from menorca_sim.run import parquet_store as store
from menorca_sim.run.outcomes import TABLES
from menorca_sim.value.features import FEATURES, seat_features
from menorca_sim.value.model import META_FILE, ModelError, from_histgb, load_model

CLI = OneLineGroup(name="menorca-sim", commands=main.commands)
COMMITTED = Path(__file__).parents[2] / "policies" / "models" / "value_v1"

# 2 players, the tuned heuristic against the default one, every seating: a few seconds
STUDY = one_draw_study("states", 11, 90, 2, '[policies]\nseats = ["heuristic_tuned", "heuristic"]\n',
                       draw='["Ramaders", "Artesans"]')


@pytest.fixture(scope="module")
def datasets(tmp_path_factory):
    """The same study played twice: with the states recorded, and as a default run."""
    base = tmp_path_factory.mktemp("value")
    (base / "with").mkdir()
    (base / "without").mkdir()
    return (run_study(base / "with", STUDY.replace("seed = 11", "seed = 11\nrecord_states = true")),
            run_study(base / "without", STUDY))


def test_recording_states_changes_no_game_and_adds_only_the_states_table(datasets):
    recorded, default = datasets
    fingerprints = [store.read_table(d, "games")["fingerprint"].to_pylist() for d in datasets]
    assert fingerprints[0] == fingerprints[1] and len(set(fingerprints[0])) > 1
    assert json.loads((default / store.MANIFEST).read_text())["tables"].keys() == TABLES.keys()
    assert not (default / "states").exists()
    states = store.read_table(recorded, "states")
    assert states.column_names[5:] == list(FEATURES)
    players = store.read_table(recorded, "players").to_pylist()
    final = {(p["game_id"], p["seat"]): p["win_share"] for p in players}
    assert {(r["game_id"], r["seat"]): r["win_share"] for r in states.to_pylist()} == final  # every seat, labelled
    assert store.check_dataset(recorded).damaged == []


def test_a_resumed_run_plays_again_a_chunk_whose_states_part_is_damaged(datasets, tmp_path):
    copy = tmp_path / "data"
    _copy(datasets[0], copy)
    whole = store.read_table(copy, "states")
    store.part_path(copy, "states", 1).write_bytes(b"")
    (tmp_path / "study.toml").write_text(STUDY.replace("seed = 11", "seed = 11\nrecord_states = true"))
    done = CliRunner().invoke(CLI, ["run", str(tmp_path / "study.toml"), "--out", str(copy), "--resume", "--jobs", "1",
                                    "--quiet"])
    assert done.exit_code == 0, done.output
    assert (copy / "damaged" / "states" / "part-000001.parquet").exists()
    assert store.read_table(copy, "states").equals(whole)


def test_the_model_beats_the_wealth_share_on_held_out_games(datasets, tmp_path):
    out = tmp_path / "model"
    done = CliRunner().invoke(CLI, ["learn", str(datasets[0]), "--out", str(out), "--trees", "40", "--depth", "3"])
    assert done.exit_code == 0, done.output
    meta = json.loads((out / META_FILE).read_text())
    loss = meta["held_out_log_loss"]
    assert loss["model"] < loss["wealth_share"]
    assert meta["training"]["held_out_games"] >= 10 and meta["training"]["games"] >= 60
    assert (out / "model.npz").stat().st_size < 300_000


def test_the_array_model_predicts_what_scikit_learn_predicts():
    from sklearn.ensemble import HistGradientBoostingClassifier

    rng = np.random.default_rng(3)
    x = rng.normal(size=(400, len(FEATURES)))
    y = (x[:, 0] + x[:, 3] * x[:, 5] + rng.normal(scale=0.5, size=400) > 0).astype(float)
    classifier = HistGradientBoostingClassifier(max_iter=30, max_depth=4, early_stopping=False, random_state=0)
    classifier.fit(x, y)
    model = from_histgb(classifier, 4, FEATURES)
    assert np.allclose(model.scores(x), classifier.decision_function(x), atol=1e-9)


def test_the_committed_model_loads_and_evaluates_a_real_state(ruleset):
    model = load_model(COMMITTED)
    meta = json.loads((COMMITTED / META_FILE).read_text())
    assert meta["held_out_log_loss"]["model"] < meta["held_out_log_loss"]["wealth_share"]
    states = {}

    def watch(game):  # the state right after ORs 2 and 6
        if game.ors_played() in (2, 6) and game.ors_played() not in states:
            states[game.ors_played()] = seat_features(game)

    game = play_game(ruleset, 5, seat_policies(["heuristic_tuned", "heuristic", "heuristic"], 5), watch=watch)
    assert len(states) == 2
    for rows in states.values():
        shares = model.win_shares(rows)
        assert shares.shape == (3,) and abs(shares.sum() - 1) < 1e-12 and (shares > 0).all()
    assert model.evaluate(game).shape == (3,)


def test_a_model_of_other_features_is_refused(tmp_path):
    model = load_model(COMMITTED)
    model.save(tmp_path / "old", {})
    meta = json.loads((tmp_path / "old" / META_FILE).read_text())
    (tmp_path / "old" / META_FILE).write_text(json.dumps({**meta, "features": meta["features"][:-1]}))
    with pytest.raises(ModelError, match="other features"):
        load_model(tmp_path / "old")
    with pytest.raises(ModelError, match="not a model folder"):
        load_model(tmp_path)


@pytest.mark.parametrize("case, gist", [
    ("missing", "{d}/nowhere: not a dataset folder"),
    ("no_states", "the dataset has no states table (run its experiment with --record-states"),
    ("used_out", "{d}/used: exists and is not an empty folder"),
    ("damaged", "truncated or corrupt"),
    ("few", "games with states; at least 10 are needed"),
])
def test_bad_input_to_learn_is_one_line(datasets, tmp_path, case, gist):
    recorded, default = datasets
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "x").write_text("")
    source = {"missing": tmp_path / "nowhere", "no_states": default, "used_out": recorded}.get(case)
    if case == "damaged":
        source = tmp_path / "copy"
        _copy(recorded, source)
        store.part_path(source, "states", 0).write_bytes(b"PAR1 not really")
    if case == "few":
        source = run_study(tmp_path, STUDY.replace("games = 90", "games = 4").replace("seed = 11",
                                                                                  "seed = 11\nrecord_states = true"))
    out = tmp_path / ("used" if case == "used_out" else "model")
    result = CliRunner().invoke(CLI, ["learn", str(source), "--out", str(out)])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert len(lines) == 1 and lines[0].startswith("error: ") and gist.format(d=tmp_path) in lines[0], result.output
    assert case == "used_out" or not out.exists()


def _copy(source: Path, target: Path) -> None:
    import shutil

    shutil.copytree(source, target)
    assert pq.read_table(store.part_path(target, "states", 0)).num_rows > 0
