"""Property test of the game log: log -> replay -> the same game (result, final state,
summary), for generated seeds, player counts, minor draws and tables."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from menorca_sim.log import read, replay
from menorca_sim.play import play_game, seat_policies
from menorca_sim.rules import load_ruleset
from menorca_sim.run.records import game_summary

FAST = settings(max_examples=5, deadline=None)
SLOW = settings(max_examples=100, deadline=None)
RS = load_ruleset()
DRAWS = list(itertools.combinations(RS.minors, RS.setup.minors_in_play))


def check_replay(folder, seed: int, players: int, minors, heuristic_seat: int | None) -> None:
    specs = ["heuristic" if seat == heuristic_seat else "random_legal" for seat in range(players)]
    path = folder / f"{seed}.jsonl"
    played = play_game(RS, seed, seat_policies(specs, seed), minors=list(minors), log=path)
    again = replay(path)
    assert again.is_over()
    assert again.result() == played.result()
    assert again.state() == played.state() == read(path)[-2]["state"]
    assert game_summary(again) == game_summary(played)


@FAST
@given(st.integers(0, 2**63 - 1), st.sampled_from(sorted(RS.player_counts)), st.sampled_from(DRAWS),
       st.sampled_from([None, 0, 1]))
def test_log_replays_to_the_same_game(tmp_path_factory, seed, players, minors, heuristic_seat):
    check_replay(tmp_path_factory.mktemp("logs"), seed, players, minors, heuristic_seat)


@pytest.mark.slow
@SLOW
@given(st.integers(0, 2**63 - 1), st.sampled_from(sorted(RS.player_counts)), st.sampled_from(DRAWS),
       st.sampled_from([None, 0, 1, 2]))
def test_log_replays_to_the_same_game_many(tmp_path_factory, seed, players, minors, heuristic_seat):
    check_replay(tmp_path_factory.mktemp("logs"), seed, players, minors, heuristic_seat)
