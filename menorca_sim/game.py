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
from menorca_sim.core.routes import RevenueContext
from menorca_sim.core.transitions import Checker
from menorca_sim.core.maptables import map_tables
from menorca_sim.core.tables import tables_for
from menorca_sim.log import GameLog
from menorca_sim.rules import Ruleset, load_ruleset

if not cython.compiled:  # compiled, game.pxd cimports them
    from menorca_sim.core.codes import AB_REVENUE_BONUS, PAYOUT, POOL, TREASURY, WITHHOLD
    from menorca_sim.core.engine import Engine


class IllegalActionError(ValueError):
    """An action that is not among the legal ones."""


class InvariantError(AssertionError):
    """A rule invariant broke (only raised with check=True)."""


def seed_sequences(seed: int, players: int) -> list[np.random.SeedSequence]:
    """The game's independent random streams: [setup draws, seat 0, seat 1, ...]."""
    return np.random.SeedSequence(seed).spawn(players + 1)


@cython.cclass
class RevenueMemo:
    """Route revenues by (company index and its revenue key, fleet), and the revenue
    context of each such key but its map part. Keys are numbered (a small int hashes
    faster than the map's bytes), never twice with one number; all is dropped at
    `MEMO_MAX` revenues, so that a game's memo stays small. Compiled as an extension
    type: the Game asks it a few hundred times per game."""

    def __init__(self) -> None:
        self._numbers = {}
        self._next = 0
        self._revenues = {}
        self._contexts = {}

    def number(self, key: tuple) -> int:
        number = self._numbers.get(key)
        if number is None:
            number = self._numbers[key] = self._next
            self._next += 1
        return number

    def get(self, number: int, fleet: tuple) -> int | None:
        return self._revenues.get((number, fleet))

    def put(self, number: int, fleet: tuple, revenue: int) -> None:
        if len(self._revenues) >= MEMO_MAX:
            self._revenues.clear()
            self._numbers.clear()
            self._contexts.clear()
        self._revenues[(number, fleet)] = revenue

    def context(self, key: tuple) -> RevenueContext | None:
        return self._contexts.get(key)

    def put_context(self, key: tuple, ctx: RevenueContext) -> None:
        self._contexts[key] = ctx


