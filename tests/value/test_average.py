"""Several learned values as one (`average`, `menorca-sim average-models`): the average's
log-odds are the mean of its members' on any rows, whatever their depths and columns;
the command writes a model folder that loads and names its members, and refuses what it
cannot average in one line."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from menorca_sim.cli import main
from menorca_sim.cli.errors import OneLineGroup
from menorca_sim.value.features import FEATURES
from menorca_sim.value.model import META_FILE, ValueModel, average, from_histgb, load_model

CLI = OneLineGroup(name="menorca-sim", commands=main.commands)


def _fitted(columns: list[int], depth: int, seed: int) -> ValueModel:
    """A small boosted model of `depth` on the FEATURES at `columns` (in that order)."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    rng = np.random.default_rng(seed)
    x = rng.normal(size=(300, len(columns)))
    y = (x[:, 0] + x[:, -1] * x[:, 1] + rng.normal(scale=0.5, size=300) > 0).astype(float)
    classifier = HistGradientBoostingClassifier(max_iter=20, max_depth=depth, early_stopping=False, random_state=0)
    return from_histgb(classifier.fit(x, y), depth, tuple(FEATURES[k] for k in columns))


def test_the_average_scores_the_mean_of_its_members_scores():
    """Members of depths 3 and 5 on different, overlapping columns in different orders:
    the average reads the union of their columns, its shallow trees padded to depth 5."""
    shallow, deep = _fitted([4, 0, 2], 3, 1), _fitted([2, 7, 5, 1], 5, 2)
    both = average([shallow, deep])
    assert both.features == tuple(FEATURES[k] for k in (4, 0, 2, 7, 5, 1)) and both.depth == 5
    assert both.feature.shape == (shallow.feature.shape[0] + deep.feature.shape[0], 31)
    rows = np.random.default_rng(9).normal(size=(50, len(both.features)))
    own = [rows[:, [both.features.index(name) for name in member.features]] for member in (shallow, deep)]
    expected = (shallow.scores(own[0]) + deep.scores(own[1])) / 2
    assert np.allclose(both.scores(rows), expected, atol=1e-12)
    assert not np.allclose(expected, shallow.scores(own[0]))  # the members differ: the mean is a test


def test_average_models_writes_a_model_folder_that_names_its_members(tmp_path):
    for name, model in (("a", _fitted([0, 1], 3, 1)), ("b", _fitted([1, 3], 4, 2))):
        model.save(tmp_path / name, {"held_out_log_loss": {"model": 0.5}})
    result = CliRunner().invoke(CLI, ["average-models", str(tmp_path / "a"), str(tmp_path / "b"),
                                      "--out", str(tmp_path / "ab")])
    assert result.exit_code == 0, result.output
    written = load_model(tmp_path / "ab")
    expected = average([load_model(tmp_path / "a"), load_model(tmp_path / "b")])
    assert written.features == expected.features and np.array_equal(written.leaf, expected.leaf)
    meta = json.loads((tmp_path / "ab" / META_FILE).read_text())
    assert meta["average"] == {"models": [str(tmp_path / "a"), str(tmp_path / "b")],
                               "members_held_out_log_loss": {str(tmp_path / "a"): 0.5, str(tmp_path / "b"): 0.5}}


@pytest.mark.parametrize("case, gist", [("one", "average-models: name at least two model folders"),
                                        ("missing", "nowhere: not a model folder (no meta.json)"),
                                        ("used_out", "used: exists and is not an empty folder")])
def test_bad_input_to_average_models_is_one_line(tmp_path, case, gist):
    _fitted([0, 1], 3, 1).save(tmp_path / "a", {})
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "x").write_text("")
    models = {"one": ["a"], "missing": ["a", "nowhere"], "used_out": ["a", "a"]}[case]
    out = tmp_path / ("used" if case == "used_out" else "model")
    result = CliRunner().invoke(CLI, ["average-models", *(str(tmp_path / m) for m in models), "--out", str(out)])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and gist in lines[0], result.output


def test_an_average_of_no_models_is_refused():
    with pytest.raises(ValueError, match="no models to average"):
        average([])


def test_the_committed_value_v7_is_the_average_of_value_v5_and_value_v6():
    """What `make value`'s last step writes, array for array (the 2-player default's value)."""
    models = Path(__file__).parents[2] / "policies" / "models"
    committed = load_model(models / "value_v7")
    made = average([load_model(models / "value_v5"), load_model(models / "value_v6")])
    assert committed.features == made.features and committed.baseline == made.baseline
    for name in ("feature", "threshold", "leaf"):
        assert np.array_equal(getattr(committed, name), getattr(made, name)), name
    meta = json.loads((models / "value_v7" / META_FILE).read_text())
    assert meta["average"]["models"] == ["policies/models/value_v5", "policies/models/value_v6"]
