"""Codes shared by the engine modules (plain Python here; codes.pxd gives the compiled
modules the same values as C enum constants): certificate owners besides the players
0..n-1, the kinds of pending marker placement, rounds, company kinds, market moves,
end scopes, legacy abilities, operating steps and action kinds. The ruleset's names
become these once, in Tables."""
TREASURY = 100
POOL = 101
BOX = 102  # out of the game (e.g. a discarded minor's certificates after the merger)
OWNER_SLOTS = 3  # TREASURY, POOL, BOX: counted after the players' slots (Engine.held)

NO_MARKER = 0
MARKET_MARKER = 1
GOODS_MARKER = 2

# rounds (Engine.stage); ROUND_NAMES are the names the Game API shows
AUCTION = 0
STOCK = 1
OPERATING = 2
OVER = 3
ROUND_NAMES = ("auction", "stock", "operating", "over")

# company kinds (ruleset `kind`)
MAJOR = 0
MINOR = 1
MERGED = 2
KIND_NAMES = ("major", "minor", "merged")

# market moves
UP = 0
DOWN = 1
LEFT = 2
RIGHT = 3

# when a noted end condition ends the game
SCOPE_NONE = 0
SCOPE_OR = 1
SCOPE_SET = 2

# legacy abilities (ruleset `ability.type`), in the order of ABILITY_NAMES
AB_NONE = 0
AB_EXTRA_TILE_LAY = 1
AB_TERRAIN_DISCOUNT = 2
AB_FREE_PORT = 3
AB_VEHICLE_DISCOUNT = 4
AB_GRANT_CERTIFICATE = 5
AB_FREE_MARKET_MARKER = 6
AB_REVENUE_BONUS = 7
AB_GRANT_CASH = 8  # cash from the bank to its buyer, once (a planted worth: tests/analysis/test_legacy_values.py)
ABILITY_NAMES = ("none", "extra_tile_lay", "terrain_discount", "free_port", "vehicle_discount",
                 "grant_certificate", "free_market_marker", "revenue_bonus", "grant_cash")

# vehicle kinds
CART = 0
SHIP = 1

# the steps of a company's operating turn (OperatingState.step), in order
STEP_LEGACY = 0
STEP_TRACK = 1
STEP_STATION = 2
STEP_VEHICLES = 3
STEP_DIVIDEND = 4
STEP_SELL_OWN = 5
STEP_BUY_BACK = 6

# action kinds: the first element of an action tuple (its other elements: see actions.py)
# and of a move, MOVE_WIDTH ints: the kind, then its arguments (ARITY[kind] of them), then 0s
MOVE_WIDTH = 5
BUY_CHEAPEST = 1
RESERVE = 2
AUCTION_PASS = 3
CONTEST_RAISE = 4
CONTEST_DROP = 5
SELL_CERT = 10
BUY_CERT = 11
START_COMPANY = 12
SR_PASS = 13
END_TURN = 14
PLACE_MARKET = 15
PLACE_GOODS = 16
BUY_LEGACY = 20
SKIP = 21
LAY_TILE = 22
PLACE_STATION = 23
BUY_VEHICLE = 24
FORCED_BUY = 25
PAYOUT = 26
WITHHOLD = 27
SELL_OWN = 28
BUY_BACK = 29
DISCARD = 30
ACCEPT_OFFER = 31
DECLINE_OFFER = 32

# BUY_CERT's source
SOURCE_TREASURY = 0
SOURCE_POOL = 1

ARITY = tuple({RESERVE: 2, CONTEST_RAISE: 1, SELL_CERT: 1, BUY_CERT: 2, START_COMPANY: 3, PLACE_MARKET: 1,
               PLACE_GOODS: 1, BUY_LEGACY: 2, LAY_TILE: 4, PLACE_STATION: 2, BUY_VEHICLE: 4, FORCED_BUY: 2,
               SELL_OWN: 1, DISCARD: 1}.get(kind, 0) for kind in range(DECLINE_OFFER + 1))