MEMO_MAX = 20000  # revenues a RevenueMemo holds at most


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
        setup = np.random.default_rng(seed_sequences(seed, players)[0])
        self._eng = Engine(tables_for(rs), players, Board(map_tables(rs)), setup, minors, legacies)
        self.seats = list(seats) if seats is not None else ["?"] * players
        self._legal = None  # the legal actions' dicts in this state
        self._settled = True  # the engine's moves, if built, are its own for this state
        self._revenue_state = None  # (board version, Engine.revenue_version) of the revenues asked
        self._bank = None  # (phase, vehicles left) of the bank's vehicles on sale below
        self._for_sale: dict = {}  # company -> vehicles_for_sale(), as asked while `_bank` holds
        self._forget_state()
        self._map_key: tuple = (None, None)  # (board version and phase, map_key()) last asked
        # (Engine.revenue_version, {company index: its own part of revenue_key}) last asked
        self._own_keys: tuple = (None, {})
        self._revenues = RevenueMemo()
        self._ship_ids = frozenset(v for v, spec in rs.vehicles.items() if spec.kind == "ship")
        self._searched = {v: (v, spec.kind, spec.range) for v, spec in rs.vehicles.items()}  # see _fleet
        self._history: list = []  # the internal actions applied, in order (see fingerprint)
        self._log = GameLog(log, self) if log is not None else None

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
                fleet = tuple(_company_field(self, company, "vehicles"))
                self._asked[(eng.t.company_ids[company], fleet)] = eng.or_plan.revenue
        return self._actor_now

    def _forget_state(self) -> None:
        """Drop what was remembered of the state before an action (or of the original's,
        in a clone); what was asked about route revenues only once the map or anything
        else they depend on has changed (a stock round's turns change neither)."""
        self._actor_now: tuple[int, int] | None = None
        self._decision_now: str | None = None
        self._bank_checked = False  # `_bank` not yet compared with this state's bank
        eng = self._eng
        state = (eng.board.version, eng.revenue_version)
        if state != self._revenue_state:
            self._revenue_state = state
            self._contexts: dict = {}  # company index -> its RevenueContext (see _context_of)
            self._asked: dict = {}  # (company, fleet) -> route revenue, as asked
            self._key_numbers: dict = {}  # company index -> the memo's number of its revenue key
            self._keys: dict = {}  # company index -> its revenue key (with its number above)
            self._key_common: tuple | None = None  # the part of every company's revenue key

    def decision(self) -> str:
        if self._decision_now is None:
            self._actor()
        return self._decision_now

    def _legal_dicts(self) -> list[dict]:
        """The legal actions' dicts, described once per state from the engine's moves."""
        if self._legal is None:
            eng = self._eng
            if not self._settled:  # dropped without an action: the state may have been edited
                eng.forget_moves()
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

    def apply(self, action: dict) -> None:
        self._apply_move(self._index(self._legal_dicts(), action), action)

    def apply_code(self, i: int) -> None:
        """Apply legal action i (the i-th of `legal_codes()` and of `legal_actions()`)."""
        if not 0 <= i < self._eng.build_moves():
            raise IllegalActionError(f"no legal action {i} at decision {self.decision()!r} "
                                     f"(seed {self.seed}, action index {self._eng.actions})")
        self._apply_move(i, None)

    def _apply_move(self, i: int, action: dict | None) -> None:
        """Apply the engine's move i (its dict `action`, or None: described if needed)."""
        eng = self._eng
        move = eng.legal_action(i)
        logged = self._log is not None
        if action is None and (logged or self.check):
            action = describe(eng.t, move)
        context = self._context() if logged else None
        plan = eng.or_plan if logged and move[0] in (PAYOUT, WITHHOLD) else None
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
            self._log.action(self, eng.actions - 1, context, action, routes)
            if eng.round == "over":
                self._log.result(self)

    def _index(self, dicts: list[dict], action: dict) -> int:
        """Where `action` is among the legal dicts: players mostly hand back one of the
        very dicts `legal_actions` gave them, found by identity before any comparison."""
        for i, legal in enumerate(dicts):
            if legal is action:
                return i
        try:
            return dicts.index(action)
        except ValueError:
            raise IllegalActionError(
                f"illegal action {action!r} for {self.actor_label()} at decision {self.decision()!r} "
                f"(seed {self.seed}, action index {self._eng.actions})") from None

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
        text = repr((eng.n, list(eng.minors_in_play), list(eng.leg_in_play), list(eng.events), self._history))
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
        other._revenue_state = None  # its own revenues asked, from the start
        other._bank, other._for_sale = None, {}  # and its own vehicles on sale
        other._map_key = self._map_key
        other._own_keys = (None, {})  # and its own revenue keys (its versions go their own way)
        other._forget_state()
        # the revenue memo stays shared: its keys hold all a revenue depends on
        other._revenues, other._ship_ids, other._searched = self._revenues, self._ship_ids, self._searched
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
        order = eng.auc_order[eng.auc_pos:]
        reservations = {}
        for pos in range(eng.auc_pos, len(eng.auc_order)):
            bids = {seat: bid for seat, bid in enumerate(eng.reservations[pos]) if bid >= 0}
            if bids:
                reservations[ids[eng.auc_order[pos]]] = bids
        return {"lot": ids[order[0]], "price": eng.auc_price, "left": [ids[l] for l in order],
                "reservations": reservations}

    def marker_company(self) -> str | None:
        """The company whose market or goods marker is being placed (None if none is)."""
        if self.decision() not in ("place_market_marker", "place_goods_marker"):
            return None
        return self._eng.t.company_ids[self._eng.pm_company]

    def vehicles_for_sale(self, company: str) -> list[str]:
        """Ids of the vehicles the bank sells now that `company` may own (one per copy
        type, in the ruleset's order)."""
        eng = self._eng
        if not self._bank_checked:  # once per state
            self._bank_checked = True
            bank = (eng.phase, tuple(eng.vehicles_left))  # all the bank's offer depends on
            if bank != self._bank:
                self._bank, self._for_sale = bank, {}
        ids = self._for_sale.get(company)
        if ids is None:
            kinds = self.ruleset.companies[company].vehicle_kinds
            vehicle_ids, vehicles = eng.t.vehicle_ids, eng.t.vehicles
            ids = self._for_sale[company] = [vehicle_ids[v] for v in operating.bank_vehicles(eng)
                                             if vehicles[v].kind in kinds]
        return list(ids)

    def pending_revenue(self) -> int:
        """The revenue the operating company's routes earned this turn (at its dividend
        step; 0 before the routes have run)."""
        plan = self._eng.or_plan
        return plan.revenue if plan is not None else 0

    def route_plan(self, company: str, vehicles: list[str], changes=()):
        """The best route plan (the Board's `RoutePlan`) of `company` running `vehicles`
        (ids, owned or not), or None without vehicles, on the map as it is or as
        `changes` would leave it: `lay_tile`, `place_station` or `place_market_marker`
        action dicts of this company, applied to copies (the game is not changed)."""
        if not vehicles:
            return None
        eng = self._eng
        c = eng.t.company_index[company]
        # a plan reports the goods markers its ships reach: a context with them
        board, ctx = self._changed(c, changes, operating.revenue_context(eng, c))
        return board.best_routes(company, eng.is_major(c), self._fleet(vehicles), ctx)

    def _fleet(self, vehicles: Sequence[str]) -> list[tuple[str, str, int]]:
        """(id, kind, range) of each vehicle: what the route search takes."""
        searched = self._searched
        return [searched[v] for v in vehicles]

    def route_revenue(self, company: str, vehicles: list[str], changes=()) -> int:
        """The revenue of `route_plan` (0 without vehicles), searched without building
        the plan's routes. Without `changes` it is remembered by `revenue_key` and the
        fleet, for every player at the table and as long as that key stays."""
        if not vehicles:
            return 0
        if changes:
            eng = self._eng
            c = eng.t.company_index[company]
            board, ctx = self._changed(c, changes)
            return board.best_revenue(company, eng.is_major(c), self._fleet(vehicles), ctx)
        fleet = tuple(vehicles)
        total = self._asked.get((company, fleet))  # asked before in this state: the common case
        if total is None:
            total = self._asked[(company, fleet)] = self._remembered_revenue(company, fleet)
        return total

    def _remembered_revenue(self, company: str, fleet: tuple) -> int:
        """`route_revenue(company, fleet)` from the memo, searched where it is not there."""
        eng = self._eng
        c = eng.t.company_index[company]
        number = self._key_number(c, company)
        # remembered under the fleet as asked (any order of its vehicles names the same
        # revenue), and, to be reused by other fleets, its ships' and its carts' apart:
        # they never share track, so the fleet earns the sum (the core searches them apart too)
        memo = self._revenues
        total = memo.get(number, fleet)
        if total is None:
            ship_ids = self._ship_ids
            ships = [v for v in fleet if v in ship_ids]
            carts = [v for v in fleet if v not in ship_ids]
            total = 0
            for part in (tuple(sorted(ships)), tuple(sorted(carts))):
                if part:
                    revenue = memo.get(number, part)
                    if revenue is None:
                        revenue = eng.board.best_revenue(company, eng.is_major(c), self._fleet(part),
                                                         self._context_of(c))
                        memo.put(number, part, revenue)
                    total += revenue
            memo.put(number, fleet, total)
        return total

    def _key_number(self, c: int, company: str) -> int:
        """The memo's number of company c's `revenue_key` now (the key kept in `_keys`)."""
        number = self._key_numbers.get(c)
        if number is None:
            key = self._keys[c] = self.revenue_key(company)
            number = self._key_numbers[c] = self._revenues.number((c, key))
        return number

    def lay_revenues(self, company: str, vehicles: list[str], lays: list[dict], done=()) -> list[int]:
        """`route_revenue(company, vehicles, done + [lay])` for each `lay_tile` action of
        `lays`, answered in one call to the core (0 each without vehicles)."""
        if not vehicles:
            return [0] * len(lays)
        eng = self._eng
        c = eng.t.company_index[company]
        board, ctx = self._changed(c, done)
        base, revenues = board.lay_revenues(company, eng.is_major(c), self._fleet(vehicles), ctx,
                                            [(lay["hex"], lay["tile"], lay["rotation"])
                                             for lay in _only(lays, "lay_tile", "a tile lay")])
        if not done:  # the revenue before the lays, searched on the way: `route_revenue` remembers it
            self._remember(c, company, tuple(vehicles), base)
        return revenues

    def _remember(self, c: int, company: str, fleet: tuple, revenue: int) -> None:
        """`route_revenue(company, fleet)` on the map as it is, searched on the way."""
        self._asked[(company, fleet)] = revenue
        self._revenues.put(self._key_number(c, company), fleet, revenue)

    def station_revenues(self, company: str, vehicles: list[str], stations: list[dict]) -> list[int]:
        """`route_revenue(company, vehicles, [station])` for each `place_station` action of
        `stations`, answered in one call to the core (0 each without vehicles)."""
        if not vehicles:
            return [0] * len(stations)
        eng = self._eng
        c = eng.t.company_index[company]
        base, revenues = eng.board.station_revenues(company, eng.is_major(c), self._fleet(vehicles),
                                                    self._context_of(c),
                                                    [site["node"] for site in _only(stations, "place_station",
                                                                                    "a station placement")],
                                                    operating.station_kind(eng, c))
        self._remember(c, company, tuple(vehicles), base)
        return revenues

    def marker_revenues(self, company: str, vehicles: list[str], markers: list[dict]) -> list[int]:
        """`route_revenue(company, vehicles, [marker])` for each `place_market_marker`
        action of `markers`, answered in one call to the core (0 each without vehicles)."""
        if not vehicles:
            return [0] * len(markers)
        _only(markers, "place_market_marker", "a market marker")
        eng = self._eng
        c = eng.t.company_index[company]
        return eng.board.marker_revenues(company, eng.is_major(c), self._fleet(vehicles), self._context_of(c),
                                         [marker["offboard"] for marker in markers])

    def next_lays(self, company: str, done=()) -> list[dict]:
        """The `lay_tile` actions `company` could make in a later turn of this phase after
        the lays `done` (applied to a copy), with the cash they leave."""
        _, _, lays = self._next_lays(company, done)
        return [describe(self._eng.t, a) for a in lays]

    def next_lay_revenues(self, company: str, vehicles: list[str], done=()) -> list[int]:
        """`route_revenue(company, vehicles, done + [lay])` for each lay of
        `next_lays(company, done)`, in its order, answered in one call to the core."""
        eng = self._eng
        board, ctx, lays = self._next_lays(company, done)
        if not vehicles:
            return [0] * len(lays)
        return board.lay_revenues(company, eng.is_major(eng.t.company_index[company]), self._fleet(vehicles), ctx,
                                  [(hex, tile, rotation) for _, hex, tile, rotation, _ in lays])[1]

    def next_lay_revenues_each(self, company: str, vehicles: list[str], firsts: list[dict], done=(),
                               until_earning: bool = False) -> list[list[int]]:
        """`next_lay_revenues(company, vehicles, done + [lay])` for each `lay_tile` action of
        `firsts`, answered in one call to the core (a lookahead's whole level); with
        `until_earning`, only up to the first answer that holds a revenue."""
        eng = self._eng
        c = eng.t.company_index[company]
        board, ctx = self._changed(c, done)
        colours, discount = operating.lay_terms(eng, c)
        return board.next_lay_revenues(company, eng.is_major(c), self._fleet(vehicles), ctx,
                                       [(lay["hex"], lay["tile"], lay["rotation"], lay["cost"])
                                        for lay in _only(firsts, "lay_tile", "a tile lay")],
                                       colours, eng.co_cash[c] - sum(lay["cost"] for lay in done), discount,
                                       until_earning)

    def _next_lays(self, company: str, done) -> tuple:
        """(board, revenue context) after the lays `done`, and the lay tuples after them."""
        eng = self._eng
        c = eng.t.company_index[company]
        board, ctx = self._changed(c, done)
        cash = eng.co_cash[c] - sum(lay["cost"] for lay in done)
        return board, ctx, operating.tile_lays_on(eng, c, board, cash)

    def map_key(self) -> bytes:
        """The map (tiles, rotations, stations and their kinds) and the phase as bytes:
        equal keys, equal answers to questions about track and routes."""
        eng = self._eng
        b = eng.board
        version = (b.version, eng.phase)  # built again only when the map or phase changed
        if self._map_key[0] != version:
            self._map_key = (version, b.tile.tobytes() + b.rot.tobytes() + b.station_company.tobytes()
                             + b.station_kind.tobytes() + bytes([eng.phase]))
        return self._map_key[1]

    def revenue_key(self, company: str) -> tuple:
        """Everything `company`'s route revenue depends on besides its vehicles: the map
        and phase (`map_key`), the epoch, the events' node bonuses, the revenue bonuses of
        the open legacies it owns and its market markers (read from the state, without
        building its revenue context)."""
        eng = self._eng
        c = eng.t.company_index[company]
        if self._key_common is None:  # the same for every company in this state
            self._key_common = (self.map_key(), eng.epoch, tuple(sorted(eng.node_bonus.items())))
        # its own part changes only with the engine's revenue version: kept while that stays
        version, parts = self._own_keys
        if version != eng.revenue_version:
            parts = {}
            self._own_keys = (eng.revenue_version, parts)
        own = parts.get(c)
        if own is None:
            t = eng.t
            bonuses = [(t.ab_node[l], t.ab_amount[l]) for l in eng.owned_legacies(c, AB_REVENUE_BONUS)]
            bonuses.sort()
            own = parts[c] = (tuple(bonuses), tuple(eng.mmarkers[c]))
        return self._key_common + own

    def _context_of(self, c: int):
        """Company c's revenue context in the current state, for revenue questions (without
        the goods markers, which only a route plan reports): built once per revenue key but
        its map part (`map_key`: a context holds nothing of the map) and kept with the memo,
        for every state and clone with that key (read it, never change it)."""
        ctx = self._contexts.get(c)
        if ctx is None:
            self._key_number(c, self._eng.t.company_ids[c])
            key = (c,) + self._keys[c][1:]
            ctx = self._revenues.context(key)
            if ctx is None:
                ctx = operating.revenue_context(self._eng, c, False)
                self._revenues.put_context(key, ctx)
            self._contexts[c] = ctx
        return ctx

    def _changed(self, c: int, changes, ctx=None) -> tuple:
        """(board, revenue context) of company c with `changes` applied to copies; the
        context is `ctx`, or by default `_context_of(c)`."""
        eng = self._eng
        board = eng.board
        if ctx is None:
            ctx = self._context_of(c)
        copied = own_ctx = False
        for change in changes:
            kind = change["type"]
            if kind == "place_market_marker":
                if not own_ctx:  # a copy of its own (the constructor copies the dicts)
                    ctx, own_ctx = RevenueContext(ctx.epoch, ctx.node_bonus, ctx.market_markers,
                                                  ctx.market_bonus, ctx.goods_markers), True
                o = change["offboard"]
                ctx.market_markers[o] = ctx.market_markers.get(o, 0) + 1
                continue
            if kind not in ("lay_tile", "place_station"):
                raise ValueError(f"no route change for action {change!r}")
            if not copied:
                board, copied = board.clone(), True
            if kind == "lay_tile":
                board.lay_tile(change["hex"], change["tile"], change["rotation"])
            else:
                board.place_station(eng.t.company_ids[c], change["node"], operating.station_kind(eng, c))
        return board, ctx

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
        return {name: _player_field(self, seat, name) for name in _fields(PLAYER_FIELDS, fields)}

    def company_states(self, fields: Sequence[str] | None = None) -> dict:
        """`state()["companies"]`: the records of the companies started and not closed;
        `fields`: only these keys of each (all by default), for a player that reads a
        few of them at every decision."""
        eng = self._eng
        names = _fields(COMPANY_FIELDS, fields)
        return {company: {name: _company_field(self, c, name) for name in names}
                for c, company in enumerate(eng.t.company_ids) if eng.started[c] and not eng.closed[c]}

    def company_state(self, company: str, fields: Sequence[str] | None = None) -> dict:
        """`company_states(fields)[company]` alone (KeyError if it is not among them)."""
        eng = self._eng
        c = eng.t.company_index[company]
        if not eng.started[c] or eng.closed[c]:
            raise KeyError(f"{company} is not started, or closed")
        return {name: _company_field(self, c, name) for name in _fields(COMPANY_FIELDS, fields)}

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


