"""The default ruleset loads with the seeds' [S] values, pickles, and takes overrides."""
from __future__ import annotations

import dataclasses
import pickle

import pytest

from menorca_sim.rules import RulesetError, default_ruleset_path, load_ruleset


def test_default_is_the_v11_file(ruleset):
    assert ruleset.name == "menorca_v11"
    assert ruleset.source == str(default_ruleset_path())
    assert load_ruleset(default_ruleset_path()) == ruleset


def test_pickle_round_trip(ruleset):
    copy = pickle.loads(pickle.dumps(ruleset))
    assert copy == ruleset
    assert copy.sha256 == ruleset.sha256


def test_frozen(ruleset):
    with pytest.raises(dataclasses.FrozenInstanceError):
        ruleset.bank = 1  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        ruleset.vehicles["xebec"].price = 1  # type: ignore[misc]


def test_seed_setup_values(ruleset):
    assert ruleset.bank == 10_000
    assert {n: (p.cash, p.cert_limit) for n, p in ruleset.player_counts.items()} == {2: (420, 15), 3: (380, 13)}
    assert ruleset.setup.minors_in_play == 2
    assert sorted(ruleset.minors) == ["Artesans", "Destil·ladors", "Ramaders"]
    homes = {c.id: (c.home, c.goods) for c in ruleset.companies.values() if c.kind == "minor"}
    assert homes == {"Ramaders": ("Es Mercadal", "cheese"), "Artesans": ("Ferreries", "footwear"),
                     "Destil·ladors": ("Alaior", "gin")}
    assert len(ruleset.legacies) == 9


def test_seed_company_starts(ruleset):
    rnc, rcc, ccm, radm = (ruleset.companies[c] for c in ("RNC", "RCC", "CCM", "RADM"))
    assert (rnc.available_epoch, rnc.operate_percent, rnc.certificates[0]) == (1, 20, 20)
    assert (rcc.available_epoch, rcc.operate_percent) == (1, 20)
    assert (ccm.available_epoch, ccm.operate_percent) == (3, 60)
    assert ruleset.phases[[p.epoch for p in ruleset.phases].index(3)].name == "7H"  # CCM/RADM arrive with 7H
    assert radm.kind == "merged" and radm.formed_epoch == 3
    for major in (rnc, rcc, ccm):
        assert major.marked == 5 and major.certificates.count(10) == 8
    for minor in ruleset.minors:
        assert ruleset.companies[minor].certificates == (20,) * 5


def test_seed_phases(ruleset):
    table = [(p.name, p.limit, p.ors) for p in ruleset.phases]
    assert table == [("4H", 4, 2), ("5H", 4, 2), ("6H", 3, 2), ("7H", 3, 3), ("8H", 2, 3), ("9H", 2, 3)]
    ships = [v.phase for v in ruleset.vehicles.values() if v.kind == "ship"]
    assert ships == [p.name for p in ruleset.phases]  # every phase is started by one ship tier


def test_seed_market_and_marker_values(ruleset):
    assert ruleset.auction.price_drop == 5 and ruleset.auction.min_price == 0
    assert ruleset.stock.holding_limit == 60 and ruleset.stock.pool_limit == 5
    assert ruleset.stock.first_sr_sales is False
    assert ruleset.markers.market_bonus == 10
    assert ruleset.markers.goods_payment == (10, 10, 20, 20)
    assert ruleset.events[ruleset.epochs[3].events[0]].effect.type == "end_after_set"


def test_legacies_close_with_epoch_three_by_default(ruleset, tmp_path):
    assert {leg.close_epoch for leg in ruleset.legacies.values()} == {3}
    text = default_ruleset_path().read_text(encoding="utf-8").replace("income = 5\n", "income = 5\nclose_epoch = 4\n", 1)
    (tmp_path / "r.toml").write_text(text, encoding="utf-8")
    edited = load_ruleset(tmp_path / "r.toml")
    assert edited.legacies["L1"].close_epoch == 4 and edited.legacies["L2"].close_epoch == 3


def test_overrides_apply(ruleset):
    r = load_ruleset(overrides={"vehicles.xebec.price": 90, "phases.0.limit": 5,
                                "map.offboards.Barcelona.revenue": [35, 45, 55, 65]})
    assert r.vehicles["xebec"].price == 90
    assert r.phases[0].limit == 5
    assert r.map.offboards["Barcelona"].revenue == (35, 45, 55, 65)
    assert r.vehicles["polacca"] == ruleset.vehicles["polacca"]
    assert r.overrides == {"vehicles.xebec.price": 90, "phases.0.limit": 5,
                           "map.offboards.Barcelona.revenue": [35, 45, 55, 65]}
    assert r.sha256 != ruleset.sha256
    assert ruleset.vehicles["xebec"].price == 80  # the cached default is untouched


@pytest.mark.parametrize("overrides", [
    {"merger.unstarted_minor": "discard"},
    {"markers.goods_pay_before_merger": "none"},
    {"operating.vehicle_trade": "any_with_consent"},
    {"operating.pool_dividends": "company"},
    {"setup.legacies": "fixed", "setup.fixed_legacies": ["L1", "L9", "L5"]},
])
def test_named_alternatives_load(overrides):
    r = load_ruleset(overrides=overrides)
    key, value = next(iter(overrides.items()))
    section, name = key.split(".")
    assert getattr(getattr(r, section), name) == value


@pytest.mark.parametrize("overrides, message", [
    ({"vehicles.xebec.price": -5}, "vehicles.xebec.price: expected a positive integer, got -5"),
    ({"vehicles.xebec.prise": 90}, "vehicles.xebec.prise: override names no key 'prise' in vehicles.xebec"),
    ({"phases.6.limit": 2}, "phases.6.limit: override names no item '6' in phases"),
    ({"companies.RNC.home": "Alaior"}, "companies.RNC.home: home 'Alaior' of a major must be a port node"),
    ({"setup.legacies": "fixed"}, "setup.fixed_legacies: 0 legacies cannot give one to each of 3 players"),
    ({"markers.goods_payment": [10, 20]}, "markers.goods_payment: expected one payment per epoch (4), got 2"),
])
def test_overrides_are_validated(overrides, message):
    with pytest.raises(RulesetError) as info:
        load_ruleset(overrides=overrides)
    assert str(info.value) == f"menorca_v11.toml: {message}"


def test_missing_file_is_one_line(tmp_path):
    with pytest.raises(RulesetError) as info:
        load_ruleset(tmp_path / "nope.toml")
    assert str(info.value) == "nope.toml: cannot read file (No such file or directory)"
