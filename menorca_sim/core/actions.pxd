# Compiled declarations of actions.py (augmenting .pxd: actions.py stays the reference).
from menorca_sim.core.codes cimport (ACCEPT_OFFER, AUCTION_PASS, BUY_BACK, BUY_CERT, BUY_CHEAPEST, BUY_LEGACY,
                                     BUY_VEHICLE, CONTEST_DROP, CONTEST_RAISE, DECLINE_OFFER, DISCARD, END_TURN,
                                     FORCED_BUY, LAY_TILE, PAYOUT, PLACE_GOODS, PLACE_MARKET, PLACE_STATION,
                                     RESERVE, SELL_CERT, SELL_OWN, SKIP, SR_PASS, START_COMPANY, WITHHOLD)

cpdef dict describe(object t, tuple action)
