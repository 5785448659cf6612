"""The learned value (issue 42): `run --record-states` records each seat's features after
each OR and at a sample of the searched decisions without changing any game; `menorca-sim
learn` trains on them, and on held-out games its log-loss for "who wins" beats the wealth
share read at the same point; the array model predicts what scikit-learn's model
predicts; learn's bad input is one `error:` line; the committed models load and evaluate
a real state, each reading the columns it names; the round's context columns tell
states inside a round apart."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from helpers.experiment_files import one_draw_study, run_studies, run_study
from helpers.states import play_until

from menorca_sim.cli import main
from menorca_sim.cli.errors import OneLineGroup
from menorca_sim.game import Game
from menorca_sim.learn.train import Settings, fit, load_states, model_shares, split_by_game, who_wins_log_loss
from menorca_sim.play import play_game, seat_policies
from menorca_sim.run import parquet_store as store
from menorca_sim.run.outcomes import TABLES
from menorca_sim.value.features import CONTEXT_FEATURES, FEATURES, seat_features
from menorca_sim.value.model import META_FILE, ModelError, ValueModel, from_histgb, load_model

CLI = OneLineGroup(name="menorca-sim", commands=main.commands)
COMMITTED = Path(__file__).parents[2] / "policies" / "models" / "value_v1"

# 2 players, the tuned heuristic against the default one, every seating: a few seconds
STUDY = one_draw_study("states", 11, 90, 2, '[policies]\nseats = ["heuristic_tuned", "heuristic"]\n',
                       draw='["Ramaders", "Artesans"]')


@pytest.fixture(scope="module")
def datasets(tmp_path_factory):
    """The same study played twice: with the states recorded, and as a default run."""
    return run_studies(tmp_path_factory.mktemp("value"),
                       {"with": STUDY.replace("seed = 11", "seed = 11\nrecord_states = true"), "without": STUDY})


def test_recording_states_changes_no_game_and_adds_only_the_states_table(datasets):
    recorded, default = datasets
    fingerprints = [store.read_table(d, "games")["fingerprint"].to_pylist() for d in datasets]
    assert fingerprints[0] == fingerprints[1] and len(set(fingerprints[0])) > 1
    assert json.loads((default / store.MANIFEST).read_text())["tables"].keys() == TABLES.keys()
    assert not (default / "states").exists()
    states = store.read_table(recorded, "states")
    assert states.column_names[7:] == list(FEATURES)
    players = store.read_table(recorded, "players").to_pylist()
    final = {(p["game_id"], p["seat"]): p["win_share"] for p in players}
    assert {(r["game_id"], r["seat"]): r["win_share"] for r in states.to_pylist()} == final  # every seat, labelled
    assert store.check_dataset(recorded).damaged == []


def test_states_are_recorded_at_a_sample_of_the_searched_decisions(datasets):
    states = pl.from_arrow(store.read_table(datasets[0], "states"))
    per_game = states.filter(pl.col("seat") == 0).group_by("game_id", "kind").len()
    decisions = per_game.filter(pl.col("kind") == "decision")["len"]
    ors = per_game.filter(pl.col("kind") == "or")["len"]
    assert 15 <= decisions.median() <= 60 and decisions.min() > 0  # a few dozen a game: a fifth of 150-180
    assert per_game.filter(pl.col("kind") == "auction")["len"].to_list() == [1] * 90
    assert ors.min() >= 5
    at = states.filter(pl.col("kind") == "decision")
    assert at.select("game_id", "action").n_unique() * 2 == at.height  # one row per seat, each snapshot its own
    assert set(at["to_act"]) == {0.0, 1.0} and (at.group_by("game_id", "action").agg(pl.col("to_act").sum())
                                                ["to_act"] == 1).all()  # one seat decides
    assert {(1.0, 0.0), (0.0, 1.0)} <= set(at.select("stock_round", "operating_round").iter_rows())
    assert at["round_done"].min() == 0 and 0.5 < at["round_done"].max() <= 1


def test_the_round_context_columns_follow_an_operating_round(ruleset):
    """Seed 5, two players: through OR 2 (the last of its set) the share of its companies
    that have operated climbs to all of them and the income still to come falls to
    nothing; in the stock round after it the passes count; the seat deciding is the one
    to act."""
    seen = []

    def watch(game):
        if game.ors_played() in (1, 2):
            rows = dict(zip(FEATURES, seat_features(game).T.tolist()))
            seen.append({name: rows[name] for name in CONTEXT_FEATURES} | {"actor": game.current_actor(),
                                                                            "ors": game.ors_played()})

    play_game(ruleset, 5, seat_policies(["heuristic_tuned", "heuristic"], 5), watch=watch)
    operating = [s for s in seen if s["ors"] == 1]
    stock = [s for s in seen if s["ors"] == 2 and s["stock_round"][0] == 1]
    assert all(s["operating_round"] == [1, 1] and s["ors_before_sr"] == [0, 0] for s in operating)
    done = [s["round_done"][0] for s in operating]
    assert done == sorted(done) and 0 < done[0] < done[-1] == 1
    assert sum(operating[0]["income_to_come"]) > 0 == sum(operating[-1]["income_to_come"])
    assert stock and all(s["operating_round"] == [0, 0] and s["ors_before_sr"][0] > 0 for s in stock)
    passes = [s["round_done"][0] for s in stock]
    assert passes[0] == 0 and max(passes) == 0.5
    assert all(s["to_act"][s["actor"]] == 1 and sum(s["to_act"]) == 1 for s in seen)


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
    done = CliRunner().invoke(CLI, ["learn", str(datasets[0]), "--out", str(out), "--trees", "40", "--depth", "3",
                                    "--compare", str(COMMITTED)])
    assert done.exit_code == 0, done.output
    meta = json.loads((out / META_FILE).read_text())
    loss = meta["held_out_log_loss"]
    assert loss["model"] < loss["wealth_share"]
    assert loss["by_kind"].keys() == loss["snapshots"].keys() == {"auction", "or", "decision"}
    assert loss["by_kind"]["decision"]["model"] < loss["by_kind"]["decision"]["wealth_share"]
    assert loss["compared"][str(COMMITTED)].keys() == {"all", "auction", "or", "decision"}
    assert f"{COMMITTED} on the same rows: all " in done.output
    assert meta["training"]["held_out_games"] >= 10 and meta["training"]["games"] >= 60
    assert (out / "model.npz").stat().st_size < 300_000


def test_a_perceptron_learns_too_the_same_fit_every_time(datasets, tmp_path):
    """`learn --model perceptron`: a smooth value, fitted on one thread, so the same data
    give the same arrays; it beats the wealth share on held-out games as the trees do,
    and its meta.json says what it is and how it was fitted."""
    folders = [tmp_path / "first", tmp_path / "again"]
    for out in folders:
        done = CliRunner().invoke(CLI, ["learn", str(datasets[0]), "--out", str(out), "--model", "perceptron",
                                        "--hidden", "16,8", "--epochs", "8", "--kind-weight", "auction=3"])
        assert done.exit_code == 0, done.output
    meta = json.loads((folders[0] / META_FILE).read_text())
    assert meta["kind"] == "perceptron" and meta["layers"] == [16, 8, 1] and meta["features"] == list(FEATURES)
    assert meta["training"]["settings"] == {"model": "perceptron", "hidden": [16, 8], "epochs": 8,
                                            "kind_weights": [["auction", 3.0]], "seed": 0}
    assert meta["held_out_log_loss"]["model"] < meta["held_out_log_loss"]["wealth_share"]
    with np.load(folders[0] / "model.npz") as first, np.load(folders[1] / "model.npz") as again:
        assert first.files == again.files and all(np.array_equal(first[k], again[k]) for k in first.files)
    assert type(load_model(folders[0])).__name__ == "Perceptron"


def test_learn_trains_on_the_rows_a_dataset_names(datasets, tmp_path):
    """`FOLDER:COLUMN=VALUES` keeps those rows of that dataset (value_v4 takes the
    heuristics' 3-player states only), read as the column's type; the split by game is
    the same, so the rows kept are the same rows in the same games."""
    recorded = str(datasets[0])
    every, ors = load_states([recorded]), load_states([f"{recorded}:kind=or"])
    assert set(ors["kind"]) == {"or"} and ors.equals(every.filter(pl.col("kind") == "or"))
    assert load_states([f"{recorded}:kind=or,auction:players=2"]).height == every.filter(
        pl.col("kind") != "decision").height
    both = load_states([recorded, f"{recorded}:kind=auction:seat=1"])
    assert both.filter(pl.col("dataset") == 1).height == 90 and set(both.filter(pl.col("dataset") == 1)["seat"]) == {1}
    out = tmp_path / "model"
    done = CliRunner().invoke(CLI, ["learn", f"{recorded}:kind=or", "--out", str(out), "--trees", "20", "--depth", "3"])
    assert done.exit_code == 0, done.output
    meta = json.loads((out / META_FILE).read_text())
    assert meta["held_out_log_loss"]["snapshots"].keys() == {"or"}
    assert meta["training"]["datasets"] == [f"{recorded}:kind=or"]
    held_out = split_by_game(every)[1].filter(pl.col("kind") == "or")
    assert meta["training"]["held_out_rows"] == held_out.height


def test_learn_counts_a_dataset_s_rows_by_its_weight(datasets):
    """`FOLDER:...:weight=W` counts those rows W times in the fit (a few thousand leaves
    beside the trajectories' rows); weight 1, the default, fits what no weight fits."""
    recorded = str(datasets[0])
    plain = load_states([recorded])
    assert set(plain["weight"]) == {1.0} and plain.equals(load_states([f"{recorded}:weight=1"]))
    both = load_states([recorded, f"{recorded}:kind=or:weight=4"])
    assert set(both.filter(pl.col("dataset") == 1)["weight"]) == {4.0}
    assert set(both.filter(pl.col("dataset") == 1)["kind"]) == {"or"}
    settings = Settings(trees=20, depth=3)
    train, test = split_by_game(plain)
    x = test.select(FEATURES).to_numpy()
    once = fit(train, settings)
    assert np.array_equal(once.scores(x), fit(train.drop("weight"), settings).scores(x))
    ors = train.with_columns(weight=pl.when(pl.col("kind") == "or").then(8.0).otherwise(1.0))
    heavier = fit(ors, settings)
    assert not np.array_equal(once.scores(x), heavier.scores(x))
    counted = train.filter(pl.col("kind") == "or")  # the fit leans toward the rows it counts more
    assert who_wins_log_loss(counted, model_shares(heavier, counted)) < who_wins_log_loss(counted,
                                                                                           model_shares(once, counted))


def test_the_array_model_predicts_what_scikit_learn_predicts():
    from sklearn.ensemble import HistGradientBoostingClassifier

    rng = np.random.default_rng(3)
    x = rng.normal(size=(400, len(FEATURES)))
    y = (x[:, 0] + x[:, 3] * x[:, 5] + rng.normal(scale=0.5, size=400) > 0).astype(float)
    classifier = HistGradientBoostingClassifier(max_iter=30, max_depth=4, early_stopping=False, random_state=0)
    classifier.fit(x, y)
    model = from_histgb(classifier, 4, FEATURES)
    assert np.allclose(model.scores(x), classifier.decision_function(x), atol=1e-9)


@pytest.mark.parametrize("folder", [COMMITTED.with_name(f"value_v{n}") for n in (1, 2, 3, 4, 5)],
                         ids=lambda folder: folder.name)
def test_the_committed_model_loads_and_evaluates_a_real_state(ruleset, folder):
    model = load_model(folder)
    meta = json.loads((folder / META_FILE).read_text())
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
    shares = model.evaluate(game)  # Python floats, as a search adds them up
    assert len(shares) == 3 and all(type(x) is float for x in shares) and abs(sum(shares) - 1) < 1e-12


def test_a_model_reads_the_columns_it_names_in_its_order(ruleset, tmp_path):
    """value_v1 names the 25 columns it was trained on, fewer than the code computes now:
    it reads those; the same trees over its columns in another order read the same."""
    v1 = load_model(COMMITTED)
    assert len(v1.features) < len(FEATURES) and v1.features == FEATURES[:len(v1.features)]
    game = play_until(Game(ruleset, players=3, seed=5), seat_policies(["heuristic_tuned"] * 3, 5),
                      lambda g: g.ors_played() == 4 and g.decision() == "dividend")
    assert np.array_equal(v1.evaluate(game), v1.win_shares(seat_features(game)[:, :len(v1.features)]))
    order = list(reversed(v1.features))
    moved = ValueModel(tuple(order), v1.depth, np.vectorize(lambda i: order.index(v1.features[i]))(v1.feature),
                       v1.threshold, v1.leaf, v1.baseline)
    moved.save(tmp_path / "reversed", {})
    assert np.array_equal(load_model(tmp_path / "reversed").evaluate(game), v1.evaluate(game))


def test_a_model_naming_a_column_the_code_does_not_compute_is_refused(tmp_path):
    model = load_model(COMMITTED)
    model.save(tmp_path / "old", {})
    meta = json.loads((tmp_path / "old" / META_FILE).read_text())
    (tmp_path / "old" / META_FILE).write_text(json.dumps({**meta, "features": ["dividends", *meta["features"][1:]]}))
    with pytest.raises(ModelError, match=r"reads features this version does not compute \(dividends\)"):
        load_model(tmp_path / "old")
    (tmp_path / "old" / META_FILE).write_text(json.dumps({**meta, "features": meta["features"][:-1]}))
    with pytest.raises(ModelError, match="damaged model .its trees test columns beyond the 24 it names"):
        load_model(tmp_path / "old")
    with pytest.raises(ModelError, match="not a model folder"):
        load_model(tmp_path)


@pytest.mark.parametrize("case, gist", [
    ("missing", "{d}/nowhere: not a dataset folder"),
    ("no_states", "the dataset has no states table (run its experiment with --record-states"),
    ("used_out", "{d}/used: exists and is not an empty folder"),
    ("damaged", "truncated or corrupt"),
    ("few", "games with states; at least 10 are needed"),
    ("unknown_column", "with/data:colour=red: 'colour' is not a column of the states table (one of game_id, "),
    ("no_rows", "with/data:players=3: no rows have players in 3"),
    ("not_a_number", "with/data:players=two: players holds numbers, not 'two'"),
    ("not_whole", "with/data:seat=0,0.5: seat holds whole numbers, not '0,0.5'"),
    ("bad_term", "with/data:players=2:or: the rows to keep are named COLUMN=VALUE[,VALUE...] after the folder"),
    ("bad_weight", "with/data:kind=or:weight=0: weight is how much each of its rows counts, a positive number, not '0'"),
    ("weight_twice", "with/data:weight=2:weight=3: the rows to keep are named COLUMN=VALUE[,VALUE...] after the folder"),
    ("bad_hidden", "--hidden: the hidden layers' sizes, positive whole numbers separated by commas, not '64,0'"),
    ("bad_kind_weight", "--kind-weight: KIND=W with W a positive number (e.g. auction=10), not 'auction'"),
])
def test_bad_input_to_learn_is_one_line(datasets, tmp_path, case, gist):
    recorded, default = datasets
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "x").write_text("")
    source = {"missing": tmp_path / "nowhere", "no_states": default, "used_out": recorded, "bad_hidden": recorded,
              "bad_kind_weight": recorded}.get(case)
    if case == "damaged":
        source = tmp_path / "copy"
        _copy(recorded, source)
        store.part_path(source, "states", 0).write_bytes(b"PAR1 not really")
    if case == "few":
        source = run_study(tmp_path, STUDY.replace("games = 90", "games = 4").replace("seed = 11",
                                                                                  "seed = 11\nrecord_states = true"))
    selection = {"unknown_column": "colour=red", "no_rows": "players=3", "not_a_number": "players=two",
                 "not_whole": "seat=0,0.5", "bad_term": "players=2:or", "bad_weight": "kind=or:weight=0",
                 "weight_twice": "weight=2:weight=3"}.get(case)
    if selection:
        source = f"{recorded}:{selection}"
    out = tmp_path / ("used" if case == "used_out" else "model")
    options = {"bad_hidden": ["--model", "perceptron", "--hidden", "64,0"],
               "bad_kind_weight": ["--kind-weight", "auction"]}.get(case, [])
    result = CliRunner().invoke(CLI, ["learn", str(source), "--out", str(out), *options])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert len(lines) == 1 and lines[0].startswith("error: ") and gist.format(d=tmp_path) in lines[0], result.output
    assert case == "used_out" or not out.exists()


def _copy(source: Path, target: Path) -> None:
    import shutil

    shutil.copytree(source, target)
    assert pq.read_table(store.part_path(target, "states", 0)).num_rows > 0
