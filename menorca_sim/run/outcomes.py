"""The outcome record schema: what one finished game leaves behind, as tidy rows of
six tables (games, players, companies, auctions, errors, rounds), and a seventh, states,
when the experiment records them (the learned value's training data). Everything a
report shows is computed from the six."""
from __future__ import annotations

import pyarrow as pa

from menorca_sim.value.features import FEATURES

_LIST_STR = pa.list_(pa.string())
_LIST_INT = pa.list_(pa.int64())

GAMES = pa.schema([
    ("game_id", pa.int64()),          # unique within an experiment, stable across runs
    ("variant", pa.string()),         # rule variant name ("" when the experiment has none)
    ("population", pa.string()),      # player population name ("" when the experiment has one)
    ("cell", pa.string()),            # e.g. "p3|Ramaders+Artesans"
    ("game_index", pa.int64()),       # index of the game within its cell
    ("seed", pa.int64()),             # the game's seed (same across variants)
    ("players", pa.int64()),
    ("minors", _LIST_STR),            # the two minors drawn
    ("legacies", _LIST_STR),          # legacies in play
    ("events", _LIST_STR),            # event card per epoch revealed
    ("policies", _LIST_STR),          # policy name per seat
    ("srs", pa.int64()),              # stock rounds played
    ("ors", pa.int64()),              # operating rounds played
    ("phase", pa.string()),           # final phase
    ("epoch", pa.int64()),            # final epoch
    ("end_reason", pa.string()),      # bank | bankruptcy | conquest | cap
    ("bank", pa.int64()),             # bank cash at the end
    ("winners", _LIST_INT),           # winning seats (several on a shared win)
    ("actions", pa.int64()),          # actions applied
    ("fingerprint", pa.string()),     # hash of the setup and every action (Game.fingerprint): equal = the same game
    ("duration_s", pa.float64()),     # wall time to play the game
])

PLAYERS = pa.schema([
    ("game_id", pa.int64()),
    ("variant", pa.string()),
    ("seat", pa.int64()),             # 0-based seat; seat 0 holds the start marker before the auction
    ("policy", pa.string()),          # full policy name, e.g. "heuristic+value_bidder(premium=0.2)"
    ("auction_strategy", pa.string()),
    ("wealth", pa.int64()),           # cash + certificate value
    ("cash", pa.int64()),
    ("cert_value", pa.int64()),
    ("rank", pa.int64()),             # 1 = best; tied players share a rank
    ("win_share", pa.float64()),      # 1/k for each of k tied winners, else 0
    ("legacies", _LIST_STR),          # legacies bought at auction
    ("legacy_prices", _LIST_INT),     # what was paid for each
])

COMPANIES = pa.schema([
    ("game_id", pa.int64()),
    ("variant", pa.string()),
    ("company", pa.string()),
    ("started", pa.bool_()),
    ("floated", pa.bool_()),          # operated at least once
    ("par", pa.int64()),              # null when never started
    ("final_price", pa.int64()),      # null when never started
    ("revenue_total", pa.int64()),    # route revenue over the game
    ("dividends_paid", pa.int64()),   # paid out to holders
    ("vehicles_bought", pa.int64()),
    ("stations", pa.int64()),         # on the map at the end
    ("market_markers", pa.int64()),   # placed for it
    ("bankrupt", pa.bool_()),
])

AUCTIONS = pa.schema([
    ("game_id", pa.int64()),
    ("variant", pa.string()),
    ("legacy", pa.string()),
    ("price", pa.int64()),            # paid
    ("min_price", pa.int64()),        # printed minimum
    ("drops", pa.int64()),            # price drops of 5 R. before the sale
    ("buyer_seat", pa.int64()),
    ("buyer_policy", pa.string()),
    ("reservations", pa.int64()),     # reservation bids placed on it
    ("income_earned", pa.int64()),    # income paid to its owners before it closed
])

ERRORS = pa.schema([
    ("game_id", pa.int64()),
    ("variant", pa.string()),
    ("cell", pa.string()),
    ("seed", pa.int64()),
    ("policies", _LIST_STR),
    ("error", pa.string()),           # one line: type and message
    ("traceback", pa.string()),
])

# The game's trajectory: a snapshot of the players and the running companies after the
# auction and after each OR (ORs passing within one action, without a decision, share it).
ROUNDS = pa.schema([
    ("game_id", pa.int64()),
    ("variant", pa.string()),
    ("or", pa.int64()),               # ORs played: 0 = right after the auction, k = right after OR k
    ("phase", pa.string()),           # phase in force then
    ("bank", pa.int64()),             # bank cash then
    ("kind", pa.string()),            # "player" | "company"
    ("seat", pa.int64()),             # a player's 0-based seat; null for a company
    ("company", pa.string()),         # a company's id; null for a player
    ("cash", pa.int64()),             # null for a company closed during the OR (then only its revenue)
    ("wealth", pa.int64()),           # a player's cash + certificate value; null for a company
    ("price", pa.int64()),            # a company's share price; null for a player or a closed company
    ("revenue", pa.int64()),          # a company's route revenue in that OR (0 at or 0); null for a player
])

TABLES: dict[str, pa.Schema] = {
    "games": GAMES,
    "players": PLAYERS,
    "companies": COMPANIES,
    "auctions": AUCTIONS,
    "errors": ERRORS,
    "rounds": ROUNDS,
}

# The learned value's training rows (menorca_sim/run/states.py), written only by a run that
# records states (`record_states`): each seat's features at each snapshot of `rounds` and
# at a sample of the searched decisions, with its final win share as the label (and
# leaves of the search's trees, with their own label: `record_leaves`). One float
# column per feature, in FEATURES order.
STATES = pa.schema([
    ("game_id", pa.int64()),
    ("variant", pa.string()),
    ("kind", pa.string()),            # "auction" (right after it), "or" (right after one), "decision" (a searched one),
                                      # "leaf" (in a search's tree: record_leaves)
    ("action", pa.int64()),           # actions applied before the snapshot (a leaf: before its search's root): with
                                      # kind, names it within its game (principal leaves: one or two a search)
    ("or", pa.int64()),               # ORs played: 0 = right after the auction, k = right after OR k (or during OR k+1)
    ("seat", pa.int64()),
    ("win_share", pa.float64()),      # the seat's final win share (players.win_share); a leaf's: after greedy play
    *[(name, pa.float64()) for name in FEATURES],
])

OPTIONAL_TABLES: dict[str, pa.Schema] = {"states": STATES}
ALL_TABLES: dict[str, pa.Schema] = {**TABLES, **OPTIONAL_TABLES}


def table_names(states: bool) -> tuple[str, ...]:
    """The tables of a dataset, in the order its manifest records them."""
    return (*TABLES, *(OPTIONAL_TABLES if states else ()))
