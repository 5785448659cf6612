"""The smooth value (menorca_sim/value/perceptron.py) and blends of values of different
kinds (blend.py): the perceptron's arrays predict what scikit-learn's classifier
predicts on raw columns; a blend's log-odds are the mean of its members'; `average-models`
with a perceptron among the models writes a blend folder that is whole by itself; a
damaged or unknown model folder is refused in one line."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from menorca_sim.cli import main
from menorca_sim.cli.errors import OneLineGroup
from menorca_sim.value.blend import Blend
from menorca_sim.value.features import FEATURES, columns, seat_features
from menorca_sim.value.model import META_FILE, ModelError, load_model
from menorca_sim.value.perceptron import Perceptron, from_mlp

CLI = OneLineGroup(name="menorca-sim", commands=main.commands)
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # small fits, few rows
TREES = Path(__file__).parents[2] / "policies" / "models" / "value_v5"


def _perceptron(columns: list[int], seed: int) -> tuple[Perceptron, object, np.ndarray, np.ndarray]:
    """A small perceptron on the FEATURES at `columns`, fitted on standardised rows; with
    the classifier and the standardisation."""
    from sklearn.neural_network import MLPClassifier

    rng = np.random.default_rng(seed)
    x = rng.normal(loc=50.0, scale=20.0, size=(400, len(columns)))
    y = (x[:, 0] - x[:, -1] + rng.normal(scale=10.0, size=400) > 0).astype(float)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    classifier = MLPClassifier(hidden_layer_sizes=(8, 4), max_iter=200, random_state=0).fit((x - mean) / scale, y)
    return from_mlp(classifier, mean, scale, tuple(FEATURES[k] for k in columns)), classifier, mean, scale


def test_the_perceptron_predicts_what_scikit_learn_predicts_on_raw_columns():
    model, classifier, mean, scale = _perceptron([0, 3, 7], 1)
    rows = np.random.default_rng(2).normal(loc=50.0, scale=20.0, size=(60, 3))
    expected = classifier.predict_proba((rows - mean) / scale)[:, 1]
    assert np.allclose(1.0 / (1.0 + np.exp(-model.scores(rows))), expected, atol=1e-9)
    shares = model.win_shares(rows[:2])
    assert np.isclose(shares.sum(), 1.0) and shares[0] / shares[1] == pytest.approx(expected[0] / expected[1])


def test_a_blend_reads_the_mean_of_its_members_log_odds_each_on_its_own_columns():
    perceptron, *_ = _perceptron([5, 0, 2], 3)
    trees = load_model(TREES)
    blend = Blend((perceptron, trees))
    assert blend.features == tuple(dict.fromkeys((*perceptron.features, *trees.features)))
    rows = np.random.default_rng(4).normal(loc=50.0, scale=20.0, size=(30, len(blend.features)))
    own = [[blend.features.index(name) for name in member.features] for member in (perceptron, trees)]
    expected = (perceptron.scores(rows[:, own[0]]) + np.asarray(trees.scores(rows[:, own[1]]))) / 2
    assert np.allclose(blend.scores(rows), expected, atol=1e-12)


def test_average_models_with_a_perceptron_writes_a_blend_whole_by_itself(ruleset, tmp_path):
    from helpers.states import play_until

    from menorca_sim.game import Game
    from menorca_sim.play import seat_policies

    perceptron, *_ = _perceptron(list(range(len(FEATURES))), 5)
    perceptron.save(tmp_path / "smooth", {})
    out = tmp_path / "blend"
    done = CliRunner().invoke(CLI, ["average-models", str(tmp_path / "smooth"), str(TREES), "--out", str(out)])
    assert done.exit_code == 0 and "the blend of 2 models" in done.output, done.output
    moved = tmp_path / "elsewhere"
    shutil.move(out, moved)
    shutil.rmtree(tmp_path / "smooth")
    blend = load_model(moved)
    assert isinstance(blend, Blend) and json.loads((moved / META_FILE).read_text())["members"] == ["member0", "member1"]
    game = play_until(Game(ruleset, players=2, seed=3), seat_policies(["heuristic"] * 2, 3),
                      lambda g: g.ors_played() >= 2)
    rows = seat_features(game)
    mean = sum(np.asarray(m.scores(rows[:, list(columns(m.features))])) for m in blend.members) / 2
    p = 1.0 / (1.0 + np.exp(-mean))
    assert np.allclose(blend.evaluate(game), p / p.sum(), atol=1e-12)
    assert not np.allclose(blend.evaluate(game), blend.members[1].evaluate(game))


@pytest.mark.parametrize("case, gist", [
    ("unknown_kind", "a model of kind 'forest', not trees, perceptron or blend"),
    ("shapes", "damaged model (ValueError: layer shapes"),
    ("one_member", "damaged model (ValueError: members must name two or more of its subfolders)"),
    ("member_missing", "member1: not a model folder (no meta.json)"),
    ("member_outside", "damaged model (ValueError: members must name two or more of its subfolders)"),
])
def test_a_damaged_model_folder_is_refused_in_one_line(tmp_path, case, gist):
    perceptron, *_ = _perceptron([0, 1], 6)
    folder = tmp_path / "model"
    if case in ("unknown_kind", "shapes"):
        perceptron.save(folder, {})
        meta = json.loads((folder / META_FILE).read_text())
        meta.update({"unknown_kind": {"kind": "forest"}, "shapes": {"features": list(FEATURES[:3])}}[case])
        (folder / META_FILE).write_text(json.dumps(meta))
    else:
        perceptron.save(folder / "member0", {})
        members = {"one_member": ["member0"], "member_outside": ["member0", ".."]}.get(case, ["member0", "member1"])
        (folder / META_FILE).write_text(json.dumps({"kind": "blend", "members": members}))
    with pytest.raises(ModelError) as caught:
        load_model(folder)
    assert gist in str(caught.value) and "\n" not in str(caught.value)


def test_a_search_reads_its_leaves_with_a_blend_and_plays_the_same_game_twice(ruleset, tmp_path):
    from menorca_sim.play import play_game
    from menorca_sim.value.blend import write_blend
    from policies import mcts

    perceptron, *_ = _perceptron(list(range(len(FEATURES))), 7)
    perceptron.save(tmp_path / "smooth", {})
    write_blend([tmp_path / "smooth", TREES], tmp_path / "blend", {})
    blend, trees = load_model(tmp_path / "blend"), load_model(TREES)

    def fingerprint(model) -> str:
        seats = [mcts.Mcts("mcts", mcts.MctsParams(playouts=4), seat, np.random.default_rng(seat), model)
                 for seat in range(2)]
        return play_game(ruleset, 7, seats).fingerprint()

    assert fingerprint(blend) == fingerprint(blend) != fingerprint(trees)


def test_the_committed_value_v8_is_a_perceptron_blended_with_value_v7():
    """What `make value`'s last steps write (the 2-player default's value from 64
    playouts): a perceptron fitted on value_v6's rows with the auction's counted ten
    times, and value_v7 copied file for file, their log-odds averaged."""
    models = Path(__file__).parents[2] / "policies" / "models"
    blend = load_model(models / "value_v8")
    assert isinstance(blend, Blend) and isinstance(blend.members[0], Perceptron)
    for name in ("meta.json", "model.npz"):
        assert (models / "value_v8" / "member1" / name).read_bytes() == (models / "value_v7" / name).read_bytes()
    training = json.loads((models / "value_v8" / "member0" / META_FILE).read_text())["training"]
    assert training["settings"] | {"seed": 0} == {"model": "perceptron", "hidden": [64, 64], "epochs": 30,
                                                 "kind_weights": [["auction", 10.0]], "seed": 0}
    assert training["datasets"] == [
        "reports/value_data/data:players=3", "reports/value_data_g2/data", "reports/value_data_g3/data",
        "reports/value_data_g4/data", "reports/value_data_g5/data:kind=leaf:weight=10",
        "reports/value_data_g6/data:kind=leaf:weight=10"]
    rows = np.random.default_rng(3).normal(loc=20.0, scale=10.0, size=(4, len(blend.features)))
    own = [[blend.features.index(name) for name in member.features] for member in blend.members]
    mean = (blend.members[0].scores(rows[:, own[0]]) + blend.members[1].scores(rows[:, own[1]])) / 2
    assert np.allclose(blend.scores(rows), mean)
