"""The action vocabulary. Inside the core an action is a tuple whose first element is
one of the kinds below and whose other elements are small ints (indices into the
ruleset tables) or, for track and stations, the Board's hex/tile/node names.
`describe` turns one into the readable dict the Game API shows."""
from __future__ import annotations

# auction
BUY_CHEAPEST = 1      # ()
RESERVE = 2           # (legacy, bid)
AUCTION_PASS = 3      # ()
CONTEST_RAISE = 4     # (bid)
CONTEST_DROP = 5      # ()
# stock round
SELL_CERT = 10        # (company)
BUY_CERT = 11         # (company, source)
START_COMPANY = 12    # (company, par row, par col)
SR_PASS = 13          # ()
END_TURN = 14         # () after selling, without buying
PLACE_MARKET = 15     # (offboard)
PLACE_GOODS = 16      # (offboard)
# operating round
BUY_LEGACY = 20       # (legacy, price)
SKIP = 21             # () leave the current step
LAY_TILE = 22         # (hex, tile, rotation, cost)
PLACE_STATION = 23    # (node, cost)
BUY_VEHICLE = 24      # (vehicle, seller company or -1 for the bank, price, returned ship or -1)
FORCED_BUY = 25       # (vehicle, price)
PAYOUT = 26           # ()
WITHHOLD = 27         # ()
SELL_OWN = 28         # (count) the company sells this many of its own certificates
BUY_BACK = 29         # ()
DISCARD = 30          # (vehicle)
ACCEPT_OFFER = 31     # () the selling company's director agrees to a vehicle sale
DECLINE_OFFER = 32    # ()

SOURCE_TREASURY = 0
SOURCE_POOL = 1
SOURCES = ("treasury", "pool")


def describe(t, action: tuple) -> dict:
    """The readable dict of an internal action (`t`: the game's Tables)."""
    kind = action[0]
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
