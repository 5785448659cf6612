"""Probes (policies/probe.py and the report's Probes section): one seat forced to one
thing, judged against the same seat on the same seeds without it."""
from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from helpers.engine import act, new_game, rnc_at_purchase, rnc_buys_next_tier, sr_game
from helpers.experiment_files import one_draw_study, run_study
from helpers.states import chosen

from menorca_sim.analysis import findings as find
from menorca_sim.analysis.dataset import Dataset
from menorca_sim.analysis.pipeline import analyse
from policies import PolicyError, make_policy


def _probe(spec: str, seat: int = 0):
    return make_policy(spec, seat, np.random.default_rng(0))


def test_a_start_probe_buys_the_first_certificate_of_an_unowned_radm():
    game = sr_game()
    rnc_buys_next_tier(game, "ship_of_the_line", "6H", ["xebec", "polacca", "frigate"])
    while game.decision() != "stock_turn":
        game.apply(game.legal_actions()[-1])
    seat = game.current_actor()
    action = chosen(_probe("probe(start=RADM)", seat), game)
    assert (action["type"], action.get("company"), action.get("source")) == ("buy_cert", "RADM", "treasury")


def test_a_legacy_probe_reserves_its_legacy_at_the_minimum_and_buys_it_on_offer():
    game = new_game(players=2, legacies=["L1", "L9"])
    prober = game.current_actor()
    action = chosen(_probe("probe(legacy=L9)", prober), game)
    assert action == {"type": "reserve", "legacy": "L9", "bid": 160}  # its minimum price
    game.apply(action)
    act(game, "buy_legacy")  # the other seat buys L1: L9 goes to its single reserver at 160
    assert game.decision() == "stock_turn"
    assert game.player_state(prober)["legacies"] == ["L9"]


@pytest.mark.parametrize("sold_out,bought", [(["xebec"], "polacca"), (["xebec", "polacca"], "frigate")])
def test_a_tier_probe_buys_the_newest_vehicle_until_the_next_tier_opens(sold_out, bought):
    """In 5H a company buys the 5H ship (the cart is of a past tier); once they are sold
    out it buys the first frigate, which opens 6H."""
    game = sr_game()
    rnc_at_purchase(game, "5H", sold_out, cash=2000)
    action = chosen(_probe("probe(tier=true)", game.current_actor()), game)
    assert (action["type"], action["vehicle"], action["source"]) == ("buy_vehicle", bought, "bank")
    game.apply(action)
    assert game.phase() == ("6H" if bought == "frigate" else "5H")


@pytest.mark.parametrize("spec", ["probe", "probe(start=CCM, legacy=L9)", "probe(start=CCM, up_to=10)",
                                  "probe(legacy=L9, play=nobody)", "probe(tier=true, start=CCM)",
                                  "probe(tier=true, up_to=10)"])
def test_a_probe_forces_exactly_one_thing(spec):
    with pytest.raises(PolicyError):
        _probe(spec)


def _probe_study(tmp_path, seed: int, games: int, probe: str, overrides: str):
    """A 2-player study of one draw: a heuristic table, and the same with `probe` in the
    first seat, under `overrides`; its analysis, the probe's row and its verdict."""
    data = run_study(tmp_path, one_draw_study("probe", seed, games, 2, f"""
[overrides]
{overrides}
[populations.plain]
seats = "heuristic"
[populations.probed]
seats = ["{probe}", "heuristic"]
"""))
    a = analyse(Dataset(data))
    return a, a.tables["probe_effects"].row(0, named=True), find.probe_verdicts(a)[("", 2, probe)]


def test_a_legacy_priced_far_above_its_worth_is_reported_weak_by_its_probe(tmp_path):
    """L9 at 400 R. of a player's 420: the seat forced to buy it at its minimum loses."""
    a, row, verdict = _probe_study(tmp_path, 9, 24, "probe(legacy=L9)", """
"setup.legacies" = "fixed"
"setup.fixed_legacies" = ["L9", "L1", "L2"]
"legacies.L9.price" = 400""")
    assert (row["probe"], row["forces"], row["item"], row["pairs"]) == ("probe(legacy=L9)", "legacy", "L9", 24)
    assert row["change_high"] < 0 and row["win_share"] < row["reference_win_share"]
    assert verdict.label == find.LOWERS and "L9 is weak" in verdict.text and "L9's price" in verdict.look_at
    bought = a.tables["auction_prices"].filter(pl.col("legacy") == "L9")
    assert bought["games"].sum() == 48  # in play in every game of both populations


def test_a_loophole_probe_is_judged_as_a_loophole(tmp_path):
    """A probe that exploits a loophole (here looting a minor: sell out, then spend its
    treasury on one's own company) is judged as one: the loophole pays, costs or was
    worth nothing found, and only where it pays is the rules key that closes it named."""
    _, row, verdict = _probe_study(tmp_path, 7, 60, "probe(loot=true)", '"minors.last_certificate" = "may_sell"')
    assert (row["forces"], row["item"], row["pairs"]) == ("loot", "true", 60)
    assert verdict.label in (find.PAYS, find.COSTS, find.NO_EFFECT)  # never "blind spot" or "weak"
    assert "spending the minor's treasury on its own company" in verdict.text
    assert (verdict.look_at == 'minors.last_certificate = "keep"') == (verdict.label == find.PAYS)
