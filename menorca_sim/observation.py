"""What everyone at the table can see of a game's engine (`PublicState`, which a Game
is): the state and its player and company records, the auction, the standings and the
end-of-game tallies; and the bank's vehicles on sale (`VehicleOffer`). Compiled
(observation.pxd): a player reads a few records at every decision."""
from __future__ import annotations

from typing import Sequence

import cython

from menorca_sim.core import operating

if not cython.compiled:  # compiled, observation.pxd cimports them
    from menorca_sim.core.codes import POOL, TREASURY
    from menorca_sim.core.engine import Engine

# The records' fields, in their order; each reader below branches on the field's number
# (a C comparison compiled, not a string comparison per field).
PLAYER_FIELDS = ("cash", "shares", "certs", "legacies")
PL_CASH, PL_SHARES, PL_CERTS, PL_LEGACIES = range(len(PLAYER_FIELDS))
COMPANY_FIELDS = ("cash", "price", "cell", "treasury", "pool", "par", "director", "floated", "vehicles",
                  "stations", "market_markers", "goods_markers", "legacies")
(CO_CASH, CO_PRICE, CO_CELL, CO_TREASURY, CO_POOL, CO_PAR, CO_DIRECTOR, CO_FLOATED, CO_VEHICLES, CO_STATIONS,
 CO_MARKET_MARKERS, CO_GOODS_MARKERS, CO_LEGACIES) = range(len(COMPANY_FIELDS))


