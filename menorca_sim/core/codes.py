"""Codes shared by the engine modules: certificate owners besides the players 0..n-1,
and the kinds of pending marker placement."""
TREASURY = 100
POOL = 101
BOX = 102  # out of the game (e.g. a discarded minor's certificates after the merger)

NO_MARKER = 0
MARKET_MARKER = 1
GOODS_MARKER = 2
