"""menorca_sim/moves.py: each named view of a legal move names what its action dict says,
at its index among the legal actions, through whole games."""
from __future__ import annotations

import numpy as np

from menorca_sim import moves
from menorca_sim.core.codes import SKIP
from menorca_sim.game import Game
from menorca_sim.rules import load_ruleset

RS = load_ruleset()


def _views_agree_with_dicts(game: Game) -> set[str]:
    """Compare every view of this state with the legal dicts; the kinds of views seen."""
    legal = game.legal_actions()
    seen = set()
    for sale in moves.cert_sales(game):
        assert legal[sale.index] == {"type": "sell_cert", "company": sale.company}
        seen.add("sale")
    for buy in moves.cert_purchases(game):
        source = "treasury" if buy.from_treasury else "pool"
        assert legal[buy.index] == {"type": "buy_cert", "company": buy.company, "source": source}
        seen.add("buy")
    for start in moves.company_starts(game):
        assert legal[start.index] == {"type": "start_company", "company": start.company, "par": start.par}
        seen.add("start")
    for site in moves.station_sites(game):
        assert legal[site.index] == {"type": "place_station", "node": site.node, "cost": site.cost}
        seen.add("station")
    for offer in moves.vehicle_purchases(game):
        action = legal[offer.index]
        assert (action["type"], action["vehicle"], action["source"], action["price"], action.get("return")) == \
               ("buy_vehicle", offer.vehicle, offer.seller or "bank", offer.price, offer.returned)
        seen.add("vehicle")
    at, lays = moves.tile_lays(game, 10**9)
    assert [moves.lay_of(legal[i]) for i in at] == lays == [moves.lay_of(a) for a in legal if a["type"] == "lay_tile"]
    seen.update(["lay"] if lays else [])
    skip = moves.first_move(game, SKIP, last=True)
    assert skip == max((i for i, a in enumerate(legal) if a["type"] == "skip"), default=-1)
    return seen


def test_named_views_name_what_the_dicts_say():
    seen = set()
    for seed in (1, 2):
        game = Game(RS, players=3, seed=seed)
        rng = np.random.default_rng(seed)
        while not game.is_over():
            seen |= _views_agree_with_dicts(game)
            game.apply_code(int(rng.integers(game.legal_count())))
    assert seen == {"sale", "buy", "start", "station", "vehicle", "lay"}