@cython.cclass
class PublicState:
    """What everyone at the table sees of a game's engine (`_eng`): the state and its
    records, the standings and the round's counters. A `Game` is one (game.py adds who
    decides, the legal moves, applying them and copies)."""

    @property
    def players(self) -> int:
        return self._eng.n

    def state(self) -> dict:
        """The public state: the state record of the game log (docs/log-format.md)."""
        eng = self._eng
        return {"bank": eng.bank, "players": [self.player_state(p) for p in range(eng.n)],
                "companies": self.company_states(), "phase": eng.t.phases[eng.phase].name,
                "epoch": eng.epoch, "start_player": eng.start_player}

    def player_state(self, seat: int, fields: Sequence[str] | None = None) -> dict:
        """`state()["players"][seat]` alone; `fields`: only these keys (all by default)."""
        eng = self._eng
        return {PLAYER_FIELDS[k]: _player_field(eng, seat, k) for k in _fields(PLAYER_FIELDS, fields, _PLAYER_ASKED)}

    def company_states(self, fields: Sequence[str] | None = None) -> dict:
        """`state()["companies"]`: the records of the companies started and not closed;
        `fields`: only these keys of each (all by default), for a player that reads a
        few of them at every decision."""
        eng = self._eng
        asked = _fields(COMPANY_FIELDS, fields, _COMPANY_ASKED)
        return {company: _company_record(eng, c, asked)
                for c, company in enumerate(eng.t.company_ids) if eng.started[c] and not eng.closed[c]}

    def company_state(self, company: str, fields: Sequence[str] | None = None) -> dict:
        """`company_states(fields)[company]` alone (KeyError if it is not among them)."""
        eng = self._eng
        c = eng.t.company_index[company]
        if not eng.started[c] or eng.closed[c]:
            raise KeyError(f"{company} is not started, or closed")
        return _company_record(eng, c, _fields(COMPANY_FIELDS, fields, _COMPANY_ASKED))

    def auction_state(self) -> dict | None:
        """The Family Legacy auction, None outside it: the `lot` on offer (the cheapest
        left), its `price`, the legacies `left` cheapest first (the lot first), and the
        open `reservations` as {legacy: {seat: bid}}."""
        eng = self._eng
        if eng.round != "auction":
            return None
        ids = eng.t.legacy_ids
        a = eng.auction
        order = a.order[a.pos:]
        reservations = {}
        for pos in range(a.pos, len(a.order)):
            bids = {seat: bid for seat, bid in enumerate(a.reservations[pos]) if bid >= 0}
            if bids:
                reservations[ids[a.order[pos]]] = bids
        return {"lot": ids[order[0]], "price": a.price, "left": [ids[l] for l in order],
                "reservations": reservations}

    def round_progress(self) -> dict:
        """How far the round running has come (a learned value reads it to tell states
        inside a round apart): its `round` (auction, stock, operating or over); in an
        operating round the companies that have operated in it, the one operating included
        (`operated`), those still to operate (`to_operate`), and the ORs of its set after
        it (`ors_left_in_set`); in a stock round the players' `passes` in succession."""
        eng = self._eng
        name = eng.round
        if name == "stock":
            return {"round": name, "passes": eng.stock.passes}
        if name != "operating":
            return {"round": name}
        o = eng.operating
        ids = eng.t.company_ids
        operated, to_operate = [], []
        for c in range(len(ids)):
            if o.operated_this_or[c]:
                operated.append(ids[c])
            elif eng.operates(c):
                to_operate.append(ids[c])
        return {"round": name, "operated": operated, "to_operate": to_operate,
                "ors_left_in_set": o.set_length - o.in_set}

    def is_over(self) -> bool:
        return self._eng.is_over()

    def result(self) -> dict:
        """How the game ended (or stands): reason, and per seat wealth, cash, rank and win
        share; the winners."""
        eng = self._eng
        ranks, winners = eng.ranking()
        return {"reason": eng.final_reason, "wealth": [eng.wealth(p) for p in range(eng.n)],
                "cash": list(eng.p_cash), "rank": ranks, "winners": winners,
                "win_share": [1 / len(winners) if p in winners else 0.0 for p in range(eng.n)]}

    def tallies(self) -> dict:
        """What the game has counted for its outcome tables: per seat its certificates'
        value and the legacies it bought (at what price), per company its totals, per
        legacy sold its auction."""
        eng = self._eng
        t = eng.t
        seats = []
        for p in range(eng.n):
            bought = [l for l in eng.leg_in_play if eng.leg_buyer[l] == p]
            seats.append({"cert_value": eng.cert_value(p), "legacies": [t.legacy_ids[l] for l in bought],
                          "legacy_prices": [eng.leg_price[l] for l in bought]})
        companies = []
        for c, cid in enumerate(t.company_ids):
            started = bool(eng.started[c])  # the engine's flags are ints
            companies.append({
                "company": cid, "started": started, "floated": bool(eng.operated[c]),
                "par": eng.co_par[c] if started else None,
                "final_price": eng.price(c) if started else None,
                "revenue_total": eng.revenue_total[c], "dividends_paid": eng.dividends_paid[c],
                "vehicles_bought": eng.vehicles_bought[c], "stations": len(eng.board.stations(cid)),
                "market_markers": eng.markers_placed[c], "bankrupt": bool(eng.bankrupt[c])})
        auctions = [{"legacy": t.legacy_ids[l], "price": eng.leg_price[l], "min_price": t.legacies[l].price,
                     "drops": eng.leg_drops[l], "buyer_seat": eng.leg_buyer[l],
                     "reservations": eng.leg_reservations[l], "income_earned": eng.leg_income[l]}
                    for l in eng.leg_in_play if eng.leg_buyer[l] >= 0]
        return {"seats": seats, "companies": companies, "auctions": auctions}

    def phase(self) -> str:
        """The phase in force (a name of `ruleset.phases`)."""
        return self._eng.t.phases[self._eng.phase].name

    def phase_index(self) -> int:
        return self._eng.phase

    def ors_played(self) -> int:
        return self._eng.ors

    def bank(self) -> int:
        return self._eng.bank

    def action_count(self) -> int:
        """Actions applied so far: with `id(game)`, identifies the state between actions."""
        return self._eng.actions

    def director(self, company: str) -> int:
        """The seat deciding for `company` (-1 if no player does: not started, or closed)."""
        return director_of(self._eng, self._eng.t.company_index[company])

    def pending_plan(self):
        """The route plan the operating company's routes ran this turn (None before)."""
        return self._eng.operating.plan

    def pending_revenue(self) -> int:
        """The revenue of `pending_plan()` (0 before the routes have run)."""
        plan = self._eng.operating.plan
        return plan.revenue if plan is not None else 0

    @property
    def tables(self):
        """The ruleset's tables the legal actions' ints index (`Tables`: company_ids,
        vehicle_ids, legacy_ids, market, ...; read them, never change them)."""
        return self._eng.t

    @property
    def board(self):
        """The map as it is (`Board`: tiles, rotations, stations; its `tables` the map's
        hexes, neighbours, nodes and tiles' paths); read it, never change it."""
        return self._eng.board


def director_of(eng: Engine, c: int) -> int:
    """The seat deciding for company c (-1 if no player does: not started, or closed)."""
    seat = eng.director(c)
    return seat if 0 <= seat < eng.n else -1


def fleet_of(eng: Engine, c: int) -> list:
    """Company c's vehicles' ids."""
    ids = eng.t.vehicle_ids
    return [ids[v] for v in eng.co_vehicles[c]]


def _player_field(eng: Engine, p: int, field: int):
    """Field PLAYER_FIELDS[field] of seat p's record: a compiled branch per field, not a
    call per field (a player reads records at every decision)."""
    if field == PL_CASH:
        return eng.p_cash[p]
    if field == PL_SHARES:
        shares = {}
        for c, company in enumerate(eng.t.company_ids):
            percent = eng.percent(c, p)
            if percent:
                shares[company] = percent
        return shares
    if field == PL_CERTS:
        return eng.cert_count(p)
    return legacies_of(eng, eng.leg_player, p)


