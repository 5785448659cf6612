"""A value by random assignment (analysis/values.py) on synthetic paired arms: each game
(seed) is played at every price, its response the designated seat's win share with the
thing less without it, so the tests plant a response curve and read the value back."""
from __future__ import annotations

import numpy as np
import pytest

from menorca_sim.analysis import values

PRICES = np.arange(0, 201, 25, dtype=float)


def paired_arms(curve, games: int, seed: int, noise: float = 0.5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows (price, response, game): every game at every price, the response `curve(p)`
    plus the game's own noise at each price (win shares differ by up to 1 per game)."""
    rng = np.random.default_rng(seed)
    x = np.tile(PRICES, games)
    game = np.repeat(np.arange(games), PRICES.size)
    y = np.clip(curve(x) + rng.normal(0, noise, x.size), -1, 1)
    return x, y, game


def linear(worth: float):
    return lambda p: 0.004 * (worth - p)  # 0.4 points of win share per R., 0 at the planted worth


def test_a_planted_crossing_is_recovered_within_its_interval():
    x, y, game = paired_arms(linear(110.0), 400, seed=1)
    v = values.value_at_target(x, y, game, 0.0, np.random.default_rng(0), increasing=False)
    assert v.status == values.IN_RANGE and v.holds(110.0)
    assert 0 < v.high - v.low < 60 and v.games == 400 and v.points == PRICES.size
    assert v.crossings and all(60 < c < 160 for c in v.crossings)


def test_the_estimate_on_independent_seeds_is_said_reproduced_and_a_wrong_one_is_not():
    first = values.value_at_target(*paired_arms(linear(110.0), 400, seed=1), 0.0, np.random.default_rng(0),
                                   increasing=False)
    again = values.value_at_target(*paired_arms(linear(110.0), 400, seed=2), 0.0, np.random.default_rng(0),
                                   increasing=False)
    moved = values.value_at_target(*paired_arms(linear(30.0), 400, seed=3), 0.0, np.random.default_rng(0),
                                   increasing=False)
    assert values.reproduced(first, again)
    assert not values.reproduced(first, moved)


def test_a_response_that_rises_again_is_not_monotone_with_every_crossing():
    # falls through 0 at 50, rises back through it at 125, falls again at 175 (the L1 sweep)
    def zigzag(p):
        return np.interp(p, [0, 50, 100, 150, 200], [0.3, 0.0, -0.3, 0.3, -0.3])
    v = values.value_at_target(*paired_arms(zigzag, 300, seed=4), 0.0, np.random.default_rng(0), increasing=False)
    assert v.status == values.NOT_MONOTONE and np.isnan(v.estimate)
    assert len(v.crossings) == 3
    assert [round(c / 25) * 25 for c in v.crossings] == [50, 125, 175]


def test_a_flat_response_gives_no_value():
    v = values.value_at_target(*paired_arms(lambda p: 0.0 * p + 0.02, 300, seed=5), 0.0, np.random.default_rng(0),
                               increasing=False)
    assert v.status == values.FLAT and np.isnan(v.estimate) and v.low == -np.inf and v.high == np.inf


def test_a_value_beyond_the_range_is_said_so_not_extrapolated():
    v = values.value_at_target(*paired_arms(linear(400.0), 300, seed=6), 0.0, np.random.default_rng(0),
                               increasing=False)
    assert v.status == values.ABOVE and np.isnan(v.estimate)
    cheap = values.value_at_target(*paired_arms(linear(-200.0), 300, seed=6), 0.0, np.random.default_rng(0),
                                   increasing=False)
    assert cheap.status == values.BELOW


def test_points_the_same_in_every_game_are_left_out_of_the_fit():
    x, y, game = paired_arms(linear(100.0), 300, seed=7)
    y[x == 100.0] = 0.0  # both arms played alike at 100: fixed by the design, not measured
    v = values.value_at_target(x, y, game, 0.0, np.random.default_rng(0), increasing=False)
    assert v.left_out == (100.0,) and v.points == PRICES.size - 1
    assert v.status == values.IN_RANGE and v.holds(100.0)


def test_an_increasing_response_meets_its_target_the_seat_cash_at_which_seats_are_even():
    # a later seat's win share with extra starting cash c: 0.40 at 0, +0.1 points per R.
    x, y, game = paired_arms(lambda c: 0.40 + 0.001 * c, 400, seed=8, noise=0.45)
    v = values.value_at_target(x, y, game, 0.5, np.random.default_rng(0), increasing=True)
    assert v.status == values.IN_RANGE and v.holds(100.0) and v.low > 0


def test_the_same_seed_gives_the_same_interval():
    rows = paired_arms(linear(110.0), 200, seed=9)
    first = values.value_at_target(*rows, 0.0, np.random.default_rng(3), increasing=False)
    assert first == values.value_at_target(*rows, 0.0, np.random.default_rng(3), increasing=False)


@pytest.mark.parametrize("rows_per_game", [1, 3])
def test_a_games_rows_at_one_price_are_one_unit(rows_per_game):
    """Rotating the designated seat gives a game several rows per price: the bootstrap
    resamples games, so repeating a game's rows must not narrow the interval."""
    x, y, game = paired_arms(linear(110.0), 200, seed=10)
    v = values.value_at_target(np.repeat(x, rows_per_game), np.repeat(y, rows_per_game),
                               np.repeat(game, rows_per_game), 0.0, np.random.default_rng(0), increasing=False)
    assert v.games == 200
    single = values.value_at_target(x, y, game, 0.0, np.random.default_rng(0), increasing=False)
    assert (v.low, v.high) == pytest.approx((single.low, single.high))
