"""Leaves of the search's trees as training rows (`record_leaves`, menorca_sim/run/states.py):
states deep in an `mcts` seat's tree (anywhere, or at the ends of its principal lines),
labelled by greedy play from there, recorded without changing the game."""
from __future__ import annotations

from collections import Counter

import numpy as np
import polars as pl
import pytest
from helpers.experiment_files import one_draw_study, run_studies
from helpers.states import play_until

from menorca_sim.game import Game
from menorca_sim.play import seat_policies
from menorca_sim.rules import load_ruleset
from menorca_sim.run import parquet_store as store
from menorca_sim.run.states import LEAF_DEPTH, StateRecorder, _below, _most_visited, watch_searches
from menorca_sim.value.features import FEATURES, seat_features
from policies.mcts import SEARCHED_BY_MODEL, Mcts

RULES = load_ruleset()
SEARCH = "mcts(playouts=12)"
STUDY = one_draw_study("leaves", 21, 4, 2, f'[policies]\nseats = ["{SEARCH}", "heuristic_tuned"]\n',
                       draw='["Ramaders", "Artesans"]')


@pytest.fixture(scope="module")
def datasets(tmp_path_factory):
    """The same study with states only, and with deep and with principal leaves recorded."""
    states = STUDY.replace("seed = 21", "seed = 21\nrecord_states = true")
    texts = {"states": states, **{leaves: states.replace("record_states = true", f'record_states = true\nrecord_leaves = "{leaves}"')
                                  for leaves in ("deep", "principal")}}
    return dict(zip(texts, run_studies(tmp_path_factory.mktemp("leaves"), texts)))


@pytest.mark.parametrize("leaves, per_search", [("deep", {1}), ("principal", {1, 2})])
def test_recording_leaves_changes_no_game_and_adds_only_leaf_rows(datasets, leaves, per_search):
    """Deep leaves: one a sampled search; principal: one or two (the heuristic's move's
    line and the most visited move's, when they differ)."""
    states, recorded = (pl.from_arrow(store.read_table(datasets[name], "states")) for name in ("states", leaves))
    fingerprints = [store.read_table(datasets[name], "games")["fingerprint"].to_pylist() for name in ("states", leaves)]
    assert fingerprints[0] == fingerprints[1]
    assert recorded.filter(pl.col("kind") != "leaf").equals(states)
    leaf = recorded.filter(pl.col("kind") == "leaf")
    per_game = leaf.filter(pl.col("seat") == 0).group_by("game_id").len()["len"]
    assert per_game.len() == 4 and per_game.min() >= 3  # a quarter of the searches, each giving one or two
    labels = leaf.group_by("game_id", "action").agg(pl.col("win_share").sum(), pl.len())
    assert set((labels["len"] // 2).to_list()) == per_search  # one row per seat and leaf
    assert np.allclose(labels["win_share"], labels["len"] // 2)  # each leaf: one winner's share
    assert store.check_dataset(datasets[leaves]).damaged == []


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


def _deepest_kept(node, depth: int):
    """Recursively, the deepest state kept on the most visited line from `node` (`depth`
    searched decisions below the root), if at LEAF_DEPTH or deeper."""
    if node is None:
        return None
    below = _deepest_kept(node.children[_most_visited(node)], depth + 1) if node.children else None
    return below if below is not None else node.state if depth >= LEAF_DEPTH else None


def _principal_ends(root) -> list:
    """The ends of the lines below the root's heuristic move (position 0) and below its
    most visited move."""
    ends = [_deepest_kept(root.children.get(pos), 1) for pos in sorted({0, _most_visited(root)})]
    return [end for end in ends if end is not None]


def test_principal_leaves_end_the_most_visited_lines_below_the_weighed_root_moves():
    """Played until a search gives both lines: a larger search than SEARCH's, whose
    trees reach two decisions below more than one root move."""
    seed = 4
    policies = seat_policies(["mcts(playouts=48)", "heuristic_tuned"], seed)
    recorder, seen = StateRecorder("principal"), []
    watch_searches(policies, recorder)
    search = policies[0].policy
    # the root's state is the game itself, played on after the search: its action count is taken now
    search.on_search = lambda mcts, root: (seen.append((root, root.state.action_count())), recorder.at_search(mcts, root))
    play_until(Game(RULES, players=2, seed=seed), policies,
               lambda g: max(Counter(r["action"] for r in recorder.rows([0.5, 0.5])).values(), default=0) == 4)
    lines = []
    for root, action in seen:
        rows = [r for r in recorder.rows([0.5, 0.5]) if r["action"] == action]
        ends = _principal_ends(root) if rows else []
        assert len(rows) == 2 * len(ends) and {r["kind"] for r in rows} <= {"leaf"}
        for end, pair in zip(ends, (rows[k:k + 2] for k in range(0, len(rows), 2))):
            assert np.array_equal(seat_features(end), np.array([[r[name] for name in FEATURES] for r in pair]))
            assert [r["win_share"] for r in pair] == search.play_out(end.clone())
        lines.append(len(ends))
    assert lines.count(1) >= 1 and lines[-1] == 2  # searches with one line's leaf, and the last with both


def test_the_searches_are_found_inside_their_wrappers():
    recorder = StateRecorder()
    policies = seat_policies(["mcts(playouts=4)+wait_for_drop(drop=0.3)", "mcts(playouts=4)", "heuristic"], 1)
    watch_searches(policies, recorder)
    assert policies[0].policy.style.on_search == recorder.at_search
    assert policies[1].policy.on_search == recorder.at_search
    assert not hasattr(policies[2].policy, "on_search")