def _company_record(eng: Engine, c: int, asked: tuple) -> dict:
    """Company c's record of the fields `asked` (their numbers in COMPANY_FIELDS)."""
    names = COMPANY_FIELDS
    return {names[k]: _company_field(eng, c, k) for k in asked}


def _company_field(eng: Engine, c: int, field: int):
    """Field COMPANY_FIELDS[field] of company c's record (see `_player_field`)."""
    if field == CO_CASH:
        return eng.co_cash[c]
    if field == CO_PRICE:
        return eng.price(c)
    if field == CO_CELL:
        return [eng.co_row[c], eng.co_col[c]]
    if field == CO_TREASURY:
        return eng.percent(c, TREASURY)
    if field == CO_POOL:
        return eng.percent(c, POOL)
    if field == CO_PAR:
        return eng.co_par[c]
    if field == CO_DIRECTOR:
        return director_of(eng, c)
    if field == CO_FLOATED:
        return bool(eng.operated[c])
    if field == CO_VEHICLES:
        return fleet_of(eng, c)
    if field == CO_STATIONS:
        return [node for node, _ in eng.board.stations(eng.t.company_ids[c])]
    if field == CO_MARKET_MARKERS:
        return {eng.t.offboards[o]: k for o, k in enumerate(eng.mmarkers[c]) if k}
    if field == CO_GOODS_MARKERS:
        return {eng.t.offboards[o]: k for o, k in enumerate(eng.goods[c]) if k}
    return legacies_of(eng, eng.leg_company, c)


def legacies_of(eng: Engine, owner: list[int], who: int) -> list[str]:
    """Legacies in play, not closed, whose `owner` entry (leg_player or leg_company) is `who`."""
    return [eng.t.legacy_ids[l] for l in eng.leg_in_play if owner[l] == who and not eng.leg_closed[l]]


def _fields(known: tuple[str, ...], fields: Sequence[str] | None, asked: dict) -> tuple[int, ...]:
    """The numbers in `known` of the fields asked (all by default), each checked to be
    one of `known`; `asked` remembers the answer per tuple of fields."""
    if fields is None:
        fields = known
    indices = asked.get(fields) if type(fields) is tuple else None
    if indices is None:
        names = tuple(fields)
        unknown = [f for f in names if f not in known]
        if unknown:
            raise ValueError(f"unknown record field(s) {', '.join(map(repr, unknown))}; known: {', '.join(known)}")
        indices = asked[names] = tuple([known.index(f) for f in names])
    return indices


_PLAYER_ASKED: dict[tuple, tuple] = {}  # player fields asked -> their numbers in PLAYER_FIELDS
_COMPANY_ASKED: dict[tuple, tuple] = {}  # company fields asked -> their numbers in COMPANY_FIELDS


@cython.cclass
class VehicleOffer:
    """The bank's vehicles on sale per company, as asked in one state of the bank: its
    phase and the vehicle types sold out, all the offer depends on
    (`operating.bank_vehicles`); asked in another, it starts a new table."""

    def __init__(self) -> None:
        self._ids: dict = {}  # company -> the ids on sale to it
        self._phase = -1  # the bank's phase of those answers (-1: none yet)
        self.sold_out = 0  # and the vehicle types sold out then (bit v: type v)

    def copy(self) -> VehicleOffer:
        """The same answers, for a copy of the game: the first of the two that finds
        its bank changed starts a new table, so neither spoils the other's."""
        other = VehicleOffer()
        other._ids, other._phase, other.sold_out = self._ids, self._phase, self.sold_out
        return other

    def ids(self, eng: Engine, rs, company: str) -> list:
        """Ids of the vehicles the bank sells now that `company` may own (one per copy
        type, in the ruleset's order)."""
        sold_out = _sold_out_mask(eng)
        if eng.phase != self._phase or sold_out != self.sold_out:
            self._ids, self._phase, self.sold_out = {}, eng.phase, sold_out
        ids = self._ids.get(company)
        if ids is None:
            kinds = rs.companies[company].vehicle_kinds
            vehicle_ids, vehicles = eng.t.vehicle_ids, eng.t.vehicles
            ids = self._ids[company] = [vehicle_ids[v] for v in operating.bank_vehicles(eng)
                                        if vehicles[v].kind in kinds]
        return list(ids)


def _sold_out_mask(eng: Engine) -> int:
    """The vehicle types the bank has no copy of, bit v for type v (the loader allows at
    most 64 types)."""
    left = eng.vehicles_left
    one = 1
    sold_out = 0
    for v in range(len(left)):
        if left[v] == 0:
            sold_out |= one << v
    return sold_out
