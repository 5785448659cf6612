"""Whole random-legal games with every invariant checked after every action."""
import itertools

import pytest
from helpers.engine import RS

from menorca_sim.play import play_game, seat_policies
from menorca_sim.run.records import game_summary

MINOR_DRAWS = [list(d) for d in itertools.combinations(RS.minors, 2)]
REASONS = {"bank", "bankruptcy", "conquest", "cap"}


def _play(seed: int, players: int, minors):
    return play_game(RS, seed, seat_policies(["random_legal"] * players, seed), minors=minors, check=True)


def _sample(n: int):
    for i in range(n):
        yield 1000 + i, 2 + i % 2, MINOR_DRAWS[(i // 2) % len(MINOR_DRAWS)]


def test_random_legal_games_keep_every_invariant():
    for seed, players, minors in _sample(60):
        game = _play(seed, players, minors)
        summary = game_summary(game)
        assert game.is_over() and summary["end_reason"] in REASONS
        assert summary["minors"] == minors and summary["players"] == players


def test_same_seed_same_game():
    a, b = _play(77, 3, None), _play(77, 3, None)
    assert game_summary(a) == game_summary(b)


@pytest.mark.slow
def test_thousand_random_legal_games():
    """1,000 games, every invariant checked after every action (check=True raises on the
    first broken one): each ends by a rule of the game with the setup it was asked for,
    and no two are the same game."""
    fingerprints = set()
    for seed, players, minors in _sample(1000):
        game = _play(seed, players, minors)
        summary = game_summary(game)
        assert game.is_over() and summary["end_reason"] in REASONS - {"cap"}, (seed, summary["end_reason"])
        assert (summary["players"], summary["minors"]) == (players, minors)
        fingerprints.add(game.fingerprint())
    assert len(fingerprints) == 1000
