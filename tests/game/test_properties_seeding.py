"""Property tests of seeding: a game is a function of its seed (same seed, same log),
the setup draws do not depend on the policies, and each seat's policy generator is its
own (distinct streams, drawn from by nobody else)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from menorca_sim.play import play_game, seat_policies
from menorca_sim.rules import load_ruleset
from menorca_sim.seeding import seat_stream, setup_stream

FAST = settings(max_examples=5, deadline=None)
SLOW = settings(max_examples=100, deadline=None)
RS = load_ruleset()
seeds = st.integers(0, 2**63 - 1)
player_counts = st.sampled_from(sorted(RS.player_counts))


def check_same_seed_same_log(tmp_path, seed: int, players: int) -> None:
    logs = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}-{seed}.jsonl"
        play_game(RS, seed, seat_policies(["random_legal"] * players, seed), log=path)
        logs.append(path.read_bytes())
    assert logs[0] == logs[1]


@FAST
@given(seeds, player_counts)
def test_a_game_is_a_function_of_its_seed(tmp_path_factory, seed, players):
    check_same_seed_same_log(tmp_path_factory.mktemp("logs"), seed, players)


@pytest.mark.slow
@SLOW
@given(seeds, player_counts)
def test_a_game_is_a_function_of_its_seed_many(tmp_path_factory, seed, players):
    check_same_seed_same_log(tmp_path_factory.mktemp("logs"), seed, players)


class Recording:
    """A random-legal player that notes how many actions it chose among, each time."""

    def __init__(self, policy) -> None:
        self.policy, self.name, self.auction_strategy = policy, policy.name, policy.auction_strategy
        self.choices: list[int] = []

    def act_code(self, game):
        self.choices.append(game.legal_count())
        return self.policy.act_code(game)


def check_independent_streams(seed: int, players: int, other: str) -> None:
    specs = ["random_legal"] + [other] * (players - 1)
    policies = seat_policies(specs, seed)
    recorder = Recording(policies[0])
    game = play_game(RS, seed, [recorder] + policies[1:])
    # the setup draws are the seed's, whatever the policies
    alone = play_game(RS, seed, seat_policies(["random_legal"] * players, seed))
    assert game.header()["legacies"] == alone.header()["legacies"]
    assert game.header()["events"] == alone.header()["events"]
    assert game.header()["minors"] == alone.header()["minors"]
    # seat 0's generator was drawn from by seat 0's decisions only: replaying them on a
    # fresh generator of its stream leaves it in the same state
    fresh = np.random.default_rng(seat_stream(seed, 0))
    for n in recorder.choices:
        fresh.integers(n)
    assert fresh.bit_generator.state == recorder.policy.policy.rng.bit_generator.state
    # every seat's stream, and the setup's, differ
    streams = [setup_stream(seed)] + [seat_stream(seed, seat) for seat in range(players)]
    firsts = [tuple(np.random.default_rng(s).integers(2**62, size=4)) for s in streams]
    assert len(set(firsts)) == players + 1


@FAST
@given(seeds, player_counts, st.sampled_from(["random_legal", "heuristic"]))
def test_policies_generators_are_independent(seed, players, other):
    check_independent_streams(seed, players, other)


@pytest.mark.slow
@SLOW
@given(seeds, player_counts, st.sampled_from(["random_legal", "heuristic", "heuristic_aggressive"]))
def test_policies_generators_are_independent_many(seed, players, other):
    check_independent_streams(seed, players, other)
