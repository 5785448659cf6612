# The codes of codes.py as C constants for the compiled modules (codes.py itself stays
# plain Python: its names are cimported here, imported from it in pure mode). Keep the
# values equal to codes.py's.
cdef enum:
    TREASURY = 100
    POOL = 101
    BOX = 102
    OWNER_SLOTS = 3

    NO_MARKER = 0
    MARKET_MARKER = 1
    GOODS_MARKER = 2

    AUCTION = 0
    STOCK = 1
    OPERATING = 2
    OVER = 3

    MAJOR = 0
    MINOR = 1
    MERGED = 2

    UP = 0
    DOWN = 1
    LEFT = 2
    RIGHT = 3

    SCOPE_NONE = 0
    SCOPE_OR = 1
    SCOPE_SET = 2

    AB_NONE = 0
    AB_EXTRA_TILE_LAY = 1
    AB_TERRAIN_DISCOUNT = 2
    AB_FREE_PORT = 3
    AB_VEHICLE_DISCOUNT = 4
    AB_GRANT_CERTIFICATE = 5
    AB_FREE_MARKET_MARKER = 6
    AB_REVENUE_BONUS = 7
    AB_GRANT_CASH = 8

    CART = 0
    SHIP = 1

    STEP_LEGACY = 0
    STEP_TRACK = 1
    STEP_STATION = 2
    STEP_VEHICLES = 3
    STEP_DIVIDEND = 4
    STEP_SELL_OWN = 5
    STEP_BUY_BACK = 6

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

    SOURCE_TREASURY = 0
    SOURCE_POOL = 1
