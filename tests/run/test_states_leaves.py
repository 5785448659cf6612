"""Leaves of the search's trees as training rows (`record_leaves`, menorca_sim/run/states.py):
states deep in an `mcts` seat's tree, labelled by greedy play from there, recorded
without changing the game."""
from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from helpers.experiment_files import one_draw_study, run_studies
from helpers.states import play_until

from menorca_sim.game import Game
from menorca_sim.play import seat_policies
from menorca_sim.rules import load_ruleset
from menorca_sim.run import parquet_store as store
from menorca_sim.run.states import LEAF_DEPTH, StateRecorder, _below, watch_searches
from menorca_sim.value.features import FEATURES, seat_features
from policies.mcts import SEARCHED_BY_MODEL, Mcts

RULES = load_ruleset()
SEARCH = "mcts(playouts=12)"
STUDY = one_draw_study("leaves", 21, 4, 2, f'[policies]\nseats = ["{SEARCH}", "heuristic_tuned"]\n',
                       draw='["Ramaders", "Artesans"]')


@pytest.fixture(scope="module")
def datasets(tmp_path_factory):
    """The same study with leaves recorded, and with states only."""
    states = STUDY.replace("seed = 21", "seed = 21\nrecord_states = true")
    leaves = states.replace("record_states = true", "record_states = true\nrecord_leaves = true")
    return run_studies(tmp_path_factory.mktemp("leaves"), {"leaves": leaves, "states": states})


def test_recording_leaves_changes_no_game_and_adds_only_leaf_rows(datasets):
    leaves, states = (pl.from_arrow(store.read_table(d, "states")) for d in datasets)
    fingerprints = [store.read_table(d, "games")["fingerprint"].to_pylist() for d in datasets]
    assert fingerprints[0] == fingerprints[1]
    assert leaves.filter(pl.col("kind") != "leaf").equals(states)
    leaf = leaves.filter(pl.col("kind") == "leaf")
    per_game = leaf.filter(pl.col("seat") == 0).group_by("game_id").len()["len"]
    assert per_game.len() == 4 and per_game.min() >= 3  # a quarter of the searches, each giving one
    labels = leaf.group_by("game_id", "action").agg(pl.col("win_share").sum(), pl.len())
    assert (labels["len"] == 2).all() and np.allclose(labels["win_share"], 1.0)  # one row per seat, one winner's share
    assert store.check_dataset(datasets[0]).damaged == []


def test_a_leaf_is_a_state_deep_in_the_tree_labelled_by_greedy_play_from_it():
    """The recorder's rows for one search: the features of a state at least LEAF_DEPTH
    searched decisions below the root, and the win shares greedy play reaches from it."""
    seed = 4
    policies = seat_policies([SEARCH, "heuristic_tuned"], seed)
    recorder, seen = StateRecorder(), []
    watch_searches(policies, recorder)
    search = policies[0].policy
    assert isinstance(search, Mcts) and search.on_search == recorder.at_search
    search.on_search = lambda mcts, root: (seen.append((root, root.state.action_count(), root.state.decision())),
                                           recorder.at_search(mcts, root))
    play_until(Game(RULES, players=2, seed=seed), policies, lambda g: len(recorder.rows([0.5, 0.5])) > 0)
    root, action, decision = seen[-1]
    rows = recorder.rows([0.5, 0.5])
    assert len(rows) == 2 and {r["kind"] for r in rows} == {"leaf"} and rows[0]["action"] == action
    assert decision in SEARCHED_BY_MODEL and len(seen) > 1  # not every search gives a leaf
    features = np.array([[r[name] for name in FEATURES] for r in rows])
    deep = [node.state for node in _below(root, LEAF_DEPTH) if node.state is not None]
    matches = [state for state in deep if np.array_equal(seat_features(state), features)]
    assert matches and [r["win_share"] for r in rows] == search.play_out(matches[0].clone())


def test_the_searches_are_found_inside_their_wrappers():
    recorder = StateRecorder()
    policies = seat_policies(["mcts(playouts=4)+wait_for_drop(drop=0.3)", "mcts(playouts=4)", "heuristic"], 1)
    watch_searches(policies, recorder)
    assert policies[0].policy.style.on_search == recorder.at_search
    assert policies[1].policy.on_search == recorder.at_search
    assert not hasattr(policies[2].policy, "on_search")