def _only(actions: list[dict], kind: str, what: str) -> list[dict]:
    """`actions`, each checked to be of type `kind` (a ValueError names the first that is not)."""
    for action in actions:
        if action["type"] != kind:
            raise ValueError(f"not {what}: {action!r}")
    return actions


# The records' fields, in their order (`_player_field` and `_company_field` read them).
PLAYER_FIELDS = ("cash", "shares", "certs", "legacies")
COMPANY_FIELDS = ("cash", "price", "cell", "treasury", "pool", "par", "director", "floated", "vehicles",
                  "stations", "market_markers", "goods_markers", "legacies")


def _player_field(g: Game, p: int, field: str):
    """Field `field` (one of PLAYER_FIELDS) of seat p's record: a compiled branch per
    field, not a call per field (a player reads records at every decision)."""
    eng = g._eng
    if field == "cash":
        return eng.p_cash[p]
    if field == "certs":
        return eng.cert_count(p)
    if field == "shares":
        return g._shares(p)
    return g._legacies(eng.leg_player, p)


def _company_field(g: Game, c: int, field: str):
    """Field `field` (one of COMPANY_FIELDS) of company c's record (see `_player_field`);
    the fields the scripted players read come first."""
    eng = g._eng
    if field == "cash":
        return eng.co_cash[c]
    if field == "price":
        return eng.price(c)
    if field == "par":
        return eng.co_par[c]
    if field == "director":
        return g._director(c)
    if field == "vehicles":
        ids = eng.t.vehicle_ids
        return [ids[v] for v in eng.co_vehicles[c]]
    if field == "cell":
        return [eng.co_row[c], eng.co_col[c]]
    if field == "treasury":
        return eng.percent(c, TREASURY)
    if field == "pool":
        return eng.percent(c, POOL)
    if field == "floated":
        return bool(eng.operated[c])
    if field == "stations":
        return g._stations(c)
    if field == "market_markers":
        return {eng.t.offboards[o]: k for o, k in enumerate(eng.mmarkers[c]) if k}
    if field == "goods_markers":
        return {eng.t.offboards[o]: k for o, k in enumerate(eng.goods[c]) if k}
    return g._legacies(eng.leg_company, c)


def _fields(known: tuple[str, ...], fields: Sequence[str] | None) -> tuple[str, ...]:
    """The fields asked (all `known` by default), each checked to be one of `known`."""
    if fields is None:
        return known
    names = _CHECKED.get(fields) if type(fields) is tuple else None
    if names is None:
        names = tuple(fields)
        unknown = [f for f in names if f not in known]
        if unknown:
            raise ValueError(f"unknown record field(s) {', '.join(map(repr, unknown))}; known: {', '.join(known)}")
        _CHECKED[names] = names
    return names


_CHECKED: dict[tuple, tuple] = {}  # fields asked -> the same, once checked
