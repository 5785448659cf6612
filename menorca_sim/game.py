"""`Game`: the Python face of one game of 1713 Menorca (OpenSpiel-like). Players see
readable action dicts (or, faster, ints: `legal_codes`); the compiled core works on ints
and small tuples."""
from __future__ import annotations

import hashlib
from typing import Sequence

import cython
import numpy as np

from menorca_sim.core import operating
from menorca_sim.core.actions import describe
from menorca_sim.core.board import Board
from menorca_sim.core.transitions import Checker
from menorca_sim.core.maptables import map_tables
from menorca_sim.core.tables import tables_for
from menorca_sim.gamelog import GameLog
from menorca_sim.rules import Ruleset, load_ruleset
from menorca_sim.seeding import setup_stream
from menorca_sim.whatif import WhatIf

if not cython.compiled:  # compiled, game.pxd cimports them
    from menorca_sim.core.codes import LAY_TILE, MOVE_WIDTH, PAYOUT, POOL, TREASURY, WITHHOLD
    from menorca_sim.core.engine import Engine


class IllegalActionError(ValueError):
    """An action that is not among the legal ones; `choice` says which, in words."""

    def __init__(self, message: str, choice: str) -> None:
        super().__init__(message)
        self.choice = choice


class InvariantError(AssertionError):
    """A rule invariant broke (only raised with check=True)."""


