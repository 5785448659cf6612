"""The action vocabulary. Inside the core an action is a tuple whose first element is
one of the kinds of codes.py (listed below) and whose other elements are small ints (indices into the
ruleset tables) or, for track and stations, the Board's hex/tile/node names.
`describe` turns one into the readable dict the Game API shows."""
from __future__ import annotations

import cython

if not cython.compiled:  # compiled, actions.pxd cimports them as C constants
    from menorca_sim.core.codes import (ACCEPT_OFFER, AUCTION_PASS, BUY_BACK, BUY_CERT, BUY_CHEAPEST,
                                        BUY_LEGACY, BUY_VEHICLE, CONTEST_DROP, CONTEST_RAISE, DECLINE_OFFER,
                                        DISCARD, END_TURN, FORCED_BUY, LAY_TILE, PAYOUT, PLACE_GOODS,
                                        PLACE_MARKET, PLACE_STATION, RESERVE, SELL_CERT, SELL_OWN, SKIP,
                                        SR_PASS, START_COMPANY, WITHHOLD)

# The kinds (codes.py) and what follows each in its tuple:
# auction: BUY_CHEAPEST (), RESERVE (legacy, bid), AUCTION_PASS (), CONTEST_RAISE (bid), CONTEST_DROP ()
# stock round: SELL_CERT (company), BUY_CERT (company, source: SOURCE_TREASURY or SOURCE_POOL),
#   START_COMPANY (company, par row, par col), SR_PASS (), END_TURN () after selling without buying,
#   PLACE_MARKET (offboard), PLACE_GOODS (offboard)
# operating round: BUY_LEGACY (legacy, price), SKIP () leave the current step,
#   LAY_TILE (hex, tile, rotation, cost), PLACE_STATION (node, cost),
#   BUY_VEHICLE (vehicle, seller company or -1 for the bank, price, returned ship or -1),
#   FORCED_BUY (vehicle, price), PAYOUT (), WITHHOLD (), SELL_OWN (count) of its own certificates,
#   BUY_BACK (), DISCARD (vehicle), ACCEPT_OFFER () the selling company's director agrees to a
#   vehicle sale, DECLINE_OFFER ()
SOURCES = ("treasury", "pool")


def describe(t, action: tuple) -> dict:
    """The readable dict of an internal action (`t`: the game's Tables)."""
    kind: cython.int = action[0]
    if kind == LAY_TILE:  # first: nearly all the actions described are tile lays
        return {"type": "lay_tile", "hex": action[1], "tile": action[2], "rotation": action[3],
                "cost": action[4]}
    co = t.company_ids
    if kind == BUY_CHEAPEST:
        return {"type": "buy_legacy"}
    if kind == RESERVE:
        return {"type": "reserve", "legacy": t.legacy_ids[action[1]], "bid": action[2]}
    if kind == AUCTION_PASS:
        return {"type": "pass"}
    if kind == CONTEST_RAISE:
        return {"type": "raise", "bid": action[1]}
    if kind == CONTEST_DROP:
        return {"type": "drop"}
    if kind == SELL_CERT:
        return {"type": "sell_cert", "company": co[action[1]]}
    if kind == BUY_CERT:
        return {"type": "buy_cert", "company": co[action[1]], "source": SOURCES[action[2]]}
    if kind == START_COMPANY:
        return {"type": "start_company", "company": co[action[1]],
                "par": t.market.value(action[2], action[3])}
    if kind == SR_PASS:
        return {"type": "pass"}
    if kind == END_TURN:
        return {"type": "end_turn"}
    if kind == PLACE_MARKET:
        return {"type": "place_market_marker", "offboard": t.offboards[action[1]]}
    if kind == PLACE_GOODS:
        return {"type": "place_goods_marker", "offboard": t.offboards[action[1]]}
    if kind == BUY_LEGACY:
        return {"type": "company_buys_legacy", "legacy": t.legacy_ids[action[1]], "price": action[2]}
    if kind == SKIP:
        return {"type": "skip"}
    if kind == PLACE_STATION:
        return {"type": "place_station", "node": action[1], "cost": action[2]}
    if kind == BUY_VEHICLE:
        d = {"type": "buy_vehicle", "vehicle": t.vehicle_ids[action[1]],
             "source": "bank" if action[2] < 0 else co[action[2]], "price": action[3]}
        if action[4] >= 0:
            d["return"] = t.vehicle_ids[action[4]]
        return d
    if kind == FORCED_BUY:
        return {"type": "forced_buy_vehicle", "vehicle": t.vehicle_ids[action[1]], "price": action[2]}
    if kind == PAYOUT:
        return {"type": "payout"}
    if kind == WITHHOLD:
        return {"type": "withhold"}
    if kind == SELL_OWN:
        return {"type": "company_sells_certs", "count": action[1]}
    if kind == BUY_BACK:
        return {"type": "company_buys_back"}
    if kind == DISCARD:
        return {"type": "discard_vehicle", "vehicle": t.vehicle_ids[action[1]]}
    if kind == ACCEPT_OFFER:
        return {"type": "accept_offer"}
    if kind == DECLINE_OFFER:
        return {"type": "decline_offer"}
    raise ValueError(f"unknown action kind {kind}")
