"""What-if revenue questions about one game's state, for players: the route revenue a
company would earn running some vehicles, on the map as it is or as some lays, stations or
market markers would leave it (`route_plan`, `route_revenue`, `lay_revenues`, ...),
answered by the core's revenue wing (core/revenue/). Answers are remembered while what they depend on
stays: per state of the map and of `Engine.revenue_version` (checked at each question,
not dropped by hand), and across states and copies of the game by revenue key and fleet
(the wing's `RevenueMemo`). A tile lay is a tuple (hex, tile, rotation, cost) here, as the players
read it from the legal actions' ints; `Game` (the state API) forwards its revenue questions,
with lays as action dicts, to its `WhatIf`."""
from __future__ import annotations

from typing import Sequence

import cython

from menorca_sim.core import operating
from menorca_sim.core.revenue import lays as revenue_lays
from menorca_sim.core.revenue import placements, prospects, routes
from menorca_sim.core.revenue.context import RevenueContext, revenue_context
from menorca_sim.core.revenue.routes import Fleet

if not cython.compiled:  # compiled, whatif.pxd cimports them
    from menorca_sim.core.codes import AB_REVENUE_BONUS
    from menorca_sim.core.engine import Engine
    from menorca_sim.core.revenue.memo import RevenueMemo


@cython.cclass
class WhatIf:
    """The revenue questions about the state of `eng` (a game's engine, read, never
    changed); `shared`: the WhatIf of the game this one's is a copy of, whose memo and
    tables it shares (its keys hold all a revenue depends on), and the answers it holds
    for the state they were in (`_share`)."""

    def __init__(self, eng: Engine, shared: WhatIf | None = None) -> None:
        self._eng = eng
        if shared is None:
            vehicles = eng.rs.vehicles
            self._revenues = RevenueMemo()
            self._ship_ids = frozenset(v for v, spec in vehicles.items() if spec.kind == "ship")
            self._searched = {v: (v, spec.kind, spec.range) for v, spec in vehicles.items()}  # see _fleet
            self._fleets = {}  # fleet code -> its Fleet (see _fleet)
            self._vehicle_index = {v: i for i, v in enumerate(vehicles)}  # see _fleet_code
            self._code_bits = bits = 63 // len(vehicles)
            self._ship_mask = 0  # a code's bits of its ships (see _part_revenue)
            for v in self._ship_ids:
                self._ship_mask |= ((1 << bits) - 1) << (bits * self._vehicle_index[v])
            self._map_key: tuple = (None, None)  # (board version and phase, map_key()) last asked
        else:
            self._revenues, self._ship_ids, self._searched = shared._revenues, shared._ship_ids, shared._searched
            self._fleets = shared._fleets
            self._vehicle_index, self._code_bits = shared._vehicle_index, shared._code_bits
            self._ship_mask = shared._ship_mask
            self._map_key = shared._map_key
        # (Engine.revenue_version, {company index: its own part of revenue_key}) last asked
        self._own_keys: tuple = (None, {})
        self._board_version = -1  # the board's version and Engine.revenue_version of the revenues asked
        self._revenue_version = -1
        if shared is not None:  # a copy: see _share
            self._share(shared)
        self._sync()

    def _share(self, shared: WhatIf) -> None:
        """Take the answers `shared` (the WhatIf of the game this one's engine is a copy
        of) holds for its state: as long as neither game changes what they depend on (its
        versions, which only grow), they answer both, and each adds to them (a search asks
        the same questions in many copies of one state); the first to change starts its
        own (`_sync`), leaving the other's as they were."""
        self._own_keys = shared._own_keys
        self._board_version, self._revenue_version = shared._board_version, shared._revenue_version
        self._contexts, self._asked = shared._contexts, shared._asked
        self._key_numbers, self._keys, self._key_common = shared._key_numbers, shared._keys, shared._key_common

    def _sync(self) -> None:
        """Drop what was asked of an earlier state once the map or anything else route
        revenues depend on has changed (a stock round's turns change neither)."""
        eng = self._eng
        board_version = eng.board.version
        if board_version != self._board_version or eng.revenue_version != self._revenue_version:
            self._board_version, self._revenue_version = board_version, eng.revenue_version
            self._contexts: dict = {}  # company index -> its RevenueContext (see _context_of)
            self._asked: dict = {}  # (company, fleet) -> route revenue, as asked
            self._key_numbers: dict = {}  # company index -> the memo's number of its revenue key
            self._keys: dict = {}  # company index -> its revenue key (with its number above)
            self._key_common: tuple | None = None  # the part of every company's revenue key

    def asked(self) -> dict:
        """(company, fleet) -> the route revenues asked in this state."""
        self._sync()
        return self._asked

    def remember_plan(self, company: str, fleet: tuple, revenue: int) -> None:
        """The revenue of the route plan the engine has just searched for `company`
        running `fleet` in this state: it answers `route_revenue` for that fleet."""
        self._sync()
        self._asked[(company, fleet)] = revenue

    def route_plan(self, company: str, vehicles: list[str], changes=()):
        """The best route plan (the Board's `RoutePlan`) of `company` running `vehicles`
        (ids, owned or not), or None without vehicles, on the map as it is or as
        `changes` would leave it: lay tuples, or `lay_tile`, `place_station` or
        `place_market_marker` action dicts of this company, applied to copies (the game is
        not changed)."""
        self._sync()
        if not vehicles:
            return None
        eng = self._eng
        c = eng.t.company_index[company]
        # a plan reports the goods markers its ships reach: a context with them
        board, ctx = self._changed(c, changes, revenue_context(eng, c))
        searched = self._searched  # in the order given: the plan's routes come in it
        return routes.best_routes(board, company, eng.is_major(c), [searched[v] for v in vehicles], ctx)

    def _fleet(self, vehicles: Sequence[str]) -> Fleet:
        """`vehicles` as the route searches take them for a revenue (whatever their order)."""
        return self._coded_fleet(self._fleet_code(vehicles), vehicles)

    def _coded_fleet(self, code: int, vehicles: Sequence[str]) -> Fleet:
        """The `Fleet` of `vehicles`, whose `_fleet_code` is `code`: made once per code,
        each vehicle's kind read from the tables."""
        fleet = self._fleets.get(code) if code >= 0 else None
        if fleet is None:
            t = self._eng.t
            index = self._vehicle_index
            fleet = Fleet([self._searched[v] for v in vehicles], [t.vehicle_is_ship[index[v]] for v in vehicles])
            if code >= 0:
                self._fleets[code] = fleet
        return fleet

    def route_revenue(self, company: str, vehicles: list[str], changes=()) -> int:
        """The revenue of `route_plan` (0 without vehicles), searched without building
        the plan's routes. Without `changes` it is remembered by `revenue_key` and the
        fleet, for every player at the table and as long as that key stays."""
        self._sync()
        if not vehicles:
            return 0
        if changes:
            eng = self._eng
            c = eng.t.company_index[company]
            board, ctx = self._changed(c, changes)
            return routes.best_revenue(board, c, eng.is_major(c), self._fleet(vehicles), ctx)
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
        # remembered under the fleet's code (any order of its vehicles names the same
        # revenue), and, to be reused by other fleets, its ships' and its carts' apart:
        # they never share track, so the fleet earns the sum (the core searches them apart too)
        memo = self._revenues
        code = self._fleet_code(fleet)
        total = memo.get(number, code)
        if total < 0:
            total = (self._part_revenue(c, company, number, fleet, code, True)
                     + self._part_revenue(c, company, number, fleet, code, False))
            memo.put(number, code, total)
        return total

    def _part_revenue(self, c: int, company: str, number: int, fleet: tuple, code: int, ships: bool) -> int:
        """The revenue of the ships (`ships`) or else the carts of `fleet` (coded `code`)
        alone, from the memo or searched; 0 without any. The part's code is cut from the
        fleet's (its list of vehicles made only to search it), or, for a fleet too large
        for a code, made from the list (a part may not be too large)."""
        if code >= 0:
            part_code = code & self._ship_mask if ships else code & ~self._ship_mask
        else:
            part_code = self._fleet_code(self._part(fleet, ships))
        if part_code == 0:
            return 0
        memo = self._revenues
        revenue = memo.get(number, part_code)
        if revenue < 0:
            eng = self._eng
            part = self._coded_fleet(part_code, self._part(fleet, ships))
            revenue = routes.best_revenue(eng.board, c, eng.is_major(c), part, self._context_of(c))
            memo.put(number, part_code, revenue)
        return revenue

    def _part(self, fleet: tuple, ships: bool) -> list:
        """The ships (`ships`) or else the carts of `fleet`, in its order."""
        ship_ids = self._ship_ids
        return [v for v in fleet if (v in ship_ids) == ships]

    def _fleet_code(self, fleet) -> int:
        """The fleet as one int below 2 ** 63: per vehicle type (in the ruleset's order),
        its count in `_code_bits` bits (63 // the types), so equal codes name equal fleets
        whatever their order; -1 for a fleet too large for that (never remembered)."""
        bits = self._code_bits
        if len(fleet) >= 1 << bits:
            return -1
        index = self._vehicle_index
        one = 1
        code = 0
        for v in fleet:
            i = index[v]
            code += one << (bits * i)
        return code

    def _key_number(self, c: int, company: str) -> int:
        """The memo's number of company c's `revenue_key` now (the key kept in `_keys`)."""
        number = self._key_numbers.get(c)
        if number is None:
            key = self._keys[c] = self.revenue_key(company)
            number = self._key_numbers[c] = self._revenues.number((c, key))
        return number

    def lay_revenues(self, company: str, vehicles: list[str], lays: list[tuple], done=()) -> list[int]:
        """`route_revenue(company, vehicles, done + [lay])` for each lay of `lays`,
        answered in one call to the core (0 each without vehicles)."""
        self._sync()
        if not vehicles:
            return [0] * len(lays)
        eng = self._eng
        c = eng.t.company_index[company]
        board, ctx = self._changed(c, done)
        base, revenues = revenue_lays.revenues_with_lays(board, company, eng.is_major(c), self._fleet(vehicles), ctx, lays)
        if not done:  # the revenue before the lays, searched on the way: `route_revenue` remembers it
            self._remember(c, company, tuple(vehicles), base)
        return revenues

    def _remember(self, c: int, company: str, fleet: tuple, revenue: int) -> None:
        """`route_revenue(company, fleet)` on the map as it is, searched on the way."""
        self._asked[(company, fleet)] = revenue
        self._revenues.put(self._key_number(c, company), self._fleet_code(fleet), revenue)

    def station_revenues(self, company: str, vehicles: list[str], nodes: list[str]) -> list[int]:
        """`route_revenue(company, vehicles, [station])` for a station of its own on each
        node of `nodes`, answered in one call to the core (0 each without vehicles)."""
        self._sync()
        if not vehicles:
            return [0] * len(nodes)
        eng = self._eng
        c = eng.t.company_index[company]
        base, revenues = placements.station_revenues(eng.board, company, eng.is_major(c), self._fleet(vehicles),
                                                     self._context_of(c), list(nodes), operating.station_kind(eng, c))
        self._remember(c, company, tuple(vehicles), base)
        return revenues

    def marker_revenues(self, company: str, vehicles: list[str], offboards: list[str]) -> list[int]:
        """`route_revenue(company, vehicles, [marker])` for a market marker of its own on
        each offboard of `offboards`, answered in one call to the core (0 each without vehicles)."""
        self._sync()
        if not vehicles:
            return [0] * len(offboards)
        eng = self._eng
        c = eng.t.company_index[company]
        return placements.marker_revenues(eng.board, company, eng.is_major(c), self._fleet(vehicles),
                                          self._context_of(c), list(offboards))

    def fewest_lays(self, company: str, steps: int, enough: int) -> int:
        """A lower bound on the tile lays before `company`'s carts could run a route
        crossing at most `steps` hex sides, with a station at its home node besides those
        it has (its start places one), as soon as one at most `enough` is found: read
        from the map without a route search (`prospects.fewest_lays` says why it bounds)."""
        eng = self._eng
        c = eng.t.company_index[company]
        return prospects.fewest_lays(eng.board, c, eng.t.co_home_node[c], steps, enough)

    def next_lays(self, company: str, done=()) -> list[tuple]:
        """The lays `company` could make in a later turn of this phase after the lays
        `done` (applied to a copy), with the cash they leave."""
        self._sync()
        return self._next_lays(company, done)[2]

    def next_lay_revenues(self, company: str, vehicles: list[str], done=()) -> list[int]:
        """`route_revenue(company, vehicles, done + [lay])` for each lay of
        `next_lays(company, done)`, in its order, answered in one call to the core."""
        self._sync()
        eng = self._eng
        board, ctx, lays = self._next_lays(company, done)
        if not vehicles:
            return [0] * len(lays)
        return revenue_lays.revenues_with_lays(board, company, eng.is_major(eng.t.company_index[company]),
                                         self._fleet(vehicles), ctx, lays)[1]

    def next_lay_revenues_each(self, company: str, vehicles: list[str], firsts: list[tuple], done=(),
                               until_earning: bool = False) -> list[list[int]]:
        """`next_lay_revenues(company, vehicles, done + [lay])` for each lay of `firsts`,
        answered in one call to the core (a lookahead's whole level); with `until_earning`,
        only up to the first answer that holds a revenue."""
        self._sync()
        eng = self._eng
        c = eng.t.company_index[company]
        board, ctx = self._changed(c, done)
        colours, discount = operating.lay_terms(eng, c)
        return revenue_lays.next_lay_revenues(board, company, eng.is_major(c), self._fleet(vehicles), ctx,
                                              list(firsts), colours, _cash_after(eng, c, done), discount,
                                              until_earning)

    def _next_lays(self, company: str, done) -> tuple:
        """(board, revenue context) after the lays `done`, and the lays after them."""
        eng = self._eng
        c = eng.t.company_index[company]
        board, ctx = self._changed(c, done)
        return board, ctx, [lay[1:] for lay in operating.tile_lays_on(eng, c, board, _cash_after(eng, c, done))]

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
        self._sync()
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
            # its markers read one by one: a row's tuple() goes through a memoryview object when compiled
            own = parts[c] = (tuple(bonuses), tuple([eng.mmarkers[c][o] for o in range(t.n_offboards)]))
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
                ctx = revenue_context(self._eng, c, False)
                self._revenues.put_context(key, ctx)
            self._contexts[c] = ctx
        return ctx

    def _changed(self, c: int, changes, ctx=None) -> tuple:
        """(board, revenue context) of company c with `changes` (lay tuples or action
        dicts) applied to copies; the context is `ctx`, or by default `_context_of(c)`."""
        eng = self._eng
        board = eng.board
        if ctx is None:
            ctx = self._context_of(c)
        copied = own_ctx = False
        for change in changes:
            if type(change) is tuple:  # a lay
                if not copied:
                    board, copied = board.clone(), True
                board.lay_tile(change[0], change[1], change[2])
                continue
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


def _cash_after(eng, c: int, done) -> int:
    """Company c's cash after paying for the lays `done`."""
    cash = eng.co_cash[c]
    for lay in done:  # a loop: a generator would be a closure, which cpdef methods cannot hold
        cash -= lay[3]
    return cash
