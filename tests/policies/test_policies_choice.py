"""The players' temperature (policies/choice.py): deterministic at 0, near-equal options
sampled above it, from the player's own generator."""
import itertools

import numpy as np
import pytest

from menorca_sim.play import play_game, seat_policies
from menorca_sim.rules import load_ruleset
from policies.choice import Chooser, TEMPERATURE

RS = load_ruleset()


def test_temperature_zero_takes_the_first_best_and_draws_nothing():
    rng = np.random.default_rng(1)
    state = rng.bit_generator.state
    chooser = Chooser(0.0, rng)
    assert chooser.pick([3.0, 5.0, 5.0, 1.0], 1.0) == 1
    assert rng.bit_generator.state == state


def test_near_equal_options_are_sampled_and_worse_ones_almost_never():
    chooser = Chooser(0.05, np.random.default_rng(2))
    picks = np.bincount([chooser.pick([100.0, 99.0, 50.0], 10.0) for _ in range(4000)], minlength=3)
    # weights exp(0), exp(-1 / 5), exp(-50 / 5): about 55 %, 45 %, 0.003 %
    assert 0.50 < picks[0] / 4000 < 0.60 and 0.40 < picks[1] / 4000 < 0.50 and picks[2] <= 2


def test_the_scale_sets_what_counts_as_near_when_the_best_is_near_zero():
    chooser = Chooser(0.1, np.random.default_rng(3))
    wide = {chooser.pick([0.0, -1.0], 10.0) for _ in range(200)}  # 1 R. apart, where 10 R. matters
    narrow = {chooser.pick([0.0, -1.0], 0.01) for _ in range(200)}
    assert wide == {0, 1} and narrow == {0}


def test_draws_repeat_with_the_generator():
    def draws(seed):
        chooser = Chooser(0.2, np.random.default_rng(seed))
        return [chooser.pick([1.0, 1.0, 0.9], 1.0) for _ in range(30)]
    assert draws(7) == draws(7) != draws(8)
    with pytest.raises(ValueError):
        Chooser(-0.1, np.random.default_rng(0))


def _fingerprint(spec: str, policy_seed: int, seed: int = 3) -> str:
    """A 2-player game whose setup is fixed by `seed` and whose players' generators by
    `policy_seed` alone."""
    return play_game(RS, seed, seat_policies([spec] * 2, policy_seed), minors=["Destil·ladors", "Ramaders"]).fingerprint()


def test_at_temperature_zero_a_setup_fixes_the_game():
    assert len({_fingerprint("heuristic(temperature=0)", s) for s in range(3)}) == 1
    assert len({_fingerprint("heuristic(temperature=0)+reserve_sniper(temperature=0)", s) for s in range(3)}) == 1


def test_by_default_the_players_generators_vary_the_game():
    assert TEMPERATURE > 0
    assert len({_fingerprint("heuristic", s) for s in range(3)}) == 3
    assert len({_fingerprint("heuristic_cautious+reserve_sniper", s) for s in range(3)}) == 3


def test_the_default_study_plays_distinct_games():
    """The default study's unit is the game: with the default temperature no two of its
    games (here a sample: 12 per player count, every draw) are the same game."""
    from menorca_sim.run.chunk_worker import play_one
    from menorca_sim.run.experiment import GameSpec

    draws = list(itertools.combinations(RS.minors, 2))
    fingerprints = []
    for players, i in itertools.product((2, 3), range(12)):
        spec = GameSpec(i, "", "", i, 500 + i, players, tuple(draws[i % 3]), ("heuristic",) * players)
        fingerprints.append(play_one(RS, spec)["fingerprint"])
    assert len(set(fingerprints)) == len(fingerprints)