@cython.cclass
class Game:
    """One game: setup draws from `seed`, then actions until `is_over()` (its fields and
    compiled helpers: game.pxd)."""

    def __init__(self, ruleset: Ruleset | None = None, players: int = 3, seed: int = 0,
                 minors: list[str] | None = None, legacies: list[str] | None = None,
                 check: bool = False, log=None, seats: list[str] | None = None) -> None:
        """`log`: a path for a JSON-lines game log (or None); `seats`: policy names for its header."""
        rs = ruleset if ruleset is not None else load_ruleset()
        self.ruleset = rs
        self.seed = seed
        self.check = check
        self._checker = Checker() if check else None
        setup = np.random.default_rng(setup_stream(seed))
        self._eng = Engine(tables_for(rs), players, Board(map_tables(rs)), setup, minors, legacies)
        self.seats = list(seats) if seats is not None else ["?"] * players
        self._legal = None  # the legal actions' dicts in this state
        self._settled = True  # the engine's moves, if built, are its own for this state
        self._for_sale: dict = {}  # company -> vehicles_for_sale(), as asked in the bank's state below
        self._bank_phase = -1  # the phase of those answers (-1: none yet)
        self._bank_sold_out = 0  # and the vehicle types sold out then (bit v: type v; see _sold_out)
        self._forget_state()
        self._whatif = WhatIf(self._eng)
        self._history: list = []  # the internal actions applied, in order (see fingerprint)
        self._log = GameLog(log, self.header()) if log is not None else None

    # --- the API -----------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._eng.n

    def current_actor(self) -> int:
        """The seat that decides now (for a company: its director or president); -1 when over."""
        return self._actor()[0]

    def actor_label(self) -> str:
        """"P1".."Pn", or the id of the company the seat decides for."""
        seat, company = self._actor()
        return self._eng.t.company_ids[company] if company >= 0 else f"P{seat + 1}"

    def _actor(self) -> tuple[int, int]:
        """The engine's (seat, company index) deciding now, asked once per state with the decision."""
        if self._actor_now is None:
            eng = self._eng
            seat, company, self._decision_now = eng.turn()
            self._actor_now = (seat, company)
            if self._decision_now == "dividend":
                # the engine has just searched the operating company's routes in this
                # state: its plan's revenue answers `route_revenue` for the fleet it ran
                fleet = tuple(_company_field(self, company, VEHICLES))
                self._whatif.remember_plan(eng.t.company_ids[company], fleet, eng.operating.plan.revenue)
        return self._actor_now

    def _forget_state(self) -> None:
        """Drop what was remembered of the state before an action (or of the original's, in
        a clone). Its WhatIf checks its own answers against the state it is asked in."""
        self._actor_now: tuple[int, int] | None = None
        self._decision_now: str | None = None

    def decision(self) -> str:
        if self._decision_now is None:
            self._actor()
        return self._decision_now

    def _legal_dicts(self) -> list[dict]:
        """The legal actions' dicts, described once per state from the engine's moves."""
        if self._legal is None:
            eng = self._eng
            if not self._settled:  # dropped without an action: the state may have been edited
                eng.begin_moves()
            self._settled = False
            t = eng.t
            self._legal = [describe(t, eng.legal_action(i)) for i in range(eng.build_moves())]
        return self._legal

    def legal_actions(self) -> list[dict]:
        return list(self._legal_dicts())

    def legal_codes(self):
        """The legal actions as ints, for players that read ints rather than dicts: a flat
        view of `MOVE_WIDTH` (codes.py) ints per action, in `legal_actions()`'s order: the
        action's kind (codes.py), then its arguments (`codes.ARITY[kind]` of them: indices of
        the engine's tables, a lay's hex and tile and a station's node of the map tables,
        or amounts), then 0s. Read it, never write it; it holds until the next action.
        `apply_code(i)` applies action i without building any dict."""
        return self._eng.legal_codes()

    @property
    def tables(self):
        """The ruleset's tables the legal actions' ints index (`Tables`: company_ids,
        vehicle_ids, legacy_ids, market, ...; read them, never change them)."""
        return self._eng.t

    @property
    def board(self) -> Board:
        """The map as it is (`Board`: its tiles, rotations and stations, and in `tables`
        the map's: land hexes, their neighbours, nodes, tiles' paths), for players that
        reason about track; read it, never change it."""
        return self._eng.board

    def legal_count(self) -> int:
        """How many legal actions there are (`len(legal_actions())`, without building them)."""
        return self._eng.build_moves()

    def legal_moves(self, kind: int) -> list[tuple]:
        """(i, action) of each legal action i of `kind` (codes.py), in order: the action as
        the core's tuple (actions.py: the kind, then table indices and amounts, a lay's hex
        and tile and a station's node by name), for players that read ints."""
        eng = self._eng
        codes = eng.legal_codes()
        moves = []
        for i in range(eng.n_moves):
            if codes[i * MOVE_WIDTH] == kind:
                moves.append((i, eng.legal_action(i)))
        return moves

    def legal_lays(self, max_cost: int) -> tuple[list[int], list[tuple]]:
        """The legal tile lays costing at most `max_cost`: their indices among the legal
        actions, and the lays as the WhatIf takes them, (hex, tile, rotation, cost)."""
        eng = self._eng
        codes = eng.legal_codes()
        mt = eng.board.tables
        land, tile_ids = mt.land, mt.tile_ids  # the map's hexes and tiles by index
        at, lays = [], []
        for i in range(eng.n_moves):
            row = i * MOVE_WIDTH
            if codes[row] == LAY_TILE and codes[row + 4] <= max_cost:
                at.append(i)
                lays.append((land[codes[row + 1]], tile_ids[codes[row + 2]], codes[row + 3], codes[row + 4]))
        return at, lays

    def apply(self, action: dict) -> None:
        """Apply `action`, one of the legal action dicts."""
        self._apply_move(self.action_index(action), action)

    def apply_code(self, i: int) -> None:
        """Apply legal action i (the i-th of `legal_codes()` and of `legal_actions()`)."""
        self._apply_move(self.check_code(i), None)

    def check_code(self, i: int) -> int:
        """`i` if it is the index of a legal action, else IllegalActionError (the one
        check of an answer by index: the play loop's, a policy's wrapper's)."""
        if type(i) is not int or not 0 <= i < self._eng.build_moves():
            raise self._illegal(f"an illegal action index {i!r}")
        return i

    def action_index(self, action: dict) -> int:
        """Where `action` is among the legal action dicts (IllegalActionError if it is
        not): players mostly hand back one of the very dicts `legal_actions` gave them,
        found by identity before any comparison."""
        dicts = self._legal_dicts()
        for i, legal in enumerate(dicts):
            if legal is action:
                return i
        try:
            return dicts.index(action)
        except ValueError:
            raise self._illegal(f"an illegal action {action!r}") from None

    def _illegal(self, choice: str) -> IllegalActionError:
        return IllegalActionError(f"{choice} for {self.actor_label()} at decision {self.decision()!r} "
                                  f"(seed {self.seed}, action index {self._eng.actions})", choice)

    def _apply_move(self, i: int, action: dict | None) -> None:
        """Apply the engine's move i (its dict `action`, or None: described if needed)."""
        eng = self._eng
        move = eng.legal_action(i)
        logged = self._log is not None
        if action is None and (logged or self.check):
            action = describe(eng.t, move)
        context = self._context() if logged else None
        plan = eng.operating.plan if logged and move[0] in (PAYOUT, WITHHOLD) else None
        before = self._checker.before(eng, move) if self.check else None
        eng.apply(move)
        self._history.append(move)
        self._legal = None
        self._settled = True
        self._forget_state()
        if self.check:
            problems = self._checker.after(eng, before)
            if problems:
                raise InvariantError(f"seed {self.seed}, action index {eng.actions - 1} "
                                     f"({action!r}): " + "; ".join(problems))
        if logged:
            routes = [r.as_dict() for r in plan.routes] if plan is not None else None
            self._log.action(eng.actions - 1, context, action, routes, self.state())
            if eng.round == "over":
                self._log.result(self.result())

    def is_over(self) -> bool:
        return self._eng.is_over()

    def result(self) -> dict:
        eng = self._eng
        ranks, winners = eng.ranking()
        return {
            "reason": eng.final_reason,
            "wealth": [eng.wealth(p) for p in range(eng.n)],
            "cash": list(eng.p_cash),
            "rank": ranks,
            "winners": winners,
            "win_share": [1 / len(winners) if p in winners else 0.0 for p in range(eng.n)],
        }

    def fingerprint(self) -> str:
        """A stable hash (16 hex digits) of the setup and of every action applied so far,
        the seed left out: two games with one fingerprint are the same game. A
        deterministic player replays the same game from the same setup, so a study counts
        its distinct games by this, not by its rows."""
        eng = self._eng
        setup = repr((eng.n, list(eng.minors_in_play), list(eng.leg_in_play), list(eng.events)))
        # repr of the setup's tuple with the history's list appended, each move's text remembered
        text = f"{setup[:-1]}, [{', '.join([_move_text(move) for move in self._history])}])"
        return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()

    def observation(self) -> dict:
        """Everything a player can see: the public state and what is being decided."""
        obs = self.state()
        obs.update(self._context())
        obs["decision"] = self.decision()
        obs["seat"] = self.current_actor()
        return obs

    def clone(self) -> "Game":
        """An independent copy (without the log) to explore from."""
        other = Game.__new__(Game)
        other.ruleset, other.seed, other.check, other.seats = self.ruleset, self.seed, self.check, self.seats
        other._eng = self._eng.clone()
        other._legal, other._settled = self._legal, self._settled  # the same state: the same legal actions
        # the same bank: the same vehicles on sale (a game that finds its bank changed
        # answers in a new dict, so the two never spoil each other's)
        other._for_sale, other._bank_phase, other._bank_sold_out = self._for_sale, self._bank_phase, self._bank_sold_out
        other._forget_state()
        other._whatif = WhatIf(other._eng, self._whatif)  # its own revenues asked, the memo shared
        other._checker = self._checker.clone() if self._checker is not None else None
        other._log = None
        other._history = list(self._history)
        return other

    # --- queries for players (read-only; "what would it earn if") -------------------------
    def phase(self) -> str:
        """The phase in force (a name of `ruleset.phases`)."""
        return self._eng.t.phases[self._eng.phase].name

    def phase_index(self) -> int:
        """The phase in force as an index of `ruleset.phases`."""
        return self._eng.phase

    def ors_played(self) -> int:
        """Operating rounds finished so far (without building a state record)."""
        return self._eng.ors

    def bank(self) -> int:
        """The bank's cash (without building a state record)."""
        return self._eng.bank

    def action_count(self) -> int:
        """Actions applied so far: with `id(game)`, identifies the state between actions."""
        return self._eng.actions

    def director(self, company: str) -> int:
        """The seat deciding for `company` (-1 if no player does: not started, or closed)."""
        return self._director(self._eng.t.company_index[company])

    def _director(self, c: int) -> int:
        seat = self._eng.director(c)
        return seat if 0 <= seat < self._eng.n else -1

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

    def marker_company(self) -> str | None:
        """The company whose market or goods marker is being placed (None if none is)."""
        if self.decision() not in ("place_market_marker", "place_goods_marker"):
            return None
        return self._eng.t.company_ids[self._eng.marker.company]

    def operating_company(self) -> str | None:
        """The company the seat decides for now (the one operating, or whose marker is
        placed), None at a player's own decision."""
        company = self._actor()[1]
        return self._eng.t.company_ids[company] if company >= 0 else None

    def vehicles_for_sale(self, company: str) -> list[str]:
        """Ids of the vehicles the bank sells now that `company` may own (one per copy
        type, in the ruleset's order)."""
        eng = self._eng
        sold_out = self._sold_out()
        if eng.phase != self._bank_phase or sold_out != self._bank_sold_out:
            self._for_sale, self._bank_phase, self._bank_sold_out = {}, eng.phase, sold_out
        ids = self._for_sale.get(company)
        if ids is None:
            kinds = self.ruleset.companies[company].vehicle_kinds
            vehicle_ids, vehicles = eng.t.vehicle_ids, eng.t.vehicles
            ids = self._for_sale[company] = [vehicle_ids[v] for v in operating.bank_vehicles(eng)
                                             if vehicles[v].kind in kinds]
        return list(ids)

    def _sold_out(self) -> int:
        """The vehicle types the bank has no copy of, bit v for type v: with the phase, all
        its offer depends on (`operating.bank_vehicles`; the loader allows at most 64 types)."""
        left = self._eng.vehicles_left
        one = 1
        sold_out = 0
        for v in range(len(left)):
            if left[v] == 0:
                sold_out |= one << v
        return sold_out

    def pending_revenue(self) -> int:
        """The revenue the operating company's routes earned this turn (at its dividend
        step; 0 before the routes have run)."""
        plan = self._eng.operating.plan
        return plan.revenue if plan is not None else 0

    # --- what-if revenue questions (answered by its WhatIf: whatif.py) -----------------------
    def route_plan(self, company: str, vehicles: list[str], changes=()):
        """The best route plan of `company` running `vehicles`, on the map as it is or as
        `changes` would leave it (`WhatIf.route_plan`)."""
        return self._whatif.route_plan(company, vehicles, changes)

    def route_revenue(self, company: str, vehicles: list[str], changes=()) -> int:
        """The revenue of `route_plan` (`WhatIf.route_revenue`)."""
        return self._whatif.route_revenue(company, vehicles, changes)

    def lay_revenues(self, company: str, vehicles: list[str], lays: list[dict], done=()) -> list[int]:
        """`route_revenue` after each lay of `lays` (`WhatIf.lay_revenues`)."""
        return self._whatif.lay_revenues(company, vehicles, _lays(lays), _lays(done))

    def station_revenues(self, company: str, vehicles: list[str], stations: list[dict]) -> list[int]:
        """`route_revenue` after each station of `stations` (`WhatIf.station_revenues`)."""
        return self._whatif.station_revenues(company, vehicles, _args(stations, "place_station", "node"))

    def marker_revenues(self, company: str, vehicles: list[str], markers: list[dict]) -> list[int]:
        """`route_revenue` after each market marker of `markers` (`WhatIf.marker_revenues`)."""
        return self._whatif.marker_revenues(company, vehicles, _args(markers, "place_market_marker", "offboard"))

    def next_lays(self, company: str, done=()) -> list[dict]:
        """The lays `company` could make in a later turn after `done` (`WhatIf.next_lays`)."""
        t = self._eng.t
        return [describe(t, (LAY_TILE,) + lay) for lay in self._whatif.next_lays(company, _lays(done))]

    def next_lay_revenues(self, company: str, vehicles: list[str], done=()) -> list[int]:
        """`route_revenue` after each lay of `next_lays` (`WhatIf.next_lay_revenues`)."""
        return self._whatif.next_lay_revenues(company, vehicles, _lays(done))

    def next_lay_revenues_each(self, company: str, vehicles: list[str], firsts: list[dict], done=(),
                               until_earning: bool = False) -> list[list[int]]:
        """`next_lay_revenues` after each lay of `firsts` (`WhatIf.next_lay_revenues_each`)."""
        return self._whatif.next_lay_revenues_each(company, vehicles, _lays(firsts), _lays(done), until_earning)

    def map_key(self) -> bytes:
        """The map and the phase as bytes (`WhatIf.map_key`)."""
        return self._whatif.map_key()

    def revenue_key(self, company: str) -> tuple:
        """All `company`'s route revenue depends on besides its vehicles (`WhatIf.revenue_key`)."""
        return self._whatif.revenue_key(company)

    @property
    def whatif(self) -> WhatIf:
        """The what-if revenue service of this state, with lays as the tuples (hex, tile,
        rotation, cost) players read from `legal_codes()` (the methods above are its face
        with action dicts)."""
        return self._whatif

    @property
    def _asked(self) -> dict:
        """The route revenues asked in this state (for the tests of what is kept)."""
        return self._whatif.asked()

    # --- records -----------------------------------------------------------------------
    def _context(self) -> dict:
        eng = self._eng
        operating = eng.round == "operating"
        return {"round": eng.round, "sr": eng.srs, "or": eng.ors + 1 if operating else eng.ors,
                "phase": eng.t.phases[eng.phase].name, "epoch": eng.epoch, "actor": self.actor_label()}

    def state(self) -> dict:
        """The state record of the game log (see issue 3)."""
        eng = self._eng
        return {"bank": eng.bank, "players": [self.player_state(p) for p in range(eng.n)],
                "companies": self.company_states(), "phase": eng.t.phases[eng.phase].name,
                "epoch": eng.epoch, "start_player": eng.start_player}

    def player_state(self, seat: int, fields: Sequence[str] | None = None) -> dict:
        """`state()["players"][seat]`, without building the rest of the state; `fields`:
        only these keys (all by default)."""
        return {PLAYER_FIELDS[k]: _player_field(self, seat, k) for k in _fields(PLAYER_FIELDS, fields, _PLAYER_ASKED)}

    def company_states(self, fields: Sequence[str] | None = None) -> dict:
        """`state()["companies"]`: the records of the companies started and not closed;
        `fields`: only these keys of each (all by default), for a player that reads a
        few of them at every decision."""
        eng = self._eng
        asked = _fields(COMPANY_FIELDS, fields, _COMPANY_ASKED)
        return {company: _company_record(self, c, asked)
                for c, company in enumerate(eng.t.company_ids) if eng.started[c] and not eng.closed[c]}

    def company_state(self, company: str, fields: Sequence[str] | None = None) -> dict:
        """`company_states(fields)[company]` alone (KeyError if it is not among them)."""
        eng = self._eng
        c = eng.t.company_index[company]
        if not eng.started[c] or eng.closed[c]:
            raise KeyError(f"{company} is not started, or closed")
        return _company_record(self, c, _fields(COMPANY_FIELDS, fields, _COMPANY_ASKED))

    def _stations(self, c: int) -> list[str]:
        return [node for node, _ in self._eng.board.stations(self._eng.t.company_ids[c])]

    def _shares(self, seat: int) -> dict[str, int]:
        eng = self._eng
        percents = ((company, eng.percent(c, seat)) for c, company in enumerate(eng.t.company_ids))
        return {company: percent for company, percent in percents if percent}

    def _legacies(self, owner: list[int], who: int) -> list[str]:
        """Legacies in play, not closed, whose `owner` entry (leg_player or leg_company) is `who`."""
        eng = self._eng
        return [eng.t.legacy_ids[l] for l in eng.leg_in_play if owner[l] == who and not eng.leg_closed[l]]

    def header(self) -> dict:
        eng = self._eng
        t = eng.t
        return {"type": "header", "seed": self.seed, "players": eng.n,
                "minors": [t.company_ids[m] for m in eng.minors_in_play],
                "legacies": [t.legacy_ids[l] for l in eng.leg_in_play],
                "events": list(eng.events), "seats": list(self.seats),
                "ruleset": self.ruleset.name, "ruleset_sha256": self.ruleset.sha256}

    def summary(self) -> dict:
        """The outcome record the runner turns into table rows (docs/design/core-interfaces.md)."""
        eng = self._eng
        t = eng.t
        res = self.result()
        seats = []
        for p in range(eng.n):
            bought = [l for l in eng.leg_in_play if eng.leg_buyer[l] == p]
            seats.append({"wealth": res["wealth"][p], "cash": eng.p_cash[p], "cert_value": eng.cert_value(p),
                          "rank": res["rank"][p], "win_share": res["win_share"][p],
                          "legacies": [t.legacy_ids[l] for l in bought],
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
        header = self.header()
        return {"seed": self.seed, "players": eng.n, "minors": header["minors"],
                "legacies": header["legacies"], "events": header["events"], "srs": eng.srs,
                "ors": eng.ors, "phase": t.phases[eng.phase].name, "epoch": eng.epoch,
                "end_reason": eng.final_reason, "bank": eng.bank, "winners": res["winners"],
                "actions": eng.actions, "fingerprint": self.fingerprint(), "seats": seats, "companies": companies,
                "auctions": auctions}


# The records' fields, in their order: `_player_field` and `_company_field` read them
# by their index here (a C switch compiled, not a string comparison per field).
PLAYER_FIELDS = ("cash", "shares", "certs", "legacies")
COMPANY_FIELDS = ("cash", "price", "cell", "treasury", "pool", "par", "director", "floated", "vehicles",
                  "stations", "market_markers", "goods_markers", "legacies")
VEHICLES = COMPANY_FIELDS.index("vehicles")


def _player_field(g: Game, p: int, field: int):
    """Field PLAYER_FIELDS[field] of seat p's record: a compiled branch per field, not a
    call per field (a player reads records at every decision)."""
    eng = g._eng
    if field == 0:  # cash
        return eng.p_cash[p]
    if field == 1:  # shares
        return g._shares(p)
    if field == 2:  # certs
        return eng.cert_count(p)
    return g._legacies(eng.leg_player, p)


def _company_record(g: Game, c: int, asked: tuple) -> dict:
    """Company c's record of the fields `asked` (their indices in COMPANY_FIELDS)."""
    names = COMPANY_FIELDS
    return {names[k]: _company_field(g, c, k) for k in asked}


def _company_field(g: Game, c: int, field: int):
    """Field COMPANY_FIELDS[field] of company c's record (see `_player_field`)."""
    eng = g._eng
    if field == 0:  # cash
        return eng.co_cash[c]
    if field == 1:  # price
        return eng.price(c)
    if field == 2:  # cell
        return [eng.co_row[c], eng.co_col[c]]
    if field == 3:  # treasury
        return eng.percent(c, TREASURY)
    if field == 4:  # pool
        return eng.percent(c, POOL)
    if field == 5:  # par
        return eng.co_par[c]
    if field == 6:  # director
        return g._director(c)
    if field == 7:  # floated
        return bool(eng.operated[c])
    if field == 8:  # vehicles
        ids = eng.t.vehicle_ids
        return [ids[v] for v in eng.co_vehicles[c]]
    if field == 9:  # stations
        return g._stations(c)
    if field == 10:  # market_markers
        return {eng.t.offboards[o]: k for o, k in enumerate(eng.mmarkers[c]) if k}
    if field == 11:  # goods_markers
        return {eng.t.offboards[o]: k for o, k in enumerate(eng.goods[c]) if k}
    return g._legacies(eng.leg_company, c)


def _move_text(move: tuple) -> str:
    """repr(move), remembered across games: their moves repeat (the same purchases, bids,
    passes), and a fingerprint writes every move of a game. A move holds ints and strs
    only (no bool, whose repr differs from its equal int's)."""
    text = _MOVE_TEXTS.get(move)
    if text is None:
        if len(_MOVE_TEXTS) >= _MOVE_TEXTS_MAX:
            _MOVE_TEXTS.clear()
        text = _MOVE_TEXTS[move] = repr(move)
    return text


_MOVE_TEXTS: dict[tuple, str] = {}  # move -> repr(move)
_MOVE_TEXTS_MAX = 1 << 16


def _lays(actions) -> list[tuple]:
    """The (hex, tile, rotation, cost) of each `lay_tile` action dict of `actions`, as its
    WhatIf takes them (a ValueError names the first that is not a tile lay)."""
    return [(lay["hex"], lay["tile"], lay["rotation"], lay["cost"]) for lay in _only(actions, "lay_tile")]


def _args(actions, kind: str, key: str) -> list:
    """`key` of each action dict of `actions`, each checked to be of type `kind`."""
    return [action[key] for action in _only(actions, kind)]


def _only(actions, kind: str):
    """`actions`, each checked to be of type `kind` (a ValueError names the first that is not)."""
    for action in actions:
        if action["type"] != kind:
            raise ValueError(f"not {_WHAT[kind]}: {action!r}")
    return actions


_WHAT = {"lay_tile": "a tile lay", "place_station": "a station placement", "place_market_marker": "a market marker"}


def _fields(known: tuple[str, ...], fields: Sequence[str] | None, asked: dict) -> tuple[int, ...]:
    """The indices in `known` of the fields asked (all by default), each checked to be
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


_PLAYER_ASKED: dict[tuple, tuple] = {}  # player fields asked -> their indices in PLAYER_FIELDS
_COMPANY_ASKED: dict[tuple, tuple] = {}  # company fields asked -> their indices in COMPANY_FIELDS
