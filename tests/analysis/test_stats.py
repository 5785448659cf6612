"""Statistics of the balance reports, checked against scipy and hand-worked numbers."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats as sps

from helpers.reference_fits import per_game_bradley_terry

from menorca_sim.analysis import stats


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (41, 100), (410, 1000), (1000, 1000), (657, 2000)])
def test_wilson_matches_scipy(k, n):
    expected = sps.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    low, high = stats.wilson_interval(k, n)
    assert low == pytest.approx(expected.low, abs=1e-12)
    assert high == pytest.approx(expected.high, abs=1e-12)


def test_wilson_is_vectorised_and_takes_fractional_wins():
    low, high = stats.wilson_interval(np.array([40, 40.5, 41]), np.array([100, 100, 100]))
    # Half a win (a shared win) lands between the neighbouring whole counts.
    assert low[0] < low[1] < low[2] and high[0] < high[1] < high[2]


@pytest.mark.parametrize("k,n,p0", [(41, 100, 1 / 3), (700, 2000, 1 / 3), (3, 10, 0.5), (500, 1000, 0.5)])
def test_rate_test_is_pearson_chi_square_and_inverts_wilson(k, n, p0):
    expected = sps.chisquare([k, n - k], [n * p0, n * (1 - p0)]).pvalue
    p = stats.rate_test(k, n, p0)
    assert p == pytest.approx(expected, rel=1e-9)
    low, high = stats.wilson_interval(k, n)
    assert (p < 0.05) == (not low <= p0 <= high)


def test_t_interval_matches_scipy():
    x = np.array([12.0, 15, 9, 22, 17, 14, 11, 19])
    ci = sps.ttest_1samp(x, 0).confidence_interval(0.95)
    interval = stats.mean_interval(x)
    assert interval.estimate == pytest.approx(x.mean())
    assert (interval.low, interval.high) == pytest.approx((ci.low, ci.high))


def test_bootstrap_interval_is_seeded_and_close_to_t():
    x = np.random.default_rng(1).normal(20, 4, size=400)
    a = stats.mean_interval(x, method="bootstrap", rng=np.random.default_rng(5))
    b = stats.mean_interval(x, method="bootstrap", rng=np.random.default_rng(5))
    t = stats.mean_interval(x)
    assert a == b
    assert a.low == pytest.approx(t.low, abs=0.1) and a.high == pytest.approx(t.high, abs=0.1)
    with pytest.raises(ValueError, match="seeded generator"):
        stats.mean_interval(x, method="bootstrap")


def test_paired_difference_matches_ttest_rel():
    a = np.array([20.0, 22, 19, 24, 25, 21, 23, 20])
    b = np.array([18.0, 21, 19, 21, 22, 20, 20, 19])
    expected = sps.ttest_rel(a, b)
    ci = expected.confidence_interval(0.95)
    d = stats.paired_difference(a, b)
    assert d.mean == pytest.approx(14 / 8)  # differences 2,1,0,3,3,1,3,1
    assert (d.low, d.high, d.p_value) == pytest.approx((ci.low, ci.high, expected.pvalue))
    assert d.n == 8


def test_paired_difference_without_spread_is_exact():
    assert stats.paired_difference([3, 4, 5], [3, 4, 5]).p_value == 1.0
    shifted = stats.paired_difference([4, 5, 6], [3, 4, 5])
    assert (shifted.mean, shifted.low, shifted.high, shifted.p_value) == (1.0, 1.0, 1.0, 0.0)


def test_holm_hand_example():
    # Sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> raised to 0.06.
    adjusted = stats.holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_skips_untested_and_caps_at_one():
    adjusted = stats.holm([0.5, np.nan, 0.01])
    assert np.isnan(adjusted[1])
    assert adjusted[[0, 2]] == pytest.approx([0.5, 0.02])
    assert stats.holm([0.9, 0.8]) == pytest.approx([1.0, 1.0])


def test_apply_holm_flags_the_family():
    comparisons = [stats.Comparison("s", f"c{k}", 0, 0, 0, 0, p, "") for k, p in enumerate([0.01, 0.04, 0.03, 0.005])]
    stats.apply_holm(comparisons)
    assert [c.significant for c in comparisons] == [True, False, False, True]


def test_bradley_terry_two_players_has_the_closed_form():
    # A beats B 30 times, 5 ties, B wins 5: scores 32.5 : 7.5, so theta_A - theta_B = log(32.5 / 7.5).
    score = np.array([1.0] * 30 + [0.5] * 5 + [0.0] * 5)
    game = np.arange(score.size)
    r = stats.bradley_terry(["A", "B"], game, np.zeros(40, int), np.ones(40, int), score,
                            np.random.default_rng(0), resamples=50)
    assert r.strength[0] - r.strength[1] == pytest.approx(np.log(32.5 / 7.5), rel=1e-6)
    assert r.strength.sum() == pytest.approx(0)
    assert r.low[0] < r.strength[0] < r.high[0]


def test_bradley_terry_recovers_a_planted_order():
    rng = np.random.default_rng(3)
    truth = np.log(np.array([1.0, 2.0, 4.0]))
    truth -= truth.mean()
    # Three-player games, decomposed into pairs: finishing order drawn by Plackett-Luce.
    games, i, j, score = [], [], [], []
    for g in range(1500):
        order = np.argsort(-(truth + rng.gumbel(size=3)))
        rank = np.empty(3, int)
        rank[order] = [1, 2, 3]
        for a, b in ((0, 1), (0, 2), (1, 2)):
            games.append(g), i.append(a), j.append(b), score.append(1.0 if rank[a] < rank[b] else 0.0)
    r = stats.bradley_terry(["weak", "mid", "strong"], np.array(games), np.array(i), np.array(j),
                            np.array(score), np.random.default_rng(0), resamples=100)
    assert list(np.argsort(r.strength)) == [0, 1, 2]
    assert np.all(r.low < truth) and np.all(truth < r.high)


def test_bradley_terry_on_game_patterns_equals_the_per_game_fit():
    # Four strategies, 2- and 3-player games with repeated names and ties, so that
    # many games share a pattern and some patterns have fewer pairs than others.
    rng = np.random.default_rng(8)
    games, i, j, score = [], [], [], []
    for g in range(3000):
        seats = rng.integers(0, 4, size=rng.choice([2, 3]))
        rank = rng.permutation(seats.size) if rng.random() > 0.1 else np.zeros(seats.size, int)
        for a, b in itertools.combinations(range(seats.size), 2):
            if seats[a] != seats[b]:
                games.append(g), i.append(seats[a]), j.append(seats[b])
                score.append(1.0 if rank[a] < rank[b] else 0.5 if rank[a] == rank[b] else 0.0)
    expected, n_games = per_game_bradley_terry(4, games, i, j, score)
    r = stats.bradley_terry(list("ABCD"), np.array(games), np.array(i), np.array(j), np.array(score),
                            np.random.default_rng(0), resamples=50)
    np.testing.assert_allclose(r.strength, expected, rtol=1e-12, atol=1e-14)
    assert r.games == n_games < 3000  # games without two different strategies are not counted
    again = stats.bradley_terry(list("ABCD"), np.array(games), np.array(i), np.array(j), np.array(score),
                                np.random.default_rng(0), resamples=50)
    assert np.array_equal(r.low, again.low) and np.array_equal(r.high, again.high)
    assert np.all(r.low < r.strength) and np.all(r.strength < r.high)


def test_bradley_terry_unbeaten_strategy_has_no_finite_rating():
    game = np.arange(6)
    i = np.array([0, 0, 0, 1, 1, 1])
    j = np.array([1, 2, 2, 2, 2, 2])
    score = np.array([1.0, 1.0, 1.0, 1.0, 0.0, 1.0])
    r = stats.bradley_terry(["A", "B", "C"], game, i, j, score, np.random.default_rng(0), resamples=20)
    assert r.strength[0] == np.inf and np.isnan(r.low[0])
    assert np.isfinite(r.strength[1:]).all() and r.strength[1] > r.strength[2]


@pytest.mark.parametrize("successes,n", [(0, 6), (6, 6), (0, 1), (3, 3), (0, 37), (37, 37)])
def test_wilson_interval_contains_its_estimate_at_the_edges(successes, n):
    low, high = stats.wilson_interval(successes, n)
    assert low <= successes / n <= high
    assert 0 <= low and high <= 1


def test_excess_rate_is_the_stratified_score_test():
    # 100 members each expected to win half the time: 70 wins is 4 standard errors up
    edge, low, high, p = stats.excess_rate(np.array([70.0, 50.0]), np.array([50.0, 50.0]),
                                           np.array([25.0, 25.0]), np.array([100.0, 100.0]))
    assert edge == pytest.approx([0.2, 0.0])
    assert high[0] - low[0] == pytest.approx(2 * 1.959964 * 5 / 100, rel=1e-5)
    assert p[0] == pytest.approx(2 * sps.norm.sf(4)) and p[1] == 1.0
    # members of different strata: each contributes its own rate and variance
    _, _, _, p = stats.excess_rate(np.array([3.0]), np.array([0.9 + 0.5 + 0.1]),
                                   np.array([0.09 + 0.25 + 0.09]), np.array([3.0]))
    assert p[0] == pytest.approx(2 * sps.norm.sf(1.5 / np.sqrt(0.43)))


def test_fair_value_recovers_a_planted_root_within_its_interval():
    """Win share linear in the swept value, crossing the fair 50 % at 140."""
    rng = np.random.default_rng(5)
    x = np.repeat(np.arange(100, 181, 20), 400).astype(float)
    y = (rng.random(x.size) < 0.5 + 0.004 * (x - 140)).astype(float)
    fv = stats.fair_value(x, y, 0.5, np.random.default_rng(1))
    assert fv.status == "in range" and fv.low < 140 < fv.high and fv.high - fv.low < 20


def test_fair_value_says_when_the_range_misses_the_target_or_there_is_no_trend():
    rng = np.random.default_rng(6)
    x = np.repeat(np.arange(100, 181, 20), 300).astype(float)
    wide = np.repeat(np.arange(100, 181, 20), 1000).astype(float)
    above = (rng.random(wide.size) < 0.3 + 0.0022 * (wide - 100)).astype(float)  # reaches 50 % at 191
    fv = stats.fair_value(wide, above, 0.5, np.random.default_rng(1))
    assert fv.status == "above the range" and 180 < fv.estimate < 210
    far = (rng.random(x.size) < 0.2 + 0.0005 * (x - 100)).astype(float)  # near 700: no estimate from 100-180
    assert stats.fair_value(x, far, 0.5, np.random.default_rng(1)).status == "no trend"
    flat = (rng.random(x.size) < 0.3).astype(float)
    fv = stats.fair_value(x, flat, 0.5, np.random.default_rng(1))
    assert fv.status in ("no trend", "below the range", "above the range") and fv.status != "in range"
