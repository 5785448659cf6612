"""Named views of the legal moves, for players that read the legal actions as ints
(`Game.legal_moves`): each view is a move's index among the legal actions and its
arguments by name, so no player reads the core's tuples by position (core/actions.py
lists them; only this module reads them)."""
from __future__ import annotations

from typing import NamedTuple

from menorca_sim.core.codes import BUY_CERT, BUY_VEHICLE, PLACE_STATION, SELL_CERT, SOURCE_TREASURY, START_COMPANY


LAY_COST = 3  # a lay's cost in its tuple (hex, tile, rotation, cost), as `Game.legal_lays` and the WhatIf take it


class CertSale(NamedTuple):
    index: int  # among the legal actions
    company: str


class CertPurchase(NamedTuple):
    index: int
    company: str
    from_treasury: bool  # else from the pool


class CompanyStart(NamedTuple):
    index: int
    company: str
    par: int  # the par value chosen


class StationSite(NamedTuple):
    index: int
    node: str
    cost: int


class VehiclePurchase(NamedTuple):
    index: int
    vehicle: str
    seller: str | None  # the company selling it, None for the bank
    price: int
    returned: str | None  # the ship given back for it, if any


def cert_sales(game) -> list[CertSale]:
    ids = game.tables.company_ids
    return [CertSale(i, ids[move[1]]) for i, move in game.legal_moves(SELL_CERT)]


def cert_purchases(game) -> list[CertPurchase]:
    ids = game.tables.company_ids
    return [CertPurchase(i, ids[move[1]], move[2] == SOURCE_TREASURY) for i, move in game.legal_moves(BUY_CERT)]


def company_starts(game) -> list[CompanyStart]:
    t = game.tables
    return [CompanyStart(i, t.company_ids[move[1]], t.market.value(move[2], move[3]))
            for i, move in game.legal_moves(START_COMPANY)]


def station_sites(game) -> list[StationSite]:
    return [StationSite(i, move[1], move[2]) for i, move in game.legal_moves(PLACE_STATION)]


def vehicle_purchases(game) -> list[VehiclePurchase]:
    t = game.tables
    vehicles, companies = t.vehicle_ids, t.company_ids
    return [VehiclePurchase(i, vehicles[move[1]], companies[move[2]] if move[2] >= 0 else None, move[3],
                            vehicles[move[4]] if move[4] >= 0 else None)
            for i, move in game.legal_moves(BUY_VEHICLE)]


def first_move(game, kind: int, last: bool = False) -> int:
    """The index of the first (or `last`) legal action of `kind` (codes.py), -1 if there
    is none: the pass or skip, which the engine lists after a step's choices."""
    moves = game.legal_moves(kind)
    return moves[-1 if last else 0][0] if moves else -1
