"""The legal moves for players that read them as ints (`Game.legal_codes`), in named
views: each view is a move's index among the legal actions and its arguments by name,
so no player reads the legal actions' ints by position (codes.ARITY and
core/actions.py give their layout; only this module reads it). Compiled (moves.pxd):
the views are read at every stock turn and company decision, the tile lays of one
decision are a hundred."""
from __future__ import annotations

from typing import TYPE_CHECKING

import cython

if TYPE_CHECKING:
    from menorca_sim.game import Game
if not cython.compiled:  # compiled, moves.pxd cimports them
    from menorca_sim.core.codes import (BUY_CERT, BUY_VEHICLE, LAY_TILE, MOVE_WIDTH, PLACE_STATION, SELL_CERT,
                                        SOURCE_TREASURY, START_COMPANY)

LAY_COST = 3  # a lay's cost in its tuple (hex, tile, rotation, cost), as `tile_lays` and the WhatIf take it


@cython.cclass
class CertSale:
    """The sale of one certificate of `company` (legal action `index`)."""

    def __init__(self, index: int, company: str) -> None:
        self.index, self.company = index, company


@cython.cclass
class CertPurchase:
    """The purchase of one certificate of `company`, from its treasury or the pool."""

    def __init__(self, index: int, company: str, from_treasury: bool) -> None:
        self.index, self.company, self.from_treasury = index, company, from_treasury


@cython.cclass
class CompanyStart:
    """Starting `company` at par value `par`."""

    def __init__(self, index: int, company: str, par: int) -> None:
        self.index, self.company, self.par = index, company, par


@cython.cclass
class StationSite:
    """A station on `node` for `cost`."""

    def __init__(self, index: int, node: str, cost: int) -> None:
        self.index, self.node, self.cost = index, node, cost


@cython.cclass
class VehiclePurchase:
    """`vehicle` bought from `seller` (a company; None: the bank) for `price`, giving
    back the ship `returned` (None: none)."""

    def __init__(self, index: int, vehicle: str, seller: str | None, price: int, returned: str | None) -> None:
        self.index, self.vehicle, self.seller, self.price, self.returned = index, vehicle, seller, price, returned


def first_move(game: Game, kind: int, last: bool = False) -> int:
    """The index of the first (or `last`) legal action of `kind` (codes.py), -1 if there
    is none: the pass or skip, which the engine lists after a step's choices."""
    codes = game.legal_codes()
    found = -1
    for i in range(game.legal_count()):
        if codes[i * MOVE_WIDTH] == kind:
            found = i
            if not last:
                break
    return found


def cert_sales(game: Game) -> list:
    codes = game.legal_codes()
    ids = game.tables.company_ids
    views = []
    for i in range(game.legal_count()):
        row = i * MOVE_WIDTH
        if codes[row] == SELL_CERT:
            views.append(CertSale(i, ids[codes[row + 1]]))
    return views


def cert_purchases(game: Game) -> list:
    codes = game.legal_codes()
    ids = game.tables.company_ids
    views = []
    for i in range(game.legal_count()):
        row = i * MOVE_WIDTH
        if codes[row] == BUY_CERT:
            views.append(CertPurchase(i, ids[codes[row + 1]], codes[row + 2] == SOURCE_TREASURY))
    return views


def company_starts(game: Game) -> list:
    codes = game.legal_codes()
    t = game.tables
    views = []
    for i in range(game.legal_count()):
        row = i * MOVE_WIDTH
        if codes[row] == START_COMPANY:
            views.append(CompanyStart(i, t.company_ids[codes[row + 1]], t.market.value(codes[row + 2], codes[row + 3])))
    return views


def station_sites(game: Game) -> list:
    codes = game.legal_codes()
    nodes = game.board.tables.node_names
    views = []
    for i in range(game.legal_count()):
        row = i * MOVE_WIDTH
        if codes[row] == PLACE_STATION:
            views.append(StationSite(i, nodes[codes[row + 1]], codes[row + 2]))
    return views


def vehicle_purchases(game: Game) -> list:
    codes = game.legal_codes()
    t = game.tables
    vehicles, companies = t.vehicle_ids, t.company_ids
    views = []
    for i in range(game.legal_count()):
        row = i * MOVE_WIDTH
        if codes[row] == BUY_VEHICLE:
            seller, returned = codes[row + 2], codes[row + 4]
            views.append(VehiclePurchase(i, vehicles[codes[row + 1]], companies[seller] if seller >= 0 else None,
                                         codes[row + 3], vehicles[returned] if returned >= 0 else None))
    return views


def tile_lays(game: Game, max_cost: int) -> tuple[list[int], list[tuple]]:
    """The legal tile lays costing at most `max_cost`: their indices among the legal
    actions, and the lays as the WhatIf takes them, (hex, tile, rotation, cost)."""
    codes = game.legal_codes()
    mt = game.board.tables
    land, tile_ids = mt.land, mt.tile_ids  # the map's hexes and tiles by index
    at, lays = [], []
    for i in range(game.legal_count()):
        row = i * MOVE_WIDTH
        if codes[row] == LAY_TILE and codes[row + 4] <= max_cost:
            at.append(i)
            lays.append((land[codes[row + 1]], tile_ids[codes[row + 2]], codes[row + 3], codes[row + 4]))
    return at, lays


def lay_of(action: dict) -> tuple:
    """A `lay_tile` action dict as the WhatIf takes lays: (hex, tile, rotation, cost)."""
    if action["type"] != "lay_tile":
        raise ValueError(f"not a tile lay: {action!r}")
    return action["hex"], action["tile"], action["rotation"], action["cost"]
